/**
 * Helpers the families' issuance rules share: dates, cover periods, ages, addtnlFact parsing.
 * Families own their rules; only mechanics live here.
 */
import type { z } from "zod";
import { CommandError } from "../core/errors";
import { parseWith } from "../core/validation";
import type { DurationCode } from "./shared";

/** Nigerian local time is UTC+1 all year: cover starts and ends are midnight WAT. */
const WAT_OFFSET_MS = 3_600_000;

/** YYYY-MM-DD (already validated) → the instant of midnight WAT that day. */
export function watMidnight(isoDate: string): Date {
  return new Date(Date.parse(`${isoDate}T00:00:00Z`) - WAT_OFFSET_MS);
}

/** "YYYY-MM-DD HH:MM:SS" in WAT (already validated) → the instant. */
export function watDateTime(value: string): Date {
  return new Date(Date.parse(`${value.replace(" ", "T")}Z`) - WAT_OFFSET_MS);
}

/** Today's date in WAT as YYYY-MM-DD. */
export function watToday(now: Date): string {
  return new Date(now.getTime() + WAT_OFFSET_MS).toISOString().slice(0, 10);
}

/**
 * The end of the WAT day `days` days after today's: how "cover ends within 30 days" counts, in calendar
 * days as people do (a month's cover taken today ends within 30 days on the first of a 31-day month too).
 */
export const endOfWatDayAhead = (now: Date, days: number): Date => new Date(watMidnight(watToday(now)).getTime() + (days + 1) * 86_400_000);

const DAYS: Partial<Record<DurationCode, number>> = { "7d": 7, "15d": 15, "25d": 25, "30d": 30, "45d": 45, "62d": 62, "92d": 92 };
const MONTHS: Partial<Record<DurationCode, number>> = { "1m": 1, "3m": 3, "6m": 6, "12m": 12, "1y": 12 };

/** The end of a cover of `duration` starting at `start` (calendar months for m/y codes). */
export function coverEnd(start: Date, duration: DurationCode): Date {
  const days = DAYS[duration];
  if (days !== undefined) return new Date(start.getTime() + days * 86_400_000);
  const months = MONTHS[duration]!;
  const local = new Date(start.getTime() + WAT_OFFSET_MS);
  const day = local.getUTCDate();
  local.setUTCDate(1);
  local.setUTCMonth(local.getUTCMonth() + months);
  // 31 January + 1 month ends on the last day of February, not in March.
  const lastDay = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 0)).getUTCDate();
  local.setUTCDate(Math.min(day, lastDay));
  return new Date(local.getTime() - WAT_OFFSET_MS);
}

/** Whole years of age on `on` for someone born on `dob` (YYYY-MM-DD). */
export function ageOn(dob: string, on: Date): number {
  const [y, m, d] = dob.split("-").map(Number) as [number, number, number];
  const local = new Date(on.getTime() + WAT_OFFSET_MS);
  let age = local.getUTCFullYear() - y;
  if (local.getUTCMonth() + 1 < m || (local.getUTCMonth() + 1 === m && local.getUTCDate() < d)) age--;
  return age;
}

/** Parse addtnlFact with a family's schema; errors name `seed.addtnlFact.<field>`. */
export function parseFacts<S extends z.ZodType>(schema: S, addtnlFact: unknown): z.output<S> {
  if (addtnlFact === undefined) throw new CommandError(400, "seed.addtnlFact is required for this product", "seed.addtnlFact");
  return parseWith(schema, addtnlFact, "seed.addtnlFact");
}
