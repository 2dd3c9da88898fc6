import { describe, expect, test } from "bun:test";
import { inWords } from "../../src/portal/words";
import { testApp } from "../support/harness";
import { fullConsumer, insureSeed, productCases } from "../support/policies";
import { signedIn } from "./browser";

const t = await testApp();

/** The policy id of the approvals-queue row showing `reference`. */
const rowOf = (html: string, reference: string) => [...html.slice(0, html.indexOf(reference)).matchAll(/id="pending-([0-9a-f-]{36})"/g)].at(-1)?.[1];
const operator = await t.partner({ admin: true });

async function pendingMarineImport() {
  const p = await t.partner();
  await p.run("wallet topup", { amount: 1_000_000, reference: `fund-${crypto.randomUUID()}` }, "live");
  const { id: consumer } = await p.run("prfl entity", fullConsumer());
  const c = productCases["mrnn-stnd-1111"]!;
  await p.run(`dump ipck_${c.code}*PRMM`, c.quote);
  const answer = await p.run(`entt_${consumer}: insure`, insureSeed(c), "live");
  expect(answer.status).toBe("p");
  const status = () => p.run(`dump entt_${consumer}|insr_${c.code}-${answer.id}*STATUS`, undefined, "live");
  return { p, reference: answer.id as string, status };
}

