import { describe, expect, test } from "bun:test";
import { and, desc, eq } from "drizzle-orm";
import { passwordLinks } from "../../src/modules/accounts/schema";
import { auditLog } from "../../src/modules/audit/schema";
import { messages } from "../../src/modules/messages";
import { portalUsers } from "../../src/modules/partners/schema";
import { type TestApp, testApp } from "../support/harness";
import { Browser, signedIn } from "./browser";

const t = await testApp();
const NEW_PASSWORD = "a brand new password";

/** The reset e-mails queued for an address, newest first. */
const resetMails = (app: TestApp, email: string) =>
  app.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.recipient, email.toLowerCase()), eq(messages.kind, "staff.password_reset")))
    .orderBy(desc(messages.createdAt));

/** The path of the link in an e-mail's text. */
const linkIn = (body: string) => new URL(/https?:\/\/\S+\/reset\/[\w-]+/.exec(body)![0]).pathname;

/** Ask for a reset link through the page, as a signed-out visitor. */
async function askForLink(app: TestApp, email: string, browser = new Browser(app)) {
  await browser.get("/reset");
  return browser.post("/reset", { email });
}

/** Ask, and read the link of the e-mail that was queued. */
async function mailedLink(email: string) {
  expect((await askForLink(t, email)).status).toBe(200);
  const [mail] = await resetMails(t, email);
  return linkIn(mail!.body);
}

/** Choose a password with a link, as a visitor who opened it. */
async function choose(path: string, password = NEW_PASSWORD, again = password) {
  const browser = new Browser(t);
  const form = await browser.get(path);
  if (form.status !== 200) return form;
  return browser.post(path, { password, confirmPassword: again });
}

/** The page without its one-use form token: what differs between any two answers. */
const withoutToken = (html: string) => html.replace(/name="_csrf" value="[^"]+"/g, "").replace(/value="[^"]*@[^"]*"/g, "");

