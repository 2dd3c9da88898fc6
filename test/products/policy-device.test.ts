import { describe, expect, test } from "bun:test";
import { findProduct } from "../../src/products";
import type { PolicyContext, PolicyTerms } from "../../src/products/types";
import { refusal } from "./support";

/** 10:00 WAT on 10 March 2026: cover starts at midnight WAT that day. */
const NOW = new Date("2026-03-10T09:00:00Z");
const context: PolicyContext = {
  consumer: { class: "h", profile: { class: "h", name: { first: "Amaka", last: "Eze" } }, documents: [] },
  now: NOW,
};

/** Valid IMEIs (Luhn check digit): the classic worked example and a 35-prefixed one as phones display it. */
const IMEI = "490154203237518";
const DISPLAYED_IMEI = "35-209900-176148-1";

function rulesOf(code: string) {
  const { family, type } = findProduct(code);
  // insrncDrtn "1y" unless given (an explicit undefined leaves it out).
  const terms = (addtnlFact: unknown, ...insrncDrtn: [unknown?]) =>
    family.policy.terms(type, { insrncDrtn: insrncDrtn.length ? insrncDrtn[0] : "1y", addtnlFact }, context);
  const refused = (addtnlFact: unknown, ...insrncDrtn: [unknown?]) => refusal(() => terms(addtnlFact, ...insrncDrtn));
  const decline = (t: PolicyTerms, deviceAlreadyInsured: boolean) =>
    family.policy.declineReason(type, { ...t, facts: JSON.parse(JSON.stringify(t.facts)) }, context, { deviceAlreadyInsured });
  return { family, type, terms, refused, decline };
}

const phone = () => ({ brand: "Samsung", model: "Galaxy A54", uIdnt: IMEI });
const laptop = () => ({ brand: "HP", model: "EliteBook 840", uIdnt: "5CD1234XYZ" });

describe("phone screen protection terms", () => {
  test.each(["phnn-flx1-1111", "phnn-flx2-1111", "phnn-flx3-1111"])("%s: the quote's premium, cover from today, IMEI as the device id", (code) => {
    const rules = rulesOf(code);
    for (const [insrncDrtn, end] of [
      ["6m", "2026-09-09T23:00:00Z"],
      ["1y", "2027-03-09T23:00:00Z"],
    ] as const) {
      const t = rules.terms(phone(), insrncDrtn);
      expect(t.premiumKobo).toBe(rules.family.quote(rules.type, { insrncDrtn }).premiumKobo);
      expect(t.duration).toBe(insrncDrtn);
      expect(t.coverStart).toEqual(new Date("2026-03-09T23:00:00Z"));
      expect(t.coverEnd).toEqual(new Date(end));
      expect(t.liveRoute).toBe("insurer");
      expect(t.deviceId).toBe(`imei:${IMEI}`);
      expect(t.facts).toEqual({ insrncDrtn, ...phone() });
    }
  });

  test("certificate lines: device, IMEI and the cover", () => {
    expect(rulesOf("phnn-flx1-1111").terms(phone()).printed).toEqual([
      ["Device", "Samsung Galaxy A54"],
      ["IMEI", IMEI],
      ["Cover", "Accidental screen damage (drop, impact, pressure), in Nigeria only; 10% excess per claim"],
    ]);
  });

  test("an IMEI written with hyphens or spaces is stored as its 15 digits", () => {
    const rules = rulesOf("phnn-flx2-1111");
    for (const uIdnt of [DISPLAYED_IMEI, "35 209900 176148 1"]) {
      const t = rules.terms({ ...phone(), uIdnt });
      expect(t.facts.uIdnt).toBe("352099001761481");
      expect(t.deviceId).toBe("imei:352099001761481");
    }
  });

  test("the IMEI's check digit must pass the Luhn check", () => {
    const error = rulesOf("phnn-flx1-1111").refused({ ...phone(), uIdnt: "490154203237519" });
    expect(error.status).toBe(400);
    expect(error.field).toBe("seed.addtnlFact.uIdnt");
    expect(error.message).toBe("seed.addtnlFact.uIdnt is not a valid IMEI: its last digit fails the Luhn check digit test; re-read the number (dial *#06#)");
  });

  test.each(["49015420323751", "4901542032375180", "49015420323751A"])("IMEI %p is not 15 digits", (uIdnt) => {
    const error = rulesOf("phnn-flx1-1111").refused({ ...phone(), uIdnt });
    expect(error.field).toBe("seed.addtnlFact.uIdnt");
    expect(error.message).toContain("exactly 15 digits");
  });

  test("an IMEI sent as a JSON number is refused: it is a string", () => {
    expect(rulesOf("phnn-flx1-1111").refused({ ...phone(), uIdnt: 490154203237518 }).message).toBe(
      "seed.addtnlFact.uIdnt must be a string; received an integer",
    );
  });
});

