/**
 * CSRF and session fixation. Every state-changing portal route (every non-GET route of
 * `app.routes` but the JSON endpoint) is sent by a signed-in user of the right role with
 * everything right but the CSRF token — missing, forged, or another session's — and must answer
 * 403 with nothing changed. A route added without parameters here fails the test.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { sql } from "drizzle-orm";
import { Browser, signedIn } from "../portal/browser";
import { watDate } from "../support/policies";
import { expectUnchanged, snapshot, type World, world } from "./world";

let w: World;
let owner: Browser; // B's owner: B has one of everything to aim at
let admin: Browser;
let other: Browser; // A's owner: a valid session whose token must not work for B
let pendingPolicyId: string;
beforeAll(async () => {
  w = await world();
  owner = w.b.browser;
  admin = await signedIn(w.t, w.admin.portal);
  other = await signedIn(w.t, w.a.portal);
  const result = await w.t.database.db.execute(
    sql`select id from policies where reference = ${w.b.pending.reference} and partner_id = ${w.b.partner.partnerId}`,
  );
  pendingPolicyId = ((Array.isArray(result) ? result : (result as { rows: any[] }).rows)[0] as { id: string }).id;
}, 60_000);

/** Each state-changing route: the path with B's own ids, the form a real user would send, and who sends it. */
const routes: Record<string, () => { path: string; fields: Record<string, string>; as: "owner" | "admin" }> = {
  "POST /logout": () => ({ path: "/logout", fields: {}, as: "owner" }),
  "POST /portal/password": () => ({
    path: "/portal/password",
    fields: { currentPassword: w.b.partner.portal.password, newPassword: "csrf-changed-password-1", confirmPassword: "csrf-changed-password-1" },
    as: "owner",
  }),
  "POST /portal/consumers": () => ({
    path: "/portal/consumers",
    fields: { class: "h", "name.first": "Forged", "name.last": "Request", phoneNo: "+2348031234567" },
    as: "owner",
  }),
  "POST /portal/quote/form": () => ({ path: "/portal/quote/form", fields: { product: "vhcl-tprt-1111", consumer: w.b.consumer.id }, as: "owner" }),
  "POST /portal/quote/premium": () => ({ path: "/portal/quote/premium", fields: { product: "vhcl-tprt-1111", insrncDrtn: "1y" }, as: "owner" }),
  "POST /portal/quote/issue": () => ({
    path: "/portal/quote/issue",
    fields: {
      product: "vhcl-tprt-1111",
      consumer: w.b.consumer.id,
      id: crypto.randomUUID(),
      insrncDrtn: "1y",
      "addtnlFact.brand": "Toyota",
      "addtnlFact.model": "Corolla",
      "addtnlFact.year": "2018",
      "addtnlFact.chsssId": "2T1BURHE0JC074316",
      "addtnlFact.engineId": "2ZR1234567",
      "addtnlFact.rgstrtId": "ABC123DE",
    },
    as: "owner",
  }),
  "POST /portal/wallet/fundings/:id/pay": () => ({ path: `/portal/wallet/fundings/${crypto.randomUUID()}/pay`, fields: {}, as: "owner" }),
  "POST /admin/fundings/:id/confirm": () => ({
    path: `/admin/fundings/${crypto.randomUUID()}/confirm`,
    fields: { bankReference: "CSRF-FORGED-1", amount: "1000" },
    as: "admin",
  }),
  "POST /admin/fundings/:id/:decision": () => ({ path: `/admin/fundings/${crypto.randomUUID()}/credit-held`, fields: {}, as: "admin" }),
  "POST /admin/fundings/confirmations/:id/:decision": () => ({ path: `/admin/fundings/confirmations/${crypto.randomUUID()}/approve`, fields: {}, as: "admin" }),
  "POST /portal/wallet/topup": () => ({
    path: "/portal/wallet/topup",
    fields: { amount: "1000", reference: `csrf-${crypto.randomUUID().slice(0, 8)}` },
    as: "owner",
  }),
  "POST /portal/keys/rotate": () => ({ path: "/portal/keys/rotate", fields: { label: "live" }, as: "owner" }),
  "POST /portal/keys/revoke": () => ({ path: "/portal/keys/revoke", fields: { keyId: w.b.partner.keys.test.id }, as: "owner" }),
  "POST /portal/keys/mode": () => ({ path: "/portal/keys/mode", fields: { mode: "live" }, as: "owner" }),
  "POST /portal/team": () => ({
    path: "/portal/team",
    fields: { email: `csrf-${crypto.randomUUID().slice(0, 8)}@victim.example`, name: "Planted" },
    as: "owner",
  }),
  "POST /portal/team/:id/:change": () => ({ path: `/portal/team/${w.b.staff.id}/deactivate`, fields: {}, as: "owner" }),
  "POST /portal/team/:id/invitation": () => ({ path: `/portal/team/${w.b.staff.id}/invitation`, fields: {}, as: "owner" }),
  "POST /portal/account": () => ({ path: "/portal/account", fields: { financeEmail: "planted@attacker.example" }, as: "owner" }),
  "POST /portal/vehicle/check": () => ({ path: "/portal/vehicle/check", fields: { search_type: "registration", value: "ABC123DE" }, as: "owner" }),
  "POST /portal/vehicle/vin": () => ({ path: "/portal/vehicle/vin", fields: { vin: "1HGCM82633A004352" }, as: "owner" }),
  "POST /portal/webhooks": () => ({ path: "/portal/webhooks", fields: { url: "http://127.0.0.1:9/planted" }, as: "owner" }),
  "POST /portal/message-settings/:notice/sender/:channel": () => ({
    path: "/portal/message-settings/policy.issued/sender/sms",
    fields: { sender: "partner" },
    as: "owner",
  }),
  "POST /portal/message-settings/:notice/:form": () => ({
    path: "/portal/message-settings/policy.issued/sms",
    fields: { body: "Forged {{policyNo}}" },
    as: "owner",
  }),
  "POST /portal/message-settings/:notice/:form/preview": () => ({
    path: "/portal/message-settings/policy.issued/sms/preview",
    fields: { body: "x" },
    as: "owner",
  }),
  "POST /portal/message-settings/:notice/:form/reset": () => ({ path: "/portal/message-settings/policy.issued/sms/reset", fields: {}, as: "owner" }),
  "POST /portal/message-settings/:notice/:form/test": () => ({ path: "/portal/message-settings/policy.issued/email/test", fields: {}, as: "owner" }),
  "POST /portal/branding": () => ({ path: "/portal/branding", fields: { displayName: "Forged" }, as: "owner" }),
  "POST /portal/consumers/:id/preferences": () => ({ path: `/portal/consumers/${w.b.consumer.id}/preferences`, fields: { language: "pcm" }, as: "owner" }),
  "POST /portal/webhooks/:id": () => ({
    path: `/portal/webhooks/${w.b.endpoint.id}`,
    fields: { url: "http://127.0.0.1:9/redirected", enabled: "on" },
    as: "owner",
  }),
  "POST /portal/webhooks/:id/reveal": () => ({ path: `/portal/webhooks/${w.b.endpoint.id}/reveal`, fields: {}, as: "owner" }),
  "POST /portal/webhooks/:id/rotate": () => ({ path: `/portal/webhooks/${w.b.endpoint.id}/rotate`, fields: {}, as: "owner" }),
  "POST /portal/webhooks/:id/test": () => ({ path: `/portal/webhooks/${w.b.endpoint.id}/test`, fields: {}, as: "owner" }),
  "POST /portal/webhooks/:id/delete": () => ({ path: `/portal/webhooks/${w.b.endpoint.id}/delete`, fields: {}, as: "owner" }),
  "POST /portal/webhooks/deliveries/:id/replay": () => ({ path: `/portal/webhooks/deliveries/${w.b.deliveryId}/replay`, fields: {}, as: "owner" }),
  "POST /portal/claims": () => ({
    path: "/portal/claims",
    fields: { policy: w.b.policy.reference, incidentDate: watDate(0), description: "Forged claim", amount: "1000" },
    as: "owner",
  }),
  "POST /portal/complaints": () => ({
    path: "/portal/complaints",
    fields: { "complainant.name": "Forged", "complainant.phone": "08030000009", category: "other", description: "forged" },
    as: "owner",
  }),
  "POST /portal/complaints/:complaintNo/add": () => ({ path: `/portal/complaints/${w.b.complaintNo}/add`, fields: { note: "forged" }, as: "owner" }),
  "POST /portal/complaints/:complaintNo/withdraw": () => ({ path: `/portal/complaints/${w.b.complaintNo}/withdraw`, fields: {}, as: "owner" }),
  "POST /admin/complaints/:complaintNo/acknowledge": () => ({ path: `/admin/complaints/${w.b.complaintNo}/acknowledge`, fields: {}, as: "admin" }),
  "POST /admin/complaints/:complaintNo/start": () => ({ path: `/admin/complaints/${w.b.complaintNo}/start`, fields: {}, as: "admin" }),
  "POST /admin/complaints/:complaintNo/resolve": () => ({
    path: `/admin/complaints/${w.b.complaintNo}/resolve`,
    fields: { outcome: "upheld", resolution: "forged" },
    as: "admin",
  }),
  "POST /admin/complaints/:complaintNo/note": () => ({ path: `/admin/complaints/${w.b.complaintNo}/note`, fields: { note: "forged" }, as: "admin" }),
  "POST /portal/claims/:claimNo/withdraw": () => ({ path: `/portal/claims/${w.b.claimNo}/withdraw`, fields: { note: "forged" }, as: "owner" }),
  "POST /portal/claims/:claimNo/respond": () => ({ path: `/portal/claims/${w.b.claimNo}/respond`, fields: { answer: "forged" }, as: "owner" }),
  "POST /portal/claims/:claimNo/payee": () => ({
    path: `/portal/claims/${w.b.claimNo}/payee`,
    fields: { bankCode: "058", accountNumber: "0123456789" },
    as: "owner",
  }),
  "POST /portal/claims/:claimNo/accept": () => ({ path: `/portal/claims/${w.b.claimNo}/accept`, fields: { version: "1" }, as: "owner" }),
  "POST /portal/financing": () => ({
    path: "/portal/financing",
    fields: { policy: w.b.policy.reference, downPayment: "0", installments: "2", frequency: "monthly", firstDueDate: watDate() },
    as: "owner",
  }),
  "POST /portal/financing/:planNo/installments": () => ({
    path: `/portal/financing/${w.b.planNo}/installments`,
    fields: { amount: "3000", reference: "forged-payment" },
    as: "owner",
  }),
  "POST /admin/policies/:id/review": () => ({
    path: `/admin/policies/${pendingPolicyId}/review`,
    fields: { decision: "d", statusNote: "forged decline" },
    as: "admin",
  }),
  "POST /admin/policies/:id/cancel": () => ({
    path: `/admin/policies/${pendingPolicyId}/cancel`,
    fields: { reason: "misrepresentation", note: "forged cancellation" },
    as: "admin",
  }),
  "POST /portal/policies/:reference/cancel": () => ({
    path: `/portal/policies/${w.b.policy.reference}/cancel`,
    fields: { reason: "insured_request" },
    as: "owner",
  }),
  "POST /admin/policies/:id/reinstate": () => ({ path: `/admin/policies/${pendingPolicyId}/reinstate`, fields: {}, as: "admin" }),
  "POST /portal/policies/:reference/reinstate": () => ({ path: `/portal/policies/${w.b.policy.reference}/reinstate`, fields: {}, as: "owner" }),
  "POST /admin/policies/:id/change": () => ({ path: `/admin/policies/${pendingPolicyId}/change`, fields: { step: "confirm" }, as: "admin" }),
  "POST /admin/policies/:id/change/approve": () => ({ path: `/admin/policies/${pendingPolicyId}/change/approve`, fields: {}, as: "admin" }),
  "POST /admin/policies/:id/change/decline": () => ({ path: `/admin/policies/${pendingPolicyId}/change/decline`, fields: { note: "x" }, as: "admin" }),
  "POST /portal/policies/:reference/change": () => ({ path: `/portal/policies/${w.b.policy.reference}/change`, fields: { step: "confirm" }, as: "owner" }),
  "POST /admin/policies/:id/renew": () => ({ path: `/admin/policies/${pendingPolicyId}/renew`, fields: {}, as: "admin" }),
  "POST /portal/policies/:reference/renew": () => ({ path: `/portal/policies/${w.b.policy.reference}/renew`, fields: {}, as: "owner" }),
  "POST /admin/claims/:claimNo/review": () => ({
    path: `/admin/claims/${w.b.claimNo}/review`,
    fields: { status: "rejected", rejectionReason: "not_covered", note: "forged" },
    as: "admin",
  }),
  "POST /admin/claims/:claimNo/assess": () => ({ path: `/admin/claims/${w.b.claimNo}/assess`, fields: { reserve: "1", reserveReason: "forged" }, as: "admin" }),
  "POST /admin/claims/:claimNo/recommendation": () => ({ path: `/admin/claims/${w.b.claimNo}/recommendation`, fields: { choice: "confirm" }, as: "admin" }),
  "POST /admin/claims/:claimNo/payee/confirm": () => ({ path: `/admin/claims/${w.b.claimNo}/payee/confirm`, fields: {}, as: "admin" }),
  "POST /admin/claims/:claimNo/payout/resend": () => ({ path: `/admin/claims/${w.b.claimNo}/payout/resend`, fields: {}, as: "admin" }),
  "POST /admin/holidays": () => ({ path: "/admin/holidays", fields: { day: "2031-01-04", name: "Forged" }, as: "admin" }),
  "POST /admin/holidays/:day/remove": () => ({ path: "/admin/holidays/2026-12-25/remove", fields: {}, as: "admin" }),
  "POST /admin/commissions/:code": () => ({ path: "/admin/commissions/mrnn-cmpr-1111", fields: { rate: "99" }, as: "admin" }),
  "POST /admin/commissions/:code/partners": () => ({
    path: "/admin/commissions/mrnn-cmpr-1111/partners",
    fields: { partner: w.b.partner.partnerId, partnerRate: "99" },
    as: "admin",
  }),
  "POST /admin/commissions/:code/partners/:partnerId/remove": () => ({
    path: `/admin/commissions/mrnn-cmpr-1111/partners/${w.b.partner.partnerId}/remove`,
    fields: {},
    as: "admin",
  }),
  "POST /admin/financing/lapse": () => ({ path: "/admin/financing/lapse", fields: { asOf: watDate(400) }, as: "admin" }),
  "POST /admin/partners": () => ({ path: "/admin/partners", fields: { name: "Forged Partner" }, as: "admin" }),
  "POST /admin/partners/:id": () => ({ path: `/admin/partners/${w.b.partner.partnerId}`, fields: { change: "suspend" }, as: "admin" }),
  "POST /admin/administrators": () => ({
    path: "/admin/administrators",
    fields: { email: `csrf-${crypto.randomUUID().slice(0, 8)}@operator.example`, name: "Planted" },
    as: "admin",
  }),
  "POST /admin/administrators/:id/:change": () => ({ path: `/admin/administrators/${crypto.randomUUID()}/deactivate`, fields: {}, as: "admin" }),
  "POST /admin/administrators/:id/invitation": () => ({ path: `/admin/administrators/${crypto.randomUUID()}/invitation`, fields: {}, as: "admin" }),
  "POST /admin/administrators/:id/authority": () => ({
    path: `/admin/administrators/${crypto.randomUUID()}/authority`,
    fields: { claimAuthority: "head" },
    as: "admin",
  }),
  // Unknown addresses (the not-found pages) check the token before answering too.
  "ALL /portal/*": () => ({ path: "/portal/nowhere", fields: {}, as: "owner" }),
  "ALL /admin/*": () => ({ path: "/admin/nowhere", fields: {}, as: "admin" }),
};

