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
      sql`case when status in ('submitted', 'in_review', 'approved')
          then least(settlement_due_on, case when voucher_issued_at is null then voucher_due_on end)
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
    /**
     * The account to pay the claim into (docs/claims.md, "Payee"): the bank's code, the ten-digit
     * account number, the name the bank's enquiry found for it, and how that name compares with the
     * insured's: matched within the tolerance, a mismatch an administrator must look at, or a
     * mismatch an administrator confirmed (who, in payeeConfirmedBy).
     */
    payeeBankCode: text("payee_bank_code"),
    payeeAccountNumber: text("payee_account_number"),
    payeeAccountName: text("payee_account_name"),
    payeeNameCheck: text("payee_name_check", { enum: ["matched", "mismatch", "confirmed"] }),
    payeeConfirmedBy: text("payee_confirmed_by"),
    /** When the first discharge voucher was issued: the voucher's clock stops. */
    voucherIssuedAt: timestamp("voucher_issued_at", { withTimezone: true }),
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

export const DECISION_STATUSES = ["awaiting", "confirmed", "returned", "closed"] as const;
export type DecisionStatus = (typeof DECISION_STATUSES)[number];

/** Why a decision waits for a second administrator: above the decider's authority, or a claim the fraud signals flag. */
export type SecondReviewGround = "authority" | "signals";

/**
 * A decision an administrator recommends and a second one must confirm (docs/claims.md,
 * "Authority"): an approval or a rejection above the first's authority, or of a flagged claim. One
 * waits on a claim at a time; confirmed, it is applied as the claim's decision; returned, the claim
 * stays in review; closed when the claim left review otherwise (withdrawn by the partner).
 */
export const claimDecisions = pgTable(
  "claim_decisions",
  {
    id: uuid("id").primaryKey(),
    claimId: uuid("claim_id")
      .notNull()
      .references(() => claims.id),
    decision: text("decision", { enum: ["approved", "rejected"] }).notNull(),
    /** An approval's amount accepted (before the excess). */
    approvedKobo: bigint("approved_kobo", { mode: "number" }),
    rejectionReason: text("rejection_reason", { enum: REJECTION_REASON_KEYS }),
    note: text("note"),
    /** What the authority is measured on: what the approval makes payable, or the amount a rejection refuses. */
    amountKobo: bigint("amount_kobo", { mode: "number" }).notNull(),
    grounds: jsonb("grounds").$type<SecondReviewGround[]>().notNull(),
    status: text("status", { enum: DECISION_STATUSES }).notNull(),
    /** Who recommended it, as the records name them, and their sign-in (null for an API key). */
    recommendedBy: text("recommended_by").notNull(),
    recommendedByUser: uuid("recommended_by_user"),
    decidedBy: text("decided_by"),
    decidedByUser: uuid("decided_by_user"),
    /** The second administrator's reason to send it back. */
    decisionNote: text("decision_note"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
  },
  (t) => [
    index("claim_decisions_claim_idx").on(t.claimId, t.createdAt),
    uniqueIndex("claim_decisions_awaiting_idx").on(t.claimId).where(sql`${t.status} = 'awaiting'`),
  ],
);

/** A claim's letters (a rejection's), rendered once on first need and served from here, like certificates. */
export const claimLetters = pgTable(
  "claim_letters",
  {
    claimId: uuid("claim_id")
      .notNull()
      .references(() => claims.id),
    kind: text("kind", { enum: ["rejection"] }).notNull(),
    content: bytea("content").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.claimId, t.kind] })],
);

/**
 * A discharge voucher (docs/claims.md, "Discharge voucher"): issued when a claim is approved and its
 * account to pay into is known, a new version whenever that account changes; the claimant's
 * acceptance of one version (when, through which channel, by whom) lets its payout go.
 */
export const claimVouchers = pgTable(
  "claim_vouchers",
  {
    claimId: uuid("claim_id")
      .notNull()
      .references(() => claims.id),
    version: integer("version").notNull(),
    approvedKobo: bigint("approved_kobo", { mode: "number" }).notNull(),
    excessKobo: bigint("excess_kobo", { mode: "number" }).notNull(),
    payableKobo: bigint("payable_kobo", { mode: "number" }).notNull(),
    bankCode: text("bank_code").notNull(),
    accountNumber: text("account_number").notNull(),
    accountName: text("account_name").notNull(),
    /** The PDF, rendered when issued: what the claimant accepts never changes. */
    content: bytea("content").notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    acceptedChannel: text("accepted_channel", { enum: ["api", "portal", "self_service"] }),
    acceptedBy: text("accepted_by"),
    /** When a later version replaced it (the account changed). */
    supersededAt: timestamp("superseded_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.claimId, t.version] })],
);

export const PAYOUT_STATUSES = ["queued", "pending", "success", "failed", "reversed"] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/**
 * A transfer of a claim's settlement to its payee (docs/claims.md, "Payout"): queued when the
 * voucher is accepted, pending once the provider has it, then success, failed or (after success)
 * reversed, as the provider says. At most one queued, pending or successful payout per claim, so a
 * claim is never paid twice.
 */
export const claimPayouts = pgTable(
  "claim_payouts",
  {
    id: uuid("id").primaryKey(),
    claimId: uuid("claim_id")
      .notNull()
      .references(() => claims.id),
    voucherVersion: integer("voucher_version").notNull(),
    /** Ours, sent to the provider (idempotent there): the claim number and the attempt, lower case. */
    reference: text("reference").notNull(),
    provider: text("provider").notNull(),
    providerReference: text("provider_reference"),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    /** What is sent: the payable amount and the late interest worked out on the day the payout was queued. */
    amountKobo: bigint("amount_kobo", { mode: "number" }).notNull(),
    payableKobo: bigint("payable_kobo", { mode: "number" }).notNull(),
    lateInterestKobo: bigint("late_interest_kobo", { mode: "number" }).notNull(),
    bankCode: text("bank_code").notNull(),
    accountNumber: text("account_number").notNull(),
    accountName: text("account_name").notNull(),
    status: text("status", { enum: PAYOUT_STATUSES }).notNull(),
    /** Why it failed or was reversed, as the provider words it. */
    statusReason: text("status_reason"),
    /** Who queued it: the acceptance ("voucher"), or the administrator who sent it again. */
    queuedBy: text("queued_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    settledAt: timestamp("settled_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("claim_payouts_reference_idx").on(t.provider, t.reference),
    uniqueIndex("claim_payouts_live_idx").on(t.claimId).where(sql`${t.status} in ('queued', 'pending', 'success')`),
    index("claim_payouts_claim_idx").on(t.claimId, t.createdAt),
    // The background check: what is still to send or to hear about.
    index("claim_payouts_open_idx").on(t.status, t.updatedAt).where(sql`${t.status} in ('queued', 'pending')`),
    index("claim_payouts_created_idx").on(t.createdAt.desc(), t.id.desc()),
  ],
);

/**
 * The insurer's payout account (docs/claims.md, "The payout ledger"): every claim paid out (a
 * debit, positive) and every reversal that brought money back (negative), per mode; never the
 * partner's wallet. One line of each kind per payout.
 */
export const payoutLedger = pgTable(
  "payout_ledger",
  {
    id: uuid("id").primaryKey(),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    claimId: uuid("claim_id")
      .notNull()
      .references(() => claims.id),
    payoutId: uuid("payout_id")
      .notNull()
      .references(() => claimPayouts.id),
    kind: text("kind", { enum: ["claim_paid", "reversal"] }).notNull(),
    amountKobo: bigint("amount_kobo", { mode: "number" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex("payout_ledger_payout_kind_idx").on(t.payoutId, t.kind), index("payout_ledger_mode_created_idx").on(t.mode, t.createdAt)],
);

/** Every payout callback as it arrived, verified or not, and what it did (like funding_callbacks). */
export const payoutCallbacks = pgTable(
  "payout_callbacks",
  {
    id: uuid("id").primaryKey(),
    provider: text("provider").notNull(),
    reference: text("reference"),
    event: text("event"),
    signatureValid: text("signature_valid", { enum: ["yes", "no"] }).notNull(),
    outcome: text("outcome", { enum: ["applied", "repeat", "ignored", "rejected"] }).notNull(),
    body: bytea("body").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("payout_callbacks_received_idx").on(t.receivedAt)],
);
