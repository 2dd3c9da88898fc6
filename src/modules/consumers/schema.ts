import { type SQL, sql } from "drizzle-orm";
import { type AnyPgColumn, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { bytea } from "../../db/types";
import { partnerOwned } from "../partners";

/**
 * A consumer's names (a person's first, middle and last, a business's brand) as words, and their
 * phone as stored (+234…): how "Find" on the policies lists matches the insured (the policies
 * kernel's policyTextMatch). Written once for the indexes and the query, so the planner reads the
 * query's expressions as the indexes'. 'simple' keeps names as written, lower-cased, unstemmed.
 */
export const consumerNameWords = (t: { profile: AnyPgColumn }): SQL =>
  sql`to_tsvector('simple', coalesce(${t.profile}->'name'->>'first', '') || ' ' || coalesce(${t.profile}->'name'->>'middle', '') || ' ' || coalesce(${t.profile}->'name'->>'last', '') || ' ' || coalesce(${t.profile}->'name'->>'brand', ''))`;
export const consumerPhone = (t: { profile: AnyPgColumn }): SQL => sql`(${t.profile}->>'phoneNo')`;

/**
 * A consumer's names as one text (first, middle, last, brand), as the site-wide search reads part
 * of a name (pg_trgm): written once for the trigram index and the query.
 */
export const consumerNameText = (profile: AnyPgColumn) =>
  sql`(coalesce(${profile}->'name'->>'first', '') || ' ' || coalesce(${profile}->'name'->>'middle', '') || ' ' || coalesce(${profile}->'name'->>'last', '') || ' ' || coalesce(${profile}->'name'->>'brand', ''))`;

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
    index("consumers_name_words_idx").using("gin", consumerNameWords(t)),
    // The search (src/modules/search): part of a name (pg_trgm), a phone, an e-mail across every partner.
    index("consumers_name_trgm_idx").using("gin", sql`${consumerNameText(t.profile)} gin_trgm_ops`),
    index("consumers_phone_idx")
      .on(consumerPhone(t))
      .where(sql`${consumerPhone(t)} is not null`),
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
