import { describe, expect, test } from "bun:test";
import { listAudit } from "../../src/modules/audit/service";
import { authenticate } from "../../src/modules/partners/service";
import { type TestPartner, testApp } from "../support/harness";
import { Browser, signedIn } from "./browser";

const t = await testApp();
const db = t.database.db;

const auditOf = async (partnerId: string, action: string) => (await listAudit(db, { partnerId, action }, { limit: 20 })).items;

/** The first match of `pattern` in a page, or a failure naming what was missing. */
function grab(text: string, pattern: RegExp): string {
  const match = pattern.exec(text);
  if (!match) throw new Error(`not on the page: ${pattern}`);
  return match[1]!;
}

const secretOf = (text: string, id: string) => grab(text, new RegExp(`id="${id}"[^>]*>\\s*([^<\\s]+)\\s*<`));

/** Invite a staff member through the owner's team page; they sign in and choose their own password. */
async function staffOf(owner: Browser, name = "Clerk"): Promise<{ browser: Browser; email: string; password: string }> {
  const email = `staff.${crypto.randomUUID().slice(0, 8)}@partner.ng`;
  await owner.get("/portal/team");
  const invited = await owner.post("/portal/team", { name, email });
  expect(invited.status).toBe(200);
  const oneTime = secretOf(invited.text, "one-time-password");
  const browser = new Browser(t);
  expect((await browser.signIn(email, oneTime)).location).toBe("/portal/password");
  await browser.get("/portal/password");
  const password = "a long staff password";
  expect((await browser.post("/portal/password", { currentPassword: oneTime, newPassword: password, confirmPassword: password })).status).toBe(303);
  await browser.get("/portal");
  return { browser, email, password };
}

/** POST / with an explicit key: what a partner's integration sends. */
const runWith = (p: TestPartner, keyId: string, key: string, cmmnd = "dump entt_*CSTMRS") =>
  t.post({ userInfo: { id: p.partnerId, athrzt: { id: keyId, key } }, cmmnd: { cmmnd } });

