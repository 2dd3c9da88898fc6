/** Loan repayment guaranty (lrgg-stnd), deprecated in favour of credit life but still sold to existing integrations. */
import { z } from "zod";
import { parseWith } from "../../core/validation";
import { borrowerRequirements } from "../credit-life";
import { requireType } from "../shared";
import type { ProductFamily, Quote } from "../types";
import { loanGuarantyForms } from "./form";
import { guarantyFacts, loanGuarantyPolicy } from "./policy";
import { GUARANTY_TYPES, guarantyLoan, guarantyPremiumKobo } from "./pricing";

const guarantySeed = z.object(guarantyLoan);

function quotePremium(type: string, seed: unknown): Quote {
  requireType(GUARANTY_TYPES, "lrgg", type);
  const { LoanAmount, LoanTenure } = parseWith(guarantySeed, seed);
  // Issuance declines when the amount differs from the quote, so keep both in the basis.
  return { premiumKobo: guarantyPremiumKobo(LoanAmount, LoanTenure), basis: { LoanAmount, LoanTenure } };
}

export const loanGuaranty: ProductFamily = {
  ctgry: "lrgg",
  name: "Loan repayment guaranty",
  types: GUARANTY_TYPES,
  premiumUnit: "naira",
  quote: quotePremium,
  consumerRequirements(type, consumerClass) {
    requireType(GUARANTY_TYPES, "lrgg", type);
    return borrowerRequirements(consumerClass);
  },
  policy: loanGuarantyPolicy,
  forms: loanGuarantyForms,
  schemas(type) {
    requireType(GUARANTY_TYPES, "lrgg", type);
    return { quote: guarantySeed, addtnlFact: guarantyFacts };
  },
};
