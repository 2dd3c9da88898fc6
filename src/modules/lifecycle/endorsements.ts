/**
 * Mid-term changes of a policy (endorsements; docs/lifecycle.md): the facts an insured may change
 * are the family's (`endorsement` in its folder), validated and priced by the family's own
 * `policy.terms` as at issuance, the difference charged or given back for the cover still to
 * run. An applied change makes a new certificate version; a live change the family has reviewed
 * waits for an administrator. Each step is one transaction with its ledger line, event and audit row.
 */
import { and, eq, ne } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { newId } from "../../core/ids";
import { toNaira as naira } from "../../core/money";
import type { Database, Executor } from "../../db/client";
import { findProduct, productName } from "../../products";
import { endorsementPremiumChange, type PremiumChange } from "../../products/endorsement";
import { watToday } from "../../products/policy-helpers";
import type { EndorsementRule, PolicyTerms } from "../../products/types";
import { type AuditActor, recordAudit } from "../audit";
import { discardCertificates } from "../certificates";
import { earnOnExtraPremium, reverseOnRefund } from "../commissions";
import { findConsumer } from "../consumers";
import { recordEvent } from "../events";
import { financingPlans } from "../financing";
import type { PolicyRecord } from "../policies";
import {
  type EndorsementRecord,
  type FactChange,
  POLICY_STATUS_WORDS,
  policies,
  policyContext,
  policyEndorsements,
  requirePolicyMode,
  resentFacts,
  statusEvent,
  wireEndorsement,
} from "../policies";
import { payPremiumFor, refundPremium } from "../wallet";
import { type Canceller, changeOnce, type EarlierChange, type PolicyLocator, priorChange, storedChange, whereOf } from "./changes";

/** A change asked for under the partner's reference: the facts as sent. */
export interface EndorsementRequest {
  reference: string;
  addtnlFact: unknown;
}

export interface EndorsementOutcome {
  policy: PolicyRecord;
  endorsement: EndorsementRecord;
  repeated: boolean;
}

/** What a change would do, worked out and checked; nothing stored. */
export interface EndorsementTerms {
  changes: FactChange[];
  terms: PolicyTerms;
  coverStart: Date;
  coverEnd: Date;
  premium: PremiumChange;
  /** A live change an administrator decides. */
  reviewed: boolean;
}

const FIELD = "seed.addtnlFact";

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The family's rule, or why the product takes no changes. */
function ruleOf(policy: PolicyRecord): EndorsementRule {
  const rule = findProduct(policy.productCode).family.endorsement;
  if (!rule)
    throw new CommandError(
      409,
      `policy ${policy.reference} (${productName(policy.productCode)}) takes no mid-term changes: cancel it and issue a new policy with the new details`,
    );
  return rule;
}

/** The fields a policy's product lets change (the portal's form offers these). */
export const endorsableFields = (policy: PolicyRecord): readonly string[] => {
  const product = findProduct(policy.productCode);
  return product.family.endorsement?.fields(product.type) ?? [];
};

/** Whether `policy` can be changed now (in force, within the time its product allows, no change waiting): its product's rule, or the refusal. */
export async function checkChangeable(db: Executor, policy: PolicyRecord, now: Date): Promise<EndorsementRule> {
  const rule = ruleOf(policy);
  if (policy.status !== "a")
    throw new CommandError(409, `policy ${policy.reference} ${POLICY_STATUS_WORDS[policy.status]}: only an approved policy is changed`);
  if (now >= policy.coverEnd) throw new CommandError(409, `policy ${policy.reference}'s cover has ended: it can no longer be changed`);
  if (rule.beforeCoverStarts && now >= policy.coverStart)
    throw new CommandError(409, `policy ${policy.reference}'s cover started on ${watToday(policy.coverStart)}: it can be changed only before then`);
  const [pending] = await db
    .select({ reference: policyEndorsements.reference })
    .from(policyEndorsements)
    .where(and(eq(policyEndorsements.policyId, policy.id), eq(policyEndorsements.status, "pending")));
  if (pending) throw new CommandError(409, `policy ${policy.reference} has a change waiting for an administrator (${pending.reference}): one change at a time`);
  return rule;
}

