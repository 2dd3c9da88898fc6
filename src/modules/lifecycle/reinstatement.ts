/**
 * Reinstatement (docs/lifecycle.md): a cancelled or lapsed policy put back in force within the
 * window, what came back (or was missed) paid, the time without cover kept as a gap. One
 * transaction with its ledger line, its outbox event and its audit row, the policy locked first.
 */
import { eq } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { newId } from "../../core/ids";
import { toNaira as naira } from "../../core/money";
import { DAY_MS, lastCoverDay, watTimestamp } from "../../core/time";
import type { Database, Executor } from "../../db/client";
import { watToday } from "../../products/policy-helpers";
import { recordAudit } from "../audit";
import { earnOnExtraPremium } from "../commissions";
import { recordEvent } from "../events";
import { lapsedPlanOfPolicy, reopenLapsedPlan } from "../financing";
import type { PolicyRecord } from "../policies";
import { type CancellationRecord, cancellationOf, policies, policyCancellations, statusEvent } from "../policies";
import { payPremiumFor } from "../wallet";
import { type Canceller, changeOnce, type EarlierChange, type PolicyLocator, priorChange, storedChange } from "./changes";
import { policyReinstatements } from "./schema";

export type ReinstatementRecord = typeof policyReinstatements.$inferSelect;

export interface ReinstatementOutcome {
  policy: PolicyRecord;
  reinstatement: ReinstatementRecord;
  repeated: boolean;
}

/** How long after a cancellation took effect the policy may be put back in force. */
export const REINSTATEMENT_WINDOW_DAYS = 30;

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