describe("the operator's pages", () => {
  test("the approvals queue lists pending manual reviews; approving from it issues the policy, and the audit log says who", async () => {
    const { reference, status } = await pendingMarineImport();
    const admin = await signedIn(t, operator.portal);
    const queue = await admin.get("/admin");
    expect(queue.text).toContain(reference);
    const id = rowOf(queue.text, reference);
    expect(id).toBeDefined();
    const approved = await admin.post(`/admin/policies/${id}/review`, { decision: "a" }, { "hx-request": "true" });
    expect(approved.status).toBe(200);
    expect(approved.text).toContain(`Approved ${reference}`);
    expect((await status()).status).toBe("a");
    expect((await admin.get("/admin")).text).not.toContain(reference);
    const audit = await admin.get("/admin/audit");
    expect(audit.text).toContain("Policy approved");
    expect(audit.text).toContain(operator.portal.email);
  });

  test("declining needs a reason; with one, the partner sees it", async () => {
    const { reference, status } = await pendingMarineImport();
    const admin = await signedIn(t, operator.portal);
    const queue = await admin.get("/admin");
    const id = rowOf(queue.text, reference);
    const refused = await admin.post(`/admin/policies/${id}/review`, { decision: "d", statusNote: "" }, { "hx-request": "true" });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(inWords("statusNote is required to decline"));
    const declined = await admin.post(`/admin/policies/${id}/review`, { decision: "d", statusNote: "unreadable company documents" }, { "hx-request": "true" });
    expect(declined.text).toContain("Declined");
    expect(await status()).toMatchObject({ status: "d", statusNote: "unreadable company documents" });
  });

  test("the review desk: the consumer and their documents, decisions with a reason, then the next policy in the queue", async () => {
    const first = await pendingMarineImport();
    const second = await pendingMarineImport();
    const admin = await signedIn(t, operator.portal);
    const queue = await admin.get("/admin");
    expect(queue.text).toContain('<th scope="col">Waiting</th>');
    const id = rowOf(queue.text, first.reference)!;
    expect(rowOf(queue.text, second.reference)).toBeDefined();
    // The desk moves on to the oldest other policy in the queue (other suites may have left some).
    const nextId = [...queue.text.matchAll(/id="pending-([0-9a-f-]{36})"/g)].map((m) => m[1]).find((other) => other !== id);
    const desk = await admin.get(`/admin/policies/${id}`);
    expect(desk.text).toContain("Your review");
    expect(desk.text).toContain("Waiting for your review.");
    expect(desk.text).toContain("<dt>Identity document</dt><dd>National identity number (NIN)</dd>");
    const documentHref = /<img src="(\/admin\/consumers\/[^"]+\/documents\/socialID\.image)"/.exec(desk.text)?.[1];
    expect(documentHref).toBeDefined();
    const document = await t.app.handle(new Request(`http://localhost${documentHref}`, { headers: { cookie: `session=${admin.cookie("session")}` } }));
    expect(document.status).toBe(200);
    expect(document.headers.get("content-type")).toBe("image/png");
    expect(document.headers.get("content-disposition")).toStartWith("inline");
    expect(desk.text).toContain('hx-confirm="Approve policy');
    expect(desk.text).toContain('hx-confirm="Decline policy');
    // What the partner reads meanwhile.
    const partner = await signedIn(t, first.p.portal);
    const list = await partner.get("/portal/policies");
    const partnerHref = new RegExp(`href="(/portal/policies/[^"]+)"[^>]*>${first.reference}<`).exec(list.text)?.[1];
    expect((await partner.get(partnerHref!)).text).toContain("Waiting for the insurer&#x27;s review");
    // A decline without a reason comes back to the desk, in words; with one, the desk moves on to the next policy.
    const refused = await admin.post(`/admin/policies/${id}/review`, { decision: "d", statusNote: "", from: "desk" }, { "hx-request": "true" });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("Your review");
    expect(refused.text).toContain("Give a reason: a decline needs one.");
    const declined = await admin.post(
      `/admin/policies/${id}/review`,
      { decision: "d", statusNote: "cargo not as declared", from: "desk" },
      { "hx-request": "true" },
    );
    expect(declined.hxRedirect).toBe(`/admin/policies/${nextId}`);
    expect(await first.status()).toMatchObject({ status: "d", statusNote: "cargo not as declared" });
  });

  test("a vehicle policy's desk loads the registry's answer and the VIN's after the page, judged as underwriting judges them", async () => {
    const p = await t.partner();
    await p.run("wallet topup", { amount: 10_000_000, reference: `fund-${crypto.randomUUID()}` }, "live");
    const { id: consumer } = await p.run("prfl entity", fullConsumer());
    const c = productCases["vhcl-cmpr-1111"]!;
    await p.run(`dump ipck_${c.code}*PRMM`, c.quote);
    const answer = await p.run(`entt_${consumer}: insure`, insureSeed(c), "live");
    expect(answer.status).toBe("p");
    const admin = await signedIn(t, operator.portal);
    const id = rowOf((await admin.get("/admin")).text, answer.id)!;
    const desk = await admin.get(`/admin/policies/${id}`);
    expect(desk.text).toContain(`hx-get="/admin/policies/${id}/registry" hx-trigger="load"`);
    // This test service has no registry configured: the desk says so in words, and nothing is decided.
    const verdict = await admin.get(`/admin/policies/${id}/registry`, { "hx-request": "true" });
    expect(verdict.status).toBe(200);
    expect(verdict.text).toContain("The registry could not answer (Vehicle registry is not configured");
    // The fixture's chassis number fails the VIN check digit: the desk says why it cannot be decoded.
    expect(verdict.text).toContain("The chassis number 2T1BURHE0JC074316 cannot be decoded as a VIN: it has an invalid check digit");
    // Other products have no registry check.
    const marine = await pendingMarineImport();
    const marineId = rowOf((await admin.get("/admin")).text, marine.reference)!;
    expect((await admin.get(`/admin/policies/${marineId}`)).text).not.toContain("/registry");
  });

  test("a consumer's row leads to the consumer's page: details in words, the partner, the documents and only their policies", async () => {
    const { p, reference } = await pendingMarineImport();
    const other = await pendingMarineImport();
    const admin = await signedIn(t, operator.portal);
    const { list } = await p.run("dump entt_*CSTMRS");
    const consumers = await admin.get(`/admin/consumers?q=${encodeURIComponent(list[0].eMail)}`);
    const href = /href="(\/admin\/consumers\/[0-9a-f]{32})"/.exec(consumers.text)?.[1];
    expect(href).toBe(`/admin/consumers/${list[0].id}`);
    const page = await admin.get(href!);
    expect(page.status).toBe(200);
    expect(page.text).toContain(reference);
    expect(page.text).not.toContain(other.reference);
    expect(page.text).toContain("<dt>Partner</dt>");
    // Read-only for the operator: no partner actions.
    expect(page.text).not.toContain("Quote &amp; issue");
    // Each policy leads to the operator's own policy page.
    expect(page.text).toMatch(/href="\/admin\/policies\/[0-9a-f-]{36}"/);
    expect((await admin.get("/admin/consumers/0123456789abcdef0123456789abcdef")).status).toBe(404);
  });

  test("partners: create one (credentials shown once), activate vehicle checks, suspend — its keys stop at once", async () => {
    const admin = await signedIn(t, operator.portal);
    await admin.get("/admin/partners");
    const name = `Lender ${crypto.randomUUID().slice(0, 6)}`;
    const created = await admin.post("/admin/partners", { name, email: `${crypto.randomUUID().slice(0, 6)}@lender.ng` });
    expect(created.status).toBe(200);
    const partnerId = /Partner id<\/dt><dd class="secret">([0-9a-f-]{36})/.exec(created.text)?.[1];
    const keyId = /test key<\/dt><dd class="secret">id ([0-9a-f-]{36}) · key ([^<]+)</.exec(created.text);
    expect(partnerId).toBeDefined();
    const envelope = { userInfo: { id: partnerId, athrzt: { id: keyId![1], key: keyId![2] } }, cmmnd: { cmmnd: "dump entt_*CSTMRS" } };
    expect((await t.post(envelope)).exctnFdbck.id).toBe(75);
    expect((await admin.get("/admin/partners")).text).not.toContain(keyId![2]);
    const activated = await admin.post(`/admin/partners/${partnerId}`, { change: "enrichment-on" }, { "hx-request": "true" });
    expect(activated.text).toContain("Turn vehicle checks off");
    // Suspending and reinstating ask first (test/portal/confirmations.test.ts): through their confirmation.
    await admin.postConfirmed(`/admin/partners/${partnerId}`, { change: "suspend" }, { "hx-request": "true" });
    expect((await t.post(envelope)).exctnFdbck).toMatchObject({ id: 55, id_v4: 403 });
    await admin.postConfirmed(`/admin/partners/${partnerId}`, { change: "reinstate" }, { "hx-request": "true" });
    expect((await t.post(envelope)).exctnFdbck.id).toBe(75);
  });

  // Found by the fuzzer (test/fuzz/portal.test.ts): "constructor" and "__proto__" matched inherited members of the table of changes (HTTP 500).
  test("an account change that does not exist (an inherited name included) is a 400 and changes nothing", async () => {
    const admin = await signedIn(t, operator.portal);
    await admin.get("/admin/partners");
    const p = await t.partner();
    for (const change of ["constructor", "__proto__", "toString", "hasOwnProperty", "nope", ""]) {
      const answer = await admin.post(`/admin/partners/${p.partnerId}`, { change }, { "hx-request": "true" });
      expect(answer.status).toBe(400);
      expect(answer.text).toContain("Unknown change");
    }
    expect((await p.run("dump entt_*CSTMRS")).exctnFdbck.id).toBe(75);
  });

  test("every partner's transactions and consumers are listed for the operator", async () => {
    const { reference } = await pendingMarineImport();
    const admin = await signedIn(t, operator.portal);
    expect((await admin.get("/admin/policies?status=p")).text).toContain(reference);
    expect((await admin.get("/admin/consumers")).text).toContain("Adaeze");
  });

  test("partners cannot open the operator's pages, nor post to them", async () => {
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    for (const path of ["/admin", "/admin/policies", "/admin/partners", "/admin/audit", "/admin/consumers"]) expect((await b.get(path)).status).toBe(403);
    expect((await b.post("/admin/partners", { name: "Sneaky" })).status).toBe(403);
  });
});
