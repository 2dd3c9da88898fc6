/**
 * The refund rules of cancelled policies (src/products/cancellation.ts), to the kobo: the worked
 * examples of docs/lifecycle.md, and properties that hold for every premium, cover and date.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { findProduct } from "../../src/products";
import { type CancellationCase, type CancellationRule, cancellationRefund, monthsRun } from "../../src/products/cancellation";

const DAY = 86_400_000;
const at = (iso: string) => new Date(iso);
const issued = at("2026-01-01T08:00:00Z");
const year = { coverStart: at("2025-12-31T23:00:00Z"), coverEnd: at("2026-12-31T23:00:00Z") }; // 1 Jan to 31 Dec 2026, WAT

const base: CancellationCase = {
  premiumKobo: 1_500_000,
  issuedAt: issued,
  ...year,
  requestedAt: new Date(issued.getTime() + 100 * DAY),
  effectiveAt: new Date(year.coverStart.getTime() + 100 * DAY),
  claimsMade: 0,
  claimPaid: false,
};
const proRata = findProduct("vhcl-tprt-1111").family.cancellation;
const travel = findProduct("ltix-stnd-1111").family.cancellation;
const creditLife = findProduct("crlt-psnl-1111").family.cancellation;

describe("the worked examples of docs/lifecycle.md", () => {
  test("vehicle, ₦15,000 for 2026, cancelled from its 101st day: 265 of 365 days unexpired, less 10%", () => {
    // 1,500,000 × 265/365 = 1,089,041.09… → 1,089,041 kobo; the fee is 108,904.1 → 108,904; the refund 980,137.
    expect(cancellationRefund(proRata, base)).toEqual({
      refundKobo: 980_137,
      feeKobo: 108_904,
      basis: "pro-rata",
      explanation: "The unexpired share (265 days of the cover) less a 10% short-period fee",
    });
  });

  test("within 14 days of issue and without a claim: all of it, no fee; with a claim made, pro-rata", () => {
    const early = { ...base, requestedAt: new Date(issued.getTime() + 13 * DAY), effectiveAt: new Date(issued.getTime() + 13 * DAY) };
    expect(cancellationRefund(proRata, early)).toMatchObject({ refundKobo: 1_500_000, feeKobo: 0, basis: "cooling-off" });
    expect(cancellationRefund(proRata, { ...early, claimsMade: 1 }).basis).toBe("pro-rata");
    // The cooling-off is counted from issue, to the millisecond.
    const late = { ...early, requestedAt: new Date(issued.getTime() + 14 * DAY) };
    expect(cancellationRefund(proRata, late).basis).toBe("pro-rata");
  });

  test("a claim approved or paid: nothing back, whatever the rule", () => {
    for (const rule of [proRata, travel, creditLife]) expect(cancellationRefund(rule, { ...base, claimsMade: 1, claimPaid: true }).refundKobo).toBe(0);
  });

  test("travel, ₦50,720 departing 11 Jan: before departure all less 10%; after, nothing (the risk has run)", () => {
    const trip = { ...base, premiumKobo: 5_072_000, coverStart: at("2026-01-10T23:00:00Z"), coverEnd: at("2026-01-17T23:00:00Z") };
    const before = { ...trip, requestedAt: new Date(issued.getTime() + 20 * DAY), effectiveAt: at("2026-01-09T23:00:00Z") };
    expect(cancellationRefund(travel, before)).toMatchObject({ refundKobo: 4_564_800, feeKobo: 507_200, basis: "not-started" });
    const after = { ...before, effectiveAt: at("2026-01-12T23:00:00Z") };
    expect(cancellationRefund(travel, after)).toEqual({
      refundKobo: 0,
      feeKobo: 0,
      basis: "risk-run",
      explanation: "No refund: the risk has run (the traveller departed on 2026-01-11)",
    });
    // Even within the cooling-off: a trip begun is a risk run.
    expect(cancellationRefund(travel, { ...after, requestedAt: issued }).basis).toBe("risk-run");
  });

  test("credit life over 12 months, cancelled in its 4th month: 8 of 12 months left, 8×9 / (12×13) of the premium", () => {
    const loan = { ...base, premiumKobo: 1_000_000, coverEnd: new Date(Date.UTC(2026, 11, 31, 23)), requestedAt: at("2026-04-10T08:00:00Z") };
    const refund = cancellationRefund(creditLife, { ...loan, effectiveAt: at("2026-04-10T08:00:00Z") });
    expect(refund).toMatchObject({ refundKobo: 461_538, feeKobo: 0, basis: "outstanding-loan" }); // 1,000,000 × 72/156
    expect(refund.explanation).toBe("The outstanding loan's share: 8 of 12 months left, by the rule of 78");
  });

  test("months run: a month begun counts, the 31st clamps to the month's end", () => {
    expect(monthsRun(at("2026-01-31T00:00:00Z"), at("2026-01-31T00:00:00Z"))).toBe(0);
    expect(monthsRun(at("2026-01-31T00:00:00Z"), at("2026-02-28T00:00:00Z"))).toBe(1);
    expect(monthsRun(at("2026-01-31T00:00:00Z"), at("2026-02-28T00:00:01Z"))).toBe(2);
    expect(monthsRun(at("2026-01-01T00:00:00Z"), at("2027-01-01T00:00:00Z"))).toBe(12);
  });
});

/** Any cancellation a policy may see: cover of up to two years, asked for during it, from a day within it. */
const cases = fc
  .record({
    premiumKobo: fc.integer({ min: 1, max: 100_000_000_000_000 }),
    startOffset: fc.integer({ min: 0, max: 60 * DAY }),
    coverMs: fc.integer({ min: DAY / 24, max: 730 * DAY }),
    requestedOffset: fc.integer({ min: 0, max: 800 * DAY }),
    effectiveShare: fc.double({ min: 0, max: 1, noNaN: true }),
    claimsMade: fc.integer({ min: 0, max: 3 }),
    claimPaid: fc.boolean(),
  })
  .map((r): CancellationCase => {
    const coverStart = new Date(issued.getTime() + r.startOffset);
    const coverEnd = new Date(coverStart.getTime() + r.coverMs);
    const requestedAt = new Date(issued.getTime() + Math.min(r.requestedOffset, coverEnd.getTime() - issued.getTime()));
    const effectiveAt = new Date(requestedAt.getTime() + Math.floor((coverEnd.getTime() - requestedAt.getTime()) * r.effectiveShare));
    return {
      premiumKobo: r.premiumKobo,
      issuedAt: issued,
      coverStart,
      coverEnd,
      requestedAt,
      effectiveAt,
      claimsMade: r.claimsMade,
      claimPaid: r.claimPaid && r.claimsMade > 0,
    };
  });
