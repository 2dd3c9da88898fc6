/** A day in milliseconds (the calendar day of WAT, which keeps no daylight saving). */
export const DAY_MS = 86_400_000;

/** Nigerian local time (WAT, UTC+1, no daylight saving) as the wire shows it: YYYY-MM-DD HH:MM:SS. */
export function watTimestamp(at: Date): string {
  return new Date(at.getTime() + 3_600_000).toISOString().slice(0, 19).replace("T", " ");
}

/**
 * The cover period as people read it, one definition for every page, certificate and registry:
 * its first and last day, both inclusive, as Nigerian dates (YYYY-MM-DD). Cover is stored as
 * [start, end): it starts at an instant (midnight WAT, or a departure) and ends at the instant
 * after its last moment, so a year from 23 Nov 2026 is 23 Nov 2026 to 22 Nov 2027.
 */
export function coverDays(start: Date, end: Date): { firstDay: string; lastDay: string } {
  return { firstDay: watTimestamp(start).slice(0, 10), lastDay: lastCoverDay(end) };
}

/** The last day (WAT) cover ending at `end` reaches: cover ending at a midnight does not reach the day that starts then. */
export const lastCoverDay = (end: Date): string => watTimestamp(new Date(end.getTime() - 1)).slice(0, 10);
