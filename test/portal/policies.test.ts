import { describe, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { simulatedInsurer, underwriteDuePolicies } from "../../src/modules/issuance/underwriting";
import { quotes as quotesTable } from "../../src/modules/quotes/schema";
import { inWords } from "../../src/portal/words";
import { PNG_BASE64, testApp } from "../support/harness";
import { fullConsumer } from "../support/policies";
import { signedIn } from "./browser";

const t = await testApp({ INSURER_DELAY_MS: 0 });
const vehicle = { brand: "Toyota", model: "Corolla", year: "2018", chsssId: "2T1BURHE0JC074316", engineId: "2ZR1234567", rgstrtId: "ABC123DE" };
const vehicleForm = Object.fromEntries(Object.entries(vehicle).map(([k, v]) => [`addtnlFact.${k}`, v]));

describe("quote and issue in the portal", () => {
  test("the premium follows the fields; issuing shows the policy with its certificate", async () => {
    const p = await t.partner();
    const { id: consumer } = await p.run("prfl entity", fullConsumer());
    const b = await signedIn(t, p.portal);
    const form = await b.get(`/portal/quote?product=vhcl-cmpr-1111&consumer=${consumer}`);
    expect(form.text).toContain("Insured value of the vehicle");
    const premium = await b.post(
      "/portal/quote/premium",
      { product: "vhcl-cmpr-1111", vhclValueForInsrnc: "2,000,000", insrncDrtn: "1y" },
      { "hx-request": "true" },
    );
    expect(premium.text).toContain("₦100,000.00");
    const tooLow = await b.post(
      "/portal/quote/premium",
      { product: "vhcl-cmpr-1111", vhclValueForInsrnc: "100000", insrncDrtn: "1y" },
      { "hx-request": "true" },
    );
    expect(tooLow.text).toContain("₦500,000");
    const reference = crypto.randomUUID();
    const issued = await b.post("/portal/quote/issue", { product: "vhcl-tprt-1111", insrncDrtn: "1y", consumer, id: reference, ...vehicleForm });
    expect(issued.status).toBe(303);
    expect(issued.location).toBe(`/portal/policies/${reference}`);
    const detail = await b.get(issued.location!);
    expect(detail.text).toContain("Approved");
    expect(detail.text).toContain("Download the certificate");
    const certificate = await b.get(`/portal/policies/${reference}/certificate`);
    expect(certificate.status).toBe(200);
    expect(certificate.headers.get("content-type")).toBe("application/pdf");
    // The JSON surface sees the same policy.
    const status = await p.run(`dump entt_${consumer}|insr_vhcl-tprt-1111-${reference}*STATUS`);
    expect(status.status).toBe("a");
  });

  test("details a product needs are fixed on the consumer's page, which comes back to the quote", async () => {
    const p = await t.partner();
    const { id: consumer } = await p.run("prfl entity", {
      type: "s",
      class: "h",
      name: { first: "Ngozi", last: "Eze" },
      gender: "f",
      dob: { date: "1988-02-14" },
      phoneNo: "+2348031112222",
      eMail: `ngozi.${crypto.randomUUID().slice(0, 6)}@example.ng`,
      addrss: { addrss: "4 Awolowo Road, Ikoyi, Lagos" },
    });
    const b = await signedIn(t, p.portal);
    await b.get(`/portal/quote?product=vhcl-cmpr-1111&consumer=${consumer}`);
    const refused = await b.post("/portal/quote/issue", {
      product: "vhcl-cmpr-1111",
      insrncDrtn: "1y",
      vhclValueForInsrnc: "2,000,000",
      consumer,
      id: crypto.randomUUID(),
      ...vehicleForm,
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("This consumer&#x27;s details lack what Vehicle, comprehensive needs: Identity document");
    const fix = /<a class="button" href="([^"]+)">Add the missing details on the consumer&#x27;s page<\/a>/.exec(refused.text)?.[1]?.replaceAll("&amp;", "&");
    expect(fix).toStartWith(`/portal/consumers/${consumer}/edit?return=`);
    const edit = await b.get(fix!);
    const back = `/portal/quote?consumer=${consumer}&product=vhcl-cmpr-1111`;
    expect(edit.text).toContain(`name="returnTo" value="${back}"`);
    const png = new Blob([Buffer.from(PNG_BASE64, "base64")], { type: "image/png" });
    const saved = await b.post("/portal/consumers", {
      updating: consumer,
      class: "h",
      eMail: /name="eMail" value="([^"]+)"/.exec(edit.text)![1]!,
      returnTo: back,
      "socialID.type": "nidd",
      "socialID.id": "12345678901",
      "socialID.image": png,
    });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(back);
  });

  test("a refusal keeps the form and names the field the rules name", async () => {
    const p = await t.partner();
    const { id: consumer } = await p.run("prfl entity", fullConsumer());
    const b = await signedIn(t, p.portal);
    await b.get("/portal/quote?product=vhcl-tprt-1111");
    const refused = await b.post("/portal/quote/issue", {
      product: "vhcl-tprt-1111",
      insrncDrtn: "1y",
      consumer,
      id: "bad ref!",
      ...vehicleForm,
      "addtnlFact.rgstrtId": "ABC-123",
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(inWords("seed.id"));
    expect(refused.text).toContain('value="Corolla"');
  });

  // Found by the fuzzer (test/fuzz/portal.test.ts): the form stored its quote, then the issuance was refused.
  test("a refused issuance stores nothing, not even the quote the form made for it", async () => {
    const p = await t.partner();
    const { id: consumer } = await p.run("prfl entity", fullConsumer());
    const b = await signedIn(t, p.portal);
    await b.get("/portal/quote?product=vhcl-tprt-1111");
    const quotes = async () => (await t.database.db.select({ n: count() }).from(quotesTable).where(eq(quotesTable.partnerId, p.partnerId)))[0]!.n;
    const refused = await b.post("/portal/quote/issue", {
      product: "vhcl-tprt-1111",
      insrncDrtn: "1y",
      consumer,
      id: crypto.randomUUID(),
      ...vehicleForm,
      "addtnlFact.brand": "",
    });
    expect(refused.status).toBe(400);
    expect(await quotes()).toBe(0);
    expect((await p.run("dump entt_*")).list).toHaveLength(0);
    const issued = await b.post("/portal/quote/issue", { product: "vhcl-tprt-1111", insrncDrtn: "1y", consumer, id: crypto.randomUUID(), ...vehicleForm });
    expect(issued.status).toBe(303);
    expect(await quotes()).toBe(1);
  });

  test("a live policy waits, refreshes itself, and shows the decision", async () => {
    const p = await t.partner();
    await p.run("wallet topup", { amount: 100_000, reference: "fund-1" }, "live");
    await p.run("set env_live", undefined, "legacy");
    const { id: consumer } = await p.run("prfl entity", fullConsumer());
    const b = await signedIn(t, p.portal);
    await b.get("/portal/quote?product=vhcl-tprt-1111");
    const reference = crypto.randomUUID();
    // A live policy is issued from its confirmation, which shows the premium (test/portal/confirmations.test.ts).
    const { step, answer: issued } = await b.postConfirmed("/portal/quote/issue", {
      product: "vhcl-tprt-1111",
      insrncDrtn: "1y",
      consumer,
      id: reference,
      ...vehicleForm,
    });
    expect(step!.text).toContain("Issue and pay ₦");
    expect(issued.status).toBe(303);
    const pending = await b.get(issued.location!);
    expect(pending.text).toContain("Pending");
    expect(pending.text).toContain('hx-trigger="every 3s"');
    await underwriteDuePolicies(t.database.db, simulatedInsurer, new Date(Date.now() + 60_000), { batch: 1000 });
    const decided = await b.get(`${issued.location}/status`, { "hx-request": "true" });
    expect(decided.text).toContain("Approved");
    expect(decided.text).not.toContain("every 3s");
  });

  test("the list filters by status and product; another partner's policy is not found", async () => {
    const p = await t.partner();
    const other = await t.partner();
    const { id: consumer } = await p.run("prfl entity", fullConsumer());
    const reference = crypto.randomUUID();
    await p.run(`entt_${consumer}: insure`, { ctgry: "vhcl", type: "tprt", pckg: "1111", id: reference, insrncDrtn: "1y", addtnlFact: vehicle });
    const b = await signedIn(t, p.portal);
    expect((await b.get("/portal/policies?status=a&product=vhcl-tprt-1111")).text).toContain(reference);
    expect((await b.get("/portal/policies?status=p")).text).not.toContain(reference);
    const intruder = await signedIn(t, other.portal);
    expect((await intruder.get(`/portal/policies/${reference}`)).status).toBe(404);
    expect((await intruder.get(`/portal/policies/${reference}/certificate`)).status).toBe(404);
    expect((await intruder.get("/portal/policies")).text).not.toContain(reference);
  });
});

describe("the consumer picker of quote and issue (issue 36)", () => {
  /** The consumers the picker lists, in order, by their names. */
  const listed = (html: string) => [...html.matchAll(/<option value="[0-9a-f]{32}"[^>]*>([^<·]+)/g)].map((m) => m[1]!.trim());

  test("a search by name, phone as typed or e-mail narrows the list, newest first; without JavaScript it is a GET of the page", async () => {
    const p = await t.partner();
    const tag = crypto.randomUUID().slice(0, 8);
    const person = (first: string, last: string, phoneNo: string) => ({
      type: "s",
      class: "h",
      name: { first, last },
      phoneNo,
      eMail: `${first.toLowerCase()}.${tag}@example.ng`,
    });
    const { id: bola } = await p.run("prfl entity", person("Bola", "Ige", "+2348091234567"));
    await p.run("prfl entity", person("Ngozi", "Eze", "+2348031112222"));
    const b = await signedIn(t, p.portal);

    // Everyone, newest first; the search field is there, outside the quote's own form.
    const page = await b.get("/portal/quote?product=vhcl-tprt-1111");
    expect(listed(page.text)).toEqual(["Ngozi Eze", "Bola Ige"]);
    expect(page.text).toContain('<form class="search" role="search" action="/portal/quote" method="get">');
    expect(page.text).toContain('hx-get="/portal/quote/consumers"');

    // As htmx asks while typing: the phone the way the form invites it, with or without spaces, or in the international form.
    for (const typed of ["0809 123 4567", "08091234567", "+234 809 123 4567", "2348091234567", "0809-123"]) {
      const found = await b.get(`/portal/quote/consumers?q=${encodeURIComponent(typed)}`, { "hx-request": "true" });
      expect(found.status).toBe(200);
      expect(listed(found.text)).toEqual(["Bola Ige"]);
      expect(found.text).toContain(`1 consumer matches “${typed}”, newest first.`);
    }
    expect(listed((await b.get("/portal/quote/consumers?q=ngo", { "hx-request": "true" })).text)).toEqual(["Ngozi Eze"]);
    expect(listed((await b.get(`/portal/quote/consumers?q=bola.${tag}`, { "hx-request": "true" })).text)).toEqual(["Bola Ige"]);
    const both = await b.get(`/portal/quote/consumers?q=${tag}`, { "hx-request": "true" });
    expect(listed(both.text)).toEqual(["Ngozi Eze", "Bola Ige"]);
    expect(both.text).toContain(`2 consumers match “${tag}”, newest first.`);
    const none = await b.get("/portal/quote/consumers?q=Zainab", { "hx-request": "true" });
    expect(listed(none.text)).toEqual([]);
    expect(none.text).toContain("No consumer matches “Zainab”");

    // A consumer already chosen stays listed (and chosen) whatever the search finds.
    const kept = await b.get(`/portal/quote/consumers?q=ngo&consumer=${bola}`, { "hx-request": "true" });
    expect(listed(kept.text)).toEqual(["Bola Ige", "Ngozi Eze"]);
    expect(kept.text).toContain(`<option value="${bola}" selected>`);

    // Without JavaScript: the page itself, narrowed, with the search as typed and the product kept.
    const plain = await b.get(`/portal/quote?q=${encodeURIComponent("0809 123 4567")}&product=vhcl-tprt-1111`);
    expect(plain.status).toBe(200);
    expect(listed(plain.text)).toEqual(["Bola Ige"]);
    expect(plain.text).toContain('value="0809 123 4567"');
    expect(plain.text).toContain('<input type="hidden" name="product" value="vhcl-tprt-1111"/>');

    // The Consumers page finds the phone as typed too (the same search).
    const consumers = await b.get(`/portal/consumers?q=${encodeURIComponent("0809 123 4567")}`);
    expect(consumers.text).toContain("Bola");
    expect(consumers.text).not.toContain("Ngozi");

    // Odd input is no error: a repeated parameter, a search of wildcards.
    expect((await b.get("/portal/quote/consumers?q=a&q=b", { "hx-request": "true" })).status).toBe(200);
    expect(listed((await b.get(`/portal/quote/consumers?q=${encodeURIComponent("%_")}`, { "hx-request": "true" })).text)).toEqual([]);
    // Another partner's consumers are never listed.
    const other = await signedIn(t, (await t.partner()).portal);
    expect(listed((await other.get(`/portal/quote/consumers?q=${tag}`, { "hx-request": "true" })).text)).toEqual([]);
  });
});
