/**
 * Cancellation after issuance (docs/lifecycle.md): the refund quote, and the cancellation with its
 * refund, in one transaction with its ledger lines, its outbox event and its audit row; the policy
 * row is locked first (changeOnce), so a claim, a plan payment or a second cancellation waits for
 * it and then sees the outcome.
 */
import { and, asc, eq } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { newId } from "../../core/ids";
import { toNaira as naira } from "../../core/money";
import { lastCoverDay } from "../../core/time";
import type { Database, Executor } from "../../db/client";
import { findProduct } from "../../products";
import { CANCELLATION_REASON_TEXT, type CancellationReason, cancellationRefund, type Refund } from "../../products/cancellation";
import { watMidnight, watToday } from "../../products/policy-helpers";
import { recordAudit } from "../audit";
import { claims } from "../claims";
import { reverseOnRefund } from "../commissions";
import { recordEvent } from "../events";
import { cancelPlanOfPolicy } from "../financing";
import type { PolicyRecord } from "../policies";
import { type CancellationRecord, POLICY_STATUS_WORDS, policies, policyCancellations, policyEndorsements, requirePolicyMode, statusEvent } from "../policies";
import { refundPremium } from "../wallet";
import { type Canceller, changeOnce, type EarlierChange, type PolicyLocator, priorChange, storedChange, whereOf } from "./changes";

export interface CancellationRequest {
  /** The canceller's reference: a repeat with it returns the first answer. */
  reference: string;
  reason: CancellationReason;
  /** The first day without cover (WAT); today when absent. */
  effectiveDate?: string;
  note?: string;
}

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

const PENDING_CLAIMS = new Set(["submitted", "in_review", "info_requested"]);
const CLAIMS_THAT_COUNT = (status: string) => status !== "withdrawn";

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
