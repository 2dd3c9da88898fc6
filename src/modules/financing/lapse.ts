import { and, asc, eq, inArray, lt, lte, sql } from "drizzle-orm";
import { toNaira as naira } from "../../core/money";
import type { Database, Executor } from "../../db/client";
import { watToday } from "../../products/policy-helpers";
import { type AuditActor, recordAudit } from "../audit";
import { recordEvent } from "../events";
import type { Mode } from "../policies";
import { policies, statusEvent } from "../policies";
import { applyPayment } from "./installments";
import type { PlanRecord } from "./model";
import { outstandingKobo, selectPlan } from "./plans";
import { lapseNote } from "./schedule";
import { financingInstallments, financingPlans } from "./schema";

export interface LapsedPlan {
  planNo: string;
  policyReference: string;
  partnerId: string;
  missedInstallment: number;
  dueDate: string;
  statusNote: string;
}

/** Active plans (of `mode`, when given) whose oldest unpaid installment is past its grace days on `asOf`. */
const dueForLapse = (asOf: string, mode?: Mode) =>
  and(
    eq(financingPlans.status, "active"),
    mode && eq(policies.mode, mode),
    lt(financingPlans.nextDueDate, asOf), // lets the partial index narrow the search (grace days are never negative)
    sql`${financingPlans.nextDueDate} + ${financingPlans.graceDays} < ${asOf}::date`,
  );

/** How many plans a run as of `asOf` would lapse now (the operator's page says it before the run). */
export async function plansDueForLapse(db: Executor, asOf: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(financingPlans)
    .innerJoin(policies, eq(policies.id, financingPlans.policyId))
    .where(dueForLapse(asOf));
  return row?.n ?? 0;
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
  const due = dueForLapse(asOf, mode);
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
