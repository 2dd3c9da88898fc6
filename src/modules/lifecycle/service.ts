/**
 * After issuance (docs/lifecycle.md): cancellation with its refund, and the expiry of cover. Each
 * transition is one transaction with its ledger lines, its outbox event and its audit row; the
 * policy row is locked first, so a claim, a plan payment or a second cancellation waits for it
 * and then sees the outcome.
 */
import { and, asc, eq, gt, inArray, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { newId } from "../../core/ids";
import { toNaira as naira } from "../../core/money";
import { lastCoverDay, watTimestamp } from "../../core/time";
import type { Database, Executor } from "../../db/client";
import { isUniqueViolation } from "../../db/errors";
import { findProduct, renewableProductCodes } from "../../products";
import { CANCELLATION_REASON_TEXT, type CancellationReason, cancellationRefund, type Refund } from "../../products/cancellation";
import { watMidnight, watToday } from "../../products/policy-helpers";
import { type AuditActor, recordAudit } from "../audit/service";
import { claims } from "../claims/schema";
import { earnOnExtraPremium, reverseOnRefund } from "../commissions/earning";
import { recordEvent } from "../events/service";
import { cancelPlanOfPolicy, lapsedPlanOfPolicy, reopenLapsedPlan } from "../financing/lapse";
import { issueRenewal, renewalOf } from "../issuance/issuance";
import { policies, policyCancellations, policyEndorsements } from "../policies/schema";
import {
  addressConditions,
  type CancellationRecord,
  cancellationOf,
  findPolicyByReference,
  notFoundAt,
  POLICY_STATUS_WORDS,
  type PolicyAddress,
  requirePolicyMode,
  statusEvent,
} from "../policies/service";
import type { Mode, PolicyRecord } from "../policies/types";
import { payPremiumFor, refundPremium } from "../wallet/service";
import { policyReinstatements } from "./schema";

export interface CancellationRequest {
  /** The canceller's reference: a repeat with it returns the first answer. */
  reference: string;
  reason: CancellationReason;
  /** The first day without cover (WAT); today when absent. */
  effectiveDate?: string;
  note?: string;
}

/** Who cancels: a partner (its own policies, with a key of the policy's mode) or the operator's administrator (any policy). */
export type Canceller = { kind: "partner"; partnerId: string; mode: Mode; actor: AuditActor } | { kind: "operator"; actor: AuditActor; by: string };

/** Which policy: by its address on the JSON surface, or by id from the portal. */
export type PolicyLocator = { address: PolicyAddress } | { policyId: string };

export interface CancellationOutcome {
  policy: PolicyRecord;
  cancellation: CancellationRecord;
  /** True when this was a repeat of an earlier request: nothing changed now. */
  repeated: boolean;
}

/** What cancelling from a date would give back (the refund quote, and the figures a cancellation stores). */
export interface CancellationTerms {
  effectiveDate: string;
  effectiveAt: Date;
  refund: Refund;
}

const DAY_MS = 86_400_000;
const PENDING_CLAIMS = new Set(["submitted", "in_review"]);
const CLAIMS_THAT_COUNT = (status: string) => status !== "withdrawn";

export function whereOf(canceller: Canceller, locator: PolicyLocator): { where: SQL; notFound: () => CommandError } {
  if ("address" in locator) {
    const conditions = addressConditions(locator.address);
    if (canceller.kind === "partner") conditions.push(eq(policies.partnerId, canceller.partnerId));
    return { where: and(...conditions)!, notFound: () => notFoundAt(locator.address) };
  }
  const conditions = [eq(policies.id, locator.policyId)];
  if (canceller.kind === "partner") conditions.push(eq(policies.partnerId, canceller.partnerId));
  return { where: and(...conditions)!, notFound: () => new CommandError(404, "no such policy") };
}

/**
 * The terms of cancelling `policy` from `effectiveDate` (today when absent), refusing what the
 * rules refuse: a policy that is not active, a claim still being decided, a date in the past or
 * after the cover, a date before the incident of a claim. Changes nothing.
 */
async function assess(db: Executor, policy: PolicyRecord, effectiveDate: string | undefined, now: Date): Promise<CancellationTerms> {
  if (policy.status === "c") throw new CommandError(409, `policy ${policy.reference} is already cancelled (${policy.statusNote})`);
  if (policy.status !== "a")
    throw new CommandError(409, `policy ${policy.reference} ${POLICY_STATUS_WORDS[policy.status]}: only an approved policy can be cancelled`);
  const policyClaims = await db
    .select({ claimNo: claims.claimNo, status: claims.status, incidentDate: claims.incidentDate })
    .from(claims)
    .where(eq(claims.policyId, policy.id))
    .orderBy(asc(claims.incidentDate));
  const [change] = await db
    .select({ reference: policyEndorsements.reference })
    .from(policyEndorsements)
    .where(and(eq(policyEndorsements.policyId, policy.id), eq(policyEndorsements.status, "pending")));
  if (change)
    throw new CommandError(
      409,
      `policy ${policy.reference} has a change (${change.reference}) waiting for an administrator: it can be cancelled once the change is decided`,
    );
  const pending = policyClaims.find((c) => PENDING_CLAIMS.has(c.status));
  if (pending)
    throw new CommandError(
      409,
      `policy ${policy.reference} has claim ${pending.claimNo} still being decided (${pending.status}): it can be cancelled once the claim is decided or withdrawn`,
    );
  const today = watToday(now);
  const date = effectiveDate ?? today;
  const lastDay = lastCoverDay(policy.coverEnd);
  if (date < today)
    throw new CommandError(
      400,
      `seed.effectiveDate must be today (${today}) or later: a cancellation never reaches back; received ${date}`,
      "seed.effectiveDate",
    );
  if (date > lastDay)
    throw new CommandError(
      400,
      `seed.effectiveDate must be within the cover of policy ${policy.reference}, which ends on ${lastDay}; received ${date}`,
      "seed.effectiveDate",
    );
  const counted = policyClaims.filter((c) => CLAIMS_THAT_COUNT(c.status));
  const lastIncident = counted.filter((c) => c.status !== "rejected").at(-1);
  if (lastIncident && date !== today && date <= lastIncident.incidentDate)
    throw new CommandError(
      400,
      `seed.effectiveDate must be after ${lastIncident.incidentDate}, the incident of claim ${lastIncident.claimNo}; received ${date}`,
      "seed.effectiveDate",
    );
  // Effective today: the cover stops now. Later: at the midnight (WAT) that starts the day.
  const effectiveAt = date === today ? now : watMidnight(date);
  const refund = cancellationRefund(findProduct(policy.productCode).family.cancellation, {
    premiumKobo: policy.premiumKobo,
    issuedAt: policy.createdAt,
    coverStart: policy.coverStart,
    coverEnd: policy.coverEnd,
    requestedAt: now,
    effectiveAt,
    claimsMade: counted.length,
    claimPaid: counted.some((c) => c.status === "approved" || c.status === "paid"),
  });
  return { effectiveDate: date, effectiveAt, refund };
}

/** The refund quote: what cancelling from `effectiveDate` would give back now. Changes nothing. */
export async function quoteCancellation(
  db: Database,
  canceller: Canceller,
  locator: PolicyLocator,
  effectiveDate: string | undefined,
  now: Date,
): Promise<{ policy: PolicyRecord; terms: CancellationTerms }> {
  const { where, notFound } = whereOf(canceller, locator);
  const [policy] = await db.select().from(policies).where(where);
  if (!policy) throw notFound();
  if (canceller.kind === "partner") requirePolicyMode(policy, canceller.mode, CANCELLED_IN_ITS_MODE);
  return { policy, terms: await assess(db, policy, effectiveDate, now) };
}

const CANCELLED_IN_ITS_MODE = "it is cancelled";

/** The words a cancelled policy's statusNote keeps. */
const cancellationNote = (date: string, reason: CancellationReason, note?: string | null) =>
  `Cancelled from ${date}: ${CANCELLATION_REASON_TEXT[reason].text.toLowerCase()}${note ? ` (${note})` : ""}`;

function checkReason(canceller: Canceller, request: CancellationRequest, noteField: string): void {
  if (CANCELLATION_REASON_TEXT[request.reason].operatorOnly && canceller.kind === "partner")
    throw new CommandError(403, `seed.reason ${request.reason} is the insurer's finding: only the operator cancels for it`, "seed.reason");
  if (request.reason === "other" && !request.note?.trim())
    throw new CommandError(400, `${noteField} is required with reason "other": say why in ${noteField}`, noteField);
}

/** The cancellation stored under the request's reference, as the outcome of a repeat; a different request under it is a conflict. */
const earlierCancellation =
  (request: CancellationRequest): EarlierChange<CancellationOutcome> =>
  async (db, partnerId, policyWhere) => {
    const prior = await priorChange(db, policyCancellations, partnerId, request.reference, policyWhere);
    if (!prior) return null;
    const { change: cancellation, policy } = prior;
    const differences = [
      !prior.samePolicy && "policy",
      cancellation.reason !== request.reason && "reason",
      request.effectiveDate !== undefined && cancellation.effectiveDate !== request.effectiveDate && "effectiveDate",
      (cancellation.note ?? undefined) !== (request.note ?? undefined) && "note",
    ].filter((d): d is string => !!d);
    if (differences.length)
      throw new CommandError(
        409,
        `seed.id ${request.reference} was already used to cancel policy ${policy.reference}, with another ${differences.join(", ")}: a repeat must send the same cancellation`,
        "seed.id",
      );
    return { policy, cancellation, repeated: true };
  };

/** The cancellation stored under the request's reference (a repeat, or a request whose answer was lost); null when there is none. */
export const storedCancellation = (db: Executor, canceller: Canceller, locator: PolicyLocator, request: CancellationRequest) =>
  storedChange(db, canceller, locator, earlierCancellation(request));

/**
 * Cancel an approved policy from a date (`cncl`, the portal, the operator's desk): the policy
 * becomes `c`, the family's refund goes back to the partner's wallet (live policies: test ones
 * move no money), a financing plan is closed and settled, a vehicle's registry record is
 * published again with the shortened cover, with the `policy.cancelled` event and an audit row.
 */
export async function cancelPolicy(
  db: Database,
  canceller: Canceller,
  locator: PolicyLocator,
  request: CancellationRequest,
  now: Date,
  noteField = "seed.note",
): Promise<CancellationOutcome> {
  checkReason(canceller, request, noteField);
  const rule = {
    inItsMode: CANCELLED_IN_ITS_MODE,
    earlier: earlierCancellation(request),
    indexes: { reference: "policy_cancellations_reference_idx", policy: "policy_cancellations_policy_idx", taken: "the policy is already cancelled" },
  };
  return changeOnce(db, canceller, locator, rule, async (tx, policy) => {
    const { effectiveDate, effectiveAt, refund } = await assess(tx, policy, request.effectiveDate, now);
    const by = canceller.kind === "partner" ? "partner" : canceller.by;
    const [cancellation] = await tx
      .insert(policyCancellations)
      .values({
        id: newId(),
        partnerId: policy.partnerId,
        policyId: policy.id,
        reference: request.reference,
        reason: request.reason,
        note: request.note ?? null,
        effectiveDate,
        effectiveAt,
        refundKobo: refund.refundKobo,
        feeKobo: refund.feeKobo,
        basis: refund.basis,
        explanation: refund.explanation,
        by,
        createdAt: now,
      })
      .returning();
    const [cancelled] = await tx
      .update(policies)
      .set({
        status: "c",
        statusNote: cancellationNote(effectiveDate, request.reason, request.note),
        statusAt: now,
        cancelledFrom: effectiveAt,
        // A vehicle's registry record is published again, ending where the cover now ends.
        registryPublishedAt: null,
      })
      .where(eq(policies.id, policy.id))
      .returning();
    if (policy.mode === "live" && refund.refundKobo > 0) {
      await refundPremium(tx, policy.partnerId, policy.id, refund.refundKobo, now);
      await reverseOnRefund(tx, policy, refund.refundKobo, policy.premiumKobo, now);
    }
    // What the cover cost in the end: the premium less the refund (the fee included).
    await cancelPlanOfPolicy(tx, policy.id, policy.premiumKobo - refund.refundKobo, cancelled!.statusNote!, now);
    const event = statusEvent(cancelled!);
    await recordEvent(tx, { ...event, payload: { ...event.payload, cancellation: wireCancellation(cancellation!) } }, now);
    await recordAudit(
      tx,
      canceller.actor,
      {
        action: "policy.cancel",
        subject: policy.reference,
        partnerId: policy.partnerId,
        details: { effectiveDate, reason: request.reason, refundKobo: refund.refundKobo, feeKobo: refund.feeKobo },
      },
      now,
    );
    return { policy: cancelled!, cancellation: cancellation!, repeated: false };
  });
}

/**
 * Looks up the change stored under a request's reference among the references of `partnerId`: the
 * outcome of a repeat, or null when there is none. `policyWhere` names the policy the request
 * addresses: the reference used on another policy (or with other terms) is a conflict (409).
 */
export type EarlierChange<T> = (db: Executor, partnerId: string, policyWhere: SQL) => Promise<T | null>;

/** The tables of changes stored under a partner's reference. */
type ChangeTable = typeof policyCancellations | typeof policyReinstatements | typeof policyEndorsements;

/** The change stored in `table` under the partner's reference, with its policy and whether that is the one `policyWhere` names. */
export async function priorChange<T extends ChangeTable>(
  db: Executor,
  table: T,
  partnerId: string,
  reference: string,
  policyWhere: SQL,
): Promise<{ change: T["$inferSelect"]; policy: PolicyRecord; samePolicy: boolean } | null> {
  const changes = table as ChangeTable;
  const [prior] = await db
    .select({ change: changes, policy: policies, samePolicy: sql<boolean>`coalesce(${policyWhere}, false)` })
    .from(changes)
    .innerJoin(policies, eq(policies.id, changes.policyId))
    .where(and(eq(changes.partnerId, partnerId), eq(changes.reference, reference)));
  return prior ?? null;
}

/**
 * The change stored under a request's reference, read without a lock (a lost answer's recovery;
 * a twin on another policy that the reference's index refused): among the partner's references, or
 * for the operator those of the addressed policy's partner, where the portal's forms keep theirs.
 */
export async function storedChange<T>(db: Executor, canceller: Canceller, locator: PolicyLocator, earlier: EarlierChange<T>): Promise<T | null> {
  const { where } = whereOf(canceller, locator);
  const [policy] = canceller.kind === "partner" ? [canceller] : await db.select({ partnerId: policies.partnerId }).from(policies).where(where);
  return policy ? earlier(db, policy.partnerId, where) : null;
}

/**
 * A change of one policy made once per reference (docs/reliability.md, "Concurrent repeats"): one
 * transaction locks the policy first and only then looks for the change stored under the request's
 * reference, so a concurrent repeat waits for the first and answers with what it stored, before any
 * rule sees the policy as changed. The reference's unique index catches twins on two policies (the
 * loser reads the winner: a conflict); the policy's (`taken`) another change of it at that moment.
 */
export async function changeOnce<T>(
  db: Database,
  canceller: Canceller,
  locator: PolicyLocator,
  rule: { inItsMode: string; earlier: EarlierChange<T>; indexes?: { reference: string; policy: string; taken: string } },
  change: (tx: Executor, policy: PolicyRecord) => Promise<T>,
): Promise<T> {
  const { where, notFound } = whereOf(canceller, locator);
  try {
    return await db.transaction(async (tx) => {
      const [policy] = await tx.select().from(policies).where(where).for("update");
      if (!policy) throw notFound();
      if (canceller.kind === "partner") requirePolicyMode(policy, canceller.mode, rule.inItsMode);
      return (await rule.earlier(tx, policy.partnerId, where)) ?? (await change(tx, policy));
    });
  } catch (error) {
    const { indexes } = rule;
    if (indexes && isUniqueViolation(error, indexes.reference)) {
      const first = await storedChange(db, canceller, locator, rule.earlier);
      if (first) return first;
    }
    if (indexes && isUniqueViolation(error, indexes.policy)) throw new CommandError(409, indexes.taken);
    throw error;
  }
}

/** A cancellation as answers and events show it. */
export const wireCancellation = (c: CancellationRecord) => ({
  id: c.reference,
  reason: c.reason,
  ...(c.note ? { note: c.note } : {}),
  effectiveDate: c.effectiveDate,
  refund: naira(c.refundKobo),
  fee: naira(c.feeKobo),
  refundBasis: c.basis,
  refundExplanation: c.explanation,
});

export type ReinstatementRecord = typeof policyReinstatements.$inferSelect;

export interface ReinstatementOutcome {
  policy: PolicyRecord;
  reinstatement: ReinstatementRecord;
  repeated: boolean;
}

/** How long after a cancellation took effect the policy may be put back in force. */
const REINSTATEMENT_WINDOW_DAYS = 30;

/** What reinstating a policy undoes: its cancellation, or the lapse of its financing plan (whose missed installments are paid). */
type Reinstated = { cancellation: CancellationRecord; plan?: never } | { cancellation?: never; plan: LapsedPlan };
type LapsedPlan = NonNullable<Awaited<ReturnType<typeof lapsedPlanOfPolicy>>>;

export type ReinstatementTerms = Reinstated & { owedKobo: number; gap: { from: Date; to: Date } | null };

/** Why a lapsed or cancelled policy can no longer be reinstated, or null: the window, and cover left to give. */
function windowRefusal(policy: PolicyRecord, what: string, since: Date, now: Date): CommandError | null {
  const closes = new Date(since.getTime() + REINSTATEMENT_WINDOW_DAYS * DAY_MS);
  if (now > closes)
    return new CommandError(409, `policy ${policy.reference} ${what}: it could be reinstated for ${REINSTATEMENT_WINDOW_DAYS} days, until ${watToday(closes)}`);
  if (now >= policy.coverEnd)
    return new CommandError(409, `policy ${policy.reference}'s cover would have ended on ${lastCoverDay(policy.coverEnd)}: nothing is left to reinstate`);
  return null;
}

/**
 * What reinstating `policy` would cost and leave, or why it cannot be: for the portal's
 * confirmation and the command alike. A cancelled policy pays back the refund it received (live);
 * a lapsed one pays the installments it missed, recorded on its plan. Either way the time without
 * cover stays a gap.
 */
export async function assessReinstatement(db: Executor, policy: PolicyRecord, now: Date): Promise<ReinstatementTerms> {
  if (policy.status === "l") {
    const lapsed = policy.policyNo ? await lapsedPlanOfPolicy(db, policy.id, watToday(now)) : null;
    if (!lapsed) throw new CommandError(409, `policy ${policy.reference} lapsed before it was approved: issue a new policy instead`);
    const refusal = windowRefusal(policy, `lapsed on ${watToday(policy.statusAt)}`, policy.statusAt, now);
    if (refusal) throw refusal;
    return { plan: lapsed, owedKobo: lapsed.owedKobo, gap: { from: policy.statusAt, to: now } };
  }
  const cancellation = policy.status === "c" ? await cancellationOf(db, policy.id) : null;
  if (!cancellation) throw new CommandError(409, `policy ${policy.reference} is not cancelled or lapsed: only a cancelled or lapsed policy can be reinstated`);
  const refusal = windowRefusal(policy, `was cancelled from ${cancellation.effectiveDate}`, cancellation.effectiveAt, now);
  if (refusal) throw refusal;
  return {
    cancellation,
    // What came back goes back (a test policy moves no money): none of what a claim approved since has taken back.
    owedKobo: policy.mode === "live" ? cancellation.refundKobo - cancellation.refundTakenBackKobo : 0,
    gap: now > cancellation.effectiveAt ? { from: cancellation.effectiveAt, to: now } : null,
  };
}

/** Whether a policy's page offers "Reinstate": cancelled or lapsed, within the window. */
export const reinstatable = (db: Executor, policy: PolicyRecord, now: Date): Promise<boolean> =>
  policy.status === "c" || policy.status === "l"
    ? assessReinstatement(db, policy, now).then(
        () => true,
        (error) => {
          if (!(error instanceof CommandError)) throw error;
          return false;
        },
      )
    : Promise.resolve(false);

/** The reinstatement stored under the reference, as the outcome of a repeat; another policy under it is a conflict. */
const earlierReinstatement =
  (reference: string): EarlierChange<ReinstatementOutcome> =>
  async (db, partnerId, policyWhere) => {
    const prior = await priorChange(db, policyReinstatements, partnerId, reference, policyWhere);
    if (!prior) return null;
    if (!prior.samePolicy)
      throw new CommandError(
        409,
        `seed.id ${reference} was already used to reinstate policy ${prior.policy.reference}: a repeat must name the same policy`,
        "seed.id",
      );
    return { policy: prior.policy, reinstatement: prior.change, repeated: true };
  };

/** The reinstatement stored under the reference (a repeat, or an answer lost); null when there is none. */
export const storedReinstatement = (db: Executor, canceller: Canceller, locator: PolicyLocator, reference: string) =>
  storedChange(db, canceller, locator, earlierReinstatement(reference));

/**
 * Put a cancelled policy back in force within the window (`rinst`, the portal, the operator): the
 * refund the cancellation gave is paid back from the wallet (live policies), the cover runs to its
 * original end, and the time it was cancelled stays a gap in cover (claims for incidents in it
 * are refused). One transaction with its ledger line, `policy.reinstated` and an audit row.
 */
export async function reinstatePolicy(db: Database, canceller: Canceller, locator: PolicyLocator, reference: string, now: Date): Promise<ReinstatementOutcome> {
  const rule = {
    inItsMode: "it is reinstated",
    earlier: earlierReinstatement(reference),
    indexes: { reference: "policy_reinstatements_reference_idx", policy: "policy_reinstatements_cancellation_idx", taken: "the policy is already reinstated" },
  };
  return changeOnce(db, canceller, locator, rule, async (tx, policy) => {
    const { cancellation, plan, owedKobo, gap } = await assessReinstatement(tx, policy, now);
    if (plan) await reopenLapsedPlan(tx, plan, policy, `RINST-${reference}`, now);
    else if (owedKobo > 0) {
      // Paying the refund back earns back the commission it took, at the policy's rate.
      await payPremiumFor(tx, { partnerId: policy.partnerId, policyId: policy.id, premiumKobo: owedKobo, now }, []);
      await earnOnExtraPremium(tx, policy, owedKobo, now);
    }
    const [reinstatement] = await tx
      .insert(policyReinstatements)
      .values({
        id: newId(),
        partnerId: policy.partnerId,
        policyId: policy.id,
        cancellationId: cancellation?.id ?? null,
        planId: plan?.plan.id ?? null,
        reference,
        owedKobo,
        gapFrom: gap?.from ?? null,
        gapTo: gap?.to ?? null,
        by: canceller.kind === "partner" ? "partner" : canceller.by,
        createdAt: now,
      })
      .returning();
    if (cancellation) await tx.update(policyCancellations).set({ reinstatedAt: now }).where(eq(policyCancellations.id, cancellation.id));
    const [reinstated] = await tx
      .update(policies)
      .set({
        status: "a",
        statusNote: gap
          ? `Reinstated on ${watToday(now)}${plan ? ", the missed installments paid" : ""}: no cover from ${watToday(gap.from)} to ${watToday(gap.to)}`
          : `Reinstated on ${watToday(now)}, before the cancellation took effect`,
        statusAt: now,
        cancelledFrom: null,
        coverGaps: gap ? [...policy.coverGaps, { from: gap.from.toISOString(), to: gap.to.toISOString() }] : policy.coverGaps,
        // The registry's record runs to the original end again.
        registryPublishedAt: null,
      })
      .where(eq(policies.id, policy.id))
      .returning();
    const event = statusEvent(reinstated!);
    await recordEvent(tx, { ...event, type: "policy.reinstated", payload: { ...event.payload, reinstatement: wireReinstatement(reinstatement!) } }, now);
    await recordAudit(
      tx,
      canceller.actor,
      {
        action: "policy.reinstate",
        subject: policy.reference,
        partnerId: policy.partnerId,
        details: { owedKobo, gapFrom: gap?.from ?? null, gapTo: gap?.to ?? null },
      },
      now,
    );
    return { policy: reinstated!, reinstatement: reinstatement!, repeated: false };
  });
}

/** A reinstatement as answers and events show it. */
export const wireReinstatement = (r: ReinstatementRecord) => ({
  id: r.reference,
  paid: naira(r.owedKobo),
  ...(r.gapFrom && r.gapTo ? { gap: { from: watTimestamp(r.gapFrom), to: watTimestamp(r.gapTo) } } : {}),
});

/** Days before the end of cover when a renewable policy's partner is reminded (`policy.expiring`). */
const REMINDER_DAYS = [30, 7, 1] as const;

/**
 * The reminder run: each approved renewable policy whose cover ends within 30, 7 or 1 days gets
 * one `policy.expiring` event for the nearest of those it has reached and was not yet reminded of
 * (a policy issued 5 days before its end gets the 7-day one only). Batches with SKIP LOCKED.
 */
export async function remindExpiringPolicies(db: Database, now: Date, batch = 200): Promise<number> {
  const [widest, middle, last] = REMINDER_DAYS.map((days) => new Date(now.getTime() + days * DAY_MS));
  // The reminder each policy is due, by how near its end is.
  // Instants as text with a cast: a Date inside a raw fragment has no column to take its type from (postgres.js would not bind it).
  const due = sql<number>`case when ${policies.coverEnd} <= ${last!.toISOString()}::timestamptz then 1 when ${policies.coverEnd} <= ${middle!.toISOString()}::timestamptz then 7 else 30 end`;
  let reminded = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      const rows = await tx
        .select({ policy: policies, due })
        .from(policies)
        .where(
          and(
            eq(policies.status, "a"),
            gt(policies.coverEnd, now),
            lte(policies.coverEnd, widest!),
            inArray(policies.productCode, renewableProductCodes()),
            or(isNull(policies.remindedDays), sql`${policies.remindedDays} > ${due}`),
          ),
        )
        .orderBy(asc(policies.coverEnd))
        .limit(batch)
        .for("update", { of: policies, skipLocked: true });
      for (const { policy, due: days } of rows) {
        await tx
          .update(policies)
          .set({ remindedDays: Number(days) })
          .where(eq(policies.id, policy.id));
        const event = statusEvent(policy);
        await recordEvent(
          tx,
          {
            ...event,
            type: "policy.expiring",
            payload: { ...event.payload, daysLeft: Number(days), lastDay: lastCoverDay(policy.coverEnd) },
          },
          now,
        );
      }
      return rows.length;
    });
    reminded += count;
    if (count < batch) return reminded;
  }
}

