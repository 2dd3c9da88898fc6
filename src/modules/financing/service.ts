/**
 * Premium financing (payment financeLoan / recordInstallment / runLapse): a policy's premium paid
 * as a down payment and a schedule of installments; a missed installment past its grace days
 * lapses the plan and the policy (status `l`). Plain functions shared by the command endpoint, the
 * background loop and the portal. Every change writes its events, and (given an actor) its audit
 * row, in the same transaction.
 */

import { randomBytes } from "node:crypto";
import { and, asc, desc, eq, inArray, lt, lte, type SQL, sql } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { newId, normaliseUuid } from "../../core/ids";
import { toNaira as naira } from "../../core/money";
import { encodeCursor, type Page } from "../../core/pagination";
import { lastCoverDay } from "../../core/time";
import type { Database, Executor } from "../../db/client";
import { isUniqueViolation } from "../../db/errors";
import { readCheckWrite, type TableRow, writeWhenStill } from "../../db/guarded";
import { afterCursor } from "../../db/keyset";
import { watToday } from "../../products/policy-helpers";
import { type AuditActor, auditRows, recordAudit } from "../audit/service";
import { outboxEvents } from "../events/schema";
import { outboxRow, recordEvent } from "../events/service";
import { policies } from "../policies/schema";
import { POLICY_STATUS_WORDS, requirePolicyMode, statusEvent } from "../policies/service";
import type { Mode } from "../policies/types";
import {
  type InstallmentRecord,
  type PaymentRecord,
  type PaymentRequest,
  PLAN_LIMITS,
  type PlanDetail,
  type PlanRecord,
  type PlanRequest,
  type PlanSummary,
} from "./model";
import { addDays, buildSchedule, formatNaira, lapseNote } from "./schedule";
import { financingInstallments, financingPayments, financingPlans, type PlanStatus } from "./schema";
import { wirePayment, wirePlanTerms, wireSchedule } from "./wire";

export const financedKobo = (plan: PlanRecord) => plan.premiumKobo - plan.downPaymentKobo;
export const outstandingKobo = (plan: PlanRecord) => financedKobo(plan) - plan.paidKobo;

/** FIN-<year>-<10 random Crockford base32 characters>: 50 bits, unguessable and unique by index. */
function newPlanNumber(now: Date): string {
  const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  return `FIN-${watToday(now).slice(0, 4)}-${[...randomBytes(10)].map((b) => alphabet[b % 32]).join("")}`;
}

/** Plans with their policy's reference, status and mode; callers add the conditions. */
const selectPlan = (db: Executor) =>
  db
    .select({ plan: financingPlans, policyReference: policies.reference, policyStatus: policies.status, mode: policies.mode })
    .from(financingPlans)
    .innerJoin(policies, eq(policies.id, financingPlans.policyId));

const planNotFound = (planNo: string) => new CommandError(404, `seed.planNo: no financing plan ${planNo} for this partner`, "seed.planNo");

/** Plans follow their policy's mode: a test key must not keep a live plan alive, nor a live key pay a sandbox one. */
const FINANCED_IN_ITS_MODE = "its premium is financed and paid";

/**
 * `payment financeLoan`: turn the premium of one of the partner's approved or pending policies into
 * a schedule. One plan per policy (unique index, so concurrent requests store one).
 */
