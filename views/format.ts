import { formatNaira } from "../src/core/money";
import { coverDays } from "../src/core/time";
/** Nigerian formats for people: naira with thousands separators, local (WAT) dates and times. */

/**
 * ₦15,000.00 from kobo (src/core/money.ts: certificates write amounts the same way). A negative
 * amount's "−" is joined to the figure (U+2060 WORD JOINER, which shows nothing), so a narrow
 * column never wraps the sign away and a refund never reads as a charge.
 */
export const naira = (kobo: number) => formatNaira(kobo).replace(/^−/, "−\u2060");

const WAT_MS = 3_600_000;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "November 2026" ("Nov 2026" short) from 2026-11; anything else as it is. */
export function monthName(month: string, form: "long" | "short" = "long"): string {
  const name = (form === "long" ? MONTH_NAMES : MONTHS)[Number(month.slice(5, 7)) - 1];
  return name && /^\d{4}-\d{2}$/.test(month) ? `${name} ${month.slice(0, 4)}` : month;
}

/** 3 Mar 2026, 14:05 (WAT). */
export function dateTime(at: Date | null | undefined): string {
  if (!at) return "—";
  const wat = new Date(at.getTime() + WAT_MS);
  return `${wat.getUTCDate()} ${MONTHS[wat.getUTCMonth()]} ${wat.getUTCFullYear()}, ${String(wat.getUTCHours()).padStart(2, "0")}:${String(wat.getUTCMinutes()).padStart(2, "0")}`;
}

/** How long something has waited, roughly: "12 min", "3 h", "2 days". */
export function waitingFor(since: Date, now: Date): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - since.getTime()) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
}

/** How long to wait, rounded up: "1 second", "40 seconds", "1 minute", "15 minutes". */
export function waitWords(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  const [count, unit] = seconds < 60 ? [seconds, "second"] : [Math.ceil(seconds / 60), "minute"];
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}

/** 3 Mar 2026 (WAT), from an instant or a YYYY-MM-DD date. */
export function day(at: Date | string | null | undefined): string {
  if (!at) return "—";
  const wat = typeof at === "string" ? new Date(`${at}T00:00:00Z`) : new Date(at.getTime() + WAT_MS);
  return `${wat.getUTCDate()} ${MONTHS[wat.getUTCMonth()]} ${wat.getUTCFullYear()}`;
}

/** A gap in cover in words: "on 27 Nov 2026" for a single day, "from 27 Nov 2026 to 3 Dec 2026" for longer. */
export function gapDays(from: Date, to: Date): string {
  const [first, last] = [day(from), day(to)];
  return first === last ? `on ${first}` : `from ${first} to ${last}`;
}

/** A sentence as people read it: a capital first letter ("no record was found" → "No record was found"). */
export const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A YYYY-MM-DD date inside a text (a quoted one is a value as typed: left as it is). */
const ISO_DATE = /(?<![\d"-])(\d{4}-\d{2}-\d{2})(?![\d-])/g;
/** A real date, not digits that only look like one (2026-02-30). */
function isRealDate(iso: string): boolean {
  const at = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().startsWith(iso);
}

/**
 * A stored note (a status note, a reason) as pages show it: its YYYY-MM-DD dates in words like
 * every other date on the page ("Cancelled from 2026-11-27" is "Cancelled from 27 Nov 2026"), and
 * a span of one day ("from 27 Nov 2026 to 27 Nov 2026") said as that day. Otherwise as written: a
 * note a person typed keeps their words. The stored note itself, as the JSON surface and the CSV
 * exports give it, keeps its ISO dates.
 */
export function noteText(note: string): string {
  const dated = note.replace(ISO_DATE, (iso) => (isRealDate(iso) ? day(iso) : iso));
  return dated.replace(/\bfrom (\d{1,2} [A-Z][a-z]{2} \d{4}) to \1(?!\d)/g, "on $1");
}

/** "23 Nov 2026 to 22 Nov 2027": the cover period (src/core/time.ts coverDays) in words. */
export function coverPeriod(start: Date, end: Date): string {
  const { firstDay, lastDay } = coverDays(start, end);
  return `${day(firstDay)} to ${day(lastDay)}`;
}

/** What a policy status letter means to a person. */
export const POLICY_STATUS_TEXT: Record<string, string> = { p: "Pending", a: "Approved", d: "Declined", l: "Lapsed", c: "Cancelled", e: "Expired" };