describe("Forgot your password?", () => {
  test("the sign-in page links to it", async () => {
    const page = await new Browser(t).get("/login");
    expect(page.text).toContain('href="/reset"');
    expect(page.text).toContain("Forgot your password?");
  });

  test("the e-mail holds a link that works once: the new password signs in, every session ends, the audit log says so", async () => {
    const p = await t.partner();
    const open = await signedIn(t, p.portal);
    const answer = await askForLink(t, p.portal.email.toUpperCase());
    expect(answer.status).toBe(200);
    expect(answer.text).toContain("If an account exists for that address, we have sent it a link");
    const [mail] = await resetMails(t, p.portal.email);
    expect(mail).toMatchObject({
      channel: "email",
      kind: "staff.password_reset",
      status: "queued",
      partnerId: p.partnerId,
      subject: "Reset your partner portal password",
    });
    expect(mail!.dedupeKey).toStartWith("password-link:");
    expect(mail!.body).toContain(p.portal.email);
    const path = linkIn(mail!.body);
    // 32 random bytes, and only their digest is kept.
    expect(path.slice("/reset/".length)).toHaveLength(43);
    const [kept] = await t.database.db
      .select()
      .from(passwordLinks)
      .innerJoin(portalUsers, eq(portalUsers.id, passwordLinks.userId))
      .where(eq(portalUsers.partnerId, p.partnerId));
    expect(kept!.password_links.tokenHash).not.toContain(path.slice("/reset/".length));

    const browser = new Browser(t);
    const form = await browser.get(path);
    expect(form.status).toBe(200);
    expect(form.text).toContain("Choose a new password");
    const mismatch = await browser.post(path, { password: NEW_PASSWORD, confirmPassword: "something else entirely" });
    expect(mismatch.status).toBe(400);
    expect(mismatch.text).toContain("not the same");
    const short = await browser.post(path, { password: "short", confirmPassword: "short" });
    expect(short.status).toBe(400);
    expect(short.text).toContain("at least 12 characters");
    const done = await browser.post(path, { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(done.status).toBe(303);
    expect(done.location).toBe("/login?password=chosen");
    expect((await browser.get("/login?password=chosen")).text).toContain("Your password is saved");

    // The session opened before the reset is over; the old password no longer signs in, the new one does.
    expect((await open.get("/portal")).status).toBe(303);
    expect((await new Browser(t).signIn(p.portal.email, p.portal.password)).status).toBe(401);
    expect((await new Browser(t).signIn(p.portal.email, NEW_PASSWORD)).status).toBe(303);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.partnerId, p.partnerId), eq(auditLog.action, "user.password_reset")));
    expect(audit).toHaveLength(1);

    // Once.
    const again = await choose(path, "yet another password!");
    expect(again.status).toBe(410);
    expect(again.text).toContain("This link was used already");
    expect(again.text).toContain('href="/reset"');
  });

  test("an expired link, a tampered one and an unknown one open nothing, each said plainly", async () => {
    const p = await t.partner();
    const path = await mailedLink(p.portal.email);
    const tampered = await choose(`${path.slice(0, -2)}${path.endsWith("AA") ? "BB" : "AA"}`);
    expect(tampered.status).toBe(404);
    expect(tampered.text).toContain("This link does not work");
    expect((await choose("/reset/not-a-token-at-all")).status).toBe(404);
    const [user] = await t.database.db.select({ id: portalUsers.id }).from(portalUsers).where(eq(portalUsers.partnerId, p.partnerId));
    await t.database.db
      .update(passwordLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordLinks.userId, user!.id));
    const expired = await choose(path);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain("This link has expired");
    expect((await new Browser(t).signIn(p.portal.email, p.portal.password)).status).toBe(303);
  });

  test("a link is good for PASSWORD_RESET_TTL_MINUTES", async () => {
    const short = await testApp({ PASSWORD_RESET_TTL_MINUTES: 5 });
    const p = await short.partner();
    const before = Date.now();
    await askForLink(short, p.portal.email);
    const [user] = await short.database.db.select({ id: portalUsers.id }).from(portalUsers).where(eq(portalUsers.partnerId, p.partnerId));
    const [link] = await short.database.db.select().from(passwordLinks).where(eq(passwordLinks.userId, user!.id));
    expect(link!.expiresAt.getTime() - before).toBeGreaterThanOrEqual(5 * 60_000 - 1000);
    expect(link!.expiresAt.getTime() - before).toBeLessThanOrEqual(5 * 60_000 + 5000);
  });

  test("a newer link supersedes the older; a link sets only its own user's password", async () => {
    const a = await t.partner();
    const b = await t.partner();
    const first = await mailedLink(a.portal.email);
    const second = await mailedLink(a.portal.email);
    const superseded = await choose(first);
    expect(superseded.status).toBe(410);
    expect(superseded.text).toContain("A newer link was sent");
    const bLink = await mailedLink(b.portal.email);
    expect((await choose(bLink)).status).toBe(303);
    // B's link changed B's password only; A's newest link still works for A.
    expect((await new Browser(t).signIn(a.portal.email, a.portal.password)).status).toBe(303);
    expect((await new Browser(t).signIn(b.portal.email, NEW_PASSWORD)).status).toBe(303);
    expect((await choose(second)).status).toBe(303);
  });

  test("a deactivated user gets no link, and a link sent before does nothing", async () => {
    const p = await t.partner();
    const owner = await signedIn(t, p.portal);
    await owner.get("/portal/team");
    const email = `leaver.${crypto.randomUUID().slice(0, 6)}@partner.ng`;
    await owner.post("/portal/team", { email, name: "Leaver" });
    const path = await mailedLink(email);
    const [staff] = await t.database.db.select({ id: portalUsers.id }).from(portalUsers).where(eq(portalUsers.email, email));
    await owner.get("/portal/team");
    expect((await owner.post(`/portal/team/${staff!.id}/deactivate`, {})).status).toBe(200);
    const dead = await choose(path);
    expect(dead.status).toBe(404);
    expect(dead.text).toContain("This link does not work");
    const asked = await askForLink(t, email);
    expect(asked.status).toBe(200);
    expect(asked.text).toContain("If an account exists for that address");
    expect(await resetMails(t, email)).toHaveLength(1);
    // Reactivated, the old link stays dead.
    await owner.get("/portal/team");
    await owner.post(`/portal/team/${staff!.id}/reactivate`, {});
    expect((await choose(path)).status).toBe(410);
  });

  test("no enumeration: an unknown address gets the same answer, the same counting, and no e-mail", async () => {
    const p = await t.partner();
    const unknown = `nobody.${crypto.randomUUID().slice(0, 6)}@nowhere.ng`;
    const known = await askForLink(t, p.portal.email);
    const stranger = await askForLink(t, unknown);
    expect(stranger.status).toBe(known.status);
    expect(withoutToken(stranger.text)).toBe(withoutToken(known.text));
    expect(await resetMails(t, unknown)).toHaveLength(0);
    expect(await resetMails(t, p.portal.email)).toHaveLength(1);
  });

  test("throttled per e-mail and per client address, whether or not the e-mail has an account", async () => {
    const ask = async (app: TestApp, email: string) => askForLink(app, email);
    const perEmail = await testApp({ PASSWORD_RESET_EMAIL_MAX: 2 });
    const p = await perEmail.partner();
    const unknown = `nobody.${crypto.randomUUID().slice(0, 6)}@nowhere.ng`;
    for (const email of [p.portal.email, unknown]) {
      expect((await ask(perEmail, email)).status).toBe(200);
      expect((await ask(perEmail, email)).status).toBe(200);
      const third = await ask(perEmail, email);
      expect(third.status).toBe(429);
      expect(third.text).toContain("Too many links were asked for this e-mail");
      expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(await resetMails(perEmail, p.portal.email)).toHaveLength(2);
    // One address, many e-mails: three requests, then refused.
    const perAddress = await testApp({ PASSWORD_RESET_ADDRESS_MAX: 3 });
    for (let i = 0; i < 3; i++) expect((await ask(perAddress, `many.${i}.${crypto.randomUUID().slice(0, 4)}@nowhere.ng`)).status).toBe(200);
    const past = await ask(perAddress, p.portal.email);
    expect(past.status).toBe(429);
    expect(past.text).toContain("Too many links were asked from your address");
    expect(await resetMails(perAddress, p.portal.email)).toHaveLength(2);
  });

  test("a bad e-mail or an expired form is said beside the form, and sends nothing", async () => {
    const b = new Browser(t);
    await b.get("/reset");
    const bad = await b.post("/reset", { email: "not an address" });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("Give your e-mail address");
    const forged = await new Browser(t).post("/reset", { email: "someone@partner.ng", _csrf: "forged" });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain("This form has expired");
  });

  test("choosing the password needs the form's own token: a forged post changes nothing and the link stays open", async () => {
    const p = await t.partner();
    const path = await mailedLink(p.portal.email);
    const forged = await new Browser(t).post(path, { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, _csrf: "forged" });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain("This form has expired");
    expect((await new Browser(t).signIn(p.portal.email, p.portal.password)).status).toBe(303);
    expect((await choose(path)).status).toBe(303);
  });
});