/** Routes whose protection is not the session's CSRF token: the JSON endpoint (keys, no cookies; other methods only answer 405), sign-in (its own double submit, tested below) and the payment provider's callback (its HMAC signature: test/security/funding-callbacks.test.ts). */
// The sign-in and reset forms carry a token of their own (a cookie's), checked by their tests (test/portal/auth.test.ts, password-reset.test.ts).
const NOT_SESSION_ROUTES = new Set([
  "POST /",
  "ALL /",
  "POST /login",
  "POST /reset",
  "POST /reset/:token",
  "POST /funding/callbacks/:provider",
  "POST /payouts/callbacks/:provider",
  "POST /messages/callbacks/:provider",
]);

async function counts() {
  const result = await w.t.database.db.execute(sql`select (select count(*) from partners)::int as partners, (select count(*) from audit_log)::int as audit`);
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows)[0];
}

/** Send `fields` as a form with `browser`'s cookies, and only the token given (none when undefined). */
async function send(
  browser: Browser,
  path: string,
  fields: Record<string, string>,
  token: { field?: string; header?: string },
  cookie = `session=${browser.cookie("session")}`,
) {
  const body = new URLSearchParams({ ...fields, ...(token.field === undefined ? {} : { _csrf: token.field }) }).toString();
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    cookie,
    ...(token.header === undefined ? {} : { "x-csrf-token": token.header }),
  };
  return w.t.app.handle(new Request(`http://localhost${path}`, { method: "POST", headers, body, redirect: "manual" }));
}

