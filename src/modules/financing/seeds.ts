/**
 * The seeds of the payment commands (zod), shared by the command endpoint and the portal. They
 * check shape and fixed ranges; rules that need the clock or the stored policy (first due date
 * not in the past, down payment under the premium …) are the service's.
 */
import { z } from "zod";
import { refuseBlankFields } from "../../core/blank";
import { nairaAmount, toKobo } from "../../core/money";
import { isoDate, parseWith } from "../../core/validation";
import { FREQUENCIES } from "./schema";
import type { PlanRequest } from "./service";

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
