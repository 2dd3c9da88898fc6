import { describe, expect, test } from "bun:test";
import { findProduct } from "../../src/products";
import type { PolicyContext } from "../../src/products/types";
import { vehicleFacts } from "../support/fixtures";
import { refusal } from "./support";

/** 10:00 WAT on 10 March 2026: cover starts at midnight WAT that day. */
const NOW = new Date("2026-03-10T09:00:00Z");
const TODAY_WAT = new Date("2026-03-09T23:00:00Z");
const context: PolicyContext = {
  consumer: { class: "h", profile: { class: "h", name: { first: "Tunde", last: "Bakare" }, dob: { date: "1985-02-01" } }, documents: ["socialID.image"] },
  now: NOW,
};

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n").toString("base64");

const thirdParty = (): Record<string, unknown> => vehicleFacts();
const comprehensive = (): Record<string, unknown> => ({ ...thirdParty(), vhclValueForInsrnc: 5_000_000 });

function rulesOf(code: "tprt" | "cmpr") {
  const { family, type } = findProduct(`vhcl-${code}-1111`);
  // insrncDrtn "1y" unless given (an explicit undefined leaves it out).
  const terms = (addtnlFact: unknown, ...insrncDrtn: [unknown?]) =>
    family.policy.terms(type, { insrncDrtn: insrncDrtn.length ? insrncDrtn[0] : "1y", addtnlFact }, context);
  const refused = (addtnlFact: unknown, ...insrncDrtn: [unknown?]) => refusal(() => terms(addtnlFact, ...insrncDrtn));
  return { family, type, terms, refused };
}
const tprt = rulesOf("tprt");
const cmpr = rulesOf("cmpr");

describe("vhcl-tprt-1111 terms", () => {
  test("a valid request: the quote's premium, cover from today, insurer route, certificate lines", () => {
    const t = tprt.terms(thirdParty());
    expect(t.premiumKobo).toBe(tprt.family.quote("tprt", { insrncDrtn: "1y" }).premiumKobo);
    expect(t.premiumKobo).toBe(1_500_000);
    expect(t.duration).toBe("1y");
    expect(t.coverStart).toEqual(TODAY_WAT);
    expect(t.coverEnd).toEqual(new Date("2027-03-09T23:00:00Z"));
    expect(t.liveRoute).toBe("insurer");
    expect(t.deviceId).toBeUndefined();
    expect(t.facts).toEqual({ insrncDrtn: "1y", ...thirdParty() });
    expect(t.printed).toEqual([
      ["Vehicle", "Toyota Corolla 2018"],
      ["Registration", "ABC123DE"],
      ["Chassis / VIN", "2T1BURHE0JC074316"],
      ["Engine number", "2ZR1234567"],
    ]);
  });

  test.each([
    ["7d", "2026-03-16T23:00:00Z"],
    ["1m", "2026-04-09T23:00:00Z"],
    ["3m", "2026-06-09T23:00:00Z"],
    ["6m", "2026-09-09T23:00:00Z"],
  ])("%s: the quote's premium for the period, cover to %s", (insrncDrtn, end) => {
    const t = tprt.terms(thirdParty(), insrncDrtn);
    expect(t.premiumKobo).toBe(tprt.family.quote("tprt", { insrncDrtn }).premiumKobo);
    expect(t.coverEnd).toEqual(new Date(end));
  });

  test("identifiers are normalised: trimmed, uppercase", () => {
    const t = tprt.terms({ ...thirdParty(), brand: " Toyota ", rgstrtId: "abc123de", chsssId: "2t1burhe0jc074316", engineId: "2zr-1234567" });
    expect(t.facts).toMatchObject({ brand: "Toyota", rgstrtId: "ABC123DE", chsssId: "2T1BURHE0JC074316", engineId: "2ZR-1234567" });
  });

  test("vhclValueForInsrnc and proofOfOwnrsh are refused on third-party cover", () => {
    for (const extra of [{ vhclValueForInsrnc: 5_000_000 }, { proofOfOwnrsh: PNG }]) {
      const error = tprt.refused({ ...thirdParty(), ...extra });
      const [field] = Object.keys(extra);
      expect(error.status).toBe(400);
      expect(error.field).toBe(`seed.addtnlFact.${field}`);
      expect(error.message).toContain("comprehensive cover (vhcl-cmpr-1111) only");
    }
  });
});

