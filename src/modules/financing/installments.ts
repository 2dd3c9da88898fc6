import { and, asc, eq, sql } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { newId } from "../../core/ids";
import { toNaira as naira } from "../../core/money";
import type { Database, Executor } from "../../db/client";
import { isUniqueViolation } from "../../db/errors";
import { readCheckWrite, type TableRow, writeWhenStill } from "../../db/guarded";
import { watToday } from "../../products/policy-helpers";
import { type AuditActor, auditRows } from "../audit";
import { outboxEvents, outboxRow } from "../events";
import type { Mode } from "../policies";
import { policies, requirePolicyMode } from "../policies";
import type { PaymentRecord, PaymentRequest, PlanRecord } from "./model";
import { FINANCED_IN_ITS_MODE, financedKobo, outstandingKobo, planNotFound, selectPlan } from "./plans";
import { financingInstallments, financingPayments, financingPlans } from "./schema";
import { wirePayment } from "./wire";

export interface PaymentResult {
  planNo: string;
  payment: PaymentRecord;
  /** False when the reference was used before: the first result is returned unchanged. */
  applied: boolean;
}

/** A reference seen before: the same payment again answers as the first time; anything else is a conflict. */
function repeatOf(prior: PaymentRecord, priorPlanNo: string, request: PaymentRequest): PaymentResult {
  if (priorPlanNo !== request.planNo || prior.amountKobo !== request.amountKobo)
    throw new CommandError(
      409,
      `seed.reference ${request.reference} was already used for a payment of ${naira(prior.amountKobo)} naira on plan ${priorPlanNo}`,
      "seed.reference",
    );
  return { planNo: priorPlanNo, payment: prior, applied: false };
}

async function priorPayment(db: Executor, partnerId: string, reference: string) {
  const [row] = await db
    .select({ payment: financingPayments, planNo: financingPlans.planNo })
    .from(financingPayments)
    .innerJoin(financingPlans, eq(financingPlans.id, financingPayments.planId))
    .where(and(eq(financingPayments.partnerId, partnerId), eq(financingPayments.reference, reference)));
  return row;
}

/** The payment stored under the request's reference, when it is the same payment (a repeat, or a request whose answer was lost); null when none. */
export async function earlierPayment(db: Executor, partnerId: string, request: PaymentRequest): Promise<PaymentResult | null> {
  const prior = await priorPayment(db, partnerId, request.reference);
  return prior ? repeatOf(prior.payment, prior.planNo, request) : null;
}

/**
 * Apply a payment to a plan's oldest unpaid installments (part payments allowed), store it under
 * its reference and write its events (the plan completed when nothing is left), with `extra` rows
 * (an audit row): for `recordInstallment` and for the reinstatement of a lapsed policy, which pays
 * what was missed. The installments are read, the payment worked out, and everything written in
 * one statement that holds the plan (FOR UPDATE) only while it is still as read — active, with the
 * same amount paid — and its policy is not declined; null, having written nothing, when that changed.
 */
export async function applyPayment(
  db: Executor,
  { plan, policyReference, mode: policyMode }: { plan: PlanRecord; policyReference: string; mode: Mode },
  request: { reference: string; amountKobo: number; paidOn: string },
  now: Date,
  extra: readonly TableRow[] = [],
): Promise<PaymentRecord | null> {
  const { partnerId } = plan;
  const { paidOn } = request;
  const outstanding = outstandingKobo(plan);
  // Oldest first: each installment takes what it still lacks until the payment is used up.
  const installments = await db
    .select()
    .from(financingInstallments)
    .where(eq(financingInstallments.planId, plan.id))
    .orderBy(asc(financingInstallments.number));
  let left = request.amountKobo;
  const changed: { number: number; paid_kobo: number; paid_at: string | null }[] = [];
  for (const installment of installments) {
    const lacking = installment.amountKobo - installment.paidKobo;
    if (left === 0) break;
    if (lacking === 0) continue;
    const take = Math.min(lacking, left);
    left -= take;
    installment.paidKobo += take;
    if (take === lacking) installment.paidAt = now;
    changed.push({ number: installment.number, paid_kobo: installment.paidKobo, paid_at: installment.paidAt?.toISOString() ?? null });
  }
  const nextUnpaid = installments.find((i) => i.paidKobo < i.amountKobo);
  const outstandingAfter = outstanding - request.amountKobo;
  const completed = outstandingAfter === 0;
  const payment: PaymentRecord = {
    id: newId(),
    partnerId,
    planId: plan.id,
    reference: request.reference,
    amountKobo: request.amountKobo,
    paidOn,
    outstandingAfterKobo: outstandingAfter,
    paidInstallmentsAfter: installments.filter((i) => i.paidKobo === i.amountKobo).length,
    nextDueDateAfter: nextUnpaid?.dueDate ?? null,
    createdAt: now,
  };
  const events = [
    { partnerId, type: "financing.installment_recorded", payload: { ...wirePayment(plan.planNo, payment), policy: policyReference, mode: policyMode } },
    ...(completed
      ? [
          {
            partnerId,
            type: "financing.completed",
            payload: {
              planNo: plan.planNo,
              policy: policyReference,
              financed: naira(financedKobo(plan)),
              installments: plan.installmentCount,
              mode: policyMode,
            },
          },
        ]
      : []),
  ];
  const rows: TableRow[] = [{ table: financingPayments, row: payment }];
  for (const event of events) rows.push({ table: outboxEvents, row: await outboxRow(db, event, now) });
  const still = sql`select p.id from ${financingPlans} p
    where p.id = ${plan.id}::uuid and p.status = 'active' and p.paid_kobo = ${plan.paidKobo}::bigint
      and (select status from ${policies} where id = p.policy_id) <> 'd'
    for update of p`;
  const changes = sql`, installments as (
      update ${financingInstallments} i set paid_kobo = c.paid_kobo, paid_at = c.paid_at
      from json_to_recordset(${JSON.stringify(changed)}::json) as c(number int, paid_kobo bigint, paid_at timestamptz)
      where i.plan_id = ${plan.id}::uuid and i.number = c.number and exists (select from still)
    ), plan as (
      update ${financingPlans} set paid_kobo = ${plan.paidKobo + request.amountKobo}::bigint, next_due_date = ${nextUnpaid?.dueDate ?? null}::date,
        status = ${completed ? "completed" : "active"}, closed_at = ${completed ? now.toISOString() : null}::timestamptz
      where id = ${plan.id}::uuid and exists (select from still)
    )`;
  return (await writeWhenStill(db, still, [...rows, ...extra], changes)) ? payment : null;
}