describe("every state-changing portal route refuses a request without its session's CSRF token", () => {
  test("the cases are exactly the app's state-changing routes", () => {
    const stateChanging = w.t.app.routes.filter((r) => r.method !== "GET" && r.method !== "HEAD").map((r) => `${r.method} ${r.path}`);
    expect(Object.keys(routes).sort()).toEqual(stateChanging.filter((k) => !NOT_SESSION_ROUTES.has(k)).sort());
  });

  test.each(Object.keys(routes).sort())(
    "%s",
    async (key) => {
      const { path, fields, as } = routes[key]!();
      const browser = as === "admin" ? admin : owner;
      // A page first, so the browser holds its real token (the forgeries below are not it).
      await browser.get(as === "admin" ? "/admin" : "/portal");
      const real = browser.csrf;
      expect(real.length).toBeGreaterThan(20);
      const forged = Buffer.from(crypto.getRandomValues(new Uint8Array(32)))
        .toString("base64url")
        .slice(0, real.length);
      await other.get("/portal");
      const attempts: [string, { field?: string; header?: string }][] = [
        ["no token", {}],
        ["an empty token", { field: "", header: "" }],
        ["a forged form token", { field: forged }],
        ["a forged header token", { header: forged }],
        ["another session's token", { field: other.csrf, header: other.csrf }],
        ["the real token with one character changed", { field: `${real.slice(0, -1)}${real.endsWith("A") ? "B" : "A"}` }],
      ];
      for (const [what, token] of attempts) {
        const before = await snapshot(w.t.database.db, w.b.partner.partnerId);
        const totals = await counts();
        const response = await send(browser, path, fields, token);
        expect({ key, what, status: response.status }).toEqual({ key, what, status: 403 });
        expect(response.headers.get("set-cookie") ?? "").not.toContain("session=");
        await expectUnchanged(w.t.database.db, w.b.partner.partnerId, before, `${key} with ${what}`);
        expect(await counts()).toEqual(totals);
      }
      // The session survived every forgery.
      expect((await browser.get(as === "admin" ? "/admin" : "/portal")).status).toBe(200);
    },
    60_000,
  );

  test("with the real token the same kind of request goes through (so the 403s above are the token's doing)", async () => {
    await owner.get("/portal/wallet");
    const before = await snapshot(w.t.database.db, w.b.partner.partnerId);
    const viaField = await send(owner, "/portal/wallet/topup", { amount: "5", reference: `real-${crypto.randomUUID().slice(0, 8)}` }, { field: owner.csrf });
    expect(viaField.status).toBe(200);
    const viaHeader = await send(owner, "/portal/wallet/topup", { amount: "5", reference: `real-${crypto.randomUUID().slice(0, 8)}` }, { header: owner.csrf });
    expect(viaHeader.status).toBe(200);
    const after = await snapshot(w.t.database.db, w.b.partner.partnerId);
    // B's portal is in test mode: two test top-ups (fundings of the test provider, never the live ledger).
    expect(after.wallet_fundings!.length).toBe((before.wallet_fundings?.length ?? 0) + 2);
  });
});

