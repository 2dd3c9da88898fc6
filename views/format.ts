import { formatNaira } from "../src/core/money";
import { coverDays } from "../src/core/time";
/** Nigerian formats for people: naira with thousands separators, local (WAT) dates and times. */

/** ₦15,000.00 from kobo (src/core/money.ts: certificates write amounts the same way). */
export const naira = formatNaira;

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

/** "23 Nov 2026 to 22 Nov 2027": the cover period (src/core/time.ts coverDays) in words. */
export function coverPeriod(start: Date, end: Date): string {
  const { firstDay, lastDay } = coverDays(start, end);
  return `${day(firstDay)} to ${day(lastDay)}`;
}

/** What a policy status letter means to a person. */
export const POLICY_STATUS_TEXT: Record<string, string> = { p: "Pending", a: "Approved", d: "Declined", l: "Lapsed", c: "Cancelled", e: "Expired" };
