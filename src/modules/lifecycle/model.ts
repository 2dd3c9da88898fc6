/** The lifecycle's wire seeds (cncl, the refund quote) and the portal's cancellation form. */
import { z } from "zod";
import { isoDate } from "../../core/validation";
import { transactionReference } from "../policies/reference";
import { CANCELLATION_REASONS, type CancellationReason } from "./schema";

/** Each reason in words, and whether a partner may give it (misrepresentation is the insurer's finding). */
export const CANCELLATION_REASON_TEXT: Readonly<Record<CancellationReason, { text: string; operatorOnly?: boolean }>> = {
  insured_request: { text: "The insured asked to cancel" },
  item_sold: { text: "The insured vehicle, device, goods or property was sold or replaced" },
  duplicate: { text: "Issued twice by mistake" },
  trip_cancelled: { text: "The trip or shipment was called off" },
  loan_repaid: { text: "The loan was repaid early" },
  misrepresentation: { text: "Misrepresentation or fraud found by the insurer", operatorOnly: true },
  other: { text: "Another reason (say which in the note)" },
};

/** `cncl entt_…`: cancel an approved policy from a date. */
export const cancelSeed = z.strictObject({
  id: transactionReference.meta({ description: "Your reference for this cancellation: a repeat with it returns the first answer" }),
  reason: z.enum(CANCELLATION_REASONS).meta({ description: `Why: ${CANCELLATION_REASONS.join(", ")} (misrepresentation: the operator only)` }),
  effectiveDate: isoDate.optional().meta({ description: "The first day without cover (Nigerian date): today (the default) or a later day within the cover" }),
  note: z.string().trim().min(1).max(500).optional().meta({ description: 'A few words for the record; required with reason "other"' }),
});
export type CancelSeed = z.output<typeof cancelSeed>;

/** `dump entt_…*REFUND`: what a cancellation from a date would give back, changing nothing. */
export const refundQuoteSeed = z.strictObject({
  effectiveDate: isoDate.optional().meta({ description: "The first day without cover: today (the default) or a later day within the cover" }),
});

/** `rinst entt_…`: put a cancelled policy back in force. */
export const reinstateSeed = z.strictObject({
  id: transactionReference.meta({ description: "Your reference for this reinstatement: a repeat with it returns the first answer" }),
});

/** `rnew entt_…`: renew a policy nearing its end into a new one. */
export const renewSeed = z.strictObject({
  id: transactionReference.meta({
    description: "The transaction reference of the new policy (as insure's seed.id): a repeat with it returns the first answer",
  }),
});

/** `rnew entt_…*AUTO`: opt in to, or out of, automatic renewal. */
export const autoRenewSeed = z.strictObject({
  enabled: z.boolean().meta({ description: "true: renewed automatically from the wallet a week before the end of cover; false: not" }),
});