describe("the sign-in form's own CSRF protection (double submit: cookie and form)", () => {
  const signIn = (cookie: string, fields: Record<string, string>) =>
    w.t.app.handle(
      new Request("http://localhost/login", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        body: new URLSearchParams({ email: w.a.portal.email, password: w.a.portal.password, ...fields }).toString(),
        redirect: "manual",
      }),
    );

  test("missing, forged or mismatched tokens are refused with 403 and no session", async () => {
    const browser = new Browser(w.t);
    await browser.get("/login");
    const token = browser.cookie("signin_csrf")!;
    expect(token).toBeTruthy();
    for (const [cookie, fields] of [
      ["", {}],
      ["", { _csrf: token }],
      [`signin_csrf=${token}`, {}],
      [`signin_csrf=${token}`, { _csrf: "forged" }],
      [`signin_csrf=forged`, { _csrf: token }],
    ] as [string, Record<string, string>][]) {
      const response = await signIn(cookie, fields);
      expect({ cookie, fields, status: response.status }).toEqual({ cookie, fields, status: 403 });
      expect(response.headers.get("set-cookie") ?? "").not.toMatch(/(^|[ ,])session=[^;]/);
    }
    expect((await signIn(`signin_csrf=${token}`, { _csrf: token })).status).toBe(303);
  });
});

