/**
 * A seed value that is empty once normalised (a plate of only hyphens, a VIN of only spaces, a
 * phone of only punctuation) is a 400 naming the field on every command (issue 13, section 4),
 * and the dependency behind the command is never called: the registry here records every lookup.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { usageCharges } from "../src/modules/enrichment/schema";
import { inWords } from "../src/portal/words";
import { signedIn } from "./portal/browser";
import { type TestPartner, testApp } from "./support/harness";
import { fullConsumer, insureSeed, productCases } from "./support/policies";

// Several commands per test on a busy machine: more than bun's default 5 s.
setDefaultTimeout(30_000);

/** A vehicle registry that answers not_found and records what it was asked. */
const lookups: unknown[] = [];
const registry = Bun.serve({
  port: 0,
  async fetch(request) {
    if (new URL(request.url).pathname === "/verify/vehicle") lookups.push(await request.json());
    return Response.json({ status: "not_found", details: {}, message: "no record" });
  },
});
afterAll(() => registry.stop(true));

const t = await testApp({ NIID_URL: `http://127.0.0.1:${registry.port}`, NIID_TIMEOUT_MS: 5_000 });
const db = t.database.db;
const chargesOf = (partnerId: string) => db.select().from(usageCharges).where(eq(usageCharges.partnerId, partnerId));

const refused = (answer: any, field: string) => {
  expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 400 });
  expect(answer.exctnFdbck.elbrtn).toStartWith(field);
};

describe("enrch niid_vehicle: nothing left once normalised is refused, never sent to the registry", () => {
  test.each([
    ["a plate of hyphens and spaces", { value: "- -" }],
    ["a plate of one hyphen", { value: "-" }],
    ["a plate of hyphens only", { search_type: "registration", value: "---" }],
    ["a policy number of punctuation", { search_type: "policy", value: "./-" }],
  ])("%s → 400 naming seed.value, no lookup, nothing billed (live key)", async (_name, seed) => {
    const p = await t.partner({ enrichment: true });
    const before = lookups.length;
    const answer = await p.run("enrch niid_vehicle", seed, "live");
    refused(answer, "seed.value");
    expect(answer.exctnFdbck.elbrtn).toBe(
      "seed.value must contain a letter or digit: a plate or policy number of only spaces, hyphens or punctuation matches no vehicle",
    );
    expect(lookups.length).toBe(before);
    expect(await chargesOf(p.partnerId)).toEqual([]);
  });

  test("a plate written with spaces and hyphens still reaches the registry, normalised", async () => {
    const p = await t.partner({ enrichment: true });
    const digits = String(100 + Math.floor(Math.random() * 900)); // a plate no earlier run has cached
    const before = lookups.length;
    expect(await p.run("enrch niid_vehicle", { value: `zq-${digits} qa` })).toMatchObject({ status: "not_found", exctnFdbck: { id: 75 } });
    expect(lookups.slice(before)).toEqual([{ search_type: "registration", value: `ZQ${digits}QA` }]);
  });

  test("the portal's vehicle check gives the same 400 and calls nothing", async () => {
    const p = await t.partner({ enrichment: true });
    const b = await signedIn(t, p.portal);
    await b.get("/portal/vehicle");
    const before = lookups.length;
    const page = await b.post("/portal/vehicle/check", { search_type: "registration", value: "- -" });
    expect(page.status).toBe(400);
    expect(page.text).toContain(inWords("seed.value must contain a letter or digit"));
    expect(lookups.length).toBe(before);
  });
});

describe("every other normalised field refuses an empty value by its own format rule (400 naming it)", () => {
  test("enrch vin_vehicle: a VIN of 17 spaces", async () => {
    const p = await t.partner({ enrichment: true });
    refused(await p.run("enrch vin_vehicle", { vin: " ".repeat(17) }), "seed.vin");
    refused(await p.run("enrch vin_vehicle", { vin: "-".repeat(17) }), "seed.vin");
    expect(await chargesOf(p.partnerId)).toEqual([]);
  });

  test("prfl entity: a phone of only punctuation", async () => {
    const p = await t.partner();
    refused(await p.run("prfl entity", { ...fullConsumer(), phoneNo: "+-() --" }), "seed.phoneNo");
  });

  async function consumerOf(p: TestPartner) {
    return (await p.run("prfl entity", fullConsumer())).id as string;
  }

  test.each([
    ["vhcl-tprt-1111", "rgstrtId", "- -"],
    ["vhcl-tprt-1111", "chsssId", "  -  "],
    ["vhcl-tprt-1111", "engineId", "----"],
    ["phnn-flx1-1111", "uIdnt", "- - -"],
    ["ltix-stnd-1111", "passportNo", " - "],
  ])("insure %s: addtnlFact.%s of %p → 400 naming it, in live mode too, no registry lookup", async (code, field, value) => {
    const p = await t.partner();
    await p.run("wallet topup", { amount: 1_000_000, reference: `fund-${crypto.randomUUID()}` }, "live");
    const c = productCases[code]!;
    const before = lookups.length;
    for (const label of ["test", "live"] as const) {
      const consumer = await consumerOf(p);
      if (c.quote) await p.run(`dump ipck_${code}*PRMM`, c.quote, label);
      const seed = insureSeed(c);
      refused(await p.run(`entt_${consumer}: insure`, { ...seed, addtnlFact: { ...seed.addtnlFact, [field]: value } }, label), `seed.addtnlFact.${field}`);
    }
    expect(lookups.length).toBe(before);
  });
});
