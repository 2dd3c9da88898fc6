import { bigint, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { partnerOwned } from "../partners";

export const quotes = pgTable(
  "quotes",
  {
    ...partnerOwned(),
    productCode: text("product_code").notNull(),
    premiumKobo: bigint("premium_kobo", { mode: "number" }).notNull(),
    duration: text("duration"),
    /** The normalised seed the premium was computed from; issuance compares against it. */
    basis: jsonb("basis").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("quotes_partner_product_idx").on(t.partnerId, t.productCode, t.createdAt.desc().nullsFirst())],
);
