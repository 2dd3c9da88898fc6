/**
 * Premium financing's plans (payment financeLoan): a policy's premium paid as a down payment and a
 * schedule of installments, one plan per policy, and the plans as pages and commands read them.
 * Every change writes its events, and (given an actor) its audit row, in the same transaction.
 */
import { randomBytes } from "node:crypto";
import { and, asc, desc, eq, type SQL } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { newId, normaliseUuid } from "../../core/ids";
import { toNaira as naira } from "../../core/money";
import { encodeCursor, type Page } from "../../core/pagination";
import { lastCoverDay } from "../../core/time";
import type { Database, Executor } from "../../db/client";
import { isUniqueViolation } from "../../db/errors";
import { afterCursor } from "../../db/keyset";
import { watToday } from "../../products/policy-helpers";
import { type AuditActor, recordAudit } from "../audit";
import { recordEvent } from "../events";
import type { Mode } from "../policies";
import { POLICY_STATUS_WORDS, policies, requirePolicyMode } from "../policies";
import { type InstallmentRecord, PLAN_LIMITS, type PlanDetail, type PlanRecord, type PlanRequest, type PlanSummary } from "./model";
import { addDays, buildSchedule, formatNaira } from "./schedule";
import { financingInstallments, financingPayments, financingPlans, type PlanStatus } from "./schema";
import { wirePlanTerms, wireSchedule } from "./wire";

export const financedKobo = (plan: PlanRecord) => plan.premiumKobo - plan.downPaymentKobo;
export const outstandingKobo = (plan: PlanRecord) => financedKobo(plan) - plan.paidKobo;

/** FIN-<year>-<10 random Crockford base32 characters>: 50 bits, unguessable and unique by index. */
function newPlanNumber(now: Date): string {
  const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  return `FIN-${watToday(now).slice(0, 4)}-${[...randomBytes(10)].map((b) => alphabet[b % 32]).join("")}`;
}

/** Plans with their policy's reference, status and mode; callers add the conditions. */
export const selectPlan = (db: Executor) =>
  db
    .select({ plan: financingPlans, policyReference: policies.reference, policyStatus: policies.status, mode: policies.mode })
    .from(financingPlans)
    .innerJoin(policies, eq(policies.id, financingPlans.policyId));

export const planNotFound = (planNo: string) => new CommandError(404, `seed.planNo: no financing plan ${planNo} for this partner`, "seed.planNo");

/** Plans follow their policy's mode: a test key must not keep a live plan alive, nor a live key pay a sandbox one. */
export const FINANCED_IN_ITS_MODE = "its premium is financed and paid";

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