/**
 * `payment recordInstallment`: apply a payment to the oldest unpaid installments (part payments
 * allowed). The plan row is locked first, so payments on one plan run one at a time and the look
 * for an earlier use of the reference sees every committed one (the unique index is the backstop
 * for the same reference sent on two plans at once).
 */
export async function recordInstallment(
  db: Database,
  partnerId: string,
  mode: Mode,
  request: PaymentRequest,
  now: Date,
  actor?: AuditActor,
): Promise<PaymentResult> {
  const today = watToday(now);
  const paidOn = request.paidOn ?? today;
  if (paidOn > today) throw new CommandError(400, `seed.paidAt ${paidOn} is in the future (today is ${today})`, "seed.paidAt");
  /**
   * Read and check, then one statement (applyPayment) that writes only while the plan is still as
   * read. `locked`: inside a transaction holding the plan first, so the payment is written.
   */
  const attempt = async (db: Executor, locked: boolean): Promise<PaymentResult | null> => {
    const plans = selectPlan(db).where(and(eq(financingPlans.partnerId, partnerId), eq(financingPlans.planNo, request.planNo)));
    const [found] = locked ? await plans.for("update", { of: financingPlans }) : await plans;
    if (!found) throw planNotFound(request.planNo);
    const { plan, policyReference, policyStatus, mode: policyMode } = found;
    requirePolicyMode({ reference: policyReference, mode: policyMode }, mode, FINANCED_IN_ITS_MODE);
    const earlier = await earlierPayment(db, partnerId, request);
    if (earlier) return earlier;

    if (plan.status === "completed")
      throw new CommandError(409, `plan ${plan.planNo} is completed: every installment is paid and nothing is outstanding`, "seed.planNo");
    if (plan.status === "lapsed" || plan.status === "cancelled")
      throw new CommandError(
        409,
        `plan ${plan.planNo} ${plan.status === "lapsed" ? "has lapsed" : "was cancelled"} and takes no more payments (${plan.statusNote})`,
        "seed.planNo",
      );
    if (policyStatus === "d")
      throw new CommandError(409, `policy ${policyReference} of plan ${plan.planNo} was declined: the plan takes no more payments`, "seed.planNo");
    const createdOn = watToday(plan.createdAt);
    if (paidOn < createdOn) throw new CommandError(400, `seed.paidAt ${paidOn} is before plan ${plan.planNo} was created (${createdOn})`, "seed.paidAt");
    const outstanding = outstandingKobo(plan);
    if (request.amountKobo > outstanding)
      throw new CommandError(
        409,
        `seed.amount ${naira(request.amountKobo)} naira is more than the ${naira(outstanding)} naira outstanding on plan ${plan.planNo}`,
        "seed.amount",
      );

    const audit = auditRows(
      actor,
      {
        action: "financing.record_installment",
        subject: plan.planNo,
        details: { reference: request.reference, amountKobo: request.amountKobo, outstandingAfterKobo: outstanding - request.amountKobo },
      },
      now,
    );
    const payment = await applyPayment(db, found, { reference: request.reference, amountKobo: request.amountKobo, paidOn }, now, audit);
    return payment && { planNo: plan.planNo, payment, applied: true };
  };
  try {
    // One statement when nothing else pays on the plan meanwhile; else, one at a time behind its lock.
    return await readCheckWrite(db, attempt);
  } catch (error) {
    if (isUniqueViolation(error, "financing_payments_reference_idx")) {
      const earlier = await earlierPayment(db, partnerId, request);
      if (earlier) return earlier;
    }
    throw error;
  }
}
