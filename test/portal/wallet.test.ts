import { describe, expect, test } from "bun:test";
import { listAudit } from "../../src/modules/audit/service";
import type { VehicleRegistry } from "../../src/modules/enrichment/registry";
import { checkVehicleRegistry, currentWatMonth, decodeVin } from "../../src/modules/enrichment/service";
import { setAccountMode } from "../../src/modules/partners/service";
import { walletBalance } from "../../src/modules/wallet/service";
import { inWords } from "../../src/portal/words";
import { type TestPartner, testApp } from "../support/harness";
import { signedIn } from "./browser";

const t = await testApp();
const db = t.database.db;

const auditOf = async (partnerId: string, action: string) => (await listAudit(db, { partnerId, action }, { limit: 50 })).items;
const reference = () => `TRF-${crypto.randomUUID().slice(0, 8)}`;
/** The escaped form of a JSON answer's message as a page shows it. */
const shown = (message: string) =>
  message.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#x27;");
/** A partner whose portal is in live mode: top-ups there are live fundings (the sandbox provider pays an ordinary reference at once). */
async function livePartner() {
  const p = await t.partner();
  await setAccountMode(db, p.partnerId, "live");
  return p;
}
const elbrtn = async (p: TestPartner, seed: unknown) => (await p.run("wallet topup", seed)).exctnFdbck.elbrtn as string;

