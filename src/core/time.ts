/** Nigerian local time (WAT, UTC+1, no daylight saving) as the wire shows it: YYYY-MM-DD HH:MM:SS. */
export function watTimestamp(at: Date): string {
  return new Date(at.getTime() + 3_600_000).toISOString().slice(0, 19).replace("T", " ");
}
