import { sql } from "drizzle-orm";
import { bigint, check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { bytea } from "../../db/types";
import { partnerOwned, portalUsers } from "../partners";
import { walletEntries } from "../wallet";

export const FUNDING_STATUSES = ["pending", "credited", "held", "failed", "expired"] as const;
export type FundingStatus = (typeof FUNDING_STATUSES)[number];

/**
 * A live top-up waiting for the payment provider (docs/funding.md): created with how to pay, credited
 * once when the provider confirms it (callback, settlement check or an administrator), held when the
 * amount received differs, failed or expired otherwise. One per partner reference and one per
 * provider reference, so repeats and races find the first.
 */
export const walletFundings = pgTable(
  "wallet_fundings",
  {
    ...partnerOwned(),
    /** The partner's top-up reference (seed.reference). */
    reference: text("reference").notNull(),
    amountKobo: bigint("amount_kobo", { mode: "number" }).notNull(),
    provider: text("provider").notNull(),
    /** The provider's reference for the payment: what its callbacks and status queries name. */
    providerReference: text("provider_reference").notNull(),
    /** How to pay, as the provider gave it: a bank-transfer instruction or a payment link. */
    instruction: jsonb("instruction").$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: FUNDING_STATUSES }).notNull().default("pending"),
    /** What the provider (or the bank, for a manual confirmation) says arrived. */
    receivedKobo: bigint("received_kobo", { mode: "number" }),
    /** Why a funding is held, failed or expired, in words. */
    statusNote: text("status_note"),
    /** The ledger line of the credit, once credited. */
    walletEntryId: uuid("wallet_entry_id").references(() => walletEntries.id),
    /** How it was settled: "callback", "check" (the background query), "manual". */
    settledBy: text("settled_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    settledAt: timestamp("settled_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("wallet_fundings_reference_idx").on(t.partnerId, t.reference),
    uniqueIndex("wallet_fundings_provider_reference_idx").on(t.provider, t.providerReference),
    index("wallet_fundings_partner_created_idx").on(t.partnerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("wallet_fundings_pending_idx").on(t.expiresAt).where(sql`${t.status} = 'pending'`),
  ],
);

/** Every callback the provider sent, verified or not: the trail behind a credit (and of forged attempts). */
export const fundingCallbacks = pgTable(
  "funding_callbacks",
  {
    id: uuid("id").primaryKey(),
    provider: text("provider").notNull(),
    providerReference: text("provider_reference"),
    event: text("event"),
    signatureValid: text("signature_valid", { enum: ["yes", "no"] }).notNull(),
    /** What the callback did: "credited", "repeat", "held", "failed", "ignored", "rejected". */
    outcome: text("outcome").notNull(),
    /**
     * The body's bytes as read (a forged one's opening only): bytes, not text, so any body can be
     * kept (a NUL or broken UTF-8 that no text column holds) and a verified one checked again.
     */
    body: bytea("body").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("funding_callbacks_reference_idx").on(t.provider, t.providerReference, t.receivedAt)],
);

export const CONFIRMATION_STATUSES = ["awaiting_approval", "approved", "rejected"] as const;

/** What an administrator moves by hand: a bank transfer confirmed, or what a held funding received credited. */
export const CONFIRMATION_KINDS = ["transfer", "held_credit"] as const;

/**
 * An administrator's decision that credits a funding by hand (docs/funding.md): a bank transfer
 * confirmed with the bank's reference, or a held funding's amount credited. Applied at once while
 * what that administrator alone moved on the funding stays below the four-eyes threshold, else
 * waiting for a second administrator; the rows an administrator made alone are that total.
 */
export const fundingConfirmations = pgTable(
  "funding_confirmations",
  {
    id: uuid("id").primaryKey(),
    fundingId: uuid("funding_id")
      .notNull()
      .references(() => walletFundings.id),
    kind: text("kind", { enum: CONFIRMATION_KINDS }).notNull().default("transfer"),
    /** The bank's reference of a confirmed transfer (none for a held credit: the funding's record says what arrived). */
    bankReference: text("bank_reference"),
    amountKobo: bigint("amount_kobo", { mode: "number" }).notNull(),
    status: text("status", { enum: CONFIRMATION_STATUSES }).notNull(),
    requestedBy: uuid("requested_by")
      .notNull()
      .references(() => portalUsers.id),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull(),
    decidedBy: uuid("decided_by").references(() => portalUsers.id),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
  },
  (t) => [
    // One confirmation in play per funding; one use of a bank reference.
    uniqueIndex("funding_confirmations_open_idx").on(t.fundingId).where(sql`${t.status} = 'awaiting_approval'`),
    uniqueIndex("funding_confirmations_bank_reference_idx").on(t.bankReference).where(sql`${t.status} <> 'rejected'`),
    check("funding_confirmations_transfer_reference", sql`${t.kind} <> 'transfer' or ${t.bankReference} is not null`),
  ],
);
