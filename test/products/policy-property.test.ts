import { describe, expect, test } from "bun:test";
import { findProduct } from "../../src/products";
import type { PolicyContext } from "../../src/products/types";
import { refusal } from "./support";

/** 10:00 WAT on 10 March 2026: cover starts at midnight WAT that day. */
const NOW = new Date("2026-03-10T09:00:00Z");
const ADDRESS = "14 Adeola Odeku Street, Victoria Island, Lagos";
const contextWith = (profile: Record<string, unknown> = { addrss: { addrss: ADDRESS } }): PolicyContext => ({
  consumer: { class: "o", profile: { class: "o", name: { brand: "Kola Stores Ltd" }, ...profile }, documents: [] },
  now: NOW,
});

function rulesOf(code: string) {
  const { family, type } = findProduct(code);
  const terms = (addtnlFact: unknown, insrncDrtn: unknown = "1y", context = contextWith()) => family.policy.terms(type, { insrncDrtn, addtnlFact }, context);
  const refused = (addtnlFact: unknown, insrncDrtn: unknown = "1y", context = contextWith()) => refusal(() => terms(addtnlFact, insrncDrtn, context));
  return { family, type, terms, refused };
}
const allRisk = rulesOf("allr-stnd-1111");
const fireAndBurglary = rulesOf("firb-stnd-1111");

const items = () => ({ sumInsured: 1_000_000, description: "Laptop, camera and two phones" });
const shop = () => ({ sumInsured: 20_000_000, description: "Shop stock and fittings" });

describe("allr-stnd-1111 terms", () => {
  test.each([
    ["1m", "2026-04-09T23:00:00Z"],
    ["3m", "2026-06-09T23:00:00Z"],
    ["6m", "2026-09-09T23:00:00Z"],
    ["1y", "2027-03-09T23:00:00Z"],
  ])("%s: the quote's premium, cover from today to %s, insurer route", (insrncDrtn, end) => {
    const t = allRisk.terms(items(), insrncDrtn);
    expect(t.premiumKobo).toBe(allRisk.family.quote(allRisk.type, { sumInsured: 1_000_000, insrncDrtn }).premiumKobo);
    expect(t.duration).toBe(insrncDrtn);
    expect(t.coverStart).toEqual(new Date("2026-03-09T23:00:00Z"));
    expect(t.coverEnd).toEqual(new Date(end));
    expect(t.liveRoute).toBe("insurer");
    expect(t.facts).toEqual({ insrncDrtn, ...items() });
  });

  test("certificate lines: what is insured and for how much", () => {
    expect(allRisk.terms({ ...items(), description: "  Laptop, camera and two phones " }).printed).toEqual([
      ["Property insured", "Laptop, camera and two phones"],
      ["Sum insured", "₦1,000,000.00"],
    ]);
  });

  test("all risk follows the items anywhere: no premises address", () => {
    expect(allRisk.refused({ ...items(), premisesAddress: ADDRESS }).message).toContain("unknown field: premisesAddress");
  });
});

describe("firb-stnd-1111 terms", () => {
  test("the quote's premium; the premises default to the consumer's address", () => {
    const t = fireAndBurglary.terms(shop(), "1m");
    expect(t.premiumKobo).toBe(fireAndBurglary.family.quote(fireAndBurglary.type, { sumInsured: 20_000_000, insrncDrtn: "1m" }).premiumKobo);
    expect(t.premiumKobo).toBe(500_000);
    expect(t.facts).toEqual({ insrncDrtn: "1m", ...shop(), premisesAddress: ADDRESS });
    expect(t.printed).toEqual([
      ["Property insured", "Shop stock and fittings"],
      ["Sum insured", "₦20,000,000.00"],
      ["Premises", ADDRESS],
    ]);
  });

  test("an explicit premises address is kept", () => {
    const t = fireAndBurglary.terms({ ...shop(), premisesAddress: "Shop 12, Balogun Market, Lagos" });
    expect(t.facts.premisesAddress).toBe("Shop 12, Balogun Market, Lagos");
  });

  test("without one and with no consumer address, premisesAddress is required", () => {
    const error = fireAndBurglary.refused(shop(), "1y", contextWith({}));
    expect(error.field).toBe("seed.addtnlFact.premisesAddress");
    expect(error.message).toContain("is required");
  });
});

describe("property validation (both covers)", () => {
  test.each([allRisk, fireAndBurglary].map((r) => [r.family.ctgry, r] as const))(
    "%s: sumInsured a positive JSON number, description required",
    (_ctgry, rules) => {
      const base = rules === allRisk ? items() : shop();
      expect(rules.refused({ ...base, sumInsured: "1000000" }).message).toBe(
        "seed.addtnlFact.sumInsured must be a JSON number, not a string (send 1000000 without quotes)",
      );
      expect(rules.refused({ ...base, sumInsured: 0 }).message).toContain("seed.addtnlFact.sumInsured must be more than 0");
      expect(rules.refused({ description: base.description }).message).toBe("seed.addtnlFact.sumInsured is required");
      expect(rules.refused({ sumInsured: base.sumInsured }).message).toBe("seed.addtnlFact.description is required");
      expect(rules.refused(undefined).field).toBe("seed.addtnlFact");
    },
  );

  test.each([allRisk, fireAndBurglary].map((r) => [r.family.ctgry, r] as const))("%s: insrncDrtn required, 1m, 3m, 6m or 1y", (_ctgry, rules) => {
    const base = rules === allRisk ? items() : shop();
    expect(refusal(() => rules.family.policy.terms(rules.type, { addtnlFact: base }, contextWith())).message).toBe("seed.insrncDrtn is required");
    expect(rules.refused(base, "7d").message).toContain('must be one of "1m", "3m", "6m", "1y"');
  });
});

describe("property insurer decision and certificate", () => {
  test("no decline reason applies (spec 7 names none for these covers)", () => {
    expect(allRisk.family.policy.declineReason(allRisk.type, allRisk.terms(items()), contextWith(), { deviceAlreadyInsured: false })).toBeNull();
    expect(
      fireAndBurglary.family.policy.declineReason(fireAndBurglary.type, fireAndBurglary.terms(shop()), contextWith(), { deviceAlreadyInsured: false }),
    ).toBeNull();
  });

  test("certificate: PDF inline (chosen)", () => {
    for (const rules of [allRisk, fireAndBurglary]) expect(rules.family.policy.certificate(rules.type)).toEqual({ type: "pdf", delivery: "inline" });
  });
});
