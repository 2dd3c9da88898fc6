import { inArray, type SQL, sql } from "drizzle-orm";
import { type AnyPgColumn, bigint, boolean, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { vehicleRegistryProductCodes } from "../../products";
import { CANCELLATION_REASONS, REFUND_BASES } from "../../products/cancellation";
import { consumers } from "../consumers";
import { partnerOwned } from "../partners";

/** p pending, a approved (active), d declined (spec 3); l lapsed, c cancelled, e expired (docs/lifecycle.md). */
export const POLICY_STATUSES = ["p", "a", "d", "l", "c", "e"] as const;
export type PolicyStatus = (typeof POLICY_STATUSES)[number];

/**
 * Approved or cancelled policies of the products whose families publish them to the vehicle registry,
 * whose cover the registry does not know yet (a cancellation publishes the shortened cover again).
 * Written once for the partial index and the publication job's query, with the product codes as
 * literals, so the planner reads the query's condition as the index's. A family that starts
 * publishing changes the index: `npm run db:generate` (test/enrichment.test.ts checks the plan).
 */
export function awaitingRegistry(t: { status: AnyPgColumn; registryPublishedAt: AnyPgColumn; productCode: AnyPgColumn }): SQL {
  return sql`${t.status} in ('a', 'c') and ${t.registryPublishedAt} is null and ${inArray(t.productCode, vehicleRegistryProductCodes())}`.inlineParams();
}

/** A vehicle policy's plate (facts.rgstrtId, stored uppercase without spaces): written once for its index, "Find" (policyTextMatch) and the search. */
export const policyPlate = (t: { facts: AnyPgColumn }): SQL => sql`(${t.facts}->>'rgstrtId')`;

export const policies = pgTable(
  "policies",
  {
    ...partnerOwned({ referenced: false }),
    consumerId: uuid("consumer_id")
      .notNull()
      .references(() => consumers.id),
    /** The transaction reference as stored and echoed (spec 2.5 rules 2-3). */
    reference: text("reference").notNull(),
    productCode: text("product_code").notNull(),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    status: text("status", { enum: POLICY_STATUSES }).notNull(),
    statusNote: text("status_note"),
    /** How a live policy is decided: the insurer gateway, at once, or by an administrator. */
    route: text("route", { enum: ["insurer", "approve", "manual"] }).notNull(),
    premiumKobo: bigint("premium_kobo", { mode: "number" }).notNull(),
    duration: text("duration"),
    coverStart: timestamp("cover_start", { withTimezone: true }).notNull(),
    coverEnd: timestamp("cover_end", { withTimezone: true }).notNull(),
    facts: jsonb("facts").$type<Record<string, unknown>>().notNull(),
    printed: jsonb("printed").$type<[string, string][]>().notNull(),
    deviceId: text("device_id"),
    policyNo: text("policy_no"),
    /** Unguessable token of the hosted certificate link (certUrl). */
    certificateToken: text("certificate_token").notNull(),
    /** addtnlFact.webHook: a one-off endpoint for this policy's events. */
    webhookUrl: text("webhook_url"),
    /** When the insurer gateway may underwrite it (pending insurer-route policies only). */
    underwriteAt: timestamp("underwrite_at", { withTimezone: true }),
    decidedBy: text("decided_by"),
    /** The last expiry reminder sent, in days before the end of cover (30, 7, 1; docs/lifecycle.md). */
    remindedDays: integer("reminded_days"),
    /** Opted in to automatic renewal from the wallet a week before the end of cover (docs/lifecycle.md). */
    autoRenew: boolean("auto_renew").notNull().default(false),
    /** When an automatic renewal was last tried and could not be made (tried again a day later). */
    autoRenewFailedAt: timestamp("auto_renew_failed_at", { withTimezone: true }),
    /** The policy this one renews (its cover continues from that one's end; docs/lifecycle.md). */
    renewsPolicyId: uuid("renews_policy_id"),
    /** Gaps in cover left by a cancellation later undone (reinstatement): no claim for an incident in one. ISO instants. */
    coverGaps: jsonb("cover_gaps").$type<{ from: string; to: string }[]>().notNull().default([]),
    /** The certificate's version: 1 at issuance, one more for each change applied (endorsement; docs/lifecycle.md). */
    version: integer("version").notNull().default(1),
    /** When the current version took effect (the change that made it applied); null for version 1. Printed on its certificate. */
    versionAt: timestamp("version_at", { withTimezone: true }),
    /** Whether a change was ever asked for (policy_endorsements has rows): STATUS reads the history only then. */
    endorsed: boolean("endorsed").notNull().default(false),
    /** A cancelled policy's end of cover: the instant its cancellation took effect (docs/lifecycle.md). */
    cancelledFrom: timestamp("cancelled_from", { withTimezone: true }),
    /** When an approved vehicle policy was published to the vehicle registry (spec 4.4 sandbox). */
    registryPublishedAt: timestamp("registry_published_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    statusAt: timestamp("status_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("policies_partner_reference_idx").on(t.partnerId, t.reference),
    uniqueIndex("policies_policy_no_idx").on(t.policyNo),
    uniqueIndex("policies_certificate_token_idx").on(t.certificateToken),
    // DESC NULLS FIRST is what ORDER BY … DESC means, so newest-first keyset pages read these in order.
    index("policies_partner_created_idx").on(t.partnerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("policies_created_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // A consumer's policies, newest first ("Find" by the insured's name or phone, a consumer's page).
    index("policies_consumer_created_idx").on(t.consumerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("policies_underwrite_idx").on(t.underwriteAt).where(sql`${t.status} = 'p' and ${t.underwriteAt} is not null`),
    index("policies_pending_idx").on(t.createdAt).where(sql`${t.status} = 'p'`),
    // The publication job's queue, oldest change first.
    index("policies_unpublished_vehicles_idx").on(t.statusAt).where(awaitingRegistry(t)),
    // Active policies by the end of their cover: the expiry job's queue.
    index("policies_active_cover_end_idx").on(t.coverEnd).where(sql`${t.status} = 'a'`),
    index("policies_device_idx").on(t.deviceId).where(sql`${t.deviceId} is not null`),
    // A reference across every partner and a consumer's policies newest first (the search, "Find").
    index("policies_reference_idx").on(t.reference),
    index("policies_plate_idx")
      .on(policyPlate(t))
      .where(sql`${policyPlate(t)} is not null`),
    // One renewal of a policy at a time: a declined renewal leaves room for another.
    uniqueIndex("policies_renews_idx").on(t.renewsPolicyId).where(sql`${t.renewsPolicyId} is not null and ${t.status} <> 'd'`),
  ],
);

/**
 * A policy's cancellation, as an object with its effective time and its money (docs/lifecycle.md):
 * one per policy, and one per partner reference, so a repeat finds the first. Kept here, beside the
 * policy, since modules below the lifecycle read it (a claim on a cancelled policy: src/modules/claims).
 */
export const policyCancellations = pgTable(
  "policy_cancellations",
  {
    ...partnerOwned(),
    policyId: uuid("policy_id")
      .notNull()
      .references(() => policies.id),
    /** The partner's reference for the cancellation (seed.id): a repeat with it returns the first answer. */
    reference: text("reference").notNull(),
    reason: text("reason", { enum: CANCELLATION_REASONS }).notNull(),
    note: text("note"),
    /** The first day without cover (WAT). */
    effectiveDate: date("effective_date", { mode: "string" }).notNull(),
    /** The instant the cover stopped: now when effective today, else midnight WAT starting the effective date. */
    effectiveAt: timestamp("effective_at", { withTimezone: true }).notNull(),
    refundKobo: bigint("refund_kobo", { mode: "number" }).notNull(),
    feeKobo: bigint("fee_kobo", { mode: "number" }).notNull(),
    /** Which part of the family's rule decided, and the rule in words. */
    basis: text("basis", { enum: REFUND_BASES }).notNull(),
    explanation: text("explanation").notNull(),
    /** Who cancelled: "partner" or "admin:<e-mail or partner id>". */
    by: text("by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    /** When the policy was reinstated (the cancellation undone): a policy has one cancellation in force at a time. */
    reinstatedAt: timestamp("reinstated_at", { withTimezone: true }),
    /**
     * The refund taken back when a claim on the policy was approved after the cancellation (the cover
     * was used: docs/lifecycle.md), when, and for which claim; taken once. A reinstatement pays back
     * only what is left of the refund.
     */
    refundTakenBackKobo: bigint("refund_taken_back_kobo", { mode: "number" }).notNull().default(0),
    refundTakenBackAt: timestamp("refund_taken_back_at", { withTimezone: true }),
    /** No foreign key: the claims module sits above the policies it claims on; claims are never deleted. */
    refundTakenBackClaimId: uuid("refund_taken_back_claim_id"),
  },
  (t) => [
    uniqueIndex("policy_cancellations_policy_idx").on(t.policyId).where(sql`${t.reinstatedAt} is null`),
    uniqueIndex("policy_cancellations_reference_idx").on(t.partnerId, t.reference),
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
 * waiting for an administrator, or declined. One pending change per policy at a time. Beside the
 * policy, as its version history, which STATUS answers with (the lifecycle module makes the changes).
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
