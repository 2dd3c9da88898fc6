import { sql } from "drizzle-orm";
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { partnerOwned, partners } from "../partners";
import { policies } from "../policies";

/** A partner's prepaid balance. The check makes an overdraft impossible whatever the code does. */
export const wallets = pgTable(
  "wallets",
  {
    partnerId: uuid("partner_id")
      .primaryKey()
      .references(() => partners.id),
    balanceKobo: bigint("balance_kobo", { mode: "number" }).notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("wallets_balance_not_negative", sql`${t.balanceKobo} >= 0`)],
);

/** The ledger: every credit and debit, with the balance after it. Sums to the balance. */
export const walletEntries = pgTable(
  "wallet_entries",
  {
    ...partnerOwned({ referenced: false }),
    kind: text("kind", { enum: ["topup", "premium", "refund", "commission", "commission_reversal"] }).notNull(),
    /** Signed: credits positive, debits negative. */
    amountKobo: bigint("amount_kobo", { mode: "number" }).notNull(),
    balanceAfterKobo: bigint("balance_after_kobo", { mode: "number" }).notNull(),
    reference: text("reference"),
    /** A commission line's rate (what later premium on its policy earns at, and what a refund gives back). */
    rateBasisPoints: integer("rate_basis_points"),
    policyId: uuid("policy_id").references(() => policies.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("wallet_entries_topup_reference_idx").on(t.partnerId, t.reference).where(sql`${t.kind} = 'topup'`),
    index("wallet_entries_partner_created_idx").on(t.partnerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // A policy's lines (its commission, to reverse a share of it on a refund) without reading the partner's whole ledger.
    index("wallet_entries_policy_idx").on(t.policyId).where(sql`${t.policyId} is not null`),
    // A month of every partner's lines (the insurers' bordereaux) without reading the whole ledger.
    index("wallet_entries_created_idx").on(t.createdAt),
  ],
);