describe("vhcl-cmpr-1111 terms", () => {
  test("without proof of ownership: the quote's premium on the insured value, manual review", () => {
    const t = cmpr.terms(comprehensive(), "6m");
    expect(t.premiumKobo).toBe(cmpr.family.quote("cmpr", { insrncDrtn: "6m", vhclValueForInsrnc: 5_000_000 }).premiumKobo);
    expect(t.premiumKobo).toBe(15_000_000);
    expect(t.liveRoute).toBe("manual");
    expect(t.facts).toEqual({ insrncDrtn: "6m", ...comprehensive() });
    expect(t.printed).toContainEqual(["Insured value", "₦5,000,000.00"]);
  });

  test.each([
    ["a PNG", PNG, "image/png"],
    ["a PDF", PDF, "application/pdf"],
    ["a data: URL", `data:image/png;base64,${PNG}`, "image/png"],
  ])("with proof of ownership (%s): approved at once; only its kind and size are kept", (_label, proofOfOwnrsh, mime) => {
    const t = cmpr.terms({ ...comprehensive(), proofOfOwnrsh });
    expect(t.liveRoute).toBe("approve");
    expect(t.facts.proofOfOwnrsh).toEqual({ mime, sizeBytes: Buffer.from(proofOfOwnrsh.replace(/^data:[^,]*,/, ""), "base64").length });
  });

  test("proof of ownership must be base64 of an image or a PDF, at most 2 MiB", () => {
    const field = "seed.addtnlFact.proofOfOwnrsh";
    const notBase64 = cmpr.refused({ ...comprehensive(), proofOfOwnrsh: "not base64!" });
    expect([notBase64.status, notBase64.field]).toEqual([400, field]);
    expect(notBase64.message).toContain("must be base64");
    const text = cmpr.refused({ ...comprehensive(), proofOfOwnrsh: Buffer.from("hello, this is text").toString("base64") });
    expect([text.status, text.field]).toEqual([415, field]);
    const huge = cmpr.refused({ ...comprehensive(), proofOfOwnrsh: Buffer.alloc(2 * 1024 * 1024 + 10, 0xff).toString("base64") });
    expect([huge.status, huge.field]).toEqual([413, field]);
    expect(cmpr.refused({ ...comprehensive(), proofOfOwnrsh: 12 }).message).toBe("seed.addtnlFact.proofOfOwnrsh must be a string; received an integer");
  });

  test("vhclValueForInsrnc: a JSON number of at least 500000, required", () => {
    expect(cmpr.refused({ ...comprehensive(), vhclValueForInsrnc: "5000000" }).message).toBe(
      "seed.addtnlFact.vhclValueForInsrnc must be a JSON number, not a string (send 5000000 without quotes)",
    );
    const low = cmpr.refused({ ...comprehensive(), vhclValueForInsrnc: 499_999 });
    expect(low.field).toBe("seed.addtnlFact.vhclValueForInsrnc");
    expect(low.message).toContain("at least 500000");
    expect(cmpr.refused(thirdParty()).message).toBe("seed.addtnlFact.vhclValueForInsrnc is required");
    expect(cmpr.terms({ ...comprehensive(), vhclValueForInsrnc: 500_000 }).premiumKobo).toBe(2_500_000);
  });
});

