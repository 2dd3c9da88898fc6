/**
 * What a mid-term change costs (src/products/endorsement.ts), to the kobo: the worked example of
 * docs/lifecycle.md and properties that hold for every premium, cover and moment.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { type EndorsementPricing, endorsementPremiumChange } from "../../src/products/endorsement";

const DAY = 86_400_000;
const year = { coverStart: new Date("2025-12-31T23:00:00Z"), coverEnd: new Date("2026-12-31T23:00:00Z") }; // 2026, WAT

describe("the worked example of docs/lifecycle.md", () => {
  test("all risk, ₦1,000,000 raised to ₦2,000,000 on the 74th day: ₦15,000 more a term, for 292 of 365 days", () => {
    const change = endorsementPremiumChange({
      currentKobo: 1_500_000,
      changedKobo: 3_000_000,
      paidKobo: 1_500_000,
      ...year,
      at: new Date(year.coverStart.getTime() + 73 * DAY),
    });
    // 1,500,000 × 292/365 = 1,200,000 kobo exactly.
    expect(change).toEqual({
      changeKobo: 1_200_000,
      explanation: "The changed cover costs ₦15,000.00 a term more; 292 of its 365 days of cover are still to run: ₦12,000.00 to pay",
    });
  });

  test("before the cover starts all of the difference applies; no difference costs nothing", () => {
    const before = { ...year, at: new Date(year.coverStart.getTime() - DAY), paidKobo: 1_000 };
    expect(endorsementPremiumChange({ ...before, currentKobo: 1_000, changedKobo: 1_750 }).changeKobo).toBe(750);
    expect(endorsementPremiumChange({ ...before, currentKobo: 1_000, changedKobo: 1_000 })).toEqual({
      changeKobo: 0,
      explanation: "The premium does not change",
    });
  });
});

const pricing = fc
  .record({
    currentKobo: fc.integer({ min: 0, max: 10_000_000_000 }),
    changedKobo: fc.integer({ min: 0, max: 10_000_000_000 }),
    paidKobo: fc.integer({ min: 0, max: 10_000_000_000 }),
    days: fc.integer({ min: 1, max: 3_650 }),
    startOffset: fc.integer({ min: 0, max: 3_650 * DAY }),
    elapsed: fc.integer({ min: -30 * DAY, max: 4_000 * DAY }),
  })
  .map(({ days, startOffset, elapsed, ...money }): EndorsementPricing => {
    const coverStart = new Date(Date.UTC(2026, 0, 1) + startOffset);
    return { ...money, coverStart, coverEnd: new Date(coverStart.getTime() + days * DAY), at: new Date(coverStart.getTime() + elapsed) };
  });

describe("for every change", () => {
  test("whole kobo, never more than the difference, never giving back more than was paid, of the difference's sign", () => {
    fc.assert(
      fc.property(pricing, (p) => {
        const { changeKobo } = endorsementPremiumChange(p);
        const difference = p.changedKobo - p.currentKobo;
        expect(Number.isInteger(changeKobo)).toBe(true);
        expect(Math.abs(changeKobo)).toBeLessThanOrEqual(Math.abs(difference));
        expect(changeKobo).toBeGreaterThanOrEqual(-p.paidKobo);
        if (difference > 0) expect(changeKobo).toBeGreaterThanOrEqual(0);
        if (difference < 0) expect(changeKobo).toBeLessThanOrEqual(0);
      }),
    );
  });

  test("later costs (or gives back) no more than earlier", () => {
    fc.assert(
      fc.property(pricing, fc.integer({ min: 0, max: 400 * DAY }), (p, later) => {
        const earlier = endorsementPremiumChange(p).changeKobo;
        const after = endorsementPremiumChange({ ...p, at: new Date(p.at.getTime() + later) }).changeKobo;
        expect(Math.abs(after)).toBeLessThanOrEqual(Math.abs(earlier));
      }),
    );
  });

  test("a change and its reverse at the same moment cancel out (when nothing is capped by what was paid)", () => {
    fc.assert(
      fc.property(pricing, (p) => {
        const there = endorsementPremiumChange({ ...p, paidKobo: Number.MAX_SAFE_INTEGER }).changeKobo;
        const back = endorsementPremiumChange({ ...p, currentKobo: p.changedKobo, changedKobo: p.currentKobo, paidKobo: Number.MAX_SAFE_INTEGER }).changeKobo;
        expect(there + back).toBe(0);
      }),
    );
  });
});
