import { bigint, date, index, integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { POLICY_STATUSES } from "../policies/schema";

/**
 * Policies counted by the WAT day they were issued, product and status, with their premium: what
 * the dashboard's charts read instead of scanning a million policies (docs/decisions.md, "Dashboard
 * charts"). A trigger on policies keeps it (drizzle/0014_dashboard_totals.sql), in the same
 * transaction as every insert, change of status, product or premium, and delete, whichever code
 * makes it; a row whose policies moved on holds zero.
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
  },
  (t) => [
    primaryKey({ columns: [t.partnerId, t.mode, t.day, t.productCode, t.status] }),
    // The operator's charts: every partner's live days in a range.
    index("policy_daily_totals_mode_day_idx").on(t.mode, t.day),
  ],
);
