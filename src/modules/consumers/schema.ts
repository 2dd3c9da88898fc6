import { sql } from "drizzle-orm";
import { type AnyPgColumn, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { bytea } from "../../db/types";
import { partnerOwned } from "../partners";

/**
 * A consumer's names as one text (first, middle, last, brand), as the search reads them: written
 * once for the trigram index and the query, so the planner sees the query's expression as the index's.
 */
export const consumerNameText = (profile: AnyPgColumn) =>
  sql`(coalesce(${profile}->'name'->>'first', '') || ' ' || coalesce(${profile}->'name'->>'middle', '') || ' ' || coalesce(${profile}->'name'->>'last', '') || ' ' || coalesce(${profile}->'name'->>'brand', ''))`;

/** The stored phone number (+234…), as the search and its index read it. */
export const consumerPhone = (profile: AnyPgColumn) => sql`(${profile}->>'phoneNo')`;

export const consumers = pgTable(
  "consumers",
  {
    ...partnerOwned(),
    class: text("class", { enum: ["h", "o"] }).notNull(),
    /** Lower-cased; one consumer per e-mail per partner (spec 2.3 rule 2). */
    email: text("email"),
    /** The wire-shaped profile (2.3 fields) without document bytes. */
    profile: jsonb("profile").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("consumers_partner_email_idx").on(t.partnerId, t.email).where(sql`${t.email} is not null`),
    index("consumers_partner_created_idx").on(t.partnerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("consumers_created_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The search (src/modules/search): part of a name (pg_trgm), a phone, an e-mail across every partner.
    index("consumers_name_trgm_idx").using("gin", sql`${consumerNameText(t.profile)} gin_trgm_ops`),
    index("consumers_phone_idx")
      .on(consumerPhone(t.profile))
      .where(sql`${consumerPhone(t.profile)} is not null`),
    index("consumers_email_idx").on(t.email).where(sql`${t.email} is not null`),
  ],
);

/** Base64 documents of a consumer (dob.proof, socialID.image, cac02, cac07), decoded and sniffed. */
export const consumerDocuments = pgTable(
  "consumer_documents",
  {
    consumerId: uuid("consumer_id")
      .notNull()
      .references(() => consumers.id),
    /** Wire path of the document, e.g. "socialID.image". */
    field: text("field").notNull(),
    mime: text("mime").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    content: bytea("content").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.consumerId, t.field] })],
);