export async function financePremium(db: Database, partnerId: string, mode: Mode, request: PlanRequest, now: Date, actor?: AuditActor): Promise<PlanDetail> {
  const today = watToday(now);
  if (request.firstDueDate < today)
    throw new CommandError(
      400,
      `seed.firstDueDate ${request.firstDueDate} is in the past: the first installment must be due today (${today}) or later`,
      "seed.firstDueDate",
    );
  const latest = addDays(today, PLAN_LIMITS.firstDueWithinDays);
  if (request.firstDueDate > latest)
    throw new CommandError(
      400,
      `seed.firstDueDate ${request.firstDueDate} is too far ahead: the first installment must be due within ${PLAN_LIMITS.firstDueWithinDays} days (by ${latest})`,
      "seed.firstDueDate",
    );
  const reference = normaliseUuid(request.policyReference) ?? request.policyReference;
  let policyId: string | undefined;
  try {
    return await db.transaction(async (tx) => {
      // A share lock: a concurrent decline or lapse of the policy waits for this plan, or this plan sees it.
      const [policy] = await tx
        .select()
        .from(policies)
        .where(and(eq(policies.partnerId, partnerId), eq(policies.reference, reference)))
        .for("share");
      if (!policy) throw new CommandError(404, `seed.policy: no policy ${reference} of this partner`, "seed.policy");
      policyId = policy.id;
      requirePolicyMode(policy, mode, FINANCED_IN_ITS_MODE);
      if (policy.status !== "a" && policy.status !== "p")
        throw new CommandError(
          409,
          `policy ${reference} ${POLICY_STATUS_WORDS[policy.status]}: only approved or pending policies can be financed`,
          "seed.policy",
        );
      if (policy.premiumKobo <= 0) throw new CommandError(409, `policy ${reference} has no premium to finance`, "seed.policy");
      if (request.downPaymentKobo >= policy.premiumKobo)
        throw new CommandError(
          400,
          `seed.downPayment must be less than the premium of policy ${reference} (${naira(policy.premiumKobo)} naira), or nothing is left to finance; ` +
            `received ${naira(request.downPaymentKobo)}`,
          "seed.downPayment",
        );
      const financed = policy.premiumKobo - request.downPaymentKobo;
      if (financed < request.installmentCount * 100)
        throw new CommandError(
          400,
          `seed.installments: ${formatNaira(financed)} financed in ${request.installmentCount} installments is under ₦1.00 each; use fewer ` +
            `installments or a smaller seed.downPayment`,
          "seed.installments",
        );
      const schedule = buildSchedule(financed, request.installmentCount, request.frequency, request.firstDueDate);
      // The cover's last day: installments are owed while the policy covers, never after.
      const coverLastDay = lastCoverDay(policy.coverEnd);
      const lastDue = schedule.at(-1)!.dueDate;
      if (lastDue > coverLastDay)
        throw new CommandError(
          400,
          `seed.installments: the last of ${request.installmentCount} ${request.frequency} installments would be due ${lastDue}, after the cover of ` +
            `policy ${reference} ends on ${coverLastDay}; use fewer installments, a shorter frequency or an earlier seed.firstDueDate`,
          "seed.installments",
        );

      const plan: PlanRecord = {
        id: newId(),
        partnerId,
        policyId: policy.id,
        planNo: newPlanNumber(now),
        status: "active",
        premiumKobo: policy.premiumKobo,
        downPaymentKobo: request.downPaymentKobo,
        installmentCount: request.installmentCount,
        frequency: request.frequency,
        graceDays: request.graceDays,
        nextDueDate: schedule[0]!.dueDate,
        paidKobo: 0,
        statusNote: null,
        createdAt: now,
        closedAt: null,
      };
      const installments: InstallmentRecord[] = schedule.map((s) => ({ planId: plan.id, ...s, paidKobo: 0, paidAt: null }));
      await tx.insert(financingPlans).values(plan);
      await tx.insert(financingInstallments).values(installments);
      const summary = { ...plan, policyReference: policy.reference };
      await recordEvent(
        tx,
        {
          partnerId,
          type: "financing.plan_created",
          payload: { ...wirePlanTerms(summary), schedule: wireSchedule(schedule), nextDueDate: plan.nextDueDate, mode: policy.mode },
        },
        now,
      );
      if (actor)
        await recordAudit(
          tx,
          actor,
          {
            action: "financing.create",
            subject: plan.planNo,
            details: { policy: summary.policyReference, financedKobo: financedKobo(plan), installments: plan.installmentCount, frequency: plan.frequency },
          },
          now,
        );
      return { ...summary, installments, payments: [] };
    });
  } catch (error) {
    if (policyId && isUniqueViolation(error, "financing_plans_policy_idx")) {
      const [existing] = await db.select({ planNo: financingPlans.planNo }).from(financingPlans).where(eq(financingPlans.policyId, policyId));
      throw onePlanPerPolicy(reference, existing!.planNo);
    }
    throw error;
  }
}

const onePlanPerPolicy = (reference: string, planNo: string) =>
  new CommandError(409, `policy ${reference} already has financing plan ${planNo}: one plan per policy`, "seed.policy");

/**
 * The plan stored for the request's policy, when it has the request's terms (the request's answer
 * was lost); null when the policy has none. A plan on other terms makes this a second plan: refused.
 */
