/** Loan repayment guaranty (lrgg-stnd): what is sold and how it is priced, for quote and issuance alike. */
import { z } from "zod";
import { MAX_INSURED_NAIRA, nairaAmount } from "../../core/money";
import { percentOf, wholeNairaInKobo } from "../shared";
import type { ProductType } from "../types";

export const GUARANTY_TYPES = [{ code: "stnd", name: "Loan repayment guaranty", deprecated: true }] as const satisfies readonly ProductType[];

/** Spec 2.4: LoanAmount x 0.5% x tenure in months. */
const MONTHLY_RATE_PERCENT = 0.5;

// Wire names are capitalised for this product (LoanAmount, LoanTenure): naira, and whole months.
export const guarantyLoan = { LoanAmount: nairaAmount({ max: MAX_INSURED_NAIRA }), LoanTenure: z.int().min(1) };

export function guarantyPremiumKobo(loanAmountNaira: number, tenureMonths: number): number {
  return wholeNairaInKobo(percentOf(loanAmountNaira, MONTHLY_RATE_PERCENT) * tenureMonths);
}