describe("wallet page", () => {
  test("an empty wallet: balance ₦0.00, an empty ledger and this month's statement", async () => {
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    const page = await b.get("/portal/wallet");
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="balance">₦0.00<');
    expect(page.text).toContain("No wallet activity yet");
    expect(page.text).toContain(`value="${currentWatMonth(new Date())}"`);
    expect(page.text).toContain("No vehicle checks in");
    expect(page.text).toContain('<label for="f-amount"');
    expect(page.text).toContain('<label for="f-reference"');
    expect(page.text).toContain('<label for="f-month"');
  });

  test("a top-up credits the wallet, shows the new balance in naira, writes the ledger and the audit log", async () => {
    const p = await livePartner();
    const b = await signedIn(t, p.portal);
    await b.get("/portal/wallet");
    const ref = reference();
    const done = await b.post("/portal/wallet/topup", { amount: "₦1,250,000.50", reference: ref }, { "hx-request": "true" });
    expect(done.status).toBe(200);
    expect(done.text).not.toContain("<html");
    expect(done.text).toContain('role="status"');
    expect(done.text).toContain(`Credited ₦1,250,000.50 with reference ${ref}. The balance is now ₦1,250,000.50.`);
    expect(done.text).toContain('id="balance">₦1,250,000.50<');
    expect(done.text).toContain('value=""'); // a new credit clears the form
    expect(await walletBalance(db, p.partnerId)).toBe(125_000_050);
    const page = await b.get("/portal/wallet");
    expect(page.text).toContain("Top-up");
    expect(page.text).toContain(ref);
    expect(page.text).toMatch(/<td>\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}<\/td>/);
    expect(await auditOf(p.partnerId, "funding.start")).toMatchObject([
      { actor: p.portal.email, subject: ref, details: { amountKobo: 125_000_050, provider: "sandbox" } },
    ]);
    // The JSON surface sees the same credit: a repeat there returns it.
    const repeat = await p.run("wallet topup", { amount: 1_250_000.5, reference: ref }, "live");
    expect(repeat).toMatchObject({ reference: ref, amount: 1_250_000.5, balance: 1_250_000.5 });
  });

  test("a repeated reference shows the first result and credits nothing", async () => {
    const p = await livePartner();
    const b = await signedIn(t, p.portal);
    await b.get("/portal/wallet");
    const ref = reference();
    await p.run("wallet topup", { amount: 5000, reference: ref }, "live");
    await p.run("wallet topup", { amount: 700, reference: reference() }, "live");
    const repeat = await b.post("/portal/wallet/topup", { amount: "5000", reference: ref });
    expect(repeat.status).toBe(200);
    expect(repeat.text).toContain(`Reference ${ref} was already used on`);
    expect(repeat.text).toContain("for ₦5,000.00: nothing new was credited");
    expect(repeat.text).toContain("balance after it: ₦5,000.00");
    expect(repeat.text).toContain('id="balance">₦5,700.00<');
    expect(await walletBalance(db, p.partnerId)).toBe(570_000);
    expect(await auditOf(p.partnerId, "funding.start")).toHaveLength(0); // top-ups made through the JSON surface are not portal actions; the repeat changed nothing
  });

  test.each([
    ["a negative amount", { amount: "-5", reference: "NEG-1" }, { amount: -5, reference: "NEG-1" }, "amount"],
    ["three decimals", { amount: "12.345", reference: "DEC-1" }, { amount: 12.345, reference: "DEC-1" }, "amount"],
    ["too much", { amount: "1,000,000,001", reference: "BIG-1" }, { amount: 1_000_000_001, reference: "BIG-1" }, "amount"],
    ["no amount", { amount: " ", reference: "NONE-1" }, { reference: "NONE-1" }, "amount"],
    ["text for the amount", { amount: "five thousand", reference: "TXT-1" }, { amount: "five thousand", reference: "TXT-1" }, "amount"],
    ["a reference with spaces", { amount: "100", reference: "bad ref!" }, { amount: 100, reference: "bad ref!" }, "reference"],
    ["no reference", { amount: "100", reference: "" }, { amount: 100 }, "reference"],
  ])("%s is refused next to its field with the words of wallet topup, keeping what was typed", async (_name, form, seed, input) => {
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    await b.get("/portal/wallet");
    const refused = await b.post("/portal/wallet/topup", form);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(`id="f-${input}-error"`);
    expect(refused.text).toContain(`aria-describedby="f-${input}-hint f-${input}-error"`);
    const message = await elbrtn(p, seed);
    expect(message).toContain(`seed.${input}`);
    // The rule of the JSON surface, in the portal's words (src/portal/words.ts).
    expect(refused.text).toContain(`>${shown(inWords(message))}</p>`);
    if (form.reference) expect(refused.text).toContain(`value="${form.reference}"`);
    expect(await walletBalance(db, p.partnerId)).toBe(0);
    expect(await auditOf(p.partnerId, "wallet.topup")).toHaveLength(0);
  });

  test("the same reference with another amount is a conflict shown next to the reference", async () => {
    const p = await livePartner();
    const b = await signedIn(t, p.portal);
    await b.get("/portal/wallet");
    const ref = reference();
    await b.post("/portal/wallet/topup", { amount: "100", reference: ref });
    const conflict = await b.post("/portal/wallet/topup", { amount: "200", reference: ref });
    expect(conflict.status).toBe(409);
    expect(conflict.text).toContain('id="f-reference-error"');
    expect(conflict.text).toContain(`Reference ${ref} was already used for a top-up of ₦100`);
    expect(conflict.text).toContain('value="200"');
    expect(await walletBalance(db, p.partnerId)).toBe(10_000);
  });

  test("without the CSRF token nothing is credited: 403", async () => {
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    await b.get("/portal/wallet");
    expect((await b.post("/portal/wallet/topup", { amount: "100", reference: reference(), _csrf: "" })).status).toBe(403);
    expect(await walletBalance(db, p.partnerId)).toBe(0);
    expect((await b.get("/portal/wallet")).text).toContain("No wallet activity yet");
  });

  test("the ledger is newest first, 25 rows a page, with Show more for the rest", async () => {
    const p = await t.partner();
    for (let i = 1; i <= 27; i++) await p.run("wallet topup", { amount: i, reference: `ROW-${String(i).padStart(2, "0")}` }, "live");
    const b = await signedIn(t, p.portal);
    const page = await b.get("/portal/wallet");
    expect(page.text).toContain('id="balance">₦378.00<');
    const shownRefs = [...page.text.matchAll(/ROW-(\d\d)/g)].map((m) => m[1]);
    expect(shownRefs).toHaveLength(25);
    expect(shownRefs[0]).toBe("27");
    expect(shownRefs.at(-1)).toBe("03");
    const more = /hx-get="(\/portal\/wallet\?rows=1&(?:amp;)?cursor=[^"]+)"/.exec(page.text)![1]!.replaceAll("&amp;", "&");
    const rest = await b.get(more, { "hx-request": "true" });
    expect(rest.status).toBe(200);
    expect(rest.text).not.toContain("<html");
    expect([...rest.text.matchAll(/ROW-(\d\d)/g)].map((m) => m[1])).toEqual(["02", "01"]);
    expect(rest.text).not.toContain("Show more");
    const bad = await b.get("/portal/wallet?rows=1&cursor=nonsense", { "hx-request": "true" });
    expect(bad.status).toBe(400);
  });

  test("a partner never sees another partner's ledger or balance", async () => {
    const a = await t.partner();
    const other = await t.partner();
    const secretRef = reference();
    await other.run("wallet topup", { amount: 987_654, reference: secretRef }, "live");
    const b = await signedIn(t, a.portal);
    const page = await b.get("/portal/wallet");
    expect(page.text).not.toContain(secretRef);
    expect(page.text).not.toContain("987,654");
    expect(page.text).toContain('id="balance">₦0.00<');
  });

  test("the monthly usage statement: lines per service and mode with the total, Nigerian calendar months, a month picker", async () => {
    const p = await t.partner({ enrichment: true });
    const registry: VehicleRegistry = {
      lookup: async () => ({ status: "not_found", details: {}, message: "no insurance record was found" }),
      publish: async () => {},
    };
    const decoder = { decode: async () => ({ make: "Honda" }) };
    const plate = () => `ST${crypto.randomUUID().replace(/-/g, "").slice(0, 8).toUpperCase()}`;
    // 23:30 UTC on 31 January is 00:30 WAT on 1 February: February's statement.
    const lateJanuaryUtc = new Date("2025-01-31T23:30:00Z");
    const live = { partnerId: p.partnerId, mode: "live" as const };
    await checkVehicleRegistry(db, registry, live, { value: plate() }, lateJanuaryUtc);
    await checkVehicleRegistry(db, registry, live, { value: plate() }, lateJanuaryUtc);
    await checkVehicleRegistry(db, registry, { ...live, mode: "test" }, { value: plate() }, lateJanuaryUtc);
    await decodeVin(db, decoder, live, { vin: "1HGCM82633A004352" }, lateJanuaryUtc);
    await checkVehicleRegistry(db, registry, live, { value: plate() }, new Date("2025-01-31T22:30:00Z")); // 23:30 WAT: still January

    const b = await signedIn(t, p.portal);
    const february = await b.get("/portal/wallet?month=2025-02");
    expect(february.status).toBe(200);
    expect(february.text).toContain("Vehicle checks in February 2025");
    const rows = [
      ...february.text.matchAll(
        /<tr><td>([^<]+)<\/td><td>(Live|Test)<\/td><td class="num">(\d+)<\/td><td class="num">(\d+)<\/td><td class="num">([^<]+)<\/td><\/tr>/g,
      ),
    ].map((m) => m.slice(1));
    expect(rows).toEqual([
      ["Vehicle registry checks", "Live", "2", "2", "₦300.00"],
      ["Vehicle registry checks", "Test", "1", "0", "₦0.00"],
      ["VIN decodes", "Live", "1", "0", "₦0.00"],
    ]);
    expect(february.text).toContain('<th scope="row" colspan="4">Total</th><td class="num">₦300.00</td>');

    const january = await b.get("/portal/wallet/usage?month=2025-01", { "hx-request": "true" });
    expect(january.text).not.toContain("<html");
    expect(january.text).toContain("Vehicle checks in January 2025");
    expect(january.text).toContain("₦150.00</td></tr></tfoot>");

    const empty = await b.get("/portal/wallet/usage?month=2024-12", { "hx-request": "true" });
    expect(empty.text).toContain("No vehicle checks in December 2024.");

    const bad = await b.get("/portal/wallet/usage?month=2025-13", { "hx-request": "true" });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('id="f-month-error"');
    expect(bad.text).toContain("Month must be a month as YYYY-MM from 1900-01 to 2099-12; received &quot;2025-13&quot;");
    expect(bad.text).toContain('value="2025-13"');

    // Another partner's statement for the same month is empty.
    const other = await signedIn(t, (await t.partner()).portal);
    expect((await other.get("/portal/wallet?month=2025-02")).text).toContain("No vehicle checks in February 2025.");
  });
});

