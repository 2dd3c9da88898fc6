import { sql } from "drizzle-orm";
import { bigint, boolean, date, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { POLICY_STATUSES } from "../policies";

/**
 * Policies counted by the WAT day they were issued, product and status, with their premium: what
 * the dashboard's charts read (sums) instead of scanning a million policies (docs/decisions.md,
 * "Dashboard charts"). Triggers on policies add lines here in the statement that inserts, changes
 * (status, product, premium) or deletes policies, whichever code makes it. Lines are only ever
 * added by writers, never updated, so a policy write waits on no shared row (an upsert here made
 * concurrent writers of one partner queue and deadlock); the compaction job folds a key's lines into one.
 */
export const policyDailyTotals = pgTable(
  "policy_daily_totals",
  {
    partnerId: uuid("partner_id").notNull(),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    /** The WAT day of the policies' created_at. */
    day: date("day", { mode: "string" }).notNull(),
    productCode: text("product_code").notNull(),
    status: text("status", { enum: POLICY_STATUSES }).notNull(),
    policies: integer("policies").notNull(),
    premiumKobo: bigint("premium_kobo", { mode: "number" }).notNull(),
    /** A compacted line (the sum of a key's lines); writers add unfolded ones. */
    folded: boolean("folded").notNull().default(false),
  },
  (t) => [
    // A partner's days (its charts), and the key the compaction folds lines by.
    index("policy_daily_totals_key_idx").on(t.partnerId, t.mode, t.day, t.productCode, t.status),
    // The keys with lines to fold.
    index("policy_daily_totals_unfolded_idx").on(t.partnerId, t.mode, t.day, t.productCode, t.status).where(sql`not ${t.folded}`),
    // The operator's charts: every partner's live days in a range.
    index("policy_daily_totals_mode_day_idx").on(t.mode, t.day),
  ],
);
