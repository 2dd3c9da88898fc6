import { describe, expect, test } from "bun:test";
import { allProductCodes, findProduct } from "../../src/products";
import { health } from "../../src/products/health";
import type { PolicyContext } from "../../src/products/types";
import { refusal } from "./support";

/** 10:00 WAT on 10 March 2026: cover starts at midnight WAT that day. */
const NOW = new Date("2026-03-10T09:00:00Z");
const context: PolicyContext = {
  consumer: { class: "h", profile: { class: "h", name: { first: "Bisi", last: "Adeyemi" }, gender: "f", dob: { date: "1992-07-04" } }, documents: [] },
  now: NOW,
};

const terms = (type: string, addtnlFact: unknown, insrncDrtn: unknown = "1y") => health.policy.terms(type, { insrncDrtn, addtnlFact }, context);
const refused = (type: string, addtnlFact: unknown, insrncDrtn: unknown = "1y") => refusal(() => terms(type, addtnlFact, insrncDrtn));

describe("hlth-<insurer>-1111 terms", () => {
  test.each([
    ["1m", "2026-04-09T23:00:00Z"],
    ["3m", "2026-06-09T23:00:00Z"],
    ["6m", "2026-09-09T23:00:00Z"],
    ["1y", "2027-03-09T23:00:00Z"],
  ])("%s: the quote's premium, cover from today to %s, insurer route", (insrncDrtn, end) => {
    const t = terms("axam", { hospital: "Reddington Hospital" }, insrncDrtn);
    expect(t.premiumKobo).toBe(health.quote("axam", { insrncDrtn }).premiumKobo);
    expect(t.duration).toBe(insrncDrtn);
    expect(t.coverStart).toEqual(new Date("2026-03-09T23:00:00Z"));
    expect(t.coverEnd).toEqual(new Date(end));
    expect(t.liveRoute).toBe("insurer");
    expect(t.facts).toEqual({ insrncDrtn, hospital: "Reddington Hospital" });
  });

  test("the hospital is matched in the insurer's network and stored as listed; the certificate names both", () => {
    const t = terms("hygn", { hospital: "  st nicholas   hospital " });
    expect(t.facts.hospital).toBe("St. Nicholas Hospital");
    expect(t.printed).toEqual([
      ["Insurer", "Hygeia HMO"],
      ["Hospital", "St. Nicholas Hospital, 57 Campbell Street, Lagos Island, Lagos, Lagos"],
    ]);
  });

  test("every insurer's product takes a hospital of its own network", () => {
    const codes = allProductCodes().filter((code) => code.startsWith("hlth-"));
    expect(codes.length).toBeGreaterThan(0);
    for (const code of codes) {
      const { type } = findProduct(code);
      const { name } = health.types.find((t) => t.code === type)!;
      expect(name).toStartWith("Health, ");
      expect(() => terms(type, { hospital: "Nowhere Clinic" })).toThrow("network");
    }
  });
});

describe("health validation", () => {
  test("a hospital outside the insurer's network is refused, listing the network", () => {
    const error = refused("axam", { hospital: "Eko Hospital" }); // Hygeia's, not AXA Mansard's
    expect(error.status).toBe(400);
    expect(error.field).toBe("seed.addtnlFact.hospital");
    expect(error.message).toBe(
      'seed.addtnlFact.hospital is not in AXA Mansard Health\'s network: choose one of Reddington Hospital, Lagoon Hospital, Nizamiye Hospital, Kelina Hospital, Oak Hospital (dump hlth_*HSPTLS lists them); received "Eko Hospital"',
    );
  });

  test("hospital: required, a string", () => {
    expect(refused("axam", {}).message).toBe("seed.addtnlFact.hospital is required");
    expect(refused("axam", { hospital: 3 }).message).toBe("seed.addtnlFact.hospital must be a string; received an integer");
    expect(refused("axam", undefined).message).toBe("seed.addtnlFact is required for this product");
  });

  test("unknown fields are refused", () => {
    expect(refused("axam", { hospital: "Oak Hospital", plan: "gold" }).message).toContain("unknown field: plan");
  });

  test("insrncDrtn: required, 1m, 3m, 6m or 1y", () => {
    expect(refusal(() => health.policy.terms("axam", { addtnlFact: { hospital: "Oak Hospital" } }, context)).message).toBe("seed.insrncDrtn is required");
    const error = refused("axam", { hospital: "Oak Hospital" }, "12m");
    expect(error.field).toBe("seed.insrncDrtn");
    expect(error.message).toContain('must be one of "1m", "3m", "6m", "1y"');
  });

  test("an unknown insurer is not a product", () => {
    expect(refused("nope", { hospital: "Oak Hospital" }).message).toStartWith("product specified not supported");
  });
});

describe("health insurer decision and certificate", () => {
  test("no decline reason applies (spec 7 names none for health)", () => {
    expect(health.policy.declineReason("rlnc", terms("rlnc", { hospital: "Evercare Hospital" }), context, { deviceAlreadyInsured: false })).toBeNull();
  });

  test("certificate: PDF inline (chosen)", () => {
    expect(health.policy.certificate("avon")).toEqual({ type: "pdf", delivery: "inline" });
  });
});