describe("the wallet in test mode", () => {
  test("its own balance and ledger, marked as test money, beside the live wallet they never reach", async () => {
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    const empty = await b.get("/portal/wallet");
    expect(empty.text).toContain('id="test-balance">₦0.00<');
    expect(empty.text).toContain("No test top-ups yet.");
    await b.post("/portal/wallet/topup", { amount: "5,000", reference: "TEST-ONE" });
    const done = await b.post("/portal/wallet/topup", { amount: "2,500.50", reference: "TEST-TWO" }, { "hx-request": "true" });
    expect(done.text).toContain("The test balance is ₦7,500.50");
    // The page says it too, not only the passing message.
    const page = await b.get("/portal/wallet");
    expect(page.text).toContain('id="test-balance">₦7,500.50<');
    expect(page.text).toContain("Test money");
    expect(page.text).toContain("Test wallet activity");
    const testRows = page.text.slice(page.text.indexOf('id="test-ledger-rows"'), page.text.indexOf("</tbody>", page.text.indexOf('id="test-ledger-rows"')));
    expect([...testRows.matchAll(/TEST-(ONE|TWO)/g)].map((m) => m[1])).toEqual(["TWO", "ONE"]);
    expect(testRows).toContain("₦7,500.50");
    expect(testRows).toContain("₦5,000.00");
    // The live wallet is untouched, and says so.
    expect(page.text).toContain('id="balance">₦0.00<');
    expect(page.text).toContain("Live wallet balance");
    expect(page.text).toContain("No wallet activity yet");
    expect(await walletBalance(db, p.partnerId)).toBe(0);
  });

  test("test activity pages by 25 with Show more; a live-mode page has no test money", async () => {
    const p = await t.partner();
    for (let i = 1; i <= 27; i++) await p.run("wallet topup", { amount: i, reference: `TROW-${String(i).padStart(2, "0")}` });
    const b = await signedIn(t, p.portal);
    const page = await b.get("/portal/wallet");
    expect(page.text).toContain('id="test-balance">₦378.00<');
    const more = /hx-get="(\/portal\/wallet\?ledger=test(?:&|&amp;)rows=1&(?:amp;)?cursor=[^"]+)"/.exec(page.text)![1]!.replaceAll("&amp;", "&");
    const rest = await b.get(more, { "hx-request": "true" });
    expect(rest.status).toBe(200);
    expect([...rest.text.matchAll(/TROW-(\d\d)/g)].map((m) => m[1])).toEqual(["02", "01"]);
    await setAccountMode(db, p.partnerId, "live");
    const live = await (await signedIn(t, p.portal)).get("/portal/wallet");
    expect(live.text).not.toContain("test-balance");
    expect(live.text).not.toContain("Test money");
  });
});
