/**
 * The pure rules of premium financing: the installment schedule and the lapse note.
 * Dates are YYYY-MM-DD on the Nigerian calendar; money is integer kobo. No database here.
 */

import { DAY_MS } from "../../core/time";
import type { Frequency } from "./schema";

export interface ScheduledInstallment {
  number: number;
  dueDate: string;
  amountKobo: number;
}

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const dateOf = (utcMs: number) => new Date(utcMs).toISOString().slice(0, 10);

export const addDays = (date: string, days: number): string => dateOf((dayNumber(date) + days) * DAY_MS);

/**
 * Due date of installment `index` (0 = the first). Weekly and biweekly add 7 or 14 days; monthly
 * keeps the first date's day of month, clamped to shorter months without drifting: 31 Jan →
 * 28/29 Feb → 31 Mar → 30 Apr → 31 May.
 */
export function dueDateOf(firstDueDate: string, frequency: Frequency, index: number): string {
  if (frequency === "weekly") return addDays(firstDueDate, 7 * index);
  if (frequency === "biweekly") return addDays(firstDueDate, 14 * index);
  const [year, month, day] = firstDueDate.split("-").map(Number) as [number, number, number];
  const monthIndex = month - 1 + index;
  const lastDay = new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
  return dateOf(Date.UTC(year, monthIndex, Math.min(day, lastDay)));
}

/**
 * The financed amount in `count` equal installments of whole kobo, rounded down; the kobo left
 * over go on the last installment (₦14,000 in 3 → 4,666.66 + 4,666.66 + 4,666.68), so the
 * schedule always adds up to exactly the financed amount.
 */
export function buildSchedule(financedKobo: number, count: number, frequency: Frequency, firstDueDate: string): ScheduledInstallment[] {
  const equal = Math.floor(financedKobo / count);
  return Array.from({ length: count }, (_, index) => ({
    number: index + 1,
    dueDate: dueDateOf(firstDueDate, frequency, index),
    amountKobo: index === count - 1 ? financedKobo - equal * (count - 1) : equal,
  }));
}

/** ₦12,500.00: the naira sign, thousands separated by commas, always two decimals. */
export function formatNaira(kobo: number): string {
  const whole = Math.floor(kobo / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `₦${whole}.${String(kobo % 100).padStart(2, "0")}`;
}

const graceWords = (days: number) => (days === 0 ? "after its due date (no grace days)" : days === 1 ? "after 1 day's grace" : `after ${days} days' grace`);

/**
 * The statusNote of a lapsed plan and its policy, e.g. "Lapsed: installment 2 of 4 (₦12,500.00, due
 * 2026-10-01) unpaid after 7 days' grace"; a partly paid installment says what is still owed.
 */
export function lapseNote(
  missed: { number: number; amountKobo: number; paidKobo: number; dueDate: string },
  installmentCount: number,
  graceDays: number,
): string {
  const which = `installment ${missed.number} of ${installmentCount} (${formatNaira(missed.amountKobo)}, due ${missed.dueDate})`;
  const unpaid = missed.paidKobo > 0 ? `partly unpaid (${formatNaira(missed.amountKobo - missed.paidKobo)} outstanding)` : "unpaid";
  return `Lapsed: ${which} ${unpaid} ${graceWords(graceDays)}`;
}
