import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { portalSessions } from "../../src/modules/accounts/schema";
import { inviteStaff, sessionViewer } from "../../src/modules/accounts/service";
import { portalUsers } from "../../src/modules/partners/schema";
import { testApp } from "../support/harness";
import { Browser, signedIn } from "./browser";

const t = await testApp();

describe("signing in and out", () => {
  test("a page needs a session: the browser is sent to sign in, htmx is told where to go", async () => {
    const b = new Browser(t);
    const page = await b.get("/portal/consumers");
    expect(page.status).toBe(303);
    expect(page.location).toBe("/login?next=%2Fportal%2Fconsumers");
    const fragment = await b.get("/portal/consumers", { "hx-request": "true" });
    expect(fragment.status).toBe(401);
    expect(fragment.hxRedirect).toBe("/login?next=%2Fportal%2Fconsumers");
  });

  test("the right e-mail and password open a session in an httpOnly, SameSite=Lax cookie; the next page is honoured", async () => {
    const p = await t.partner();
    const b = new Browser(t);
    await b.get("/login?next=/portal/consumers");
    const answer = await b.post("/login", { email: p.portal.email.toUpperCase(), password: p.portal.password, next: "/portal/consumers" });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe("/portal/consumers");
    const setCookie = answer.headers.getSetCookie().find((c) => c.startsWith("session="))!;
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect((await b.get("/portal")).status).toBe(200);
  });

  test("a wrong password, or an unknown e-mail, is refused with the same words and no session", async () => {
    const p = await t.partner();
    for (const [email, password] of [
      [p.portal.email, "wrong password"],
      ["nobody@nowhere.ng", p.portal.password],
    ]) {
      const b = new Browser(t);
      await b.get("/login");
      const answer = await b.post("/login", { email: email!, password: password! });
      expect(answer.status).toBe(401);
      expect(answer.text).toContain("the e-mail or password is not right");
      expect(b.cookie("session")).toBeUndefined();
    }
  });

  test("an open redirect is not followed after signing in", async () => {
    const p = await t.partner();
    const b = new Browser(t);
    await b.get("/login");
    const answer = await b.post("/login", { email: p.portal.email, password: p.portal.password, next: "https://evil.example/portal" });
    expect(answer.location).toBe("/portal");
  });

  test("the sign-in form needs its own CSRF token", async () => {
    const p = await t.partner();
    const b = new Browser(t);
    await b.get("/login");
    const answer = await b.post("/login", { email: p.portal.email, password: p.portal.password, _csrf: "forged" });
    expect(answer.status).toBe(403);
    expect(b.cookie("session")).toBeUndefined();
  });

  // Found by the fuzzer (test/fuzz/portal.test.ts): both answered HTTP 500 before.
  test("a NUL in the e-mail, or a body that cannot be read, is a 400 and signs nobody in", async () => {
    const b = new Browser(t);
    await b.get("/login");
    const nul = await b.post("/login", { email: "ada\u0000@example.ng", password: "whatever" });
    expect(nul.status).toBe(400);
    expect(nul.text).toContain("contains a NUL character");
    const broken = await t.app.handle(
      new Request("http://localhost/login", { method: "POST", headers: { "content-type": "application/json" }, body: "{broken" }),
    );
    expect(broken.status).toBe(400);
    expect(broken.headers.getSetCookie().some((c) => c.startsWith("session="))).toBe(false);
  });

  test("every sign-in gets a new session: a cookie planted before signing in is never used", async () => {
    const p = await t.partner();
    const b = new Browser(t);
    b.setCookie("session", "planted");
    await b.signIn(p.portal.email, p.portal.password);
    const first = b.cookie("session");
    expect(first).not.toBe("planted");
    await b.signIn(p.portal.email, p.portal.password);
    expect(b.cookie("session")).not.toBe(first);
  });

  test("signing out needs the CSRF token and ends the session on the server", async () => {
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    const token = b.cookie("session")!;
    expect((await b.post("/logout", { _csrf: "forged" })).status).toBe(403);
    const out = await b.post("/logout", {});
    expect(out.status).toBe(303);
    expect(out.location).toBe("/login");
    // The old cookie is dead even if someone kept it.
    const replay = new Browser(t);
    replay.setCookie("session", token);
    expect((await replay.get("/portal")).status).toBe(303);
  });

  test("repeated failures are throttled per e-mail", async () => {
    const throttled = await testApp({ LOGIN_MAX_ATTEMPTS: 3 });
    const p = await throttled.partner();
    const b = new Browser(throttled);
    for (let i = 0; i < 3; i++) {
      await b.get("/login");
      expect((await b.post("/login", { email: p.portal.email, password: "nope" })).status).toBe(401);
    }
    await b.get("/login");
    const blocked = await b.post("/login", { email: p.portal.email, password: p.portal.password });
    expect(blocked.status).toBe(429);
    expect(blocked.text).toContain("Too many failed sign-ins");
  });

  test("only failures count: successful sign-ins never lock an account, and a success clears the e-mail's failures", async () => {
    const throttled = await testApp({ LOGIN_MAX_ATTEMPTS: 3 });
    const p = await throttled.partner();
    const signIn = async (password: string) => {
      const b = new Browser(throttled);
      await b.get("/login");
      return (await b.post("/login", { email: p.portal.email, password })).status;
    };
    for (let i = 0; i < 6; i++) expect(await signIn(p.portal.password)).toBe(303);
    for (let round = 0; round < 3; round++) {
      expect(await signIn("nope")).toBe(401);
      expect(await signIn("nope")).toBe(401);
      expect(await signIn(p.portal.password)).toBe(303);
    }
  });
});

describe("roles", () => {
  test("partner staff cannot open administrator pages, nor administrators partner pages", async () => {
    const p = await t.partner();
    const admin = await t.partner({ admin: true });
    const partnerBrowser = await signedIn(t, p.portal);
    expect((await partnerBrowser.get("/admin")).status).toBe(403);
    const adminBrowser = await signedIn(t, admin.portal);
    expect((await adminBrowser.get("/portal")).status).toBe(403);
  });

  test("invited staff sign in with a one-time password and must choose their own before anything else", async () => {
    const p = await t.partner();
    await signedIn(t, p.portal);
    const [session] = await t.database.db
      .select({ id: portalSessions.id })
      .from(portalSessions)
      .innerJoin(portalUsers, eq(portalUsers.id, portalSessions.userId))
      .where(eq(portalUsers.partnerId, p.partnerId));
    const owner = (await sessionViewer(t.database.db, session!.id, new Date()))!;
    const email = `clerk.${crypto.randomUUID().slice(0, 6)}@partner.ng`;
    const { oneTimePassword } = await inviteStaff(t.database.db, owner, { email, name: "Clerk" }, new Date());
    const staff = new Browser(t);
    expect((await staff.signIn(email, oneTimePassword)).location).toBe("/portal/password");
    expect((await staff.get("/portal")).location).toBe("/portal/password");
    expect((await staff.get("/portal/password")).text).toContain("one-time password");
    const short = await staff.post("/portal/password", { currentPassword: oneTimePassword, newPassword: "short", confirmPassword: "short" });
    expect(short.status).toBe(400);
    expect(short.text).toContain("at least 12 characters");
    const changed = await staff.post("/portal/password", {
      currentPassword: oneTimePassword,
      newPassword: "a much better password",
      confirmPassword: "a much better password",
    });
    expect(changed.status).toBe(303);
    expect((await staff.get("/portal")).status).toBe(200);
  });
});
