/** Commission rates as people write them ("12.5 %") and the statement's month, checked. */
import { CommandError } from "../../core/errors";
import { isMonth, MONTH_RULE } from "../../core/validation";
import { currentWatMonth } from "../enrichment";

/** A rate in basis points as the portal and the ledger say it: 1250 → "12.5 %". */
export function percentText(basisPoints: number): string {
  const whole = Math.trunc(basisPoints / 100);
  const hundredths = basisPoints % 100;
  return `${whole}${hundredths ? `.${String(hundredths).padStart(2, "0").replace(/0$/, "")}` : ""} %`;
}

const PERCENT = /^(\d{1,3})(?:\.(\d{1,2}))?\s*%?$/;

/** "12.5", "12.5 %" or "12.50%" → 1250 basis points; null when it is not a percentage with at most two decimals. */
export function basisPointsOf(text: string): number | null {
  const match = PERCENT.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

/** A rate typed in a form: a percentage from 0 to 100 with at most two decimals, or a refusal naming `field`. */
export function rateFrom(text: string | undefined, field: string): number {
  const raw = text?.trim() ?? "";
  if (!raw) throw new CommandError(400, `${field} is required: a percentage such as 12.5`, field);
  const basisPoints = basisPointsOf(raw);
  if (basisPoints === null || basisPoints > 10_000)
    throw new CommandError(400, `${field} must be a percentage from 0 to 100 with at most two decimals, such as 12.5; received "${raw}"`, field);
  return basisPoints;
}

/** A statement's month (YYYY-MM, Nigerian time): not malformed, not after the current month. */
export function statementMonth(raw: unknown, now: Date, field: string): string {
  const current = currentWatMonth(now);
  if (typeof raw !== "string" || !isMonth(raw.trim()))
    throw new CommandError(400, `${field} must be ${MONTH_RULE}, such as ${current}; received ${JSON.stringify(raw ?? null)}`, field);
  const month = raw.trim();
  if (month > current) throw new CommandError(400, `${field} ${month} is in the future: the latest statement is for ${current}, the month so far`, field);
  return month;
}

/** The month before `month` (YYYY-MM). */
export function previousMonth(month: string): string {
  const [year, index] = month.split("-").map(Number) as [number, number];
  return index === 1 ? `${year - 1}-12` : `${year}-${String(index - 1).padStart(2, "0")}`;
}
