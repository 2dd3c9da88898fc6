/** Credit life covers and their price: a one-off share of the loan principal, in kobo, for quote and issuance alike. */
import { z } from "zod";
import { MAX_INSURED_NAIRA } from "../../core/money";
import { percentOf, roundHalfUp } from "../shared";
import type { ProductType } from "../types";

export interface CreditCover extends ProductType {
  ratePercent: number;
}

/** Spec 2.4: 1% / 1% / 0.5% / 0.85% of the loan amount. */
export const CREDIT_COVERS = [
  { code: "sme1", name: "Credit life, SME loan", ratePercent: 1 },
  { code: "psnl", name: "Credit life, personal loan", ratePercent: 1 },
  { code: "kymn", name: "Keyman insurance", ratePercent: 0.5 },
  { code: "mrtg", name: "Mortgage protection", ratePercent: 0.85 },
] as const satisfies readonly CreditCover[];

/** The principal in kobo, as quoted (seed.loanAmount) and insured (addtnlFact.loanAmount): whole kobo, as every amount of money. */
export const loanAmount = z
  .int()
  .positive()
  .max(MAX_INSURED_NAIRA * 100)
  // The portal's form asks for naira and converts; integrators send kobo, and are told so here.
  .meta({
    description:
      "Loan amount in kobo (₦1 = 100 kobo): a ₦500,000 loan is 50000000. From 1,000,000,000 kobo (₦10,000,000) the borrower needs a medical test clearance.",
  });

/** loanAmount is kobo already; round to whole kobo. No duration: the loan tenure is the cover. */
export function creditPremiumKobo(cover: CreditCover, loanAmountKobo: number): number {
  return roundHalfUp(percentOf(loanAmountKobo, cover.ratePercent));
}
