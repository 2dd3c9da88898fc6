/**
 * Tenant isolation in the portal: partner A's owner (and its staff for the operator's pages) opens
 * every route of the app (`app.routes`) aimed at partner B's records. A is refused — 404 for B's
 * records, 403 for the operator's pages — or served only its own, no page shows anything of B that
 * A did not put in the request itself, and nothing that belongs to B changes. A route added without
 * a case fails here.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { walletFundings } from "../../src/modules/funding/schema";
import { Browser, type PortalResponse, signedIn } from "../portal/browser";
import { watDate } from "../support/policies";
import { expectUnchanged, leaksIn, snapshot, type World, world } from "./world";

let w: World;
let owner: Browser;
let staff: Browser;
beforeAll(async () => {
  w = await world();
  owner = await signedIn(w.t, w.a.portal);
  // A's staff member, for the operator's pages.
  const email = `a-staff-${crypto.randomUUID().slice(0, 8)}@attacker.example`;
  const invited = await owner.post("/portal/team", { email, name: "A Staff" });
  const oneTime = /id="one-time-password"[^>]*>\s*([^<\s]+)\s*</.exec(invited.text)?.[1];
  if (!oneTime) throw new Error(`no one-time password on the team page: ${invited.text.slice(0, 500)}`);
  staff = new Browser(w.t);
  const first = await staff.signIn(email, oneTime);
  expect(first.status).toBe(303);
  await staff.get("/portal/password");
  const chosen = await staff.post("/portal/password", {
    currentPassword: oneTime,
    newPassword: "a-staff-password-123",
    confirmPassword: "a-staff-password-123",
  });
  expect([200, 303]).toContain(chosen.status);
}, 60_000);

/** A fresh partner's signed-in owner, for cases that would otherwise leave B's identifiers among A's own records. */
const stranger = async () => signedIn(w.t, (await w.t.partner()).portal);

const headerLines = (headers: Headers) => {
  const lines: string[] = [];
  headers.forEach((value, name) => {
    lines.push(`${name}: ${value}`);
  });
  return lines.join("\n");
};

