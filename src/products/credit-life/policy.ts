/** Issuing credit life cover (spec 2.5): the loan's own period is the cover; money is kobo. */
import { z } from "zod";
import { badRequest, notAcceptable } from "../../core/errors";
import { formatNaira } from "../../core/money";
import { isoDate, text } from "../../core/validation";
import { parseFacts, watMidnight } from "../policy-helpers";
import { requireType } from "../shared";
import type { PolicyRules } from "../types";
import { ageBandDecline, checkDirector, type DirectorFields, factError, insuredLife, loanPeriodDecline, missingDirectorDecline, printMonths } from "./parties";
import { CREDIT_COVERS, creditPremiumKobo, loanAmount } from "./pricing";

/** Spec 7 and 8: from 1000000000 kobo (100 million naira) the borrower needs a medical test clearance. */
export const MEDICAL_CLEARANCE_KOBO = 1_000_000_000;

/** Spec 7 answers each of these missing with its own 406 "<field> not provided", checked in this order. */
const LOAN_FIELDS = ["loanAmount", "loanTenure", "disbursementDate", "loanStartDate", "loanEndDate"] as const;

const DIRECTOR: DirectorFields = { name: "directorName", dob: "directorDob" };

// Strict: a misspelt optional field (directorDob, medicalTestClearance) would otherwise be dropped silently.
export const creditFacts = z.strictObject({
  loanAmount,
  loanTenure: z.number().positive(),
  disbursementDate: isoDate,
  loanStartDate: isoDate,
  loanEndDate: isoDate,
  directorName: text(200).optional(),
  directorDob: isoDate.optional(),
  medicalTestClearance: z.literal("true").optional(),
});
type CreditFacts = z.output<typeof creditFacts>;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The refusals the spec words itself, before the field types are checked. */
function refuseBySpec(addtnlFact: Record<string, unknown>): void {
  if (addtnlFact.lenderName !== undefined)
    throw badRequest("seed.addtnlFact.lenderName must not be sent: the lender is filled in from the partner account name", "seed.addtnlFact.lenderName");
  for (const field of LOAN_FIELDS)
    if (addtnlFact[field] === undefined || addtnlFact[field] === null) throw notAcceptable(`${field} not provided`, `seed.addtnlFact.${field}`);
}

export const creditLifePolicy: PolicyRules = {
  terms(type, request, { consumer, now }) {
    const cover = requireType(CREDIT_COVERS, "crlt", type);
    if (request.insrncDrtn !== undefined)
      throw badRequest("seed.insrncDrtn must be omitted for credit life: the loan's period, loanStartDate to loanEndDate, is the cover", "seed.insrncDrtn");
    const sent = request.addtnlFact ?? {};
    if (isRecord(sent)) refuseBySpec(sent);
    const facts = parseFacts(creditFacts, sent);
    if (facts.loanAmount >= MEDICAL_CLEARANCE_KOBO && facts.medicalTestClearance === undefined)
      throw notAcceptable(
        `medical test clearance required: a loanAmount of ${MEDICAL_CLEARANCE_KOBO} kobo or more needs medicalTestClearance "true"`,
        "seed.addtnlFact.medicalTestClearance",
      );
    // A typo, not an underwriting matter (spec 7 does not list it): the cover starts when the money is paid out.
    if (facts.loanStartDate !== facts.disbursementDate)
      throw factError(
        "loanStartDate",
        `must match disbursementDate ("${facts.disbursementDate}"), the actual disbursement date; received "${facts.loanStartDate}"`,
      );
    checkDirector(DIRECTOR, facts, consumer, now);
    return {
      premiumKobo: creditPremiumKobo(cover, facts.loanAmount),
      coverStart: watMidnight(facts.loanStartDate),
      coverEnd: watMidnight(facts.loanEndDate),
      facts,
      liveRoute: "manual",
      printed: [
        ["Loan amount", formatNaira(Math.round(facts.loanAmount))],
        ["Loan tenure", printMonths(facts.loanTenure)],
        ["Disbursement date", facts.disbursementDate],
        ...(facts.directorName ? [["Director", facts.directorName] as const] : []),
      ],
    };
  },

  declineReason(type, terms, { consumer }) {
    const facts = terms.facts as CreditFacts;
    return (
      loanPeriodDecline({ start: "loanStartDate", end: "loanEndDate" }, facts.loanStartDate, facts.loanEndDate) ??
      // Spec 2.5 asks for director details of an SME loan to an organisation; the director is the life insured.
      (type === "sme1" && consumer.class === "o" ? missingDirectorDecline(DIRECTOR, facts) : null) ??
      ageBandDecline(insuredLife(consumer, facts.directorDob), facts.loanStartDate, facts.loanEndDate)
    );
  },

  certificate() {
    return { type: "pdf", delivery: "inline" };
  },
};
