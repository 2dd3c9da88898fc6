import { sql } from "drizzle-orm";
import { bigint, boolean, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { DecodedDocument } from "../../core/documents";
import { bytea } from "../../db/types";
import { claims } from "../claims";
import { partnerOwned } from "../partners";
import { policies } from "../policies";
import { COMPLAINT_CATEGORY_KEYS } from "./categories";

/** received → acknowledged → in_progress → resolved, or withdrawn before resolution (rules.ts has who may move what). */
export const COMPLAINT_STATUSES = ["received", "acknowledged", "in_progress", "resolved", "withdrawn"] as const;
export type ComplaintStatus = (typeof COMPLAINT_STATUSES)[number];

/** What a resolution found: the complaint upheld, partly upheld or not upheld. */
export const COMPLAINT_OUTCOMES = ["upheld", "partly_upheld", "not_upheld"] as const;
export type ComplaintOutcome = (typeof COMPLAINT_OUTCOMES)[number];

/** One step of a complaint's life, kept on the complaint for its history. */
export interface ComplaintStep {
  status: ComplaintStatus;
  note?: string;
  /** Who made the change: "partner" or an administrator's e-mail. */
  by: string;
  at: string;
}

/**
 * A complaint a partner filed for a customer (docs/complaints.md). The complainant need not hold a
 * policy; when one is named (or a claim), it is the partner's and linked. Money in kobo.
 */
export const complaints = pgTable(
  "complaints",
  {
    ...partnerOwned(),
    /** The number people quote, e.g. CMP-2026-7K3M9Q2XAB. */
    complaintNo: text("complaint_no").notNull(),
    /** The partner's own reference: a repeat with it answers the first complaint. */
    reference: text("reference"),
    category: text("category", { enum: COMPLAINT_CATEGORY_KEYS }).notNull(),
    description: text("description").notNull(),
    complainantName: text("complainant_name").notNull(),
    complainantEmail: text("complainant_email"),
    complainantPhone: text("complainant_phone"),
    policyId: uuid("policy_id").references(() => policies.id),
    claimId: uuid("claim_id").references(() => claims.id),
    /** The linked policy's product, kept for the report's "by product" (null: no policy linked). */
    productCode: text("product_code"),
    /** The policy's mode when one is linked, else the key's or the portal's mode. */
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    status: text("status", { enum: COMPLAINT_STATUSES }).notNull(),
    history: jsonb("history").$type<ComplaintStep[]>().notNull(),
    /** The Nigerian day it was received: its clock starts there (rules.ts). */
    receivedOn: date("received_on", { mode: "string" }).notNull(),
    acknowledgeDueOn: date("acknowledge_due_on", { mode: "string" }).notNull(),
    resolveDueOn: date("resolve_due_on", { mode: "string" }).notNull(),
    acknowledgedAt: timestamp("acknowledged_at", { withTimezone: true }),
    /** Resolved or withdrawn: the complaint is closed from then on. */
    closedAt: timestamp("closed_at", { withTimezone: true }),
    outcome: text("outcome", { enum: COMPLAINT_OUTCOMES }),
    /** The redress the resolution grants, in kobo (0: none). */
    redressKobo: bigint("redress_kobo", { mode: "number" }),
    /** The resolution in the administrator's words: what was found and what is done. */
    resolution: text("resolution"),
    /** The resolution letter (PDF), drawn once when the complaint is resolved. */
    letter: bytea("letter"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("complaints_complaint_no_idx").on(t.complaintNo),
    uniqueIndex("complaints_partner_reference_idx").on(t.partnerId, t.reference).where(sql`${t.reference} is not null`),
    index("complaints_partner_created_idx").on(t.partnerId, t.createdAt.desc(), t.id.desc()),
    // The desk: open complaints by what is due first.
    index("complaints_open_due_idx").on(t.resolveDueOn, t.id).where(sql`${t.closedAt} is null`),
    index("complaints_received_idx").on(t.receivedOn),
  ],
);

/** A note on a complaint: the operator's internal notes, and what the partner added (which both sides see). */
export const complaintNotes = pgTable(
  "complaint_notes",
  {
    id: uuid("id").primaryKey(),
    complaintId: uuid("complaint_id")
      .notNull()
      .references(() => complaints.id),
    kind: text("kind", { enum: ["internal", "partner"] }).notNull(),
    body: text("body").notNull(),
    by: text("by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("complaint_notes_complaint_idx").on(t.complaintId, t.createdAt)],
);

/** Documents attached to a complaint, by either side, in the order they came. */
export const complaintDocuments = pgTable(
  "complaint_documents",
  {
    complaintId: uuid("complaint_id")
      .notNull()
      .references(() => complaints.id),
    position: integer("position").notNull(),
    name: text("name").notNull(),
    mime: text("mime").$type<DecodedDocument["mime"]>().notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    content: bytea("content").notNull(),
    by: text("by").notNull(),
    /** Attached to an internal note: the operator's only. */
    internal: boolean("internal").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.complaintId, t.position] })],
);
