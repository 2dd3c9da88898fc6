import { type SQL, sql } from "drizzle-orm";
import { type AnyPgColumn, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { bytea, tsvector } from "../../db/types";
import { partnerOwned } from "../partners";

/**
 * A consumer's phone as stored (+234…): how "Find" on the policies lists and the search match the
 * insured's phone. Written once for the index and the queries, so the planner reads the query's
 * expression as the index's.
 */
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
    /**
     * The names (a person's first, middle and last, a business's brand) as words, kept by the
     * database: how "Find" on the policies lists matches the insured (policyTextMatch). Stored, so a
     * match is read rather than worked out again for each consumer ('simple': as written,
     * lower-cased, unstemmed).
     */
    nameWords: tsvector("name_words").generatedAlwaysAs(
      (): SQL =>
        sql`to_tsvector('simple', coalesce(${consumers.profile}->'name'->>'first', '') || ' ' || coalesce(${consumers.profile}->'name'->>'middle', '') || ' ' || coalesce(${consumers.profile}->'name'->>'last', '') || ' ' || coalesce(${consumers.profile}->'name'->>'brand', ''))`,
    ),
    /**
     * Contact preferences (src/modules/notices): service messages (a policy issued, a claim decided) always
     * go; reminders (renewal reminders, installments due) unless turned off here; in this language.
     */
    remindersOff: boolean("reminders_off").notNull().default(false),
    /** en (English) or pcm (Nigerian Pidgin): the language of the messages to them. */
    language: text("language", { enum: ["en", "pcm"] })
      .notNull()
      .default("en"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("consumers_partner_email_idx").on(t.partnerId, t.email).where(sql`${t.email} is not null`),
    index("consumers_partner_created_idx").on(t.partnerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("consumers_created_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("consumers_name_words_idx").using("gin", t.nameWords),
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
