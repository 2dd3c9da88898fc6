/**
 * Renewal (docs/lifecycle.md): a policy nearing its end continued by a new one under the partner's
 * reference, by hand or, for opted-in policies, by the automatic run in their last week. The
 * renewed policy is locked first (changeOnce), as for every change of it.
 */
import { and, asc, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { newId } from "../../core/ids";
import { toNaira as naira } from "../../core/money";
import { DAY_MS, lastCoverDay, watTimestamp } from "../../core/time";
import type { Database, Executor } from "../../db/client";
import { renewableProductCodes } from "../../products";
import { watToday } from "../../products/policy-helpers";
import { recordAudit } from "../audit";
import { recordEvent } from "../events";
import { issueRenewal, renewalOf } from "../issuance";
import type { PolicyRecord } from "../policies";
import { findPolicyByReference, POLICY_STATUS_WORDS, policies, requirePolicyMode, statusEvent } from "../policies";
import { type Canceller, changeOnce, type EarlierChange, type PolicyLocator, storedChange, whereOf } from "./changes";

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
