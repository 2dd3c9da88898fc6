import { sql } from "drizzle-orm";
import { bigint, date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { partnerOwned } from "../partners";
import { policies } from "../policies";

export const PLAN_STATUSES = ["active", "completed", "lapsed", "cancelled"] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];
export const FREQUENCIES = ["weekly", "biweekly", "monthly"] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/** A premium-financing plan: a policy's premium paid as a down payment and installments (money in kobo). */
export const financingPlans = pgTable(
  "financing_plans",
  {
    ...partnerOwned(),
    policyId: uuid("policy_id")
      .notNull()
      .references(() => policies.id),
    /** The plan number the wire shows, e.g. FIN-2026-7K3M9Q2XH4. */
    planNo: text("plan_no").notNull(),
    status: text("status", { enum: PLAN_STATUSES }).notNull(),
    premiumKobo: bigint("premium_kobo", { mode: "number" }).notNull(),
    downPaymentKobo: bigint("down_payment_kobo", { mode: "number" }).notNull(),
    installmentCount: integer("installment_count").notNull(),
    frequency: text("frequency", { enum: FREQUENCIES }).notNull(),
    /** Days after a due date before a missed installment lapses the plan. */
    graceDays: integer("grace_days").notNull(),
    /** Due date (YYYY-MM-DD, Nigerian calendar) of the oldest unpaid installment; null once completed. */
    nextDueDate: date("next_due_date", { mode: "string" }),
    paidKobo: bigint("paid_kobo", { mode: "number" }).notNull(),
    statusNote: text("status_note"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("financing_plans_policy_idx").on(t.policyId),
    uniqueIndex("financing_plans_plan_no_idx").on(t.planNo),
    index("financing_plans_partner_created_idx").on(t.partnerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The lapse run's queue: active plans by their oldest unpaid due date.
    index("financing_plans_due_idx").on(t.nextDueDate).where(sql`${t.status} = 'active'`),
  ],
);

/** The schedule: one row per installment. */
export const financingInstallments = pgTable(
  "financing_installments",
  {
    planId: uuid("plan_id")
      .notNull()
      .references(() => financingPlans.id),
    /** 1 … installmentCount. */
    number: integer("number").notNull(),
    dueDate: date("due_date", { mode: "string" }).notNull(),
    amountKobo: bigint("amount_kobo", { mode: "number" }).notNull(),
    paidKobo: bigint("paid_kobo", { mode: "number" }).notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.planId, t.number] })],
);

/** Recorded payments (payment recordInstallment): one per partner reference, so a repeat returns the first. */
export const financingPayments = pgTable(
  "financing_payments",
  {
    ...partnerOwned(),
    planId: uuid("plan_id")
      .notNull()
      .references(() => financingPlans.id),
    reference: text("reference").notNull(),
    amountKobo: bigint("amount_kobo", { mode: "number" }).notNull(),
    /** The day the consumer paid (seed.paidAt, YYYY-MM-DD Nigerian calendar; the recording day by default). */
    paidOn: date("paid_on", { mode: "string" }).notNull(),
    /** The plan just after this payment, so a repeat of the reference answers exactly as the first did. */
    outstandingAfterKobo: bigint("outstanding_after_kobo", { mode: "number" }).notNull(),
    paidInstallmentsAfter: integer("paid_installments_after").notNull(),
    nextDueDateAfter: date("next_due_date_after", { mode: "string" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex("financing_payments_reference_idx").on(t.partnerId, t.reference), index("financing_payments_plan_idx").on(t.planId)],
);
