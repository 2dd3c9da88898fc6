/**
 * The people an issuance request names, shared by the families that insure a life or a company:
 * the director of an organisation consumer (marine, credit life, loan guaranty) and the borrower
 * whose age must fall in the insurable band (credit life, loan guaranty). Spec 2.5 and the
 * decline reasons of spec 7. Also the two request mechanics all four of these families use.
 */
import { badRequest, type CommandError } from "../../core/errors";
import { ageOn, watMidnight, watToday } from "../policy-helpers";
import type { InsuredConsumer } from "../types";

/** A 400 naming `seed.addtnlFact.<field>`, for rules that span fields or need the consumer or the clock. */
export function factError(field: string, rule: string): CommandError {
  return badRequest(`seed.addtnlFact.${field} ${rule}`, `seed.addtnlFact.${field}`);
}

/** A loan tenure as printed: 1 month, 12 months. */
export const printMonths = (months: number): string => `${months} month${months === 1 ? "" : "s"}`;

/** Each family's wire names for the director: DrctrName/DrctrDob (marine, lrgg), directorName/directorDob (crlt). */
export interface DirectorFields {
  name: string;
  dob: string;
}

/**
 * Director details describe an organisation consumer. Sent for an individual they point at a
 * consumer registered with the wrong class, so refuse rather than store them; a director's date
 * of birth lies in the past.
 */
export function checkDirector(fields: DirectorFields, facts: Record<string, unknown>, consumer: InsuredConsumer, now: Date): void {
  for (const field of [fields.name, fields.dob])
    if (facts[field] !== undefined && consumer.class !== "o")
      throw factError(field, "is for organisation consumers only: this consumer is an individual (class h); omit it");
  const dob = facts[fields.dob];
  if (typeof dob === "string" && dob >= watToday(now)) throw factError(fields.dob, `must be a date in the past; received "${dob}"`);
}

/** Spec 7: an organisation that leaves out its director's name or date of birth is declined. */
export function missingDirectorDecline(fields: DirectorFields, facts: Record<string, unknown>): string | null {
  const missing = [fields.name, fields.dob].filter((field) => facts[field] === undefined);
  if (!missing.length) return null;
  return `Missing director details for an organisation: ${missing.join(" and ")} must be given for a company consumer.`;
}

/**
 * Chosen insurable age band (spec 7 names the decline, not the band): 18 to 65 when the loan
 * starts and at most 70 when it ends, the usual credit life terms.
 */
export const BORROWER_AGE = { minAtStart: 18, maxAtStart: 65, maxAtEnd: 70 } as const;

/** Whose age the band applies to: an individual's own dob.date, an organisation's director's when given. */
export function insuredLife(consumer: InsuredConsumer, directorDob: unknown): { who: string; dob: string } | undefined {
  if (consumer.class === "o") return typeof directorDob === "string" ? { who: "the director", dob: directorDob } : undefined;
  const dob = (consumer.profile.dob as { date?: unknown } | undefined)?.date;
  return typeof dob === "string" ? { who: "the borrower", dob } : undefined;
}

/** Spec 7 "borrower outside insurable age band", against the loan's start and end dates (YYYY-MM-DD). */
export function ageBandDecline(life: { who: string; dob: string } | undefined, loanStart: string, loanEnd: string): string | null {
  if (!life) return null;
  const atStart = ageOn(life.dob, watMidnight(loanStart));
  const atEnd = ageOn(life.dob, watMidnight(loanEnd));
  const band = `cover is for ages ${BORROWER_AGE.minAtStart} to ${BORROWER_AGE.maxAtStart} when the loan starts and at most ${BORROWER_AGE.maxAtEnd} when it ends`;
  if (atStart < BORROWER_AGE.minAtStart || atStart > BORROWER_AGE.maxAtStart)
    return `Borrower outside the insurable age band: ${life.who} (born ${life.dob}) is ${atStart} on the loan start date ${loanStart}; ${band}.`;
  if (atEnd > BORROWER_AGE.maxAtEnd)
    return `Borrower outside the insurable age band: ${life.who} (born ${life.dob}) will be ${atEnd} on the loan end date ${loanEnd}; ${band}.`;
  return null;
}

/** Spec 7 "LoanStartDate after LoanEndDate", in each family's wire names. */
export function loanPeriodDecline(fields: { start: string; end: string }, loanStart: string, loanEnd: string): string | null {
  if (loanStart <= loanEnd) return null;
  return `${fields.start} after ${fields.end}: the loan cannot start on ${loanStart} and end earlier, on ${loanEnd}.`;
}