/**
 * Check and price a change of `policy` to the facts in `requested` at `now`, refusing what the rules
 * refuse (the policy not in force, a field the product does not let change, a value the product
 * refuses at issuance, a change the insurer would decline, a price change of a financed policy).
 */
async function assessEndorsement(db: Executor, policy: PolicyRecord, requested: unknown, now: Date): Promise<EndorsementTerms> {
  const rule = await checkChangeable(db, policy, now);
  const product = findProduct(policy.productCode);
  if (!isRecord(requested) || Object.keys(requested).length === 0)
    throw new CommandError(400, `${FIELD} must name the changes, e.g. { "${rule.fields(product.type)[0]}": … }`, FIELD);
  const allowed = rule.fields(product.type);
  const current = resentFacts(policy);
  for (const [field, value] of Object.entries(requested)) {
    if (!allowed.includes(field))
      throw new CommandError(
        400,
        `${FIELD}.${field} cannot be changed on ${productName(policy.productCode)}: what can be is ${allowed.join(", ")}`,
        `${FIELD}.${field}`,
      );
    if (same(current[field], value))
      throw new CommandError(400, `${FIELD}.${field} is already ${JSON.stringify(value)}: send only what changes`, `${FIELD}.${field}`);
  }

  const consumer = await findConsumer(db, policy.partnerId, policy.consumerId);
  // Rules that compare with the partner's quote (travel) compare with the policy's own terms.
  const context = policyContext(
    consumer!,
    { premiumKobo: policy.premiumKobo, duration: policy.duration ?? undefined, basis: policy.facts, createdAt: policy.createdAt },
    now,
  );
  const insrncDrtn = policy.duration ?? undefined;
  const terms = product.family.policy.terms(product.type, { insrncDrtn, addtnlFact: { ...current, ...requested } }, context);
  let currentKobo: number;
  try {
    currentKobo = product.family.policy.terms(product.type, { insrncDrtn, addtnlFact: current }, context).premiumKobo;
  } catch {
    // Terms the rules would no longer take today: priced at what the policy cost.
    currentKobo = policy.premiumKobo;
  }
  for (const field of product.family.policy.documentFacts ?? []) if (policy.facts[field] !== undefined) terms.facts[field] = policy.facts[field];

  // As at underwriting: a live device holds one live policy at a time (test mode checks no devices).
  const deviceMoved = policy.mode === "live" && terms.deviceId !== undefined && terms.deviceId !== policy.deviceId;
  const [otherCover] = deviceMoved
    ? await db
        .select({ id: policies.id })
        .from(policies)
        .where(and(eq(policies.deviceId, terms.deviceId!), eq(policies.mode, policy.mode), eq(policies.status, "a"), ne(policies.id, policy.id)))
        .limit(1)
    : [];
  const decline = product.family.policy.declineReason(product.type, terms, context, { deviceAlreadyInsured: !!otherCover });
  if (decline) throw new CommandError(409, `the insurer declines this change: ${decline}`);

  const movesCover = Object.keys(requested).some((field) => rule.coverFields?.includes(field));
  const premium = endorsementPremiumChange({
    currentKobo,
    changedKobo: terms.premiumKobo,
    paidKobo: policy.premiumKobo,
    coverStart: policy.coverStart,
    coverEnd: policy.coverEnd,
    at: now,
  });
  if (premium.changeKobo !== 0) {
    const [plan] = await db
      .select({ planNo: financingPlans.planNo })
      .from(financingPlans)
      .where(and(eq(financingPlans.policyId, policy.id), eq(financingPlans.status, "active")));
    if (plan)
      throw new CommandError(
        409,
        `policy ${policy.reference} is paid through financing plan ${plan.planNo}: a change of its premium waits until the plan is paid off (this change would cost ${naira(premium.changeKobo)} naira)`,
      );
  }
  const changed = Object.keys(requested);
  return {
    changes: changed.map((field) => ({ field, from: policy.facts[field] ?? null, to: terms.facts[field] ?? null })),
    terms,
    coverStart: movesCover ? terms.coverStart : policy.coverStart,
    coverEnd: movesCover ? terms.coverEnd : policy.coverEnd,
    premium,
    reviewed: policy.mode === "live" && (rule.reviewed ? rule.reviewed(product.type, changed) : policy.route === "manual"),
  };
}

