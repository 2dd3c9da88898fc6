import { afterAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { freePort } from "../../bench/servers";
import { listAudit } from "../../src/modules/audit/service";
import { httpVehicleRegistry, type PublishedPolicy } from "../../src/modules/enrichment/registry";
import { usageCharges } from "../../src/modules/enrichment/schema";
import { setAccountMode } from "../../src/modules/partners/service";
import { inWords } from "../../src/portal/words";
import { newPlate, publishVehicle } from "../niid/records";
import { type TestPartner, testApp } from "../support/harness";
import { startVerificationService } from "../support/verification-service";
import { signedIn } from "./browser";

const niid = await startVerificationService();
afterAll(() => niid.stop());

const t = await testApp({ NIID_URL: niid.url, NIID_TIMEOUT_MS: 5_000 });
const db = t.database.db;
const registry = httpVehicleRegistry(niid.url, 5_000);

const shown = (message: string) =>
  message.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#x27;");

const published = (overrides: Partial<PublishedPolicy> = {}) => publishVehicle(registry, { name: "AXA Mansard", prefix: "AXA" }, overrides);

const chargesOf = (partnerId: string) =>
  db
    .select({
      outcome: usageCharges.outcome,
      fromCache: usageCharges.fromCache,
      amountKobo: usageCharges.amountKobo,
      mode: usageCharges.mode,
      service: usageCharges.service,
    })
    .from(usageCharges)
    .where(eq(usageCharges.partnerId, partnerId))
    .orderBy(usageCharges.createdAt, usageCharges.id);

async function enriched(): Promise<{ p: TestPartner; b: Awaited<ReturnType<typeof signedIn>> }> {
  const p = await t.partner({ enrichment: true });
  const b = await signedIn(t, p.portal);
  await b.get("/portal/vehicle");
  return { p, b };
}

describe("vehicle checks page", () => {
  test("without enrichment the page and its forms answer 403 explaining activation, and nothing is looked up", async () => {
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    expect((await b.get("/portal")).text).not.toContain('href="/portal/vehicle"');
    const page = await b.get("/portal/vehicle");
    expect(page.status).toBe(403);
    expect(page.text).toContain("Vehicle checks are not activated on this account");
    expect(page.text).toContain("enrch niid_vehicle");
    await b.get("/portal/keys"); // a page with the CSRF token
    expect((await b.post("/portal/vehicle/check", { search_type: "registration", value: newPlate() })).status).toBe(403);
    expect((await b.post("/portal/vehicle/vin", { vin: "1HGCM82633A004352" })).status).toBe(403);
    expect(await chargesOf(p.partnerId)).toEqual([]);
  });

  test("the page: both forms labelled, submitted with htmx and the loading indicator, with the first-lookup and billing notes", async () => {
    const { b } = await enriched();
    const page = await b.get("/portal/vehicle");
    expect(page.status).toBe(200);
    expect(page.text).toContain('href="/portal/vehicle" aria-current="page"');
    for (const input of ["search_type", "value", "vin"]) expect(page.text).toContain(`<label for="f-${input}"`);
    expect(page.text).toContain('hx-post="/portal/vehicle/check"');
    expect(page.text).toContain('hx-indicator="#loading"');
    expect(page.text).toContain("The first lookup of a plate takes a while");
    expect(page.text).toContain("costs ₦150.00 in live mode");
  });

  test("found by plate: the registry's details as a definition list; billed in live mode, free from the cache, free in test mode", async () => {
    const { p, b } = await enriched();
    const record = await published();
    await setAccountMode(db, p.partnerId, "live");
    const plate = record.registrationNumber;
    const spaced = `${plate.slice(0, 3).toLowerCase()} ${plate.slice(3, 6)}-${plate.slice(6)}`;
    const found = await b.post("/portal/vehicle/check", { search_type: "registration", value: spaced }, { "hx-request": "true" });
    expect(found.status).toBe(200);
    expect(found.text).not.toContain("<html");
    expect(found.text).toContain('id="registry-result"');
    expect(found.text).toContain('role="status"');
    expect(found.text).toContain(">Found<");
    expect(found.text).toContain(`<dt>Policy number</dt><dd>${record.policyNumber}</dd>`);
    expect(found.text).toContain(`<dt>Registration number</dt><dd>${plate}</dd>`);
    expect(found.text).toContain("<dt>Insurer</dt><dd>AXA Mansard</dd>");
    expect(found.text).toMatch(/<dt>Expiry date<\/dt><dd>\d{2} [A-Z][a-z]{2} \d{4}<\/dd>/);
    expect(found.text).toContain("Billed ₦150.00 to this month");
    expect(found.text).toContain(`value="${spaced}"`); // what was typed stays

    const again = await b.post("/portal/vehicle/check", { search_type: "registration", value: plate });
    expect(again.status).toBe(200);
    expect(again.text).toContain("<html"); // a full page without htmx
    expect(again.text).toContain(">from cache<");
    expect(again.text).toContain("this repeat was not billed");

    await setAccountMode(db, p.partnerId, "test");
    const byPolicy = await b.post("/portal/vehicle/check", { search_type: "policy", value: record.policyNumber.toLowerCase() });
    expect(byPolicy.text).toContain(`<dt>Registration number</dt><dd>${plate}</dd>`);
    expect(byPolicy.text).toContain("Test mode: not billed.");

    expect((await chargesOf(p.partnerId)).map((c) => [c.outcome, c.fromCache, c.amountKobo, c.mode])).toEqual([
      ["found", false, 15_000, "live"],
      ["found", true, 0, "live"],
      ["found", false, 0, "test"],
    ]);
    const audit = (await listAudit(db, { partnerId: p.partnerId, action: "vehicle.check" }, { limit: 10 })).items;
    expect(audit.map((e) => e.details)).toEqual([
      { status: "found", fromCache: false, amountKobo: 0 },
      { status: "found", fromCache: true, amountKobo: 0 },
      { status: "found", fromCache: false, amountKobo: 15_000 },
    ]);
    expect(audit.map((e) => [e.actor, e.subject])).toEqual([
      [p.portal.email, `policy:${record.policyNumber.toUpperCase()}`],
      [p.portal.email, `registration:${plate}`],
      [p.portal.email, `registration:${plate}`],
    ]);
    // The statement on the wallet page carries the charge.
    expect((await b.get("/portal/wallet")).text).toContain("₦150.00</td></tr></tfoot>");
  });

  test("not found shows the registry's message", async () => {
    const { p, b } = await enriched();
    const plate = newPlate();
    const answer = await b.post("/portal/vehicle/check", { search_type: "registration", value: plate });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain(">Not found<");
    expect(answer.text).toContain(`No insurance record was found for`);
    expect(answer.text).toContain(plate);
    expect(await chargesOf(p.partnerId)).toHaveLength(1);
  });

  test.each([
    ["no value", { search_type: "registration", value: "" }, {}, "value"],
    ["an unknown search type", { search_type: "vin", value: "ABC123DE" }, { search_type: "vin", value: "ABC123DE" }, "search_type"],
  ])("%s is refused next to its field with the JSON surface's words", async (_name, form, seed, input) => {
    const { p, b } = await enriched();
    const refused = await b.post("/portal/vehicle/check", form);
    expect(refused.status).toBe(400);
    const json = (await p.run("enrch niid_vehicle", seed)).exctnFdbck;
    expect(json.id_v4).toBe(400);
    expect(refused.text).toContain(`id="f-${input}-error"`);
    expect(refused.text).toContain(`>${shown(inWords(json.elbrtn))}</p>`);
    expect(await chargesOf(p.partnerId)).toEqual([]);
  });

  test.each([
    ["FAULT502", 502],
    ["FAULT504", 504],
  ])("a registry failure (%s) answers %d with the JSON surface's words, billed nothing", async (prefix, status) => {
    const { p, b } = await enriched();
    const value = `${prefix}${Math.floor(Math.random() * 1e6)}`;
    const failed = await b.post("/portal/vehicle/check", { search_type: "registration", value }, { "hx-request": "true" });
    expect(failed.status).toBe(status);
    const json = (await p.run("enrch niid_vehicle", { value })).exctnFdbck;
    expect(json.id_v4).toBe(status);
    expect(failed.text).toContain('class="problem" role="alert"');
    expect(failed.text).toContain(shown(inWords(json.elbrtn)));
    expect(failed.text).toContain(`value="${value}"`);
    expect(await chargesOf(p.partnerId)).toEqual([]);
  });

  test("no registry configured answers 503; an unreachable one 502", async () => {
    const plate = newPlate();
    const unconfigured = await testApp();
    const p = await unconfigured.partner({ enrichment: true });
    const b = await signedIn(unconfigured, p.portal);
    await b.get("/portal/vehicle");
    const refused = await b.post("/portal/vehicle/check", { search_type: "registration", value: plate });
    expect(refused.status).toBe(503);
    expect(refused.text).toContain("Vehicle registry is not configured on this service");

    const unreachable = await testApp({ NIID_URL: `http://127.0.0.1:${await freePort()}` });
    const q = await unreachable.partner({ enrichment: true });
    const c = await signedIn(unreachable, q.portal);
    await c.get("/portal/vehicle");
    const down = await c.post("/portal/vehicle/check", { search_type: "registration", value: plate });
    expect(down.status).toBe(502);
    expect(down.text).toContain(inWords("vehicle registry is unreachable: retry later"));
  });

  test("VIN decode: the catalogue's fields as a definition list; a bad VIN is refused next to the field with the JSON surface's words", async () => {
    const { p, b } = await enriched();
    const decoded = await b.post("/portal/vehicle/vin", { vin: "1hgcm82633a004352" }, { "hx-request": "true" });
    expect(decoded.status).toBe(200);
    expect(decoded.text).not.toContain("<html");
    expect(decoded.text).toContain('id="vin-result"');
    expect(decoded.text).toContain("<dt>Make</dt><dd>Honda</dd>");
    expect(decoded.text).toContain("<dt>Model</dt><dd>Accord</dd>");
    expect(decoded.text).toContain("<dt>Model year</dt><dd>2003</dd>");

    const unknown = await b.post("/portal/vehicle/vin", { vin: "1J9RP1A36A1644345" });
    expect(unknown.status).toBe(200);
    expect(unknown.text).toContain("The catalogue does not know this VIN");

    const wrong = await b.post("/portal/vehicle/vin", { vin: "1HGCM82634A004352" });
    expect(wrong.status).toBe(400);
    const json = (await p.run("enrch vin_vehicle", { vin: "1HGCM82634A004352" })).exctnFdbck;
    expect(wrong.text).toContain('id="f-vin-error"');
    expect(wrong.text).toContain(`>${shown(inWords(json.elbrtn))}</p>`);
    expect(wrong.text).toContain('value="1HGCM82634A004352"');

    const blank = await b.post("/portal/vehicle/vin", { vin: " " });
    expect(blank.status).toBe(400);
    expect(blank.text).toContain(inWords("seed.vin is required: a 17-character VIN"));
    expect((await chargesOf(p.partnerId)).map((c) => [c.service, c.outcome, c.amountKobo])).toEqual([
      ["vin_decode", "decoded", 0],
      ["vin_decode", "unknown", 0],
    ]);
  });

  test("without the CSRF token nothing is looked up: 403", async () => {
    const { p, b } = await enriched();
    const refused = await b.post("/portal/vehicle/check", { search_type: "registration", value: newPlate(), _csrf: "" });
    expect(refused.status).toBe(403);
    expect((await b.post("/portal/vehicle/vin", { vin: "1HGCM82633A004352", _csrf: "" })).status).toBe(403);
    expect(await chargesOf(p.partnerId)).toEqual([]);
    expect((await listAudit(db, { partnerId: p.partnerId }, { limit: 5 })).items).toEqual([]);
  });
});
