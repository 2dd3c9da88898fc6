import { sql } from "drizzle-orm";
import { bigint, date, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { financingPlans } from "../financing/schema";
import { partnerOwned } from "../partners/schema";
import { policies, policyCancellations } from "../policies/schema";

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

export const ENDORSEMENT_STATUSES = ["applied", "pending", "declined"] as const;
export type EndorsementStatus = (typeof ENDORSEMENT_STATUSES)[number];

/** One changed fact: the addtnlFact field, its value before and after. */
export interface FactChange {
  field: string;
  from: unknown;
  to: unknown;
}

/**
 * A mid-term change of a policy (docs/lifecycle.md, "Endorsements"): the facts it changes, the new
 * terms, what it cost or gave back, and whether it is applied (a new certificate version),
 * waiting for an administrator, or declined. One pending change per policy at a time.
 */
export const policyEndorsements = pgTable(
  "policy_endorsements",
  {
    ...partnerOwned(),
    policyId: uuid("policy_id")
      .notNull()
      .references(() => policies.id),
    /** The partner's reference (seed.id): a repeat with it returns the first answer. */
    reference: text("reference").notNull(),
    status: text("status", { enum: ENDORSEMENT_STATUSES }).notNull(),
    /** The declining administrator's reason. */
    statusNote: text("status_note"),
    /** The seed's addtnlFact as sent: a repeat must send the same. */
    requested: jsonb("requested").$type<Record<string, unknown>>().notNull(),
    changes: jsonb("changes").$type<FactChange[]>().notNull(),
    /** The policy's terms once applied. */
    facts: jsonb("facts").$type<Record<string, unknown>>().notNull(),
    printed: jsonb("printed").$type<[string, string][]>().notNull(),
    coverStart: timestamp("cover_start", { withTimezone: true }).notNull(),
    coverEnd: timestamp("cover_end", { withTimezone: true }).notNull(),
    deviceId: text("device_id"),
    /** Charged (positive) or given back (negative): moved when asked for, given back if declined (live policies). */
    premiumChangeKobo: bigint("premium_change_kobo", { mode: "number" }).notNull(),
    explanation: text("explanation").notNull(),
    /** The certificate version it made, once applied. */
    version: integer("version"),
    by: text("by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    decidedBy: text("decided_by"),
  },
  (t) => [
    uniqueIndex("policy_endorsements_reference_idx").on(t.partnerId, t.reference),
    uniqueIndex("policy_endorsements_pending_idx").on(t.policyId).where(sql`${t.status} = 'pending'`),
    uniqueIndex("policy_endorsements_version_idx").on(t.policyId, t.version),
  ],
);