/**
 * The expiry run: approved policies whose cover has ended become `e`, each with its
 * `policy.expired` event, recorded at the moment the cover ended. Claimed with SKIP LOCKED in
 * batches, so several instances share the work and a claim being written waits for nothing.
 */
export async function expireEndedPolicies(db: Database, now: Date, batch = 200): Promise<number> {
  let expired = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(policies)
        .where(and(eq(policies.status, "a"), lte(policies.coverEnd, now)))
        .orderBy(asc(policies.coverEnd))
        .limit(batch)
        .for("update", { skipLocked: true });
      for (const policy of due) {
        const [ended] = await tx.update(policies).set({ status: "e", statusAt: policy.coverEnd }).where(eq(policies.id, policy.id)).returning();
        await recordEvent(tx, statusEvent(ended!), now);
      }
      return due.length;
    });
    expired += count;
    if (count < batch) return expired;
  }
}

/** How long before the end of cover a policy may be renewed. */
const RENEWAL_WINDOW_DAYS = 60;

/** Why `policy` cannot be renewed now, or null. */
function renewalRefusal(policy: PolicyRecord, now: Date): CommandError | null {
  if (!renewableProductCodes().includes(policy.productCode))
    return new CommandError(409, `policy ${policy.reference} covers one trip or loan: it is not renewed; issue a new policy instead`);
  if (policy.status !== "a")
    return new CommandError(409, `policy ${policy.reference} ${POLICY_STATUS_WORDS[policy.status]}: only an approved policy is renewed`);
  const opens = new Date(policy.coverEnd.getTime() - RENEWAL_WINDOW_DAYS * DAY_MS);
  if (now < opens)
    return new CommandError(
      409,
      `policy ${policy.reference} can be renewed from ${watToday(opens)}, ${RENEWAL_WINDOW_DAYS} days before its cover ends on ${lastCoverDay(policy.coverEnd)}`,
    );
  return null;
}