/** What changing the policy would do now; changes nothing (`dump …*ENDORSE`, the portal's preview). */
export async function quoteEndorsement(db: Database, canceller: Canceller, locator: PolicyLocator, requested: unknown, now: Date) {
  const { where, notFound } = whereOf(canceller, locator);
  const [policy] = await db.select().from(policies).where(where);
  if (!policy) throw notFound();
  if (canceller.kind === "partner") requirePolicyMode(policy, canceller.mode, "it is changed");
  return { policy, assessment: await assessEndorsement(db, policy, requested, now) };
}

/** The change stored under the request's reference, as the outcome of a repeat; another request under it is a conflict. */
const earlierEndorsement =
  (request: EndorsementRequest): EarlierChange<EndorsementOutcome> =>
  async (db, partnerId, policyWhere) => {
    const prior = await priorChange(db, policyEndorsements, partnerId, request.reference, policyWhere);
    if (!prior) return null;
    if (!prior.samePolicy || !same(prior.change.requested, request.addtnlFact))
      throw new CommandError(
        409,
        `seed.id ${request.reference} was already used to change policy ${prior.policy.reference}${prior.samePolicy ? " with other changes" : ""}: a repeat must send the same change`,
        "seed.id",
      );
    return { policy: prior.policy, endorsement: prior.change, repeated: true };
  };

/** The change stored under the request's reference (a repeat, or a lost answer); null when there is none. */
export const storedEndorsement = (db: Executor, canceller: Canceller, locator: PolicyLocator, request: EndorsementRequest) =>
  storedChange(db, canceller, locator, earlierEndorsement(request));

/** Apply a change to its policy in the caller's transaction: the new terms and certificate version, a refund due, the event. */
async function applyEndorsement(tx: Executor, policy: PolicyRecord, endorsement: EndorsementRecord, now: Date, decidedBy: string | null) {
  const version = policy.version + 1;
  const [applied] = await tx
    .update(policyEndorsements)
    .set({ status: "applied", version, decidedAt: decidedBy ? now : null, decidedBy })
    .where(eq(policyEndorsements.id, endorsement.id))
    .returning();
  const [changed] = await tx
    .update(policies)
    .set({
      facts: endorsement.facts,
      printed: endorsement.printed,
      coverStart: endorsement.coverStart,
      coverEnd: endorsement.coverEnd,
      deviceId: endorsement.deviceId,
      premiumKobo: policy.premiumKobo + endorsement.premiumChangeKobo,
      version,
      versionAt: now,
      // The registry learns a new plate; the certificate is drawn again with the new version.
      registryPublishedAt: null,
    })
    .where(eq(policies.id, policy.id))
    .returning();
  await discardCertificates(tx, policy.id);
  if (policy.mode === "live" && endorsement.premiumChangeKobo < 0) {
    await refundPremium(tx, policy.partnerId, policy.id, -endorsement.premiumChangeKobo, now);
    await reverseOnRefund(tx, policy, -endorsement.premiumChangeKobo, policy.premiumKobo, now);
  }
  // An extra premium (charged when the change was asked for) earns once the change applies, at the policy's rate.
  await earnOnExtraPremium(tx, policy, endorsement.premiumChangeKobo, now);
  const event = statusEvent(changed!);
  await recordEvent(tx, { ...event, type: "policy.endorsed", payload: { ...event.payload, version, endorsement: wireEndorsement(applied!) } }, now);
  return { policy: changed!, endorsement: applied! };
}

/**
 * Change a policy's facts mid-term (`ndrs`, the portal): checked and priced (assessEndorsement),
 * the extra premium debited (live), then applied at once — a new certificate version,
 * `policy.endorsed` — or, where the family has live changes reviewed, left pending for an
 * administrator (decideEndorsement). The policy row is locked first.
 */