describe("vehicle validation (both types)", () => {
  const field = (name: string) => `seed.addtnlFact.${name}`;
  const without = (name: string) => {
    const facts = thirdParty();
    delete facts[name];
    return facts;
  };

  test.each(["brand", "model", "year", "chsssId", "engineId", "rgstrtId"])("%s is required", (name) => {
    for (const rules of [tprt, cmpr]) {
      const error = rules.refused({ ...without(name), ...(rules === cmpr ? { vhclValueForInsrnc: 5_000_000 } : {}) });
      expect(error.status).toBe(400);
      expect(error.field).toBe(field(name));
      expect(error.message).toBe(`${field(name)} is required`);
    }
  });

  test("insrncDrtn: required, one of 7d, 1m, 3m, 6m, 1y", () => {
    expect(tprt.refused(thirdParty(), undefined).message).toBe("seed.insrncDrtn is required");
    const error = tprt.refused(thirdParty(), "12m");
    expect(error.field).toBe("seed.insrncDrtn");
    expect(error.message).toContain('must be one of "7d", "1m", "3m", "6m", "1y"');
  });

  test("addtnlFact is required; unknown fields are refused", () => {
    expect(tprt.refused(undefined).field).toBe("seed.addtnlFact");
    expect(tprt.refused({ ...thirdParty(), colour: "red" }).message).toContain("unknown field: colour");
  });

  test("year is a string of 4 digits, not a number", () => {
    expect(tprt.refused({ ...thirdParty(), year: 2018 }).message).toBe("seed.addtnlFact.year must be a string; received an integer");
    for (const year of ["18", "20188", "year"]) expect(tprt.refused({ ...thirdParty(), year }).message).toContain('4-digit year in quotes, e.g. "2018"');
  });

  test("year: 1950 to next year", () => {
    expect(tprt.terms({ ...thirdParty(), year: "1950" }).facts.year).toBe("1950");
    expect(tprt.terms({ ...thirdParty(), year: "2027" }).facts.year).toBe("2027");
    for (const year of ["1949", "2028"]) {
      const error = tprt.refused({ ...thirdParty(), year });
      expect(error.field).toBe(field("year"));
      expect(error.message).toBe(`seed.addtnlFact.year must be a year of manufacture from 1950 to 2027; received "${year}"`);
    }
  });

  test.each(["ABC-123DE", "ABC 123DE", "ABC_123"])("registration plate %p is refused (letters and digits only)", (rgstrtId) => {
    const error = tprt.refused({ ...thirdParty(), rgstrtId });
    expect(error.field).toBe(field("rgstrtId"));
    expect(error.message).toContain("without hyphens or spaces, e.g. ABC123DE");
  });

  test("registration plate length 3 to 10", () => {
    expect(tprt.refused({ ...thirdParty(), rgstrtId: "AB" }).message).toContain("at least 3 characters");
    expect(tprt.refused({ ...thirdParty(), rgstrtId: "ABCDE123456" }).message).toContain("at most 10 characters");
  });

  test("a 17-character VIN must not contain I, O or Q", () => {
    for (const chsssId of ["2T1BURHE0JC07431I", "2T1BURHEOJC074316", "2T1BURHE0JC0743Q6"]) {
      const error = tprt.refused({ ...thirdParty(), chsssId });
      expect(error.field).toBe(field("chsssId"));
      expect(error.message).toContain("must not contain the letters I, O or Q");
    }
  });

  test("chassis numbers: 5 to 25 letters and digits; a frame number may have a hyphen", () => {
    expect(tprt.terms({ ...thirdParty(), chsssId: "ZZT240-1234567" }).facts.chsssId).toBe("ZZT240-1234567");
    // Only a 17-character VIN excludes I, O and Q.
    expect(tprt.terms({ ...thirdParty(), chsssId: "OIQ12345" }).facts.chsssId).toBe("OIQ12345");
    expect(tprt.refused({ ...thirdParty(), chsssId: "AB12" }).message).toContain("at least 5 characters");
    expect(tprt.refused({ ...thirdParty(), chsssId: "A".repeat(26) }).message).toContain("at most 25 characters");
    expect(tprt.refused({ ...thirdParty(), chsssId: "2T1 BURHE0JC074316" }).message).toContain("must be the chassis number or VIN");
  });

  test("engine number: 4 to 25 letters and digits (hyphens between parts)", () => {
    expect(tprt.refused({ ...thirdParty(), engineId: "2ZR 1234567" }).message).toContain("must be the engine number");
    expect(tprt.refused({ ...thirdParty(), engineId: "2ZR" }).message).toContain("at least 4 characters");
  });

  test("text fields must be strings", () => {
    expect(tprt.refused({ ...thirdParty(), brand: 7 }).message).toBe("seed.addtnlFact.brand must be a string; received an integer");
  });
});

describe("vehicle insurer decision and certificate", () => {
  test("no automatic decline: the registry check and document review happen elsewhere", () => {
    const cases = [
      [tprt, thirdParty()],
      [cmpr, comprehensive()],
      [cmpr, { ...comprehensive(), proofOfOwnrsh: PNG }],
    ] as const;
    for (const [rules, facts] of cases)
      expect(rules.family.policy.declineReason(rules.type, rules.terms(facts), context, { deviceAlreadyInsured: false })).toBeNull();
  });

  test("certificate: a PDF, answered with policyNo (spec 2.6)", () => {
    for (const rules of [tprt, cmpr]) expect(rules.family.policy.certificate(rules.type)).toEqual({ type: "pdf", delivery: "policyNo" });
  });
});
