/**
 * The claim rules that need no database: the state machine, the excess, the most a claim may be
 * worth (both as the policy's product family rules them), and claim numbers. The service and every
 * surface read them from here.
 */
import { randomBytes } from "node:crypto";
import { CommandError } from "../../core/errors";
import { toNaira as naira } from "../../core/money";
import { findProduct } from "../../products";
import { watToday } from "../../products/policy-helpers";
import type { ClaimCeiling, ClaimDocumentNeed, ClaimedPolicy } from "../../products/types";
import type { ClaimStatus } from "./schema";

/**
 * Who moves a claim: the partner who submitted it, the operator's administrators, or the payout (its
 * provider's word that the money arrived, or that it came back).
 */
export type ClaimActor = "partner" | "operator" | "payout";

/**
 * The state machine, written once: from each status, the statuses it may become and who may make
 * that change. rejected and withdrawn are final; paid is, unless the bank reverses the transfer.
 */
export const CLAIM_TRANSITIONS: Readonly<Record<ClaimStatus, Readonly<Partial<Record<ClaimStatus, ClaimActor>>>>> = {
  submitted: { in_review: "operator", withdrawn: "partner" },
  in_review: { info_requested: "operator", approved: "operator", rejected: "operator", withdrawn: "partner" },
  // The partner answers (claim respond) and the review goes on; the operator may still reject, the partner withdraw.
  info_requested: { in_review: "partner", rejected: "operator", withdrawn: "partner" },
  approved: { paid: "payout" },
  rejected: {},
  // A reversed transfer reopens the claim: the money has to be sent again.
  paid: { approved: "payout" },
  withdrawn: {},
};

/** Refuse (409) a change the table does not give to `actor`, naming the current status and what may follow it. */
export function checkTransition(claimNo: string, from: ClaimStatus, to: ClaimStatus, actor: ClaimActor): void {
  const next = Object.entries(CLAIM_TRANSITIONS[from]) as [ClaimStatus, ClaimActor][];
  if (CLAIM_TRANSITIONS[from][to] === actor) return;
  if (!next.length) throw new CommandError(409, `claim ${claimNo} is ${from}, a final status: it cannot become ${to}`);
  const allowed = next.map(([status, by]) => `${status} (by the ${by})`).join(" or ");
  throw new CommandError(409, `claim ${claimNo} is ${from}, so it cannot become ${to}: from ${from} it can only become ${allowed}`);
}

/** The percentage of each approved claim the product keeps back, as its family rules; null where it keeps none. */
export const excessPercentOf = (productCode: string): number | null => findProduct(productCode).family.claims.excessPercent ?? null;

/**
 * What an approval pays: the excess is the product's percentage of the approved amount, rounded
 * half up to the kobo; the payable amount is the rest, so excess + payable = approved exactly.
 */
export function settlement(productCode: string, approvedKobo: number): { excessKobo: number; payableKobo: number } {
  const percent = excessPercentOf(productCode) ?? 0;
  const excessKobo = Math.round((approvedKobo * percent) / 100);
  return { excessKobo, payableKobo: approvedKobo - excessKobo };
}

/**
 * What approving a claim settles: `approvedKobo` (default: the amount claimed, and never more), its
 * excess and what is payable. Refused (400) in the wire's words above the amount claimed.
 */
export function approvalOf(
  claim: { claimedKobo: number; productCode: string },
  approvedKobo = claim.claimedKobo,
): { approvedKobo: number; excessKobo: number; payableKobo: number } {
  if (approvedKobo > claim.claimedKobo)
    throw new CommandError(
      400,
      `seed.approvedAmount must be at most the amount claimed, ${naira(claim.claimedKobo)} naira; received ${naira(approvedKobo)}`,
      "seed.approvedAmount",
    );
  return { approvedKobo, ...settlement(claim.productCode, approvedKobo) };
}

/** What every claim's assessor checks, whatever the product, besides the documents its family needs. */
const ASSESSMENT_CHECKS: readonly ClaimDocumentNeed[] = [
  { key: "cover_confirmed", label: "The loss is covered by the policy's terms on the incident date" },
  { key: "identity_confirmed", label: "The claimant's identity is confirmed" },
];

/** The documents a claim on this product needs (its family's rule), then the shared checks: the assessor's checklist. */
export function checklistOf(productCode: string): { documents: readonly ClaimDocumentNeed[]; checks: readonly ClaimDocumentNeed[] } {
  const { family, type } = findProduct(productCode);
  return { documents: family.claims.documents(type), checks: ASSESSMENT_CHECKS };
}

/** The most a claim on this policy may ask for, as its product family rules (its sum insured where the product has one). */
export function claimCeiling(policy: ClaimedPolicy): ClaimCeiling {
  const { family, type } = findProduct(policy.productCode);
  return family.claims.ceiling(type, policy);
}

/** Crockford base32 without look-alikes; 10 random characters (50 bits): unguessable and unique by index. */
export function newClaimNumber(now: Date): string {
  const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  const random = [...randomBytes(10)].map((b) => alphabet[b % 32]).join("");
  return `CLM-${watToday(now).slice(0, 4)}-${random}`;
}