export interface RenewalOutcome {
  renewed: PolicyRecord;
  renewal: PolicyRecord;
  repeated: boolean;
}

/** The renewal stored under `reference`, when it renews the addressed policy (a repeat); another policy under it is a conflict. */
const earlierRenewal =
  (reference: string): EarlierChange<RenewalOutcome> =>
  async (db, partnerId, policyWhere) => {
    const renewal = await findPolicyByReference(db, partnerId, reference);
    if (!renewal) return null;
    const [renewed] = renewal.renewsPolicyId
      ? await db
          .select()
          .from(policies)
          .where(and(policyWhere, eq(policies.id, renewal.renewsPolicyId)))
      : [];
    if (!renewed) throw new CommandError(409, `seed.id is already in use: ${reference} identifies an earlier policy of this partner`, "seed.id");
    return { renewed, renewal, repeated: true };
  };

/** The renewal stored under `reference` (a repeat, or a lost answer); null when there is none. */
export const storedRenewal = (db: Executor, canceller: Canceller, locator: PolicyLocator, reference: string) =>
  storedChange(db, canceller, locator, earlierRenewal(reference));

/** What renewing would issue now (premium, cover, decision route), or why it cannot be; nothing is stored. */
export async function quoteRenewal(db: Database, canceller: Canceller, locator: PolicyLocator, now: Date, insurerDelayMs: number) {
  const { where, notFound } = whereOf(canceller, locator);
  const [policy] = await db.select().from(policies).where(where);
  if (!policy) throw notFound();
  if (canceller.kind === "partner") requirePolicyMode(policy, canceller.mode, "it is renewed");
  const refusal = renewalRefusal(policy, now);
  if (refusal) throw refusal;
  const issuer = { partnerId: policy.partnerId, mode: policy.mode, now, insurerDelayMs };
  return { policy, renewal: await renewalOf(db, issuer, policy, newId()) };
}

