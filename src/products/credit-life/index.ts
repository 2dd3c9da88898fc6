/** Credit life (crlt): a one-off share of the loan principal. Money is in kobo on the wire too. */
import { z } from "zod";
import { notAcceptable } from "../../core/errors";
import { parseWith } from "../../core/validation";
import { sumInsuredFrom } from "../claims";
import { SANDBOX_INSURERS } from "../insurers";
import { nameField, productFamily, requiredFor } from "../shared";
import type { ConsumerClass, ProductFamily, Quote } from "../types";
import { creditLifeForms } from "./form";
import { creditFacts, creditLifePolicy } from "./policy";
import { CREDIT_COVERS, type CreditCover, creditPremiumKobo, loanAmount } from "./pricing";

const creditSeed = z.object({ loanAmount });

/** Spec 7 words a missing (or null) loanAmount as a 406 of its own. */
function loanAmountMissing(seed: unknown): boolean {
  if (seed === undefined || seed === null) return true;
  if (typeof seed !== "object" || Array.isArray(seed)) return false;
  const value = (seed as Record<string, unknown>).loanAmount;
  return value === undefined || value === null;
}

function quotePremium(cover: CreditCover, seed: unknown): Quote {
  if (loanAmountMissing(seed)) throw notAcceptable("loanAmount not provided", "seed.loanAmount");
  const { loanAmount } = parseWith(creditSeed, seed);
  return { premiumKobo: creditPremiumKobo(cover, loanAmount), basis: { loanAmount } };
}

/** Spec 2.3: dob, gender and address in addition to name, phone and e-mail; shared with loan guaranty. */
export function borrowerRequirements(consumerClass: ConsumerClass): readonly string[] {
  return requiredFor(consumerClass, [nameField(consumerClass), "phoneNo", "eMail", "dob.date", "gender", "addrss.addrss"]);
}

export const creditLife: ProductFamily = productFamily({
  ctgry: "crlt",
  name: "Credit life",
  types: CREDIT_COVERS,
  premiumUnit: "kobo",
  quote: quotePremium,
  consumerRequirements: (_type, consumerClass) => borrowerRequirements(consumerClass),
  policy: creditLifePolicy,
  // The cover follows the loan: what is refunded follows what is still owed.
  cancellation: { kind: "outstanding-loan" },
  // The cover pays off the loan: a claim is worth at most the loan, which the facts keep in kobo as the wire sends it.
  claims: {
    ...sumInsuredFrom("loanAmount", "the loan amount", "kobo"),
    documents: () => [
      { key: "death_certificate", label: "The death certificate (or the medical report of the disability)" },
      { key: "loan_statement", label: "The lender's statement of the loan outstanding" },
      { key: "identity", label: "The borrower's means of identification" },
    ],
  },
  insurer: SANDBOX_INSURERS.aiico,
  // A loan topped up or partly repaid (with the clearance a larger one needs), or another director: reviewed as issuance is.
  endorsement: { fields: () => ["loanAmount", "medicalTestClearance", "directorName", "directorDob"] },
  forms: creditLifeForms,
  schemas: () => ({ quote: creditSeed, addtnlFact: creditFacts }),
});