export async function earlierPlan(db: Executor, partnerId: string, request: PlanRequest): Promise<PlanDetail | null> {
  const reference = normaliseUuid(request.policyReference) ?? request.policyReference;
  const [found] = await db
    .select({ planNo: financingPlans.planNo })
    .from(financingPlans)
    .innerJoin(policies, eq(policies.id, financingPlans.policyId))
    .where(and(eq(policies.partnerId, partnerId), eq(policies.reference, reference)));
  if (!found) return null;
  const plan = await planDetail(db, { partnerId }, found.planNo);
  const sameTerms =
    plan.downPaymentKobo === request.downPaymentKobo &&
    plan.installmentCount === request.installmentCount &&
    plan.frequency === request.frequency &&
    plan.graceDays === request.graceDays &&
    plan.installments[0]?.dueDate === request.firstDueDate;
  if (!sameTerms) throw onePlanPerPolicy(reference, plan.planNo);
  return plan;
}

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
async function applyPayment(
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

export interface LapsedPlan {
  planNo: string;
  policyReference: string;
  partnerId: string;
  missedInstallment: number;
  dueDate: string;
  statusNote: string;
}

/**
 * `payment runLapse` and its background run: lapse every active plan whose oldest unpaid
 * installment's due date plus the plan's grace days is before `asOf` (YYYY-MM-DD, Nigerian
 * calendar). One transaction per plan, claimed with FOR UPDATE SKIP LOCKED and re-checked as
 * still active, so a second run, or another instance running at the same time, never lapses a
 * plan twice. The policy becomes `l` with the same statusNote; `policy.lapsed` and
 * `financing.lapsed` are written with the change. Returns the plans this run lapsed. With a
 * `mode` (the operator's key) only plans of that mode: a test key's run with a far `asOf` must not
 * lapse live plans. The background run and the portal lapse every plan. With an `actor` (the
 * operator's page) the run is audited once it is done: its plans lapse in transactions of their
 * own, so the run's row follows the last of them.
 */
export async function runLapse(db: Database, asOf: string, now: Date, by: { mode?: Mode; actor?: AuditActor } = {}): Promise<LapsedPlan[]> {
  const { mode, actor } = by;
  const due = and(
    eq(financingPlans.status, "active"),
    mode && eq(policies.mode, mode),
    lt(financingPlans.nextDueDate, asOf), // lets the partial index narrow the search (grace days are never negative)
    sql`${financingPlans.nextDueDate} + ${financingPlans.graceDays} < ${asOf}::date`,
  );
  const lapsed: LapsedPlan[] = [];
  for (;;) {
    const one = await db.transaction(async (tx): Promise<LapsedPlan | null> => {
      const [claimed] = await selectPlan(tx)
        .where(due)
        .orderBy(asc(financingPlans.nextDueDate), asc(financingPlans.id))
        .limit(1)
        .for("update", { of: financingPlans, skipLocked: true });
      if (!claimed) return null;
      const { plan, policyReference, mode } = claimed;
      const [missed] = await tx
        .select()
        .from(financingInstallments)
        .where(and(eq(financingInstallments.planId, plan.id), lt(financingInstallments.paidKobo, financingInstallments.amountKobo)))
        .orderBy(asc(financingInstallments.number))
        .limit(1);
      const statusNote = lapseNote(missed!, plan.installmentCount, plan.graceDays);
      await tx.update(financingPlans).set({ status: "lapsed", statusNote, closedAt: now }).where(eq(financingPlans.id, plan.id));
      // A policy already declined keeps its decision; only an approved or pending one lapses.
      const [policy] = await tx
        .update(policies)
        .set({ status: "l", statusNote, statusAt: now })
        .where(and(eq(policies.id, plan.policyId), inArray(policies.status, ["p", "a"])))
        .returning();
      if (policy) await recordEvent(tx, statusEvent(policy), now);
      await recordEvent(
        tx,
        {
          partnerId: plan.partnerId,
          type: "financing.lapsed",
          payload: {
            planNo: plan.planNo,
            policy: policyReference,
            missedInstallment: missed!.number,
            dueDate: missed!.dueDate,
            outstanding: naira(outstandingKobo(plan)),
            statusNote,
            mode,
          },
        },
        now,
      );
      return { planNo: plan.planNo, policyReference, partnerId: plan.partnerId, missedInstallment: missed!.number, dueDate: missed!.dueDate, statusNote };
    });
    if (!one) break;
    lapsed.push(one);
  }
  if (actor)
    await recordAudit(
      db,
      actor,
      { action: "financing.run_lapse", subject: asOf, partnerId: null, details: { asOf, count: lapsed.length, plans: lapsed.map((p) => p.planNo) } },
      now,
    );
  return lapsed;
}

/** The lapsed plan of a policy, with what reinstating it must pay: every installment due by `today` and not paid. */
export async function lapsedPlanOfPolicy(db: Executor, policyId: string, today: string): Promise<{ plan: PlanRecord; owedKobo: number } | null> {
  const [plan] = await db
    .select()
    .from(financingPlans)
    .where(and(eq(financingPlans.policyId, policyId), eq(financingPlans.status, "lapsed")))
    .for("update");
  if (!plan) return null;
  const due = await db
    .select()
    .from(financingInstallments)
    .where(and(eq(financingInstallments.planId, plan.id), lte(financingInstallments.dueDate, today)));
  return { plan, owedKobo: due.reduce((owed, i) => owed + i.amountKobo - i.paidKobo, 0) };
}

/**
 * Reopen the lapsed plan of a policy being reinstated, in the reinstating transaction: what was
 * missed is recorded as paid under `reference` (the partner collected it from the consumer), and
 * the plan runs again on its schedule (completed, when nothing is left).
 */
export async function reopenLapsedPlan(
  tx: Executor,
  { plan, owedKobo }: { plan: PlanRecord; owedKobo: number },
  policy: { reference: string; mode: Mode },
  reference: string,
  now: Date,
): Promise<void> {
  const [reopened] = await tx
    .update(financingPlans)
    .set({ status: "active", statusNote: null, closedAt: null })
    .where(eq(financingPlans.id, plan.id))
    .returning();
  // The reinstating transaction holds the policy and the plan: the payment is written.
  if (owedKobo > 0)
    await applyPayment(
      tx,
      { plan: reopened!, policyReference: policy.reference, mode: policy.mode },
      { reference, amountKobo: owedKobo, paidOn: watToday(now) },
      now,
    );
}

/**
 * Close the active plan of a policy being cancelled, in the cancelling transaction: nothing more
 * is owed on its schedule. The consumer's account is settled against what the cover cost in the
 * end (`coverCostKobo`: the premium less the refund): what they paid beyond it is due back to
 * them, what they paid short of it is still owed; the `financing.cancelled` event says both.
 */
export async function cancelPlanOfPolicy(tx: Executor, policyId: string, coverCostKobo: number, statusNote: string, now: Date): Promise<void> {
  const [closed] = await tx
    .update(financingPlans)
    .set({ status: "cancelled", statusNote, closedAt: now })
    .where(and(eq(financingPlans.policyId, policyId), eq(financingPlans.status, "active")))
    .returning();
  if (!closed) return;
  const [{ reference, mode } = { reference: "", mode: "test" }] = await tx
    .select({ reference: policies.reference, mode: policies.mode })
    .from(policies)
    .where(eq(policies.id, policyId));
  const consumerPaid = closed.downPaymentKobo + closed.paidKobo;
  await recordEvent(
    tx,
    {
      partnerId: closed.partnerId,
      type: "financing.cancelled",
      payload: {
        planNo: closed.planNo,
        policy: reference,
        statusNote,
        consumerPaid: naira(consumerPaid),
        coverCost: naira(coverCostKobo),
        dueToConsumer: naira(Math.max(0, consumerPaid - coverCostKobo)),
        stillOwed: naira(Math.max(0, coverCostKobo - consumerPaid)),
        mode,
      },
    },
    now,
  );
}

/** One plan with its schedule and payments; `scope.partnerId` undefined finds any partner's (admin, portal). */
export async function planDetail(db: Executor, scope: { partnerId?: string }, planNo: string): Promise<PlanDetail> {
  const conditions: SQL[] = [eq(financingPlans.planNo, planNo)];
  if (scope.partnerId) conditions.push(eq(financingPlans.partnerId, scope.partnerId));
  const [found] = await selectPlan(db).where(and(...conditions));
  if (!found) throw planNotFound(planNo);
  const [installments, payments] = await Promise.all([
    db.select().from(financingInstallments).where(eq(financingInstallments.planId, found.plan.id)).orderBy(asc(financingInstallments.number)),
    db.select().from(financingPayments).where(eq(financingPayments.planId, found.plan.id)).orderBy(asc(financingPayments.createdAt), asc(financingPayments.id)),
  ]);
  return { ...found.plan, policyReference: found.policyReference, installments, payments };
}

/** The plan number of a policy's plan, or null when it has none (one plan per policy, ever). */
export async function planNoOfPolicy(db: Executor, policyId: string): Promise<string | null> {
  const [row] = await db.select({ planNo: financingPlans.planNo }).from(financingPlans).where(eq(financingPlans.policyId, policyId));
  return row?.planNo ?? null;
}

export interface PlanFilters {
  status?: PlanStatus;
}

/** Plans newest first, keyset-paginated; `scope.partnerId` undefined lists every partner's (admin). */
export async function listPlans(
  db: Database,
  scope: { partnerId?: string },
  filters: PlanFilters,
  page: { limit: number; cursor?: string },
): Promise<Page<PlanSummary>> {
  const conditions: SQL[] = [];
  if (scope.partnerId) conditions.push(eq(financingPlans.partnerId, scope.partnerId));
  if (filters.status) conditions.push(eq(financingPlans.status, filters.status));
  if (page.cursor) {
    conditions.push(afterCursor(financingPlans.createdAt, financingPlans.id, page.cursor));
  }
  const rows = await selectPlan(db)
    .where(and(...conditions))
    .orderBy(desc(financingPlans.createdAt), desc(financingPlans.id))
    .limit(page.limit + 1);
  const items = rows.slice(0, page.limit).map((r) => ({ ...r.plan, policyReference: r.policyReference }));
  const last = items.at(-1);
  return { items, nextCursor: rows.length > page.limit && last ? encodeCursor(last.createdAt, last.id) : null };
}