describe("laptop warranty terms", () => {
  test.each(["lapt-flx1-1111", "lapt-flx2-1111"])("%s: the quote's premium; the serial number, uppercase, is the device id", (code) => {
    const rules = rulesOf(code);
    const t = rules.terms({ ...laptop(), uIdnt: " 5cd1234-xyz " }, "6m");
    expect(t.premiumKobo).toBe(rules.family.quote(rules.type, { insrncDrtn: "6m" }).premiumKobo);
    expect(t.coverEnd).toEqual(new Date("2026-09-09T23:00:00Z"));
    expect(t.liveRoute).toBe("insurer");
    expect(t.facts).toEqual({ insrncDrtn: "6m", brand: "HP", model: "EliteBook 840", uIdnt: "5CD1234-XYZ" });
    expect(t.deviceId).toBe("serial:5CD1234-XYZ");
    expect(t.printed.slice(0, 2)).toEqual([
      ["Device", "HP EliteBook 840"],
      ["Serial number", "5CD1234-XYZ"],
    ]);
  });

  test("each tier prints what it covers (spec 2.5)", () => {
    expect(rulesOf("lapt-flx1-1111").terms(laptop()).printed).toContainEqual(["Cover", "Accidental damage, liquid spill, electrical surge"]);
    expect(rulesOf("lapt-flx2-1111").terms(laptop()).printed).toContainEqual(["Cover", "Full damage, plus theft"]);
  });

  test("serial number: 4 to 40 letters, digits and hyphens", () => {
    const rules = rulesOf("lapt-flx1-1111");
    expect(rules.terms({ ...laptop(), uIdnt: "AB12" }).deviceId).toBe("serial:AB12");
    expect(rules.refused({ ...laptop(), uIdnt: "AB1" }).message).toContain("at least 4 characters");
    expect(rules.refused({ ...laptop(), uIdnt: "A".repeat(41) }).message).toContain("at most 40 characters");
    for (const uIdnt of ["5CD 1234", "5CD/1234", "-5CD1234"]) {
      const error = rules.refused({ ...laptop(), uIdnt });
      expect(error.field).toBe("seed.addtnlFact.uIdnt");
      expect(error.message).toContain("must be the laptop's serial number");
    }
  });
});

describe("device validation", () => {
  test.each(["phnn-flx1-1111", "lapt-flx2-1111"])("%s: insrncDrtn required, 6m or 1y", (code) => {
    const rules = rulesOf(code);
    const facts = code.startsWith("phnn") ? phone() : laptop();
    expect(rules.refused(facts, undefined).message).toBe("seed.insrncDrtn is required");
    for (const insrncDrtn of ["1m", "3m", "12m"]) expect(rules.refused(facts, insrncDrtn).message).toContain('must be one of "6m", "1y"');
  });

  test.each(["brand", "model", "uIdnt"])("%s is required", (field) => {
    const facts: Record<string, unknown> = phone();
    delete facts[field];
    const error = rulesOf("phnn-flx1-1111").refused(facts);
    expect(error.field).toBe(`seed.addtnlFact.${field}`);
    expect(error.message).toBe(`seed.addtnlFact.${field} is required`);
  });

  test("no addtnlFact, or unknown fields, are refused", () => {
    const rules = rulesOf("phnn-flx1-1111");
    expect(rules.refused(undefined).message).toBe("seed.addtnlFact is required for this product");
    expect(rules.refused({ ...phone(), deviceValue: 150_000 }).message).toContain("unknown field: deviceValue");
  });
});

describe("device insurer decision and certificate", () => {
  test("a device already insured is declined (spec 7), naming it", () => {
    const phones = rulesOf("phnn-flx1-1111");
    expect(phones.decline(phones.terms(phone()), true)).toBe(
      `Device already insured: IMEI ${IMEI} is covered by another active policy, and a device can hold one active policy at a time.`,
    );
    expect(phones.decline(phones.terms(phone()), false)).toBeNull();
    const laptops = rulesOf("lapt-flx1-1111");
    expect(laptops.decline(laptops.terms(laptop()), true)).toContain("Serial number 5CD1234XYZ");
    expect(laptops.decline(laptops.terms(laptop()), false)).toBeNull();
  });

  test("certificate: a PDF, answered with policyNo (spec 2.6)", () => {
    for (const code of ["phnn-flx1-1111", "phnn-flx3-1111", "lapt-flx2-1111"]) {
      const { family, type } = findProduct(code);
      expect(family.policy.certificate(type)).toEqual({ type: "pdf", delivery: "policyNo" });
    }
  });
});