/** Open a route and check the answer shows nothing of B's that the request did not carry. */
async function visit(
  browser: Browser,
  method: "GET" | "POST",
  path: string,
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<PortalResponse> {
  const response = method === "GET" ? await browser.get(path, headers) : await browser.post(path, fields, headers);
  const sent = `${path} ${decodeURIComponent(path)} ${JSON.stringify(fields)}`;
  const body = /^(application\/pdf|image\/)/.test(response.headers.get("content-type") ?? "") ? "" : response.text;
  expect({ path, leaks: leaksIn(`${body}\n${headerLines(response.headers)}`, w.markers, sent) }).toEqual({ path, leaks: [] });
  return response;
}

/** The answer's status is one of `statuses` (the page's start is shown when it is not). */
function expectStatus(response: PortalResponse, ...statuses: number[]) {
  if (!statuses.includes(response.status)) expect({ status: response.status, page: response.text.slice(0, 400) }).toEqual({ status: statuses[0]!, page: "" });
}

/** Every operator page refuses partner staff, owner or not, with 403 and before doing anything. */
const adminOnly =
  (method: "GET" | "POST", path: () => string, fields: () => Record<string, string> = () => ({})) =>
  async () => {
    for (const browser of [owner, staff]) {
      const response = await visit(browser, method, path(), fields());
      expectStatus(response, 403);
    }
  };

const cases: Record<string, () => Promise<void>> = {
  // ─── Public: nothing of any partner ──────────────────────────────────────────────────────────
  "GET /healthz": async () => expectStatus(await visit(owner, "GET", "/healthz"), 200),
  "GET /": async () => expectStatus(await visit(owner, "GET", "/"), 200),
  "GET /public/:file": async () => {
    expectStatus(await visit(owner, "GET", "/public/app.css"), 200);
    expectStatus(await visit(owner, "GET", "/public/..%2F..%2Fpackage.json"), 404);
  },
  "GET /metrics": async () => expectStatus(await visit(owner, "GET", "/metrics"), 200),
  // The command reference is built from the code alone: public, and the same for everyone.
  "GET /docs": async () => {
    const page = await owner.get("/docs");
    expectStatus(page, 200);
    expect(leaksIn(page.text, w.markers)).toEqual([]);
  },
  "GET /openapi.json": async () => {
    const page = await owner.get("/openapi.json");
    expectStatus(page, 200);
    expect(leaksIn(page.text, w.markers)).toEqual([]);
  },
  "POST /": async () => {
    // The command endpoint has its own matrix (tenant-commands.test.ts); a portal cookie is no credential there.
    const response = await w.t.app.handle(
      new Request("http://localhost/", {
        method: "POST",
        headers: { cookie: `session=${owner.cookie("session")}`, "content-type": "application/json" },
        body: JSON.stringify({ cmmnd: { cmmnd: "dump entt_*" } }),
      }),
    );
    expect((await response.json()).exctnFdbck).toMatchObject({ id: 55, id_v4: 400 });
  },
  // Unknown addresses: the same not-found page for everyone, naming nothing of another partner's.
  "ALL /portal/*": async () => {
    const page = await visit(owner, "GET", `/portal/policies/${w.b.policy.reference}/extra`);
    expectStatus(page, 404);
    expect(page.text).not.toContain(w.b.policy.reference);
  },
  "ALL /admin/*": async () => expectStatus(await visit(owner, "GET", "/admin/nowhere"), 404),
  "GET /favicon.ico": async () => expectStatus(await visit(owner, "GET", "/favicon.ico"), 200),
  // Any other method on the command endpoint only answers 405 (test/hostile-input.test.ts).
  "ALL /": async () => {
    const response = await w.t.app.handle(new Request("http://localhost/", { method: "PUT", headers: { cookie: `session=${owner.cookie("session")}` } }));
    expect(response.status).toBe(405);
    expect((await response.json()).exctnFdbck).toMatchObject({ id: 55, id_v4: 405 });
  },
  // ─── Bearer links: only the unguessable token opens a certificate ───────────────────────────
  "GET /certificates/:token": async () => {
    expectStatus(await visit(owner, "GET", `/certificates/${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64url")}`), 404);
    expectStatus(await visit(owner, "GET", `/certificates/${w.b.policy.certToken.slice(0, -1)}`), 404);
  },
  // The policyholder's own page: only a link we signed opens it, and only its own consumer's.
  "GET /my/:token": async () => {
    expectStatus(
      await visit(
        owner,
        "GET",
        `/my/v1.${Buffer.from(JSON.stringify({ p: w.b.partner.partnerId, c: w.b.consumer.id, e: 4_102_444_800 })).toString("base64url")}.forged`,
      ),
      404,
    );
    expectStatus(await visit(owner, "GET", "/my/anything"), 404);
  },
  "GET /verify/:policyNo": async () => {
    // The public verification page, by design: validity, product, cover and the insured's initials and surname (docs/security.md).
    const page = await owner.get(`/verify/${w.b.policy.policyNo}`);
    expectStatus(page, 200);
    expect(
      leaksIn(
        page.text,
        w.markers.filter((m) => m !== w.b.consumer.name),
        w.b.policy.policyNo,
      ),
    ).toEqual([]);
  },
  // ─── Signing in and out ─────────────────────────────────────────────────────────────────────
  "GET /login": async () => expectStatus(await visit(new Browser(w.t), "GET", "/login"), 200),
  "POST /login": async () => {
    const browser = new Browser(w.t);
    await browser.get("/login");
    expectStatus(await visit(browser, "POST", "/login", { email: w.b.partner.portal.email, password: "not-b-s-password" }), 401);
    expect(browser.cookie("session")).toBeUndefined();
  },
  "POST /logout": async () => {
    const a = await signedIn(w.t, w.a.portal);
    expectStatus(await visit(a, "POST", "/logout"), 303);
    // B's session is B's: still open.
    expectStatus(await w.b.browser.get("/portal"), 200);
  },
  // ─── Password links: only the link's unguessable token opens one; asking says nothing of anyone ──
  "GET /reset": async () => expectStatus(await visit(new Browser(w.t), "GET", "/reset"), 200),
  "POST /reset": async () => {
    // B's owner's e-mail would rightly send B a link: the same answer comes for an address nobody has, and nothing is written.
    const browser = new Browser(w.t);
    await browser.get("/reset");
    const asked = await visit(browser, "POST", "/reset", { email: `nobody-${crypto.randomUUID().slice(0, 6)}@nowhere.example` });
    expectStatus(asked, 200);
    expect(asked.text).toContain("If an account exists for that address");
  },
  "GET /reset/:token": async () => {
    expectStatus(await visit(owner, "GET", `/reset/${w.b.policy.certToken}`), 404);
    expectStatus(await visit(new Browser(w.t), "GET", `/reset/${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url")}`), 404);
  },
  "POST /reset/:token": async () => {
    const browser = new Browser(w.t);
    const path = `/reset/${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url")}`;
    await browser.get("/reset");
    expectStatus(await visit(browser, "POST", path, { password: "taken over password", confirmPassword: "taken over password" }), 404);
  },
  "GET /portal/account": async () => expectStatus(await visit(owner, "GET", "/portal/account"), 200),
  "POST /portal/account": async () => expectStatus(await visit(await stranger(), "POST", "/portal/account", { financeEmail: "finance@stranger.example" }), 200),
  "GET /portal/password": async () => expectStatus(await visit(owner, "GET", "/portal/password"), 200),
  "POST /portal/password": async () => {
    // Only one's own password, and only with it: B's sessions and password are untouched.
    expectStatus(
      await visit(owner, "POST", "/portal/password", {
        currentPassword: w.b.partner.portal.password,
        newPassword: "attacker-password-1",
        confirmPassword: "attacker-password-1",
      }),
      400,
    );
  },
  // ─── Partner pages ──────────────────────────────────────────────────────────────────────────
  "GET /portal": async () => expectStatus(await visit(owner, "GET", "/portal"), 200),
  "GET /portal/consumers.csv": async () => {
    for (const q of ["", w.b.consumer.email, w.b.consumer.name])
      expectStatus(await visit(owner, "GET", `/portal/consumers.csv?q=${encodeURIComponent(q)}`), 200);
  },
  "GET /portal/consumers": async () => {
    expectStatus(await visit(owner, "GET", "/portal/consumers"), 200);
    for (const q of [w.b.consumer.email, w.b.consumer.name, "Bartholomew"])
      expectStatus(await visit(owner, "GET", `/portal/consumers?q=${encodeURIComponent(q)}`), 200);
    expectStatus(await visit(owner, "GET", "/portal/consumers?rows=1"), 200);
  },
  "GET /portal/consumers/new": async () => expectStatus(await visit(owner, "GET", "/portal/consumers/new"), 200),
  "POST /portal/consumers": async () => {
    // "Updating" B's consumer by its id and e-mail makes the caller's own consumer; B's is untouched.
    const other = await stranger();
    await other.get("/portal/consumers/new");
    const response = await visit(other, "POST", "/portal/consumers", {
      class: "h",
      updating: w.b.consumer.id,
      "name.first": "Mallory",
      "name.last": "Attacker",
      phoneNo: "+2348031234567",
      eMail: w.b.consumer.email,
    });
    expectStatus(response, 303);
    expect(response.location).not.toContain(w.b.consumer.id);
  },
  "GET /portal/consumers/:id": async () => {
    for (const id of [w.b.consumer.id, w.b.consumer.uuid]) expectStatus(await visit(owner, "GET", `/portal/consumers/${id}`), 404);
  },
  "GET /portal/consumers/:id/edit": async () => {
    for (const id of [w.b.consumer.id, w.b.consumer.uuid]) expectStatus(await visit(owner, "GET", `/portal/consumers/${id}/edit`), 404);
  },
  "GET /portal/policies": async () => {
    expectStatus(await visit(owner, "GET", "/portal/policies"), 200);
    expectStatus(await visit(owner, "GET", "/portal/policies?status=p&rows=1"), 200);
  },
  "GET /portal/policies.csv": async () => {
    expectStatus(await visit(owner, "GET", "/portal/policies.csv"), 200);
    expectStatus(await visit(owner, "GET", `/portal/policies.csv?consumer=${w.b.consumer.id}`), 200);
  },
  "GET /portal/policies/:reference": async () => {
    for (const reference of [w.b.policy.reference, w.b.pending.reference])
      expectStatus(await visit(owner, "GET", `/portal/policies/${encodeURIComponent(reference)}`), 404);
  },
  "GET /portal/policies/:reference/status": async () =>
    expectStatus(await visit(owner, "GET", `/portal/policies/${w.b.pending.reference}/status`, {}, { "hx-request": "true" }), 404),
  "GET /portal/policies/:reference/certificate": async () =>
    expectStatus(await visit(owner, "GET", `/portal/policies/${w.b.policy.reference}/certificate`), 404),
  "GET /portal/policies/:reference/cancel": async () => expectStatus(await visit(owner, "GET", `/portal/policies/${w.b.policy.reference}/cancel`), 404),
  "GET /portal/policies/:reference/cancel/refund": async () =>
    expectStatus(await visit(owner, "GET", `/portal/policies/${w.b.policy.reference}/cancel/refund`, {}, { "hx-request": "true" }), 404),
  "POST /portal/policies/:reference/cancel": async () =>
    expectStatus(await visit(owner, "POST", `/portal/policies/${w.b.policy.reference}/cancel`, { reason: "duplicate" }), 404),
  "GET /portal/policies/:reference/reinstate": async () => expectStatus(await visit(owner, "GET", `/portal/policies/${w.b.policy.reference}/reinstate`), 404),
  "POST /portal/policies/:reference/reinstate": async () =>
    expectStatus(await visit(owner, "POST", `/portal/policies/${w.b.policy.reference}/reinstate`, {}), 404),
  "GET /portal/policies/:reference/change": async () => expectStatus(await visit(owner, "GET", `/portal/policies/${w.b.policy.reference}/change`), 404),
  "POST /portal/policies/:reference/change": async () =>
    expectStatus(await visit(owner, "POST", `/portal/policies/${w.b.policy.reference}/change`, { "addtnlFact.rgstrtId": "LND456XY", step: "confirm" }), 404),
  "GET /portal/policies/:reference/renew": async () => expectStatus(await visit(owner, "GET", `/portal/policies/${w.b.policy.reference}/renew`), 404),
  "POST /portal/policies/:reference/renew": async () => expectStatus(await visit(owner, "POST", `/portal/policies/${w.b.policy.reference}/renew`, {}), 404),
  "GET /portal/quote": async () => expectStatus(await visit(owner, "GET", `/portal/quote?product=vhcl-tprt-1111&consumer=${w.b.consumer.id}`), 200),
  "GET /portal/search": async () => {
    // The search box finds only A's records, whatever it is asked (B's name, e-mail, phone as typed, B's consumer id).
    for (const q of [w.b.consumer.email, w.b.consumer.name, "Bartholomew", "0803 123 4567", w.b.consumer.id])
      expectStatus(await visit(owner, "GET", `/portal/search?q=${encodeURIComponent(q)}`), 200);
  },
  "GET /portal/quote/consumers": async () => {
    // The picker's search finds only A's consumers, whatever it is asked (B's name, e-mail, phone as typed, B's consumer as the choice).
    for (const q of [w.b.consumer.email, w.b.consumer.name, "Bartholomew", "0803 123 4567"])
      expectStatus(await visit(owner, "GET", `/portal/quote/consumers?q=${encodeURIComponent(q)}`, {}, { "hx-request": "true" }), 200);
    expectStatus(await visit(owner, "GET", `/portal/quote/consumers?consumer=${w.b.consumer.id}`, {}, { "hx-request": "true" }), 200);
    expectStatus(await visit(owner, "GET", `/portal/quote?q=${encodeURIComponent(w.b.consumer.name)}`), 200);
  },
  "POST /portal/quote/form": async () =>
    expectStatus(await visit(owner, "POST", "/portal/quote/form", { product: "vhcl-tprt-1111", consumer: w.b.consumer.id }), 200),
  "POST /portal/quote/premium": async () =>
    expectStatus(await visit(owner, "POST", "/portal/quote/premium", { product: "vhcl-tprt-1111", consumer: w.b.consumer.id, insrncDrtn: "1y" }), 200),
  "POST /portal/quote/issue": async () => {
    const response = await visit(owner, "POST", "/portal/quote/issue", {
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
    });
    expectStatus(response, 400);
    expect(response.text).toContain("This consumer was not found among your consumers");
  },
  "GET /portal/wallet/ledger.csv": async () => expectStatus(await visit(owner, "GET", "/portal/wallet/ledger.csv"), 200),
  "GET /portal/wallet": async () => {
    expectStatus(await visit(owner, "GET", "/portal/wallet"), 200);
    expectStatus(await visit(owner, "GET", "/portal/wallet?rows=1"), 200);
  },
  // Statements are the session's partner's: no address names another partner.
  "GET /portal/statements": async () => expectStatus(await visit(owner, "GET", "/portal/statements"), 200),
  "GET /portal/statements.pdf": async () => expectStatus(await visit(owner, "GET", "/portal/statements.pdf"), 200),
  "GET /portal/statements.csv": async () => expectStatus(await visit(owner, "GET", "/portal/statements.csv"), 200),
  "GET /portal/wallet/usage": async () => expectStatus(await visit(owner, "GET", "/portal/wallet/usage"), 200),
  "POST /portal/wallet/fundings/:id/pay": async () => {
    // B's funding, paid through A's session: not found, nothing credited.
    const [funding] = await w.t.database.db
      .select({ id: walletFundings.id })
      .from(walletFundings)
      .where(and(eq(walletFundings.partnerId, w.b.partner.partnerId), eq(walletFundings.reference, w.b.topUpReference)));
    expectStatus(await visit(owner, "POST", `/portal/wallet/fundings/${funding!.id}/pay`), 404);
  },
  "POST /funding/callbacks/:provider": async () => {
    // Outside the session: only the provider's signature counts, and A has no way to make it.
    const response = await w.t.app.handle(
      new Request("http://localhost/funding/callbacks/sandbox", {
        method: "POST",
        headers: { "content-type": "application/json", "x-paystack-signature": "0".repeat(128) },
        body: JSON.stringify({ event: "charge.success", data: { reference: "SBX_FORGED", amount: 100_000_000 } }),
      }),
    );
    expect(response.status).toBe(401);
  },
  "POST /payouts/callbacks/:provider": async () => {
    // The same for the payout provider: a forged signature changes nothing of B's claims.
    const response = await w.t.app.handle(
      new Request("http://localhost/payouts/callbacks/sandbox", {
        method: "POST",
        headers: { "content-type": "application/json", "x-paystack-signature": "0".repeat(128) },
        body: JSON.stringify({ event: "transfer.success", data: { reference: "clm-2026-forged00000-1", amount: 100_000_000 } }),
      }),
    );
    expect(response.status).toBe(401);
  },
  "POST /portal/wallet/topup": async () => {
    expectStatus(await visit(owner, "POST", "/portal/wallet/topup", { amount: "10", reference: `a-${crypto.randomUUID().slice(0, 8)}` }), 200);
    // B's reference credits the caller (references are per partner); B's ledger is untouched.
    expectStatus(await visit(await stranger(), "POST", "/portal/wallet/topup", { amount: "10", reference: w.b.topUpReference }), 200);
  },
  "GET /portal/keys": async () => expectStatus(await visit(owner, "GET", "/portal/keys"), 200),
  // B's log holds B's requests (its consumer, references, keys' ids): A's page shows only A's own.
  "GET /portal/api-log.csv": async () => expectStatus(await visit(owner, "GET", "/portal/api-log.csv"), 200),
  "GET /portal/api-log": async () => {
    expectStatus(await visit(owner, "GET", "/portal/api-log"), 200);
    expectStatus(await visit(owner, "GET", "/portal/api-log?command=prfl%20entity&outcome=75&rows=1"), 200);
  },
  "POST /portal/keys/rotate": async () => expectStatus(await visit(await stranger(), "POST", "/portal/keys/rotate", { label: "test" }), 200),
  "POST /portal/keys/revoke": async () => {
    for (const key of Object.values(w.b.partner.keys)) expectStatus(await visit(owner, "POST", "/portal/keys/revoke", { keyId: key.id }), 404);
    expect((await w.b.partner.run("dump entt_*CSTMRS", { limit: 1 })).exctnFdbck.id).toBe(75);
  },
  "POST /portal/keys/mode": async () => expectStatus(await visit(await stranger(), "POST", "/portal/keys/mode", { mode: "live" }), 303),
  "GET /portal/team": async () => expectStatus(await visit(owner, "GET", "/portal/team"), 200),
  "POST /portal/team": async () => {
    // An e-mail is one login across the service: B's staff e-mail cannot be invited into A (nor taken over).
    expectStatus(await visit(owner, "POST", "/portal/team", { email: w.b.staff.email, name: "Taken Over" }), 409);
  },
  "POST /portal/team/:id/:change": async () => {
    for (const change of ["deactivate", "reactivate"]) expectStatus(await visit(owner, "POST", `/portal/team/${w.b.staff.id}/${change}`), 404);
  },
  "POST /portal/team/:id/invitation": async () => expectStatus(await visit(owner, "POST", `/portal/team/${w.b.staff.id}/invitation`), 404),
  "GET /portal/vehicle": async () => expectStatus(await visit(owner, "GET", "/portal/vehicle"), 200),
  "POST /portal/vehicle/check": async () => {
    // No registry configured in this app: 503, and nothing billed to anyone.
    expectStatus(await visit(owner, "POST", "/portal/vehicle/check", { search_type: "policy", value: w.b.policy.policyNo }), 503);
  },
  "POST /portal/vehicle/vin": async () => expectStatus(await visit(owner, "POST", "/portal/vehicle/vin", { vin: "1HGCM82633A004352" }), 200),
  // A's messages only: B's e-mail (its recipient, subject, text) is never listed, and its page and HTML part are not found.
  "GET /portal/messages": async () => expectStatus(await visit(owner, "GET", `/portal/messages?recipient=${encodeURIComponent(w.b.consumer.email)}`), 200),
  "GET /portal/messages.csv": async () => expectStatus(await visit(owner, "GET", "/portal/messages.csv"), 200),
  "GET /portal/messages/:id": async () => expectStatus(await visit(owner, "GET", `/portal/messages/${w.b.messageId}`), 404),
  "GET /portal/messages/:id/html": async () => expectStatus(await visit(owner, "GET", `/portal/messages/${w.b.messageId}/html`), 404),
  "POST /messages/callbacks/:provider": async () => {
    // The SMS gateway's reports: only its signature counts, and A has no way to make it.
    const response = await w.t.app.handle(
      new Request("http://localhost/messages/callbacks/sandbox", {
        method: "POST",
        headers: { "content-type": "application/json", "x-termii-signature": "0".repeat(128) },
        body: JSON.stringify({ type: "outbound", message_id: "3017544054459184530253", status: "Delivered" }),
      }),
    );
    expect(response.status).toBe(401);
  },
  "GET /portal/webhooks": async () => expectStatus(await visit(owner, "GET", "/portal/webhooks"), 200),
  // ─── Messages settings (src/modules/notices): the viewer's own account only; nothing of B's is addressable ───
  "GET /portal/message-settings": async () => expectStatus(await visit(owner, "GET", "/portal/message-settings"), 200),
  "POST /portal/message-settings/:notice/sender/:channel": async () =>
    expectStatus(await visit(owner, "POST", "/portal/message-settings/policy.issued/sender/email", { sender: "service" }), 200),
  "GET /portal/message-settings/:notice/:form": async () => {
    expectStatus(await visit(owner, "GET", "/portal/message-settings/policy.issued/email"), 200);
    expectStatus(await visit(owner, "GET", "/portal/message-settings/no.such/email"), 404);
  },
  "POST /portal/message-settings/:notice/:form": async () =>
    expectStatus(await visit(owner, "POST", "/portal/message-settings/policy.issued/sms", { body: "{{partnerName}}: policy {{policyNo}}" }), 200),
  "POST /portal/message-settings/:notice/:form/preview": async () =>
    expectStatus(await visit(owner, "POST", "/portal/message-settings/policy.issued/sms/preview", { body: "{{policyNo}}" }, { "hx-request": "true" }), 200),
  "POST /portal/message-settings/:notice/:form/reset": async () =>
    expectStatus(await visit(owner, "POST", "/portal/message-settings/policy.issued/sms/reset"), 200),
  "POST /portal/message-settings/:notice/:form/test": async () =>
    expectStatus(await visit(owner, "POST", "/portal/message-settings/policy.issued/email/test"), 200),
  "GET /portal/branding": async () => expectStatus(await visit(owner, "GET", "/portal/branding"), 200),
  "POST /portal/branding": async () => expectStatus(await visit(owner, "POST", "/portal/branding", { displayName: "A's name" }), 200),
  // A logo is public (e-mails load it); B has none, so there is nothing to see.
  "GET /brand/:id/logo": async () => expectStatus(await visit(owner, "GET", `/brand/${w.b.partner.partnerId}/logo`), 404),
  "POST /portal/consumers/:id/preferences": async () => {
    for (const id of [w.b.consumer.id, w.b.consumer.uuid])
      expectStatus(await visit(owner, "POST", `/portal/consumers/${id}/preferences`, { language: "pcm" }), 404);
  },
  "POST /portal/webhooks": async () => expectStatus(await visit(owner, "POST", "/portal/webhooks", { url: "http://127.0.0.1:9/a-portal-hook" }), 200),
  "GET /portal/webhooks/:id": async () => expectStatus(await visit(owner, "GET", `/portal/webhooks/${w.b.endpoint.id}`), 404),
  "GET /portal/webhooks/:id/deliveries.csv": async () => {
    const response = await visit(owner, "GET", `/portal/webhooks/${w.b.endpoint.id}/deliveries.csv`);
    expectStatus(response, 404);
    expect(response.text).not.toContain(w.b.deliveryId);
  },
  "GET /portal/webhooks/:id/deliveries": async () => {
    const response = await visit(owner, "GET", `/portal/webhooks/${w.b.endpoint.id}/deliveries`, {}, { "hx-request": "true" });
    expectStatus(response, 200, 404);
    expect(response.text).not.toContain(w.b.deliveryId);
  },
  "POST /portal/webhooks/:id": async () => {
    expectStatus(await visit(owner, "POST", `/portal/webhooks/${w.b.endpoint.id}`, { url: "http://127.0.0.1:9/stolen", enabled: "on" }), 404);
    expectStatus(await visit(owner, "POST", `/portal/webhooks/${w.b.endpoint.id}`, { url: "not a url" }), 404);
  },
  "POST /portal/webhooks/:id/reveal": async () => expectStatus(await visit(owner, "POST", `/portal/webhooks/${w.b.endpoint.id}/reveal`), 404),
  "POST /portal/webhooks/:id/rotate": async () => expectStatus(await visit(owner, "POST", `/portal/webhooks/${w.b.endpoint.id}/rotate`), 404),
  "POST /portal/webhooks/:id/test": async () => expectStatus(await visit(owner, "POST", `/portal/webhooks/${w.b.endpoint.id}/test`), 404),
  "POST /portal/webhooks/:id/delete": async () => expectStatus(await visit(owner, "POST", `/portal/webhooks/${w.b.endpoint.id}/delete`), 404),
  "POST /portal/webhooks/deliveries/:id/replay": async () =>
    expectStatus(await visit(owner, "POST", `/portal/webhooks/deliveries/${w.b.deliveryId}/replay`, {}, { "hx-request": "true" }), 404),
  "GET /portal/claims.csv": async () => {
    expectStatus(await visit(owner, "GET", "/portal/claims.csv"), 200);
    expectStatus(await visit(owner, "GET", `/portal/claims.csv?policy=${encodeURIComponent(w.b.policy.reference)}`), 200, 400, 404);
  },
  "GET /portal/claims": async () => {
    expectStatus(await visit(owner, "GET", "/portal/claims"), 200);
    expectStatus(await visit(owner, "GET", `/portal/claims?policy=${encodeURIComponent(w.b.policy.reference)}`), 200, 400);
  },
  "GET /portal/claims/new": async () => expectStatus(await visit(owner, "GET", `/portal/claims/new?policy=${encodeURIComponent(w.b.policy.reference)}`), 200),
  "POST /portal/claims": async () => {
    const response = await visit(owner, "POST", "/portal/claims", {
      policy: w.b.policy.reference,
      incidentDate: watDate(0),
      description: "A claims on B's policy",
      amount: "1000",
    });
    expectStatus(response, 404);
  },
  "GET /portal/complaints": async () => {
    const list = await visit(owner, "GET", "/portal/complaints");
    expectStatus(list, 200);
  },
  "GET /portal/complaints/new": async () => expectStatus(await visit(owner, "GET", "/portal/complaints/new"), 200),
  "POST /portal/complaints": async () => {
    const about = { "complainant.name": "A's complainant", "complainant.phone": "08030000009", category: "other", description: "A's complaint" };
    expectStatus(await visit(owner, "POST", "/portal/complaints", { ...about, claimNo: w.b.claimNo }), 404);
    expectStatus(await visit(owner, "POST", "/portal/complaints", { ...about, policy: w.b.policy.policyNo }), 404);
  },
  "GET /portal/complaints/:complaintNo": async () => expectStatus(await visit(owner, "GET", `/portal/complaints/${w.b.complaintNo}`), 404),
  "POST /portal/complaints/:complaintNo/add": async () =>
    expectStatus(await visit(owner, "POST", `/portal/complaints/${w.b.complaintNo}/add`, { note: "A adds to B's complaint" }), 404),
  "POST /portal/complaints/:complaintNo/withdraw": async () => expectStatus(await visit(owner, "POST", `/portal/complaints/${w.b.complaintNo}/withdraw`), 404),
  "GET /portal/complaints/:complaintNo/letter.pdf": async () =>
    expectStatus(await visit(owner, "GET", `/portal/complaints/${w.b.complaintNo}/letter.pdf`), 404),
  "GET /portal/complaints/:complaintNo/documents/:position": async () =>
    expectStatus(await visit(owner, "GET", `/portal/complaints/${w.b.complaintNo}/documents/1`), 404),
  "GET /portal/claims/:claimNo": async () => expectStatus(await visit(owner, "GET", `/portal/claims/${w.b.claimNo}`), 404),
  "POST /portal/claims/:claimNo/withdraw": async () =>
    expectStatus(await visit(owner, "POST", `/portal/claims/${w.b.claimNo}/withdraw`, { note: "A withdraws B's claim" }), 404),
  "POST /portal/claims/:claimNo/respond": async () =>
    expectStatus(await visit(owner, "POST", `/portal/claims/${w.b.claimNo}/respond`, { answer: "A answers for B" }), 404),
  "GET /portal/claims/:claimNo/documents/:position": async () => expectStatus(await visit(owner, "GET", `/portal/claims/${w.b.claimNo}/documents/1`), 404),
  "POST /portal/claims/:claimNo/payee": async () =>
    expectStatus(await visit(owner, "POST", `/portal/claims/${w.b.claimNo}/payee`, { bankCode: "058", accountNumber: "0123456780" }), 404),
  "POST /portal/claims/:claimNo/accept": async () => expectStatus(await visit(owner, "POST", `/portal/claims/${w.b.claimNo}/accept`, { version: "1" }), 404),
  "GET /portal/claims/:claimNo/voucher/:file": async () => expectStatus(await visit(owner, "GET", `/portal/claims/${w.b.claimNo}/voucher/1.pdf`), 404),
  "GET /portal/claims/:claimNo/letter.pdf": async () => expectStatus(await visit(owner, "GET", `/portal/claims/${w.b.claimNo}/letter.pdf`), 404),
  "GET /portal/financing": async () => expectStatus(await visit(owner, "GET", "/portal/financing"), 200),
  "GET /portal/financing.csv": async () => expectStatus(await visit(owner, "GET", "/portal/financing.csv"), 200),
  "GET /portal/financing/new": async () =>
    expectStatus(await visit(owner, "GET", `/portal/financing/new?policy=${encodeURIComponent(w.b.policy.reference)}`), 200),
  "POST /portal/financing": async () => {
    const response = await visit(owner, "POST", "/portal/financing", {
      policy: w.b.policy.reference,
      downPayment: "0",
      installments: "2",
      frequency: "monthly",
      firstDueDate: watDate(),
    });
    expectStatus(response, 404);
  },
  "GET /portal/financing/:planNo": async () => expectStatus(await visit(owner, "GET", `/portal/financing/${w.b.planNo}`), 404),
  "POST /portal/financing/:planNo/installments": async () =>
    expectStatus(await visit(owner, "POST", `/portal/financing/${w.b.planNo}/installments`, { amount: "3000", reference: "a-pays-b" }), 404),
  // ─── The operator's pages: partner staff get 403 whatever they aim at ───────────────────────
  "GET /admin": adminOnly("GET", () => "/admin"),
  "GET /admin/policies": adminOnly("GET", () => "/admin/policies"),
  "GET /admin/policies.csv": adminOnly("GET", () => "/admin/policies.csv"),
  "GET /admin/policies/:id": adminOnly("GET", () => `/admin/policies/${w.b.pending.reference}`),
  "GET /admin/policies/:id/status": adminOnly("GET", () => `/admin/policies/${w.b.pending.reference}/status`),
  "GET /admin/policies/:id/certificate": adminOnly("GET", () => `/admin/policies/${w.b.policy.reference}/certificate`),
  "GET /admin/policies/:id/cancel": adminOnly("GET", () => `/admin/policies/${w.b.policy.reference}/cancel`),
  "GET /admin/policies/:id/cancel/refund": adminOnly("GET", () => `/admin/policies/${w.b.policy.reference}/cancel/refund`),
  "POST /admin/policies/:id/cancel": adminOnly(
    "POST",
    () => `/admin/policies/${w.b.policy.reference}/cancel`,
    () => ({ reason: "misrepresentation", note: "cancelled by A" }),
  ),
  "GET /admin/policies/:id/reinstate": adminOnly("GET", () => `/admin/policies/${w.b.policy.reference}/reinstate`),
  "POST /admin/policies/:id/reinstate": adminOnly(
    "POST",
    () => `/admin/policies/${w.b.policy.reference}/reinstate`,
    () => ({}),
  ),
  "GET /admin/policies/:id/change": adminOnly("GET", () => `/admin/policies/${w.b.policy.reference}/change`),
  "POST /admin/policies/:id/change": adminOnly(
    "POST",
    () => `/admin/policies/${w.b.policy.reference}/change`,
    () => ({ "addtnlFact.rgstrtId": "LND456XY", step: "confirm" }),
  ),
  "POST /admin/policies/:id/change/approve": adminOnly(
    "POST",
    () => `/admin/policies/${w.b.policy.reference}/change/approve`,
    () => ({}),
  ),
  "POST /admin/policies/:id/change/decline": adminOnly(
    "POST",
    () => `/admin/policies/${w.b.policy.reference}/change/decline`,
    () => ({ note: "declined by A" }),
  ),
  "GET /admin/policies/:id/renew": adminOnly("GET", () => `/admin/policies/${w.b.policy.reference}/renew`),
  "POST /admin/policies/:id/renew": adminOnly(
    "POST",
    () => `/admin/policies/${w.b.policy.reference}/renew`,
    () => ({}),
  ),
  "GET /admin/policies/:id/registry": adminOnly("GET", () => `/admin/policies/${w.b.policy.reference}/registry`),
  // A consumer's documents are the operator's reviewers' to read, never another partner's staff.
  "GET /admin/consumers/:id/documents/:field": adminOnly("GET", () => `/admin/consumers/${w.b.consumer.id}/documents/socialID.image`),
  "POST /admin/policies/:id/review": adminOnly(
    "POST",
    () => `/admin/policies/${w.b.pending.reference}/review`,
    () => ({ decision: "d", statusNote: "declined by A" }),
  ),
  "GET /admin/consumers.csv": adminOnly("GET", () => "/admin/consumers.csv"),
  "GET /admin/consumers": adminOnly("GET", () => `/admin/consumers?q=${encodeURIComponent(w.b.consumer.email)}`),
  "GET /admin/consumers/:id": adminOnly("GET", () => `/admin/consumers/${w.b.consumer.id}`),
  "GET /admin/complaints": adminOnly("GET", () => "/admin/complaints"),
  "GET /admin/complaints/:complaintNo": adminOnly("GET", () => `/admin/complaints/${w.b.complaintNo}`),
  "POST /admin/complaints/:complaintNo/acknowledge": adminOnly("POST", () => `/admin/complaints/${w.b.complaintNo}/acknowledge`),
  "POST /admin/complaints/:complaintNo/start": adminOnly("POST", () => `/admin/complaints/${w.b.complaintNo}/start`),
  "POST /admin/complaints/:complaintNo/resolve": adminOnly(
    "POST",
    () => `/admin/complaints/${w.b.complaintNo}/resolve`,
    () => ({ outcome: "upheld", resolution: "forged" }),
  ),
  "POST /admin/complaints/:complaintNo/note": adminOnly(
    "POST",
    () => `/admin/complaints/${w.b.complaintNo}/note`,
    () => ({ note: "forged" }),
  ),
  "GET /admin/complaints/:complaintNo/letter.pdf": adminOnly("GET", () => `/admin/complaints/${w.b.complaintNo}/letter.pdf`),
  "GET /admin/complaints/:complaintNo/documents/:position": adminOnly("GET", () => `/admin/complaints/${w.b.complaintNo}/documents/1`),
  "GET /admin/reports/complaints": adminOnly("GET", () => "/admin/reports/complaints"),
  "GET /admin/reports/complaints.xlsx": adminOnly("GET", () => "/admin/reports/complaints.xlsx"),
  ...Object.fromEntries(
    ["summary", "ageing", "categories", "products", "partners"].map((t) => [
      `GET /admin/reports/complaints/${t}.csv`,
      adminOnly("GET", () => `/admin/reports/complaints/${t}.csv`),
    ]),
  ),
  "GET /admin/claims": adminOnly("GET", () => "/admin/claims"),
  "GET /admin/claims.csv": adminOnly("GET", () => "/admin/claims.csv"),
  "GET /admin/claims/:claimNo": adminOnly("GET", () => `/admin/claims/${w.b.claimNo}`),
  "POST /admin/claims/:claimNo/review": adminOnly(
    "POST",
    () => `/admin/claims/${w.b.claimNo}/review`,
    () => ({ status: "rejected", rejectionReason: "not_covered", note: "by A" }),
  ),
  "GET /admin/claims/:claimNo/documents/:position": adminOnly("GET", () => `/admin/claims/${w.b.claimNo}/documents/1`),
  "POST /admin/claims/:claimNo/recommendation": adminOnly(
    "POST",
    () => `/admin/claims/${w.b.claimNo}/recommendation`,
    () => ({ choice: "confirm" }),
  ),
  "POST /admin/claims/:claimNo/payee/confirm": adminOnly("POST", () => `/admin/claims/${w.b.claimNo}/payee/confirm`),
  "POST /admin/claims/:claimNo/payout/resend": adminOnly("POST", () => `/admin/claims/${w.b.claimNo}/payout/resend`),
  "GET /admin/claims/:claimNo/voucher/:file": adminOnly("GET", () => `/admin/claims/${w.b.claimNo}/voucher/1.pdf`),
  "GET /admin/claims/:claimNo/letter.pdf": adminOnly("GET", () => `/admin/claims/${w.b.claimNo}/letter.pdf`),
  "GET /admin/messages": adminOnly("GET", () => "/admin/messages"),
  "GET /admin/messages.csv": adminOnly("GET", () => "/admin/messages.csv"),
  "GET /admin/messages/:id": adminOnly("GET", () => `/admin/messages/${w.b.messageId}`),
  "GET /admin/messages/:id/html": adminOnly("GET", () => `/admin/messages/${w.b.messageId}/html`),
  "GET /admin/payouts": adminOnly("GET", () => "/admin/payouts"),
  "GET /admin/payouts.csv": adminOnly("GET", () => "/admin/payouts.csv"),
  "POST /admin/claims/:claimNo/assess": adminOnly(
    "POST",
    () => `/admin/claims/${w.b.claimNo}/assess`,
    () => ({ reserve: "1", reserveReason: "by A" }),
  ),
  "GET /admin/holidays": adminOnly("GET", () => "/admin/holidays"),
  "POST /admin/holidays": adminOnly(
    "POST",
    () => "/admin/holidays",
    () => ({ day: "2031-01-03", name: "Planted by A" }),
  ),
  "POST /admin/holidays/:day/remove": adminOnly("POST", () => "/admin/holidays/2026-12-25/remove"),
  "GET /admin/fundings": adminOnly("GET", () => "/admin/fundings"),
  "POST /admin/fundings/:id/confirm": adminOnly(
    "POST",
    () => `/admin/fundings/${crypto.randomUUID()}/confirm`,
    () => ({ bankReference: "A-FORGED-1", amount: "1000" }),
  ),
  "POST /admin/fundings/:id/:decision": adminOnly("POST", () => `/admin/fundings/${crypto.randomUUID()}/credit-held`),
  "POST /admin/fundings/confirmations/:id/:decision": adminOnly("POST", () => `/admin/fundings/confirmations/${crypto.randomUUID()}/approve`),
  "GET /admin/commissions": adminOnly("GET", () => "/admin/commissions"),
  "GET /admin/commissions/:code": adminOnly("GET", () => "/admin/commissions/mrnn-cmpr-1111"),
  "POST /admin/commissions/:code": adminOnly(
    "POST",
    () => "/admin/commissions/mrnn-cmpr-1111",
    () => ({ rate: "99" }),
  ),
  "POST /admin/commissions/:code/partners": adminOnly(
    "POST",
    () => "/admin/commissions/mrnn-cmpr-1111/partners",
    () => ({ partner: w.a.partnerId, partnerRate: "99" }),
  ),
  "POST /admin/commissions/:code/partners/:partnerId/remove": adminOnly(
    "POST",
    () => `/admin/commissions/mrnn-cmpr-1111/partners/${w.b.partner.partnerId}/remove`,
  ),
  "GET /admin/statements": adminOnly("GET", () => `/admin/statements?partner=${w.b.partner.partnerId}`),
  "GET /admin/statements.pdf": adminOnly("GET", () => `/admin/statements.pdf?partner=${w.b.partner.partnerId}`),
  "GET /admin/statements.csv": adminOnly("GET", () => `/admin/statements.csv?partner=${w.b.partner.partnerId}`),
  "GET /admin/financing": adminOnly("GET", () => "/admin/financing"),
  "GET /admin/financing.csv": adminOnly("GET", () => "/admin/financing.csv"),
  "POST /admin/financing/lapse": adminOnly(
    "POST",
    () => "/admin/financing/lapse",
    () => ({ asOf: watDate(400) }),
  ),
  "GET /admin/financing/:planNo": adminOnly("GET", () => `/admin/financing/${w.b.planNo}`),
  "GET /admin/reports": adminOnly("GET", () => "/admin/reports?month=2026-01&insurer=ldwy"),
  "GET /admin/reports/premium.csv": adminOnly("GET", () => "/admin/reports/premium.csv?month=2026-01&insurer=ldwy"),
  "GET /admin/reports/premium.xlsx": adminOnly("GET", () => "/admin/reports/premium.xlsx?month=2026-01&insurer=ldwy"),
  "GET /admin/reports/claims.csv": adminOnly("GET", () => "/admin/reports/claims.csv?month=2026-01&insurer=ldwy"),
  "GET /admin/reports/claims.xlsx": adminOnly("GET", () => "/admin/reports/claims.xlsx?month=2026-01&insurer=ldwy"),
  // The regulator's view, narrowed to B: partner staff are refused before anything of B is read.
  "GET /admin/reports/regulator": adminOnly("GET", () => `/admin/reports/regulator?partner=${w.b.partner.partnerId}`),
  "GET /admin/reports/regulator/ageing.csv": adminOnly("GET", () => `/admin/reports/regulator/ageing.csv?partner=${w.b.partner.partnerId}`),
  "GET /admin/reports/regulator/settlement-times.csv": adminOnly("GET", () => `/admin/reports/regulator/settlement-times.csv?partner=${w.b.partner.partnerId}`),
  "GET /admin/reports/regulator/rejection-rates.csv": adminOnly("GET", () => `/admin/reports/regulator/rejection-rates.csv?partner=${w.b.partner.partnerId}`),
  "GET /admin/reports/regulator/rejection-reasons.csv": adminOnly(
    "GET",
    () => `/admin/reports/regulator/rejection-reasons.csv?partner=${w.b.partner.partnerId}`,
  ),
  "GET /admin/reports/regulator.xlsx": adminOnly("GET", () => `/admin/reports/regulator.xlsx?partner=${w.b.partner.partnerId}`),
  "GET /admin/partners": adminOnly("GET", () => "/admin/partners"),
  "POST /admin/partners": adminOnly(
    "POST",
    () => "/admin/partners",
    () => ({ name: "Created by A" }),
  ),
  "POST /admin/partners/:id": adminOnly(
    "POST",
    () => `/admin/partners/${w.b.partner.partnerId}`,
    () => ({ change: "suspend" }),
  ),
  "GET /admin/partners/:id": adminOnly("GET", () => `/admin/partners/${w.b.partner.partnerId}`),
  "GET /admin/partners/:id/message-settings": adminOnly("GET", () => `/admin/partners/${w.b.partner.partnerId}/message-settings`),
  "GET /admin/administrators": adminOnly("GET", () => "/admin/administrators"),
  "POST /admin/administrators": adminOnly(
    "POST",
    () => "/admin/administrators",
    () => ({ email: `planted-${crypto.randomUUID().slice(0, 8)}@operator.example`, name: "Planted by A" }),
  ),
  "POST /admin/administrators/:id/:change": adminOnly("POST", () => `/admin/administrators/${w.b.staff.id}/deactivate`),
  "POST /admin/administrators/:id/invitation": adminOnly("POST", () => `/admin/administrators/${w.b.staff.id}/invitation`),
  "POST /admin/administrators/:id/authority": adminOnly(
    "POST",
    () => `/admin/administrators/${w.b.staff.id}/authority`,
    () => ({ claimAuthority: "head" }),
  ),
  "GET /admin/audit": adminOnly("GET", () => "/admin/audit"),
  "GET /admin/audit.csv": adminOnly("GET", () => "/admin/audit.csv"),
  "GET /admin/dashboard": adminOnly("GET", () => "/admin/dashboard"),
  "GET /admin/search": adminOnly("GET", () => `/admin/search?q=${encodeURIComponent(w.b.consumer.name)}`),
};

const routeKeys = () => w.t.app.routes.map((r) => `${r.method} ${r.path}`);

describe("every route has a tenant-isolation case", () => {
  test("the cases are exactly the app's routes", () => {
    expect(Object.keys(cases).sort()).toEqual([...new Set(routeKeys())].sort());
  });
});

describe("partner A's staff open every route aimed at partner B's records", () => {
  test.each(Object.keys(cases).sort())(
    "%s",
    async (key) => {
      const db = w.t.database.db;
      const before = await snapshot(db, w.b.partner.partnerId);
      await cases[key]!();
      await expectUnchanged(db, w.b.partner.partnerId, before, key);
    },
    60_000,
  );

  test("B's account works as before: its keys, its session, its staff, its endpoint and secret", async () => {
    for (const label of ["test", "live", "legacy"] as const) expect((await w.b.partner.run("dump entt_*CSTMRS", { limit: 1 }, label)).exctnFdbck.id).toBe(75);
    const team = await w.b.browser.get("/portal/team");
    expect(team.status).toBe(200);
    expect(team.text).toContain(w.b.staff.email);
    expect((await w.b.partner.run("webhook list")).list[0]).toMatchObject({ endpointId: w.b.endpoint.id, url: w.b.endpoint.url, enabled: true });
    const revealed = await w.b.browser.post(`/portal/webhooks/${w.b.endpoint.id}/reveal`, {});
    expect(revealed.text).toContain(w.b.endpoint.secret);
  });
});

describe("the operator's administrator", () => {
  test("opens the operator's pages (the 403s above are about who asks)", async () => {
    const admin = await signedIn(w.t, w.admin.portal);
    for (const path of [
      "/admin",
      "/admin/policies",
      "/admin/claims",
      "/admin/financing",
      "/admin/partners",
      `/admin/partners/${w.b.partner.partnerId}`,
      "/admin/administrators",
      "/admin/audit",
      "/admin/consumers",
      "/admin/dashboard",
      "/admin/reports/regulator",
      "/admin/messages",
      `/admin/messages/${w.b.messageId}`,
    ])
      expect((await admin.get(path)).status).toBe(200);
    // …and no partner page: the operator acts through the operator's pages only.
    for (const path of ["/portal", "/portal/consumers", "/portal/keys"]) expect((await admin.get(path)).status).toBe(403);
  });
});