describe("API keys page", () => {
  test("the owner sees the three keys by label, id and creation time, never a key; staff see them without the buttons", async () => {
    const p = await t.partner();
    const owner = await signedIn(t, p.portal);
    const page = await owner.get("/portal/keys");
    expect(page.status).toBe(200);
    for (const label of ["test", "live", "legacy"] as const) {
      expect(page.text).toContain(p.keys[label].id);
      expect(page.text).not.toContain(p.keys[label].key);
    }
    expect(page.text).toContain('<th scope="row">Legacy</th>');
    expect(page.text).toContain("Follows the account: test now");
    expect(page.text).toMatch(/\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}/); // created, in WAT
    expect(page.text).toContain('action="/portal/keys/rotate"');
    expect(page.text).toContain('action="/portal/keys/mode"');

    const staff = await staffOf(owner);
    const seen = await staff.browser.get("/portal/keys");
    expect(seen.status).toBe(200);
    expect(seen.text).toContain(p.keys.live.id);
    expect(seen.text).not.toContain('action="/portal/keys/rotate"');
    expect(seen.text).not.toContain('action="/portal/keys/mode"');
    expect(seen.text).toContain("Only the account owner can rotate or revoke keys");
  });

  test("rotating shows the new key once; it works on POST / and the old one is refused; a reload never shows it again", async () => {
    const p = await t.partner();
    const owner = await signedIn(t, p.portal);
    await owner.get("/portal/keys");
    const rotated = await owner.post("/portal/keys/rotate", { label: "live" }, { "hx-request": "true" });
    expect(rotated.status).toBe(200);
    expect(rotated.text).not.toContain("<html"); // the section, for htmx
    expect(rotated.text).toContain('class="secret"');
    expect(rotated.text).toContain("shown only this once");
    const newKey = secretOf(rotated.text, "new-key");
    const newId = secretOf(rotated.text, "new-key-id");
    expect(newKey).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(newId).not.toBe(p.keys.live.id);

    expect((await runWith(p, newId, newKey)).exctnFdbck).toEqual({ id: 75, id_v4: 200 });
    const old = await runWith(p, p.keys.live.id, p.keys.live.key);
    expect(old.exctnFdbck).toMatchObject({ id: 55, id_v4: 401 });
    expect(old.exctnFdbck.elbrtn).toContain("revoked");
    // The other labels are untouched.
    expect((await runWith(p, p.keys.test.id, p.keys.test.key)).exctnFdbck.id).toBe(75);

    const reload = await owner.get("/portal/keys");
    expect(reload.text).toContain(newId);
    expect(reload.text).not.toContain(newKey);
    expect(reload.text).not.toContain('id="new-key"');
    expect(reload.text).not.toContain(p.keys.live.id);

    const [entry] = await auditOf(p.partnerId, "key.rotate");
    expect(entry).toMatchObject({ actor: p.portal.email, subject: newId, details: { label: "live" } });
  });

  test("revoking a key refuses it at once; the label then offers a new key; another partner's key cannot be revoked", async () => {
    const p = await t.partner();
    const other = await t.partner();
    const owner = await signedIn(t, p.portal);
    await owner.get("/portal/keys");
    const revoked = await owner.post("/portal/keys/revoke", { keyId: p.keys.test.id });
    expect(revoked.status).toBe(200);
    expect(revoked.text).toContain('role="status"');
    expect(revoked.text).toContain(`The test key ${p.keys.test.id} is revoked`);
    expect(revoked.text).toContain("No active key");
    expect(revoked.text).toContain("Issue a new key");
    const refused = await runWith(p, p.keys.test.id, p.keys.test.key);
    expect(refused.exctnFdbck).toMatchObject({ id: 55, id_v4: 401 });
    expect(await auditOf(p.partnerId, "key.revoke")).toHaveLength(1);

    const again = await owner.post("/portal/keys/revoke", { keyId: p.keys.test.id });
    expect(again.status).toBe(404);
    expect(again.text).toContain(`No active key ${p.keys.test.id}`);

    const foreign = await owner.post("/portal/keys/revoke", { keyId: other.keys.live.id });
    expect(foreign.status).toBe(404);
    expect((await runWith(other, other.keys.live.id, other.keys.live.key)).exctnFdbck.id).toBe(75);
    expect(foreign.text).not.toContain(other.keys.test.id);
    expect(await auditOf(other.partnerId, "key.revoke")).toHaveLength(0);

    // Issuing a new test key after a revocation is a rotation of an empty label.
    const issued = await owner.post("/portal/keys/rotate", { label: "test" });
    const key = secretOf(issued.text, "new-key");
    const id = secretOf(issued.text, "new-key-id");
    expect((await runWith(p, id, key)).exctnFdbck.id).toBe(75);
  });

  test("the mode toggle moves the legacy key and the portal; test and live keys stay pinned; set env_* shows on the page", async () => {
    const p = await t.partner();
    const owner = await signedIn(t, p.portal);
    const modeOf = async (label: "test" | "live" | "legacy") =>
      (await authenticate(db, { partnerId: p.partnerId, keyId: p.keys[label].id, key: p.keys[label].key })).mode;
    const before = await owner.get("/portal/keys");
    expect(before.text).toContain("TEST MODE");
    expect(before.text).toContain("Switch to live mode");

    // Post, redirect, get: the browser ends on the keys page, not on the post's result.
    const posted = await owner.post("/portal/keys/mode", { mode: "live" });
    expect(posted.status).toBe(303);
    expect(posted.location).toBe("/portal/keys?switched=live");
    const switched = await owner.get(posted.location!);
    expect(switched.status).toBe(200);
    expect(switched.text).toContain("The account is in live mode");
    expect(switched.text).toContain('class="mode mode-live"'); // the header shows the new mode at once
    expect(switched.text).toContain("Follows the account: live now");
    expect(await modeOf("legacy")).toBe("live");
    expect(await modeOf("test")).toBe("test");
    expect(await modeOf("live")).toBe("live");
    expect(await auditOf(p.partnerId, "account.mode")).toMatchObject([{ subject: "live", details: { from: "test", to: "live" } }]);
    // What the legacy key's own command reports follows, and every later page shows the new mode.
    expect(await p.run("set env_live", undefined, "legacy")).toMatchObject({ mode: "live", keyMode: "live" });
    expect((await owner.get("/portal/wallet")).text).toContain('class="mode mode-live"');

    // The JSON toggle shows on the page too.
    expect(await p.run("set env_test", undefined, "live")).toMatchObject({ mode: "test", keyMode: "live" });
    const after = await owner.get("/portal/keys");
    expect(after.text).toContain("Follows the account: test now");
    expect(after.text).toContain("Switch to live mode");
    expect(await modeOf("legacy")).toBe("test");

    const nonsense = await owner.post("/portal/keys/mode", { mode: "staging" });
    expect(nonsense.status).toBe(400);
    expect(nonsense.text).toContain("Mode must be &quot;test&quot; or &quot;live&quot;; received &quot;staging&quot;");
    expect(await modeOf("legacy")).toBe("test");
    // htmx is told to load the keys page; its words follow the mode it is in now.
    expect((await owner.post("/portal/keys/mode", { mode: "live" }, { "hx-request": "true" })).hxRedirect).toBe("/portal/keys?switched=live");
    expect((await owner.get("/portal/keys?switched=test")).text).not.toContain("The account is in test mode");
  });

  test("staff cannot rotate, revoke or switch the mode: 403 and nothing changes", async () => {
    const p = await t.partner();
    const owner = await signedIn(t, p.portal);
    const { browser: staff } = await staffOf(owner);
    await staff.get("/portal/keys");
    expect((await staff.post("/portal/keys/rotate", { label: "live" })).status).toBe(403);
    expect((await staff.post("/portal/keys/revoke", { keyId: p.keys.live.id })).status).toBe(403);
    expect((await staff.post("/portal/keys/mode", { mode: "live" })).status).toBe(403);
    expect((await runWith(p, p.keys.live.id, p.keys.live.key)).exctnFdbck.id).toBe(75);
    expect((await authenticate(db, { partnerId: p.partnerId, keyId: p.keys.legacy.id, key: p.keys.legacy.key })).mode).toBe("test");
    expect(await auditOf(p.partnerId, "key.rotate")).toHaveLength(0);
  });

  test("without the CSRF token nothing changes: 403", async () => {
    const p = await t.partner();
    const owner = await signedIn(t, p.portal);
    await owner.get("/portal/keys");
    for (const [path, fields] of [
      ["/portal/keys/rotate", { label: "live" }],
      ["/portal/keys/revoke", { keyId: p.keys.live.id }],
      ["/portal/keys/mode", { mode: "live" }],
    ] as const) {
      const refused = await owner.post(path, { ...fields, _csrf: "" });
      expect(refused.status).toBe(403);
      const forged = await owner.post(path, { ...fields, _csrf: "x".repeat(43) });
      expect(forged.status).toBe(403);
    }
    expect((await runWith(p, p.keys.live.id, p.keys.live.key)).exctnFdbck.id).toBe(75);
    expect((await authenticate(db, { partnerId: p.partnerId, keyId: p.keys.legacy.id, key: p.keys.legacy.key })).mode).toBe("test");
    expect((await listAudit(db, { partnerId: p.partnerId }, { limit: 10 })).items).toHaveLength(0);
  });
});

