import { bigint, boolean, index, json, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { partnerOwned } from "../partners";

/**
 * Answers of the vehicle registry, shared by every instance: a repeat within five minutes is
 * served from here and not billed (spec 4.3). Keyed by search type and the normalised value.
 */
export const registryLookups = pgTable(
  "registry_lookups",
  {
    searchType: text("search_type", { enum: ["registration", "policy"] }).notNull(),
    value: text("value").notNull(),
    // json, not jsonb: a cached answer keeps the registry's field order.
    answer: json("answer").$type<RegistryAnswer>().notNull(),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.searchType, t.value] })],
);

export interface RegistryAnswer {
  status: "found" | "not_found";
  details: Record<string, string>;
  message: string;
}

export const USAGE_SERVICES = ["registry_check", "vin_decode"] as const;
export type UsageService = (typeof USAGE_SERVICES)[number];

/**
 * The usage ledger behind the monthly statement: every answered enrichment call, with its price
 * (150 naira for a registry check that reached the registry; cache hits and VIN decodes are free).
 * Transient failures are not recorded (spec 4.3).
 */
export const usageCharges = pgTable(
  "usage_charges",
  {
    ...partnerOwned(),
    service: text("service", { enum: USAGE_SERVICES }).notNull(),
    /** What was looked up: `registration:ABC123DE`, `policy:…`, or the VIN. */
    subject: text("subject").notNull(),
    /** found / not_found for the registry; decoded / unknown for VINs. */
    outcome: text("outcome").notNull(),
    fromCache: boolean("from_cache").notNull(),
    amountKobo: bigint("amount_kobo", { mode: "number" }).notNull(),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("usage_charges_partner_created_idx").on(t.partnerId, t.createdAt)],
);
