/**
 * Claim limits the families share: the ceiling of a product without a sum insured, and a ceiling
 * read from one figure of the policy's facts. Each family names its rule in its own folder
 * (docs/claims.md, "Ceilings").
 */
import type { ClaimCeiling, ClaimRule } from "./types";

/** The most a claim may ask for on a policy without a sum insured: 100,000,000 naira. */
const ANY_CLAIM: ClaimCeiling = { kobo: 100_000_000 * 100, basis: "the most any claim may ask for" };

/** Products insured without a sum (third-party vehicle, laptop, travel, health): every claim up to the general ceiling. */
export const WITHOUT_SUM_INSURED: ClaimRule<unknown> = { ceiling: () => ANY_CLAIM };

/** The policy's own sum insured a ceiling names, in kobo; null for the general ceiling (a product insured without one). */
export const sumInsuredIn = (ceiling: ClaimCeiling): number | null => (ceiling === ANY_CLAIM ? null : ceiling.kobo);

/**
 * Claims up to the figure the policy's `field` holds, described as `words (field)`: naira, or kobo
 * where the family keeps that figure in kobo (credit life's loanAmount, spec 2.4). A policy
 * without the figure takes the general ceiling.
 */
export function sumInsuredFrom(field: string, words: string, unit: "naira" | "kobo" = "naira"): ClaimRule<unknown> {
  const koboPerUnit = unit === "kobo" ? 1 : 100;
  return {
    ceiling(_type, { facts }) {
      const value = facts[field];
      return typeof value === "number" ? { kobo: Math.round(value * koboPerUnit), basis: `${words} (${field})` } : ANY_CLAIM;
    },
  };
}