describe("team page", () => {
  test("the owner invites staff: the one-time password is shown once, never on reload, and lets them sign in", async () => {
    const p = await t.partner();
    const owner = await signedIn(t, p.portal);
    const page = await owner.get("/portal/team");
    expect(page.status).toBe(200);
    expect(page.text).toContain(p.portal.email);
    expect(page.text).toContain('<label for="f-email"');
    const email = `Ada.${crypto.randomUUID().slice(0, 6)}@Partner.ng`;
    const invited = await owner.post("/portal/team", { name: "Ada Obi", email }, { "hx-request": "true" });
    expect(invited.status).toBe(200);
    expect(invited.text).not.toContain("<html");
    const oneTime = secretOf(invited.text, "one-time-password");
    expect(invited.text).toContain("shown only this once");
    expect(invited.text).toContain(email.toLowerCase());
    expect(invited.text).toContain("Invited");

    const reload = await owner.get("/portal/team");
    expect(reload.text).toContain(email.toLowerCase());
    expect(reload.text).not.toContain(oneTime);
    expect(reload.text).not.toContain('id="one-time-password"');

    const staff = new Browser(t);
    expect((await staff.signIn(email, oneTime)).location).toBe("/portal/password");
    expect(await auditOf(p.partnerId, "user.invite")).toMatchObject([{ actor: p.portal.email, subject: email.toLowerCase() }]);
  });

  test("refusals are shown next to the field with the domain's words and keep what was typed", async () => {
    const p = await t.partner();
    const owner = await signedIn(t, p.portal);
    await owner.get("/portal/team");
    const bad = await owner.post("/portal/team", { name: 'Tolu "><b>Ade</b>', email: "tolu-at-partner" });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('id="f-email-error"');
    expect(bad.text).toContain("Email must be an e-mail address, e.g. ada@partner.ng");
    expect(bad.text).toContain('value="tolu-at-partner"');
    expect(bad.text).toContain('value="Tolu &#34;><b>Ade</b>"'); // kept, and cannot leave its attribute
    expect(bad.text).not.toContain('"><b>Ade');

    const noName = await owner.post("/portal/team", { name: "  ", email: "tolu@partner.ng" });
    expect(noName.status).toBe(400);
    expect(noName.text).toContain('id="f-name-error"');

    const taken = await owner.post("/portal/team", { name: "Owner again", email: p.portal.email.toUpperCase() });
    expect(taken.status).toBe(409);
    expect(taken.text).toContain('id="f-email-error"');
    expect(taken.text).toContain("already exists");
    expect((await owner.get("/portal/team")).text.match(/<tr>/g)).toHaveLength(2); // header + the owner
  });

  test("deactivating signs the staff member out and keeps them out; reactivating lets them back; both are audited", async () => {
    const p = await t.partner();
    const owner = await signedIn(t, p.portal);
    const { browser: staff, email, password } = await staffOf(owner, "Musa <script>alert(1)</script>");
    const list = await owner.get("/portal/team");
    expect(list.text).toContain("Musa &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(list.text).not.toContain("<script>alert(1)");
    const userId = grab(list.text, /action="\/portal\/team\/([0-9a-f-]{36})\/deactivate"/);

    const off = await owner.post(`/portal/team/${userId}/deactivate`, {});
    expect(off.status).toBe(200);
    expect(off.text).toContain(`${email} is deactivated`);
    expect(off.text).toContain("Deactivated");
    expect((await staff.get("/portal")).status).toBe(303);
    const again = new Browser(t);
    expect((await again.signIn(email, password)).status).toBe(403);

    const on = await owner.post(`/portal/team/${userId}/reactivate`, {});
    expect(on.status).toBe(200);
    expect(on.text).toContain(`${email} can sign in again`);
    expect((await again.signIn(email, password)).status).toBe(303);
    expect((await auditOf(p.partnerId, "user.deactivate")).map((e) => e.subject)).toEqual([email]);
    expect((await auditOf(p.partnerId, "user.reactivate")).map((e) => e.subject)).toEqual([email]);
  });

  test("staff cannot open the team page or invite: 403; the owner cannot be deactivated", async () => {
    const p = await t.partner();
    const owner = await signedIn(t, p.portal);
    const { browser: staff } = await staffOf(owner);
    expect((await staff.get("/portal/team")).status).toBe(403);
    expect((await staff.get("/portal")).text).not.toContain('href="/portal/team"');
    expect((await staff.post("/portal/team", { name: "Sneaky", email: "sneaky@partner.ng" })).status).toBe(403);
    const ownerPage = await owner.get("/portal/team");
    expect(ownerPage.text).not.toContain("Sneaky");
    const ownerId = (await listAudit(db, { partnerId: p.partnerId, action: "user.invite" }, { limit: 1 })).items[0]!.actorUserId!;
    const refused = await owner.post(`/portal/team/${ownerId}/deactivate`, {});
    expect(refused.status).toBe(404);
    expect(refused.text).toContain("No such staff member on this account");
  });

  test("a partner never sees or changes another partner's users", async () => {
    const a = await t.partner();
    const b = await t.partner();
    const ownerA = await signedIn(t, a.portal);
    const ownerB = await signedIn(t, b.portal);
    const { email: staffOfB } = await staffOf(ownerB);
    const pageB = await ownerB.get("/portal/team");
    const staffId = grab(pageB.text, /action="\/portal\/team\/([0-9a-f-]{36})\/deactivate"/);
    const pageA = await ownerA.get("/portal/team");
    expect(pageA.text).not.toContain(staffOfB);
    expect(pageA.text).not.toContain(b.portal.email);
    const refused = await ownerA.post(`/portal/team/${staffId}/deactivate`, {});
    expect(refused.status).toBe(404);
    expect((await ownerB.get("/portal/team")).text).not.toContain("Deactivated");
    expect(await auditOf(b.partnerId, "user.deactivate")).toHaveLength(0);
  });

  test("without the CSRF token nobody is invited or deactivated: 403", async () => {
    const p = await t.partner();
    const owner = await signedIn(t, p.portal);
    const { email } = await staffOf(owner);
    const page = await owner.get("/portal/team");
    const userId = grab(page.text, /action="\/portal\/team\/([0-9a-f-]{36})\/deactivate"/);
    expect((await owner.post("/portal/team", { name: "Nobody", email: "nobody@partner.ng", _csrf: "" })).status).toBe(403);
    expect((await owner.post(`/portal/team/${userId}/deactivate`, { _csrf: "" })).status).toBe(403);
    const after = await owner.get("/portal/team");
    expect(after.text).not.toContain("nobody@partner.ng");
    expect(after.text).toContain(email);
    expect(after.text).not.toContain("Deactivated");
  });
});