/**
 * Renew an approved policy nearing its end (`rnew`, the portal): a new policy under the partner's
 * reference, linked to the one it renews, its cover continuing from the day after, priced by
 * today's rules and decided and paid as any new policy (issueRenewal), with `policy.renewed` on
 * the renewed one. The renewed policy is locked first: a cancellation or a second renewal at the
 * same moment waits and then sees this one.
 */
export async function renewPolicy(
  db: Database,
  canceller: Canceller,
  locator: PolicyLocator,
  reference: string,
  now: Date,
  insurerDelayMs: number,
): Promise<RenewalOutcome> {
  return changeOnce(db, canceller, locator, { inItsMode: "it is renewed", earlier: earlierRenewal(reference) }, async (tx, policy) => {
    const refusal = renewalRefusal(policy, now);
    if (refusal) throw refusal;
    const renewal = await issueRenewal(tx, { partnerId: policy.partnerId, mode: policy.mode, now, insurerDelayMs, actor: canceller.actor }, policy, reference);
    const event = statusEvent(policy);
    await recordEvent(
      tx,
      {
        ...event,
        type: "policy.renewed",
        payload: {
          ...event.payload,
          renewal: { id: renewal.reference, status: renewal.status, coverStart: watTimestamp(renewal.coverStart), premium: naira(renewal.premiumKobo) },
        },
      },
      now,
    );
    return { renewed: policy, renewal, repeated: false };
  });
}

