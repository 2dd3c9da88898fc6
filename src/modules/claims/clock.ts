/**
 * The statutory clock of a claim (issue 37; docs/claims.md, "The clock"): no database, so the
 * service, the desk, the background check and the property tests share one set of rules.
 *
 * - Settlement: by the end of the Nigerian day `settlementDays` calendar days after the day the
 *   claim was notified (submitted), plus the days the clock was paused waiting for the partner's
 *   information: each pause's days, `pauseMaxDays` at most in all (the insurer cannot stop its own
 *   clock for ever by asking).
 * - Discharge voucher: by the end of the `voucherWorkingDays`th working day after the day liability
 *   was admitted (the approval); working days are Monday to Friday, not public holidays.
 * - Due soon: the deadline is `dueSoonDays` calendar days away or less (settlement), or
 *   `voucherDueSoonDays` (voucher); overdue: the deadline's day has passed.
 * - Late interest: simple interest on the payable amount at `lateInterestBasisPoints` a year, for
 *   every calendar day after the settlement deadline up to and including the day the money was
 *   paid (or today while unpaid), over a 365-day year, rounded half up to the kobo once.
 */
import type { Config } from "../../core/config";
import { addDays, addWorkingDays, daysBetween } from "../calendar";

export interface ClockSettings {
  settlementDays: number;
  voucherWorkingDays: number;
  dueSoonDays: number;
  voucherDueSoonDays: number;
  lateInterestBasisPoints: number;
  pauseMaxDays: number;
}

export const clockSettings = (config: Config): ClockSettings => ({
  settlementDays: config.CLAIM_SETTLEMENT_DAYS,
  voucherWorkingDays: config.CLAIM_VOUCHER_WORKING_DAYS,
  dueSoonDays: config.CLAIM_DUE_SOON_DAYS,
  voucherDueSoonDays: config.CLAIM_VOUCHER_DUE_SOON_DAYS,
  lateInterestBasisPoints: config.CLAIM_LATE_INTEREST_BASIS_POINTS,
  pauseMaxDays: config.CLAIM_PAUSE_MAX_DAYS,
});

/** A pause of a claim waiting for information: the day it began and the last day it may count (the allowance left). */
export const pauseOf = (today: string, pausedSoFar: number, settings: Pick<ClockSettings, "pauseMaxDays">) => ({
  pausedSince: today,
  pausedUntil: addDays(today, Math.max(0, settings.pauseMaxDays - pausedSoFar)),
});

/** The days a pause counts once it ends on `today`: the days waited, at most its allowance. */
export const pauseCounted = (pause: { pausedSince: string; pausedUntil: string }, today: string): number =>
  Math.max(0, Math.min(daysBetween(pause.pausedSince, today), daysBetween(pause.pausedSince, pause.pausedUntil)));

/** The two deadlines a claim may carry. */
export type Deadline = "settlement" | "voucher";

/** A pause of the clock: from the day information was asked for to the day it came (that day runs again). */
export interface ClockPause {
  from: string;
  to: string;
}

/** Days the clock stood still: each pause's days, the day it ended not included. */
export const pausedDays = (pauses: readonly ClockPause[]): number => pauses.reduce((sum, p) => sum + Math.max(0, daysBetween(p.from, p.to)), 0);

/** The last day to settle a claim notified on `notifiedOn` (Nigerian date), after `paused` days of pauses. */
export const settlementDueOn = (notifiedOn: string, paused: number, settings: Pick<ClockSettings, "settlementDays">): string =>
  addDays(notifiedOn, settings.settlementDays + paused);

/** The last day to issue the discharge voucher of a liability admitted on `admittedOn`. */
export const voucherDueOn = (admittedOn: string, holidays: ReadonlySet<string>, settings: Pick<ClockSettings, "voucherWorkingDays">): string =>
  addWorkingDays(admittedOn, settings.voucherWorkingDays, holidays);

/** Where a running deadline stands on `today`: days left (0 on its last day), or days overdue. */
export type Standing = { state: "running" | "due_soon"; daysLeft: number } | { state: "overdue"; daysOverdue: number };

export function standingOf(dueOn: string, today: string, dueSoonDays: number): Standing {
  const left = daysBetween(today, dueOn);
  if (left < 0) return { state: "overdue", daysOverdue: -left };
  return { state: left <= dueSoonDays ? "due_soon" : "running", daysLeft: left };
}

/** Late interest in kobo on `payableKobo` settled on `paidOn` against a deadline of `dueOn` (0 when on time). */
export function lateInterestKobo(payableKobo: number, dueOn: string, paidOn: string, basisPoints: number): number {
  const days = daysBetween(dueOn, paidOn);
  if (days <= 0 || payableKobo <= 0 || basisPoints <= 0) return 0;
  const numerator = BigInt(payableKobo) * BigInt(basisPoints) * BigInt(days);
  const denominator = 10_000n * 365n;
  return Number((2n * numerator + denominator) / (2n * denominator));
}
