/** The lifecycle's wire seeds (cncl, the refund quote) and the portal's cancellation form. */

import { z } from "zod";
import { isoDate, parseWith } from "../../core/validation";
import { CANCELLATION_REASONS } from "../../products/cancellation";
import { transactionReference } from "../policies";

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

/** The cancel form's day, read as the refund quote reads seed.effectiveDate (so refused in its words); left blank, today. */
export const typedEffectiveDate = (typed: string | undefined) =>
  typed?.trim() ? parseWith(refundQuoteSeed, { effectiveDate: typed.trim() }).effectiveDate : undefined;

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

const changedFacts = z.record(z.string(), z.unknown()).meta({
  description: "The addtnlFact fields that change, with their new values (each product's list: docs/lifecycle.md); checked as at issuance",
});

/** `ndrs entt_…`: change a policy's facts mid-term. */
export const endorseSeed = z.strictObject({
  id: transactionReference.meta({ description: "Your reference for this change: a repeat with it returns the first answer" }),
  addtnlFact: changedFacts,
});

/** `dump entt_…*ENDORSE`: what a change would cost, changing nothing. */
export const endorsementQuoteSeed = z.strictObject({ addtnlFact: changedFacts });