describe("session fixation", () => {
  const sidOf = (token: string | undefined) =>
    token ? (JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { sid: string }).sid : undefined;

  test("a made-up session cookie planted before sign-in is replaced, and never opens anything", async () => {
    const browser = new Browser(w.t);
    browser.setCookie("session", "planted-by-the-attacker");
    expect((await browser.get("/portal")).status).toBe(303);
    const answer = await browser.signIn(w.a.portal.email, w.a.portal.password);
    expect(answer.status).toBe(303);
    expect(browser.cookie("session")).not.toBe("planted-by-the-attacker");
    expect(sidOf(browser.cookie("session"))).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("the attacker's own valid session planted in the victim's browser is not what the victim signs in to", async () => {
    const attacker = await signedIn(w.t, w.a.portal);
    const planted = attacker.cookie("session")!;
    const victim = new Browser(w.t);
    victim.setCookie("session", planted);
    await victim.signIn(w.b.partner.portal.email, w.b.partner.portal.password);
    const mine = victim.cookie("session")!;
    expect(mine).not.toBe(planted);
    expect(sidOf(mine)).not.toBe(sidOf(planted));
    // The planted session still belongs to the attacker alone: it does not show the victim's account.
    const withPlanted = new Browser(w.t);
    withPlanted.setCookie("session", planted);
    const page = await withPlanted.get("/portal/keys");
    expect(page.status).toBe(200);
    expect(page.text).not.toContain(w.b.partner.keys.test.id);
    expect((await victim.get("/portal/keys")).text).toContain(w.b.partner.keys.test.id);
  });

  test("signing in again while signed in starts a new session", async () => {
    const browser = await signedIn(w.t, w.a.portal);
    const first = browser.cookie("session");
    await browser.signIn(w.a.portal.email, w.a.portal.password);
    expect(sidOf(browser.cookie("session"))).not.toBe(sidOf(first));
  });

  test("a session token signed with another key, naming a real session, is refused", async () => {
    const real = (await signedIn(w.t, w.a.portal)).cookie("session")!;
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const unsignedPart = `${part({ alg: "HS256", typ: "JWT" })}.${part({ sid: sidOf(real), exp: Math.floor(Date.now() / 1000) + 3600 })}`;
    const forged = `${unsignedPart}.${createHmac("sha256", "not-the-session-secret-but-long-enough-for-hs256").update(unsignedPart).digest("base64url")}`;
    const unsigned = `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${real.split(".")[1]}.`;
    for (const token of [forged, unsigned]) {
      const browser = new Browser(w.t);
      browser.setCookie("session", token);
      expect((await browser.get("/portal")).status).toBe(303);
    }
  });

  test("after signing out the old cookie opens nothing", async () => {
    const browser = await signedIn(w.t, w.a.portal);
    const cookie = browser.cookie("session")!;
    await browser.get("/portal");
    expect((await browser.post("/logout", {})).status).toBe(303);
    const replay = new Browser(w.t);
    replay.setCookie("session", cookie);
    expect((await replay.get("/portal")).status).toBe(303);
  });

  test("the session cookie is httpOnly, SameSite=Lax, path /, and Secure behind https", async () => {
    const browser = new Browser(w.t);
    await browser.get("/login", { "x-forwarded-proto": "https" });
    const response = await w.t.app.handle(
      new Request("http://localhost/login", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: `signin_csrf=${browser.cookie("signin_csrf")}`, "x-forwarded-proto": "https" },
        body: new URLSearchParams({ email: w.a.portal.email, password: w.a.portal.password, _csrf: browser.cookie("signin_csrf")! }).toString(),
      }),
    );
    const session = response.headers.getSetCookie().find((c) => c.startsWith("session="))!;
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(session).toMatch(/Path=\//i);
    expect(session).toMatch(/Secure/i);
  });
});
