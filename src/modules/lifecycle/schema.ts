import { bigint, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { financingPlans } from "../financing";
import { partnerOwned } from "../partners";
import { policies, policyCancellations } from "../policies";

/** A cancelled or lapsed policy put back in force (docs/lifecycle.md): what was paid and the gap in cover it leaves. */
export const policyReinstatements = pgTable(
  "policy_reinstatements",
  {
    ...partnerOwned(),
    policyId: uuid("policy_id")
      .notNull()
      .references(() => policies.id),
    /** The cancellation undone (a cancelled policy) … */
    cancellationId: uuid("cancellation_id").references(() => policyCancellations.id),
    /** … or the financing plan reopened (a lapsed policy). */
    planId: uuid("plan_id").references(() => financingPlans.id),
    /** The partner's reference (seed.id): a repeat with it returns the first answer. */
    reference: text("reference").notNull(),
    /** What was paid to reinstate: the cancellation's refund from the wallet (live policies), or the missed installments recorded on the plan. */
    owedKobo: bigint("owed_kobo", { mode: "number" }).notNull(),
    /** The gap in cover, when the cancellation had taken effect: no claim for an incident in it. */
    gapFrom: timestamp("gap_from", { withTimezone: true }),
    gapTo: timestamp("gap_to", { withTimezone: true }),
    by: text("by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("policy_reinstatements_reference_idx").on(t.partnerId, t.reference),
    uniqueIndex("policy_reinstatements_cancellation_idx").on(t.cancellationId),
  ],
);