/** The policies a policy's page links to: the renewal continuing it (not a declined one) and the one it renews. */
export async function renewalLinks(db: Executor, policy: PolicyRecord): Promise<{ renewal?: PolicyRecord; renews?: PolicyRecord }> {
  const [renewal] = await db
    .select()
    .from(policies)
    .where(and(eq(policies.renewsPolicyId, policy.id), sql`${policies.status} <> 'd'`));
  const [renews] = policy.renewsPolicyId ? await db.select().from(policies).where(eq(policies.id, policy.renewsPolicyId)) : [];
  return { renewal, renews };
}

/** Whether a policy's page offers "Renew": in force, of a renewable product, in its last 60 days. */
export const renewable = (policy: PolicyRecord, now: Date) => renewalRefusal(policy, now) === null;

/** How long before the end of cover an opted-in policy is renewed automatically (time to top up if it cannot be). */
const AUTO_RENEW_DAYS = 7;

/** Opt a policy in to (or out of) automatic renewal: only approved policies whose cover runs with time. */
export async function setAutoRenew(db: Database, canceller: Canceller, locator: PolicyLocator, enabled: boolean, now: Date): Promise<PolicyRecord> {
  const { where, notFound } = whereOf(canceller, locator);
  return db.transaction(async (tx) => {
    const [policy] = await tx.select().from(policies).where(where).for("update");
    if (!policy) throw notFound();
    if (canceller.kind === "partner") requirePolicyMode(policy, canceller.mode, "its renewal is set");
    if (enabled && !renewableProductCodes().includes(policy.productCode))
      throw new CommandError(409, `policy ${policy.reference} covers one trip or loan: it is not renewed; issue a new policy instead`);
    if (enabled && policy.status !== "a")
      throw new CommandError(409, `policy ${policy.reference} ${POLICY_STATUS_WORDS[policy.status]}: only an approved policy is renewed`);
    const [updated] = await tx.update(policies).set({ autoRenew: enabled, autoRenewFailedAt: null }).where(eq(policies.id, policy.id)).returning();
    await recordAudit(tx, canceller.actor, { action: "policy.auto_renew", subject: policy.reference, partnerId: policy.partnerId, details: { enabled } }, now);
    return updated!;
  });
}

