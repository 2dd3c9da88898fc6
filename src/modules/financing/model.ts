/**
 * What premium financing is asked for and keeps: the seeds of the payment commands (zod), the
 * portal's forms read as those seeds, and the records the service returns. The seeds check shape
 * and fixed ranges; rules that need the clock or the stored policy (first due date not in the
 * past, down payment under the premium …) are the service's. Below the service and the wire
 * shapes, so neither imports the other's types back.
 */
import { z } from "zod";
import { refuseBlankFields } from "../../core/blank";
import { nairaAmount, toKobo } from "../../core/money";
import { isoDate, parseWith } from "../../core/validation";
import { givenFields, typedValue } from "../../portal/page";
import { wireValue } from "../../products/forms";
import { FREQUENCIES, type Frequency, type financingInstallments, type financingPayments, type financingPlans, PLAN_STATUSES, type PlanStatus } from "./schema";

export type PlanRecord = typeof financingPlans.$inferSelect;
export type InstallmentRecord = typeof financingInstallments.$inferSelect;
export type PaymentRecord = typeof financingPayments.$inferSelect;

/** A plan with its policy's transaction reference (what the wire calls `policy`). */
export interface PlanSummary extends PlanRecord {
  policyReference: string;
}

export interface PlanDetail extends PlanSummary {
  /** The schedule, installment 1 first. */
  installments: InstallmentRecord[];
  /** Recorded payments, oldest first. */
  payments: PaymentRecord[];
}

export interface PlanRequest {
  /** The policy's transaction reference as the partner sends it (either UUID form). */
  policyReference: string;
  downPaymentKobo: number;
  installmentCount: number;
  frequency: Frequency;
  firstDueDate: string;
  graceDays: number;
}

export interface PaymentRequest {
  planNo: string;
  amountKobo: number;
  reference: string;
  /** The day the consumer paid (YYYY-MM-DD); today when absent. */
  paidOn?: string;
}

/** Limits of a plan (docs/financing.md). */
export const PLAN_LIMITS = { minInstallments: 2, maxInstallments: 12, maxGraceDays: 30, firstDueWithinDays: 62 } as const;

const planNo = z
  .string()
  .regex(/^FIN-\d{4}-[0-9A-Z]{10}$/i, "must be a plan number as payment financeLoan returned it (FIN-<year>-<10 characters>)")
  .transform((s) => s.toUpperCase());

export const financeSeed = z.strictObject({
  /** The policy's transaction reference (seed.id of its insure request). */
  policy: z.string().regex(/^[A-Za-z0-9-]{1,36}$/, "must be the policy's transaction reference (the seed.id it was issued with)"),
  downPayment: nairaAmount({ zero: "allowed" }),
  installments: z.int().min(PLAN_LIMITS.minInstallments).max(PLAN_LIMITS.maxInstallments),
  frequency: z.enum(FREQUENCIES),
  firstDueDate: isoDate,
  /** Days after a due date before the plan lapses; the service's configured default when absent. */
  graceDays: z.int().min(0).max(PLAN_LIMITS.maxGraceDays).optional(),
});

export const installmentSeed = z.strictObject({
  planNo,
  amount: nairaAmount(),
  reference: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, "must be 1-64 letters, digits, dots, hyphens or underscores"),
  /** The day the consumer paid; the recording day when absent. */
  paidAt: isoDate.optional(),
});

export const lapseSeed = z.strictObject({
  /** Lapse as if today were this day (Nigerian calendar); today when absent. */
  asOf: isoDate.optional(),
});

export const planSeed = z.strictObject({ planNo });

/** Blank or null fields are 406 as everywhere else (docs/decisions.md), then the seed's shape (400 naming the field). */
export function parseFinancingSeed<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  refuseBlankFields(raw);
  return parseWith(schema, raw ?? {});
}

/** A financeLoan seed as the plan it asks for: naira to kobo, the configured grace days when none are given. */
export const planRequestFrom = (seed: z.output<typeof financeSeed>, defaultGraceDays: number): PlanRequest => ({
  policyReference: seed.policy,
  downPaymentKobo: toKobo(seed.downPayment),
  installmentCount: seed.installments,
  frequency: seed.frequency,
  firstDueDate: seed.firstDueDate,
  graceDays: seed.graceDays ?? defaultGraceDays,
});

/** A recordInstallment seed as the payment it records: naira to kobo. */
export const paymentRequestFrom = (seed: z.output<typeof installmentSeed>): PaymentRequest => ({
  planNo: seed.planNo,
  amountKobo: toKobo(seed.amount),
  reference: seed.reference,
  paidOn: seed.paidAt,
});

// ─── The portal's forms, read as the seeds above ─────────────────────────────────────────────

type FormFields = Record<string, string | undefined>;

const number = (value: string | undefined) => wireValue({ kind: "number", path: "n", label: "n" }, value);
const integer = (value: string | undefined) => wireValue({ kind: "integer", path: "n", label: "n" }, value);

/** A plan number from a URL, as the JSON surface reads it (any case); null when it cannot be one. */
export function planNoOf(raw: string): string | null {
  try {
    return parseFinancingSeed(planSeed, { planNo: decodeURIComponent(raw) }).planNo;
  } catch {
    return null;
  }
}

/** The list's status filter; anything else is no filter. */
export const planStatusOf = (value: string | undefined): PlanStatus | undefined =>
  (PLAN_STATUSES as readonly string[]).includes(value ?? "") ? (value as PlanStatus) : undefined;

/** The finance form as the financeLoan seed. */
export const financeSeedFrom = (values: FormFields) =>
  parseFinancingSeed(
    financeSeed,
    givenFields({
      policy: typedValue(values.policy),
      downPayment: number(values.downPayment),
      installments: integer(values.installments),
      frequency: typedValue(values.frequency),
      firstDueDate: typedValue(values.firstDueDate),
      graceDays: integer(values.graceDays),
    }),
  );

/** The payment form as the recordInstallment seed. */
export const installmentSeedFrom = (planNo: string, values: FormFields) =>
  parseFinancingSeed(
    installmentSeed,
    givenFields({ planNo, amount: number(values.amount), reference: typedValue(values.reference), paidAt: typedValue(values.paidAt) }),
  );

/** The operator's lapse form as the runLapse seed. */
export const lapseSeedFrom = (values: FormFields) => parseFinancingSeed(lapseSeed, givenFields({ asOf: typedValue(values.asOf) }));
