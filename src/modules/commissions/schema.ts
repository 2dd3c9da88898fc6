import { sql } from "drizzle-orm";
import { check, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { partners, portalUsers } from "../partners";

/**
 * The share of a live premium a partner earns (docs/commissions.md), in basis points: one rate per
 * product for every partner, and optionally one per product for a partner, which wins.
 */
export const commissionRates = pgTable(
  "commission_rates",
  {
    id: uuid("id").primaryKey(),
    productCode: text("product_code").notNull(),
    /** Null: the product's rate for every partner without its own. */
    partnerId: uuid("partner_id").references(() => partners.id),
    rateBasisPoints: integer("rate_basis_points").notNull(),
    updatedBy: uuid("updated_by").references(() => portalUsers.id),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    check("commission_rates_rate_range", sql`${t.rateBasisPoints} between 0 and 10000`),
    uniqueIndex("commission_rates_product_idx").on(t.productCode).where(sql`${t.partnerId} is null`),
    uniqueIndex("commission_rates_product_partner_idx").on(t.productCode, t.partnerId).where(sql`${t.partnerId} is not null`),
  ],
);
