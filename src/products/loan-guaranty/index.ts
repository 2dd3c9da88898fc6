/** Loan repayment guaranty (lrgg-stnd), deprecated in favour of credit life but still sold to existing integrations. */
import { z } from "zod";
import { parseWith } from "../../core/validation";
import { borrowerRequirements } from "../credit-life";
import { percentOf, requireType, wholeNairaInKobo } from "../shared";
import type { ProductFamily, ProductType, Quote } from "../types";

const GUARANTY_TYPES = [
  { code: "stnd", name: "Loan repayment guaranty", deprecated: true },
] as const satisfies readonly ProductType[];

/** Spec 2.4: LoanAmount x 0.5% x tenure in months. */
const MONTHLY_RATE_PERCENT = 0.5;

// Wire names are capitalised for this product (LoanAmount, LoanTenure).
const guarantySeed = z.object({ LoanAmount: z.number().positive(), LoanTenure: z.int().min(1) });

function quotePremium(type: string, seed: unknown): Quote {
  requireType(GUARANTY_TYPES, "lrgg", type);
  const { LoanAmount, LoanTenure } = parseWith(guarantySeed, seed);
  const naira = percentOf(LoanAmount, MONTHLY_RATE_PERCENT) * LoanTenure;
  // Issuance declines when the amount differs from the quote, so keep both in the basis.
  return { premiumKobo: wholeNairaInKobo(naira), basis: { LoanAmount, LoanTenure } };
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
};
