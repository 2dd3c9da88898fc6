/**
 * Claim limits the families share: the ceiling of a product without a sum insured, and a ceiling
 * read from one figure of the policy's facts. Each family names its rule in its own folder
 * (docs/claims.md, "Ceilings").
 */
import type { ClaimCeiling, ClaimDocumentNeed, ClaimRule } from "./types";

/** A ceiling rule alone: a family adds its documents (and any excess) beside it. */
type CeilingRule = Pick<ClaimRule<unknown>, "ceiling">;

/** Photographs of the damage: most families ask for them. */
export const PHOTOS: ClaimDocumentNeed = { key: "photos", label: "Photographs of the damage" };
/** A police report: theft, burglary, a road accident. */
export const POLICE_REPORT: ClaimDocumentNeed = { key: "police_report", label: "A police report" };
/** A repair estimate or invoice. */
export const REPAIR_ESTIMATE: ClaimDocumentNeed = { key: "repair_estimate", label: "A repair estimate or invoice" };

/** Goods lost or damaged on the way (marine cargo, goods in transit): the carrier's papers, the survey and the goods' value. */
export const CARGO_CLAIM_DOCUMENTS: readonly ClaimDocumentNeed[] = [
  { key: "bill_of_lading", label: "The bill of lading or waybill" },
  { key: "survey_report", label: "The surveyor's report of the loss" },
  { key: "commercial_invoice", label: "The commercial invoice of the goods" },
  PHOTOS,
];

/** The most a claim may ask for on a policy without a sum insured: 100,000,000 naira. */
const ANY_CLAIM: ClaimCeiling = { kobo: 100_000_000 * 100, basis: "the most any claim may ask for" };

/** Products insured without a sum (third-party vehicle, laptop, travel, health): every claim up to the general ceiling. */
export const WITHOUT_SUM_INSURED: CeilingRule = { ceiling: () => ANY_CLAIM };

/** The policy's own sum insured a ceiling names, in kobo; null for the general ceiling (a product insured without one). */
export const sumInsuredIn = (ceiling: ClaimCeiling): number | null => (ceiling === ANY_CLAIM ? null : ceiling.kobo);

/**
 * Claims up to the figure the policy's `field` holds, described as `words (field)`: naira, or kobo
 * where the family keeps that figure in kobo (credit life's loanAmount, spec 2.4). A policy
 * without the figure takes the general ceiling.
 */
export function sumInsuredFrom(field: string, words: string, unit: "naira" | "kobo" = "naira"): CeilingRule {
  const koboPerUnit = unit === "kobo" ? 1 : 100;
  return {
    ceiling(_type, { facts }) {
      const value = facts[field];
      return typeof value === "number" ? { kobo: Math.round(value * koboPerUnit), basis: `${words} (${field})` } : ANY_CLAIM;
    },
  };
}
