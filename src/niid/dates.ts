/** Dates as the registry keeps them (YYYY-MM-DD) and as it shows them (DD MMM YYYY), in Nigerian time. */
import { DAY_MS } from "../core/time";

const WAT_OFFSET_MS = 3_600_000; // West Africa Time: UTC+1, no daylight saving

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

/** The calendar date in Nigeria at `at`, moved by `days`, as YYYY-MM-DD. */
export function watDate(at: Date, days = 0): string {
  return new Date(at.getTime() + WAT_OFFSET_MS + days * DAY_MS).toISOString().slice(0, 10);
}

/** "2027-03-14" → "14 Mar 2027" (the registry's display form, spec 4.3). */
export function displayDate(isoDate: string): string {
  const [year, month, day] = isoDate.split("-");
  return `${day} ${MONTHS[Number(month) - 1]} ${year}`;
}
