/** Loan repayment guaranty (lrgg-stnd), deprecated in favour of credit life but still sold to existing integrations. */
import { z } from "zod";
import { parseWith } from "../../core/validation";
import { sumInsuredFrom } from "../claims";
import { borrowerRequirements } from "../credit-life";
import { SANDBOX_INSURERS } from "../insurers";
import { productFamily } from "../shared";
import type { ProductFamily, ProductType, Quote } from "../types";
import { loanGuarantyForms } from "./form";
import { guarantyFacts, loanGuarantyPolicy } from "./policy";
import { GUARANTY_TYPES, guarantyLoan, guarantyPremiumKobo } from "./pricing";

const guarantySeed = z.object(guarantyLoan);

function quotePremium(_type: ProductType, seed: unknown): Quote {
  const { LoanAmount, LoanTenure } = parseWith(guarantySeed, seed);
  // Issuance declines when the amount differs from the quote, so keep both in the basis.
  return { premiumKobo: guarantyPremiumKobo(LoanAmount, LoanTenure), basis: { LoanAmount, LoanTenure } };
}

export const loanGuaranty: ProductFamily = productFamily({
  ctgry: "lrgg",
  name: "Loan repayment guaranty",
  types: GUARANTY_TYPES,
  quote: quotePremium,
  consumerRequirements: (_type, consumerClass) => borrowerRequirements(consumerClass),
  policy: loanGuarantyPolicy,
  // The guarantee follows the loan: what is refunded follows what is still owed.
  cancellation: { kind: "outstanding-loan" },
  claims: {
    ...sumInsuredFrom("LoanAmount", "the loan amount"),
    documents: () => [
      { key: "default_notice", label: "The notice of default sent to the borrower" },
      { key: "loan_statement", label: "The lender's statement of the loan and its repayments" },
      { key: "loan_agreement", label: "The signed loan agreement" },
    ],
  },
  insurer: SANDBOX_INSURERS.aiico,
  forms: loanGuarantyForms,
  schemas: () => ({ quote: guarantySeed, addtnlFact: guarantyFacts }),
});
