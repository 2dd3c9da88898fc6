/** How financing records look on the wire (answers and event payloads): naira as JSON numbers, dates YYYY-MM-DD. */
import { toNaira as naira } from "../../core/money";
import type { PaymentRecord, PlanSummary } from "./model";

export const wireSchedule = (installments: { number: number; dueDate: string; amountKobo: number }[]) =>
  installments.map((i) => ({ number: i.number, dueDate: i.dueDate, amount: naira(i.amountKobo) }));

/** The terms of a plan as financeLoan answers them. */
export const wirePlanTerms = (plan: PlanSummary) => ({
  planNo: plan.planNo,
  policy: plan.policyReference,
  status: plan.status,
  premium: naira(plan.premiumKobo),
  downPayment: naira(plan.downPaymentKobo),
  financed: naira(plan.premiumKobo - plan.downPaymentKobo),
  installments: plan.installmentCount,
  frequency: plan.frequency,
  graceDays: plan.graceDays,
});

/** A recorded payment with the plan as it stood just after it (what recordInstallment answers, first time and on every repeat). */
export const wirePayment = (planNo: string, payment: PaymentRecord) => ({
  planNo,
  reference: payment.reference,
  amount: naira(payment.amountKobo),
  paidAt: payment.paidOn,
  outstanding: naira(payment.outstandingAfterKobo),
  paidInstallments: payment.paidInstallmentsAfter,
  nextDueDate: payment.nextDueDateAfter,
  status: payment.outstandingAfterKobo === 0 ? ("completed" as const) : ("active" as const),
});