export async function endorsePolicy(
  db: Database,
  canceller: Canceller,
  locator: PolicyLocator,
  request: EndorsementRequest,
  now: Date,
): Promise<EndorsementOutcome> {
  const rule = {
    inItsMode: "it is changed",
    earlier: earlierEndorsement(request),
    indexes: {
      reference: "policy_endorsements_reference_idx",
      policy: "policy_endorsements_pending_idx",
      taken: "the policy has a change waiting for an administrator",
    },
  };
  return changeOnce(db, canceller, locator, rule, async (tx, policy) => {
    const assessment = await assessEndorsement(tx, policy, request.addtnlFact, now);
    const { terms, premium } = assessment;
    if (policy.mode === "live" && premium.changeKobo > 0)
      await payPremiumFor(tx, { partnerId: policy.partnerId, policyId: policy.id, premiumKobo: premium.changeKobo, now }, []);
    const [endorsement] = await tx
      .insert(policyEndorsements)
      .values({
        id: newId(),
        partnerId: policy.partnerId,
        policyId: policy.id,
        reference: request.reference,
        status: "pending",
        requested: request.addtnlFact as Record<string, unknown>,
        changes: assessment.changes,
        facts: terms.facts,
        printed: terms.printed.map(([label, value]) => [label, value]),
        coverStart: assessment.coverStart,
        coverEnd: assessment.coverEnd,
        deviceId: terms.deviceId ?? null,
        premiumChangeKobo: premium.changeKobo,
        explanation: premium.explanation,
        by: canceller.kind === "partner" ? "partner" : canceller.by,
        createdAt: now,
      })
      .returning();
    await tx.update(policies).set({ endorsed: true }).where(eq(policies.id, policy.id));
    const outcome = assessment.reviewed ? { policy, endorsement: endorsement! } : await applyEndorsement(tx, policy, endorsement!, now, null);
    await recordAudit(
      tx,
      canceller.actor,
      {
        action: "policy.endorse",
        subject: policy.reference,
        partnerId: policy.partnerId,
        details: {
          reference: request.reference,
          status: outcome.endorsement.status,
          fields: assessment.changes.map((c) => c.field),
          premiumChangeKobo: premium.changeKobo,
        },
      },
      now,
    );
    return { ...outcome, repeated: false };
  });
}

/**
 * The administrator's decision on a change waiting for review: approved, it is applied; declined
 * (with a reason), its charge goes back to the wallet and `policy.endorsement_declined` says why.
 */
export async function decideEndorsement(
  db: Database,
  decider: { actor: AuditActor; by: string },
  policyId: string,
  decision: { approve: true } | { approve: false; note: string },
  now: Date,
): Promise<EndorsementOutcome> {
  return db.transaction(async (tx) => {
    const [policy] = await tx.select().from(policies).where(eq(policies.id, policyId)).for("update");
    if (!policy) throw new CommandError(404, "no such policy");
    const [pending] = await tx
      .select()
      .from(policyEndorsements)
      .where(and(eq(policyEndorsements.policyId, policy.id), eq(policyEndorsements.status, "pending")));
    if (!pending) throw new CommandError(409, `policy ${policy.reference} has no change waiting for a decision`);
    let outcome: { policy: PolicyRecord; endorsement: EndorsementRecord };
    if (decision.approve) {
      if (policy.status !== "a") throw new CommandError(409, `policy ${policy.reference} is no longer in force: decline the change instead`);
      outcome = await applyEndorsement(tx, policy, pending, now, decider.by);
    } else {
      const [declined] = await tx
        .update(policyEndorsements)
        .set({ status: "declined", statusNote: decision.note, decidedAt: now, decidedBy: decider.by })
        .where(eq(policyEndorsements.id, pending.id))
        .returning();
      if (policy.mode === "live" && pending.premiumChangeKobo > 0) await refundPremium(tx, policy.partnerId, policy.id, pending.premiumChangeKobo, now);
      const event = statusEvent(policy);
      await recordEvent(tx, { ...event, type: "policy.endorsement_declined", payload: { ...event.payload, endorsement: wireEndorsement(declined!) } }, now);
      outcome = { policy, endorsement: declined! };
    }
    await recordAudit(
      tx,
      decider.actor,
      {
        action: decision.approve ? "policy.endorsement_approve" : "policy.endorsement_decline",
        subject: policy.reference,
        partnerId: policy.partnerId,
        details: { reference: pending.reference, ...(decision.approve ? {} : { note: decision.note }) },
      },
      now,
    );
    return { ...outcome, repeated: false };
  });
}
