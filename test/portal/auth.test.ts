import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { portalSessions } from "../../src/modules/accounts/schema";
import { inviteStaff, sessionViewer } from "../../src/modules/accounts/service";
import { portalUsers } from "../../src/modules/partners/schema";
import { waitWords } from "../../views/format";
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

  test("only failures count: successful sign-ins are never slowed down, and a success clears the run of failures", async () => {
    const throttled = await testApp({ LOGIN_FREE_ATTEMPTS: 3, LOGIN_DELAY_MS: 60_000 });
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
  }, 30_000);
});

describe("sign-in throttling: growing delays per e-mail and address, never a lock-out (issue 34)", () => {
  test("a wait in words, rounded up", () => {
    expect([1, 1_000, 40_000, 59_001, 60_000, 61_000, 900_000].map(waitWords)).toEqual([
      "1 second",
      "1 second",
      "40 seconds",
      "1 minute",
      "1 minute",
      "2 minutes",
      "15 minutes",
    ]);
  });

  test("after the free attempts each one waits, in words on the page and in Retry-After; the right password after the wait gets in", async () => {
    // Three seconds: long enough that a busy machine's password check cannot outlast it.
    const throttled = await testApp({ LOGIN_FREE_ATTEMPTS: 2, LOGIN_DELAY_MS: 3_000 });
    const p = await throttled.partner();
    const attempt = (email: string, password: string) => new Browser(throttled).signIn(email, password);
    for (const email of [p.portal.email, `nobody.${crypto.randomUUID().slice(0, 8)}@nowhere.ng`]) {
      expect((await attempt(email, "nope")).status).toBe(401);
      expect((await attempt(email, "nope")).status).toBe(401);
      // The same words whether or not the e-mail has an account, and no password is checked.
      const slowed = await attempt(email, email === p.portal.email ? p.portal.password : "nope");
      expect(slowed.status).toBe(429);
      expect(slowed.text).toMatch(/Too many failed sign-ins with this e-mail from your address\. Try again in [1-3] seconds?\./);
      expect(Number(slowed.headers.get("retry-after"))).toBeOneOf([1, 2, 3]);
      expect(slowed.text).toContain(`value="${email}"`);
    }
    await Bun.sleep(3_100);
    const owner = await attempt(p.portal.email, p.portal.password);
    expect(owner.status).toBe(303);
    // The success cleared the run: the free attempts are back.
    expect((await attempt(p.portal.email, "nope")).status).toBe(401);
  }, 30_000);

  test("the owner elsewhere is never slowed down: ten addresses guessing the owner's password, then the owner signs in at once", async () => {
    const throttled = await testApp({ LOGIN_FREE_ATTEMPTS: 3, LOGIN_DELAY_MS: 10 * 60_000, TRUSTED_PROXIES: "127.0.0.1, ::1" });
    throttled.app.listen({ port: 0, hostname: "127.0.0.1" });
    try {
      const url = `http://127.0.0.1:${throttled.app.server!.port}`;
      const p = await throttled.partner();
      /** The sign-in form, then its post, from `address` (the loopback peer is a trusted proxy, so X-Forwarded-For names the client). */
      const signInFrom = async (address: string, password: string) => {
        const form = await fetch(`${url}/login`, { headers: { "x-forwarded-for": address } });
        const cookie = form.headers
          .getSetCookie()
          .map((c) => c.split(";")[0])
          .join("; ");
        const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
        const answer = await fetch(`${url}/login`, {
          method: "POST",
          redirect: "manual",
          headers: { "x-forwarded-for": address, cookie, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ _csrf: csrf, email: p.portal.email, password }).toString(),
        });
        return { status: answer.status, text: await answer.text() };
      };
      const attackers = Array.from({ length: 10 }, (_, i) => `198.51.100.${i + 1}`);
      for (const address of attackers) {
        const statuses = [];
        for (let i = 0; i < 5; i++) statuses.push((await signInFrom(address, `guess ${i}`)).status);
        expect(statuses).toEqual([401, 401, 401, 429, 429]);
      }
      // Each attacking address must wait, even with the right password...
      const slowed = await signInFrom(attackers[0]!, p.portal.password);
      expect(slowed.status).toBe(429);
      expect(slowed.text).toContain("Try again in 10 minutes.");
      // ...while the owner, from their own address, gets in at once.
      expect((await signInFrom("203.0.113.7", p.portal.password)).status).toBe(303);
    } finally {
      throttled.app.stop();
    }
  }, 60_000);

  test("guesses spread over many e-mails are bounded per address (LOGIN_ADDRESS_MAX); the right password there waits too", async () => {
    const throttled = await testApp({ LOGIN_ADDRESS_MAX: 4, LOGIN_WINDOW_MS: 60_000 });
    const p = await throttled.partner();
    const attempt = (email: string, password: string) => new Browser(throttled).signIn(email, password);
    for (let i = 0; i < 4; i++) expect((await attempt(`person${i}.${crypto.randomUUID().slice(0, 6)}@example.ng`, "nope")).status).toBe(401);
    const bounded = await attempt(p.portal.email, p.portal.password);
    expect(bounded.status).toBe(429);
    expect(bounded.text).toMatch(/Too many failed sign-ins from your address\. Try again in (\d+ seconds|1 minute)\./);
  }, 30_000);
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
    const { oneTimePassword } = await inviteStaff(t.database.db, owner, { email, name: "Clerk" }, t.config, new Date());
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
