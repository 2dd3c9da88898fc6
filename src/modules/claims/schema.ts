import { sql } from "drizzle-orm";
import { bigint, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { DecodedDocument } from "../../core/documents";
import { bytea } from "../../db/types";
import { partnerOwned } from "../partners";
import { policies } from "../policies";
import { REJECTION_REASON_KEYS } from "./rejections";

export const CLAIM_STATUSES = ["submitted", "in_review", "info_requested", "approved", "rejected", "paid", "withdrawn"] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/** One step of a claim's life, kept on the claim for its history. */
export interface ClaimStep {
  status: ClaimStatus;
  note?: string;
  /** Who made the change: "partner", "admin:<partner id>". */
  by: string;
  at: string;
}

/** A claim on an active policy (design: claims). Money in kobo. */
export const claims = pgTable(
  "claims",
  {
    ...partnerOwned(),
    policyId: uuid("policy_id")
      .notNull()
      .references(() => policies.id),
    /** The claim number the wire shows, e.g. CLM-2026-7K3M9Q2XAB. */
    claimNo: text("claim_no").notNull(),
    /** The partner's own reference, when given: a repeat with it returns the first claim. */
    reference: text("reference"),
    status: text("status", { enum: CLAIM_STATUSES }).notNull(),
    statusNote: text("status_note"),
    /** Once rejected: why, from the documented list (rejections.ts); the note adds the particulars. */
    rejectionReason: text("rejection_reason", { enum: REJECTION_REASON_KEYS }),
    incidentDate: date("incident_date", { mode: "string" }).notNull(),
    description: text("description").notNull(),
    claimedKobo: bigint("claimed_kobo", { mode: "number" }).notNull(),
    /** Set when approved: the amount the insurer accepts, before the excess. */
    approvedKobo: bigint("approved_kobo", { mode: "number" }),
    /** The policy's excess on this claim (phone cover: 10 % per claim). */
    excessKobo: bigint("excess_kobo", { mode: "number" }),
    /** approved − excess: what is paid. */
    payableKobo: bigint("payable_kobo", { mode: "number" }),
    history: jsonb("history").$type<ClaimStep[]>().notNull(),
    /** The clock (clock.ts): the last Nigerian day to settle, from the notification. */
    settlementDueOn: date("settlement_due_on", { mode: "string" }).notNull(),
    /** The last day to issue the discharge voucher, set when liability is admitted (the approval). */
    voucherDueOn: date("voucher_due_on", { mode: "string" }),
    /**
     * The first deadline still running, while the claim is open: the desk sorts and the background
     * check looks by it. While it waits for the partner's information, the settlement deadline as it
     * will be once the pause's allowance is used up (the earliest it can fall due).
     */
    nextDueOn: date("next_due_on", { mode: "string" }).generatedAlwaysAs(
      sql`case when status in ('submitted', 'in_review', 'approved') then least(settlement_due_on, voucher_due_on)
        when status = 'info_requested' then settlement_due_on + (paused_until - paused_since) end`,
    ),
    /** While information is asked for (status info_requested): the day the clock stopped, and the last day the pause may count. */
    pausedSince: date("paused_since", { mode: "string" }),
    pausedUntil: date("paused_until", { mode: "string" }),
    /** Days of pauses counted so far (settlementDueOn already includes them), at most CLAIM_PAUSE_MAX_DAYS. */
    pausedDays: integer("paused_days").notNull().default(0),
    /** The administrator assessing the claim (their e-mail), once assigned. */
    assessor: text("assessor"),
    /** The expected cost (kobo): the amount claimed at first, then as the assessor keeps it (claim_reserves has every change). */
    reserveKobo: bigint("reserve_kobo", { mode: "number" }).notNull(),
    /** When the money reached the claimant (status paid). */
    settledAt: timestamp("settled_at", { withTimezone: true }),
    /** Interest for a settlement after its deadline, fixed when paid (clock.ts). */
    lateInterestKobo: bigint("late_interest_kobo", { mode: "number" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("claims_claim_no_idx").on(t.claimNo),
    uniqueIndex("claims_partner_reference_idx").on(t.partnerId, t.reference).where(sql`${t.reference} is not null`),
    index("claims_partner_created_idx").on(t.partnerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("claims_created_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("claims_policy_idx").on(t.policyId),
    // The search (src/modules/search): a partner's claim reference across every partner.
    index("claims_reference_idx").on(t.reference).where(sql`${t.reference} is not null`),
    // The desk's "due first" and the clock's background check: open claims only.
    index("claims_next_due_idx").on(t.nextDueOn, t.id).where(sql`${t.nextDueOn} is not null`),
  ],
);

/** Every change of a claim's reserve, with its reason (Socotra's reserves: the expected cost kept over time). */
export const claimReserves = pgTable(
  "claim_reserves",
  {
    id: uuid("id").primaryKey(),
    claimId: uuid("claim_id")
      .notNull()
      .references(() => claims.id),
    amountKobo: bigint("amount_kobo", { mode: "number" }).notNull(),
    reason: text("reason").notNull(),
    /** Who set it: "partner" for the first (the amount claimed), else the administrator. */
    by: text("by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("claim_reserves_claim_idx").on(t.claimId, t.createdAt)],
);

/** The assessor's checklist: the items of a claim ticked so far (the documents its family needs, and the shared checks). */
export const claimChecks = pgTable(
  "claim_checks",
  {
    claimId: uuid("claim_id")
      .notNull()
      .references(() => claims.id),
    item: text("item").notNull(),
    checkedBy: text("checked_by").notNull(),
    checkedAt: timestamp("checked_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.claimId, t.item] })],
);

/**
 * What the clock's background check has announced (claim.due_soon, claim.overdue): one row per claim,
 * deadline and alert, so each is sent once however many instances look.
 */
export const claimClockAlerts = pgTable(
  "claim_clock_alerts",
  {
    claimId: uuid("claim_id")
      .notNull()
      .references(() => claims.id),
    deadline: text("deadline", { enum: ["settlement", "voucher"] }).notNull(),
    alert: text("alert", { enum: ["due_soon", "overdue"] }).notNull(),
    dueOn: date("due_on", { mode: "string" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.claimId, t.deadline, t.alert] })],
);

/** Documents sent with a claim (base64 on the wire; sniffed and size-limited). */
export const claimDocuments = pgTable(
  "claim_documents",
  {
    claimId: uuid("claim_id")
      .notNull()
      .references(() => claims.id),
    /** Position in the submitted list, from 1. */
    position: integer("position").notNull(),
    name: text("name").notNull(),
    /** Sniffed from the bytes, never taken from the sender. */
    mime: text("mime").$type<DecodedDocument["mime"]>().notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    content: bytea("content").notNull(),
  },
  (t) => [primaryKey({ columns: [t.claimId, t.position] })],
);
