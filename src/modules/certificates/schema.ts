import { pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { bytea } from "../../db/types";
import { policies } from "../policies";

/** A policy's rendered certificate, made once on first need and served from here. */
export const certificates = pgTable("certificates", {
  policyId: uuid("policy_id")
    .primaryKey()
    .references(() => policies.id),
  type: text("type", { enum: ["pdf", "docx", "jpg"] }).notNull(),
  content: bytea("content").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