const rules = fc.constantFrom<CancellationRule>(
  proRata,
  travel,
  creditLife,
  { kind: "pro-rata", feePercent: 0 },
  { kind: "until-risk-starts", feePercent: 25, start: "x" },
);

describe("for every premium, cover and date", () => {
  test("a refund is whole kobo, never negative, and with its fee never more than the premium", () => {
    fc.assert(
      fc.property(rules, cases, (rule, c) => {
        const { refundKobo, feeKobo } = cancellationRefund(rule, c);
        return Number.isSafeInteger(refundKobo) && Number.isSafeInteger(feeKobo) && refundKobo >= 0 && feeKobo >= 0 && refundKobo + feeKobo <= c.premiumKobo;
      }),
      { numRuns: 2000 },
    );
  });

  test("cancelling later never gives more back", () => {
    fc.assert(
      fc.property(rules, cases, fc.integer({ min: 0, max: 400 * DAY }), (rule, c, later) => {
        const laterCase = { ...c, effectiveAt: new Date(Math.min(c.coverEnd.getTime(), c.effectiveAt.getTime() + later)) };
        return cancellationRefund(rule, laterCase).refundKobo <= cancellationRefund(rule, c).refundKobo;
      }),
      { numRuns: 2000 },
    );
  });

  test("within the cooling-off with no claim, all of a time-based or loan premium comes back", () => {
    fc.assert(
      fc.property(fc.constantFrom(proRata, creditLife), cases, (rule, c) => {
        const early = { ...c, requestedAt: issued, claimsMade: 0, claimPaid: false };
        return cancellationRefund(rule, early).refundKobo === c.premiumKobo;
      }),
    );
  });
});
