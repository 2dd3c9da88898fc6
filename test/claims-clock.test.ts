/**
 * The claims clock's rules (src/modules/claims/clock.ts, src/modules/calendar/working-days.ts), as
 * properties over any dates, holidays, pauses and amounts: working days, deadlines, standings and
 * late interest to the kobo.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { addDays, addWorkingDays, daysBetween, isWorkingDay, workingDaysBetween } from "../src/modules/calendar";
import { lateInterestKobo, pausedDays, settlementDueOn, standingOf, voucherDueOn } from "../src/modules/claims/clock";

/** Any day from 2000 to 2060. */
const anyDay = fc.integer({ min: 0, max: 22_000 }).map((n) => addDays("2000-01-01", n));
/** Up to 40 holidays within a few months of 2030. */
const anyHolidays = fc.uniqueArray(fc.integer({ min: 0, max: 150 }), { maxLength: 40 }).map((ns) => new Set(ns.map((n) => addDays("2030-01-01", n))));
const dayNear2030 = fc.integer({ min: 0, max: 120 }).map((n) => addDays("2030-01-01", n));

describe("working days", () => {
  test("the nth working day after a date is a working day, after it, with exactly n working days up to it", () => {
    fc.assert(
      fc.property(dayNear2030, fc.integer({ min: 1, max: 15 }), anyHolidays, (day, n, holidays) => {
        const due = addWorkingDays(day, n, holidays);
        expect(due > day).toBe(true);
        expect(isWorkingDay(due, holidays)).toBe(true);
        expect(workingDaysBetween(day, due, holidays)).toBe(n);
        expect(workingDaysBetween(day, addDays(due, -1), holidays)).toBe(n - 1);
      }),
    );
  });

  test("another holiday never brings a deadline nearer, and moves it only when it falls in the count", () => {
    fc.assert(
      fc.property(dayNear2030, fc.integer({ min: 1, max: 10 }), anyHolidays, dayNear2030, (day, n, holidays, extra) => {
        const before = addWorkingDays(day, n, holidays);
        const after = addWorkingDays(day, n, new Set([...holidays, extra]));
        expect(after >= before).toBe(true);
        if (extra <= day || extra > before || !isWorkingDay(extra, holidays)) expect(after).toBe(before);
      }),
    );
  });

  test("Christmas 2026: a liability admitted on Thursday 24 December has its voucher due on Tuesday 5 January 2027", () => {
    const holidays = new Set(["2026-12-25", "2026-12-28", "2027-01-01"]);
    expect(voucherDueOn("2026-12-24", holidays, { voucherWorkingDays: 5 })).toBe("2027-01-05");
    // Admitted on a Saturday: Monday is the first working day.
    expect(voucherDueOn("2026-11-28", new Set(), { voucherWorkingDays: 5 })).toBe("2026-12-04");
  });
});

describe("settlement deadline and pauses", () => {
  test("60 calendar days from the notification, pushed by exactly the days paused, whatever the order of the pauses", () => {
    fc.assert(
      fc.property(anyDay, fc.array(fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 20 })), { maxLength: 5 }), (notified, spans) => {
        const pauses = spans.map(([start, length]) => ({ from: addDays(notified, start), to: addDays(notified, start + length) }));
        const paused = pausedDays(pauses);
        expect(paused).toBe(spans.reduce((sum, [, length]) => sum + length, 0));
        expect(pausedDays([...pauses].reverse())).toBe(paused);
        const due = settlementDueOn(notified, paused, { settlementDays: 60 });
        expect(daysBetween(notified, due)).toBe(60 + paused);
      }),
    );
  });

  test("a pause that ends the day it began stops nothing; one ending before it began counts as none", () => {
    expect(pausedDays([{ from: "2026-11-27", to: "2026-11-27" }])).toBe(0);
    expect(pausedDays([{ from: "2026-11-27", to: "2026-11-20" }])).toBe(0);
  });

  test("standing: running, then due soon within the window (0 days left on the last day), then overdue the day after", () => {
    fc.assert(
      fc.property(anyDay, fc.integer({ min: -400, max: 400 }), fc.integer({ min: 0, max: 30 }), (due, offset, window) => {
        const today = addDays(due, offset);
        const standing = standingOf(due, today, window);
        if (offset > 0) expect(standing).toEqual({ state: "overdue", daysOverdue: offset });
        else expect(standing).toEqual({ state: -offset <= window ? "due_soon" : "running", daysLeft: 0 - offset });
      }),
    );
  });
});

describe("late interest", () => {
  const anyKobo = fc.integer({ min: 0, max: 100_000_000_000 });
  const anyRate = fc.integer({ min: 0, max: 10_000 });

  test("none when paid by the deadline; otherwise payable × rate × days / 365, rounded half up to the kobo", () => {
    fc.assert(
      fc.property(anyKobo, anyRate, anyDay, fc.integer({ min: -100, max: 2_000 }), (payable, rate, due, late) => {
        const interest = lateInterestKobo(payable, due, addDays(due, late), rate);
        if (late <= 0) return expect(interest).toBe(0);
        // The exact value in hundredths of a kobo, by another road: the rounding never misses by half a kobo or more.
        const exact = (BigInt(payable) * BigInt(rate) * BigInt(late) * 100n) / 3_650_000n;
        expect(Math.abs(interest * 100 - Number(exact))).toBeLessThanOrEqual(50);
        expect(Number.isInteger(interest)).toBe(true);
      }),
    );
  });

  test("never less for a later payment or a larger amount", () => {
    fc.assert(
      fc.property(anyKobo, anyKobo, anyRate, fc.integer({ min: 0, max: 1_000 }), fc.integer({ min: 0, max: 1_000 }), (a, b, rate, d1, d2) => {
        const due = "2027-01-26";
        const [small, large] = a <= b ? [a, b] : [b, a];
        const [early, late] = d1 <= d2 ? [d1, d2] : [d2, d1];
        expect(lateInterestKobo(small, due, addDays(due, late), rate)).toBeLessThanOrEqual(lateInterestKobo(large, due, addDays(due, late), rate));
        expect(lateInterestKobo(large, due, addDays(due, early), rate)).toBeLessThanOrEqual(lateInterestKobo(large, due, addDays(due, late), rate));
      }),
    );
  });

  test("worked examples: a year late at 27 % is 27 % of the payable; ₦36,000.49 ten days late is ₦266.30", () => {
    expect(lateInterestKobo(10_000_000, "2027-01-26", addDays("2027-01-26", 365), 2_700)).toBe(2_700_000);
    // 3,600,049 × 2,700 × 10 / 3,650,000 = 26,630.4995 kobo
    expect(lateInterestKobo(3_600_049, "2027-01-26", "2027-02-05", 2_700)).toBe(26_630);
    // Exactly half a kobo rounds up: 365,000 kobo at 1 basis point for 5 days is 0.5 kobo; 4 days, 0.4.
    expect(lateInterestKobo(365_000, "2000-01-01", "2000-01-06", 1)).toBe(1);
    expect(lateInterestKobo(365_000, "2000-01-01", "2000-01-05", 1)).toBe(0);
  });
});