/** The automatic renewal's own reference for a policy: the same every time, so a retry finds what an earlier run stored. */
const autoRenewalReference = (policy: PolicyRecord) => `AUTO${policy.id.replaceAll("-", "").slice(0, 28)}`;

/**
 * The automatic renewal run: opted-in policies in their last week are renewed from the wallet
 * (renewPolicy, as the partner would). One that cannot be (the wallet is short, the consumer's
 * details no longer meet the product, the renewal was declined) gets `policy.renewal_failed` with
 * the reason, and is tried again a day later while its cover lasts.
 */
export async function renewOptedInPolicies(db: Database, now: Date, insurerDelayMs: number, batch = 50): Promise<{ renewed: number; failed: number }> {
  const due = await db
    .select()
    .from(policies)
    .where(
      and(
        eq(policies.autoRenew, true),
        eq(policies.status, "a"),
        gt(policies.coverEnd, now),
        lte(policies.coverEnd, new Date(now.getTime() + AUTO_RENEW_DAYS * DAY_MS)),
        or(isNull(policies.autoRenewFailedAt), lte(policies.autoRenewFailedAt, new Date(now.getTime() - DAY_MS))),
        // Renewed already (by hand or by an earlier run): nothing to do.
        sql`not exists (select 1 from policies r where r.renews_policy_id = ${policies.id} and r.status <> 'd')`,
      ),
    )
    .orderBy(asc(policies.coverEnd))
    .limit(batch);
  let renewed = 0;
  let failed = 0;
  for (const policy of due) {
    const canceller: Canceller = {
      kind: "partner",
      partnerId: policy.partnerId,
      mode: policy.mode,
      actor: { label: "automatic renewal", partnerId: policy.partnerId },
    };
    let reason: string | null = null;
    try {
      const outcome = await renewPolicy(db, canceller, { policyId: policy.id }, autoRenewalReference(policy), now, insurerDelayMs);
      if (outcome.renewal.status === "d") reason = `the renewal ${outcome.renewal.reference} was declined: ${outcome.renewal.statusNote}`;
      else if (!outcome.repeated) renewed += 1;
    } catch (error) {
      if (!(error instanceof CommandError)) throw error;
      reason = error.message;
    }
    if (reason === null) continue;
    failed += 1;
    await db.transaction(async (tx) => {
      await tx.update(policies).set({ autoRenewFailedAt: now }).where(eq(policies.id, policy.id));
      const event = statusEvent(policy);
      await recordEvent(tx, { ...event, type: "policy.renewal_failed", payload: { ...event.payload, reason } }, now);
    });
  }
  return { renewed, failed };
}
