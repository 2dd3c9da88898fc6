import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { bytea } from "../../db/types";
import { partnerOwned } from "../partners";

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
