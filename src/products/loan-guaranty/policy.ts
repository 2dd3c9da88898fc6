/** Issuing a loan repayment guaranty (spec 2.5): the loan's own period is the cover. */
import { z } from "zod";
import { badRequest } from "../../core/errors";
import { isoDate, text } from "../../core/validation";
import { ageBandDecline, checkDirector, type DirectorFields, factError, insuredLife, loanPeriodDecline, printMonths } from "../credit-life/parties";
import { parseFacts, watMidnight } from "../policy-helpers";
import { printNairaFigure, requireType } from "../shared";
import type { PolicyRules, QuoteOnFile } from "../types";
import { GUARANTY_TYPES, guarantyLoan, guarantyPremiumKobo } from "./pricing";

const DIRECTOR: DirectorFields = { name: "DrctrName", dob: "DrctrDob" };

// Strict: a misspelt optional field (DrctrDob) would otherwise be dropped silently.
export const guarantyFacts = z.strictObject({
  ...guarantyLoan,
  DsbrsmDate: isoDate,
  LoanStartDate: isoDate,
  LoanEndDate: isoDate,
  DrctrName: text(200).optional(),
  DrctrDob: isoDate.optional(),
});
type GuarantyFacts = z.output<typeof guarantyFacts>;

/**
 * Spec 7: the guaranteed amount must be the one quoted. Chosen: with no quote on file there is
 * nothing to match, which the insurer treats the same way (the spec's flow quotes first).
 */
function quotedAmountDecline(loanAmountNaira: number, quote: QuoteOnFile | undefined): string | null {
  const quoted = quote?.basis.LoanAmount;
  if (typeof quoted !== "number")
    return (
      `Loan guaranty amount differs between quote and issuance: no lrgg-stnd-1111 quote is on file to match LoanAmount ` +
      `${printNairaFigure(loanAmountNaira)}; quote the loan before issuing.`
    );
  if (quoted !== loanAmountNaira)
    return (
      `Loan guaranty amount differs between quote and issuance: LoanAmount is ${printNairaFigure(loanAmountNaira)} at issuance but ` +
      `${printNairaFigure(quoted)} in the latest quote.`
    );
  return null;
}

export const loanGuarantyPolicy: PolicyRules = {
  comparesWithQuote: true,
  terms(type, request, { consumer, now }) {
    requireType(GUARANTY_TYPES, "lrgg", type);
    if (request.insrncDrtn !== undefined)
      throw badRequest("seed.insrncDrtn must be omitted for loan guaranty: the loan's period, LoanStartDate to LoanEndDate, is the cover", "seed.insrncDrtn");
    const facts = parseFacts(guarantyFacts, request.addtnlFact);
    // A typo, not an underwriting matter (spec 7 does not list it): the cover starts when the money is paid out.
    if (facts.LoanStartDate !== facts.DsbrsmDate)
      throw factError("LoanStartDate", `must match DsbrsmDate ("${facts.DsbrsmDate}"), the actual disbursement date; received "${facts.LoanStartDate}"`);
    checkDirector(DIRECTOR, facts, consumer, now);
    return {
      premiumKobo: guarantyPremiumKobo(facts.LoanAmount, facts.LoanTenure),
      coverStart: watMidnight(facts.LoanStartDate),
      coverEnd: watMidnight(facts.LoanEndDate),
      facts,
      liveRoute: "manual",
      printed: [
        ["Loan amount", printNairaFigure(facts.LoanAmount)],
        ["Loan tenure", printMonths(facts.LoanTenure)],
        ["Disbursement date", facts.DsbrsmDate],
        ...(facts.DrctrName ? [["Director", facts.DrctrName] as const] : []),
      ],
    };
  },

  declineReason(_type, terms, { consumer, latestQuote }) {
    const facts = terms.facts as GuarantyFacts;
    return (
      quotedAmountDecline(facts.LoanAmount, latestQuote) ??
      loanPeriodDecline({ start: "LoanStartDate", end: "LoanEndDate" }, facts.LoanStartDate, facts.LoanEndDate) ??
      ageBandDecline(insuredLife(consumer, facts.DrctrDob), facts.LoanStartDate, facts.LoanEndDate)
    );
  },

  certificate() {
    return { type: "jpg", delivery: "inline" };
  },
};
