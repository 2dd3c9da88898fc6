/**
 * The operator's decisions on a claim (issue 37, item 3; docs/claims.md, "Authority"): `claim review`
 * and the claim page's decision form move a claim; an approval or a rejection above the deciding
 * administrator's authority, or of a claim the fraud signals flag, is recorded as their
 * recommendation instead, and applies only once a second administrator with the authority
 * confirms it (or they send it back). The claim's row is locked first, so two administrators
 * deciding at once apply one after the other and the second sees what the first did.
 */
import { eq } from "drizzle-orm";
import type { Config } from "../../core/config";
import { CommandError } from "../../core/errors";
import { newId } from "../../core/ids";
import { formatNaira } from "../../core/money";
import type { Database, Executor } from "../../db/client";
import { type AuditActor, recordAudit } from "../audit";
import { type ClaimAuthority, portalUsers } from "../partners";
import type { Mode } from "../policies";
import { claimSignals } from "../signals";
import { type ClockSettings, clockSettings } from "./clock";
import type { ClaimDecision } from "./decision-records";
import { REJECTION_REASONS, type RejectionReason } from "./rejections";
import { approvalOf } from "./rules";
import { claimDecisions, type SecondReviewGround } from "./schema";
import { applyTransition, type ClaimChange, type ClaimDetail, type ClaimRecord, claimDetail, lockClaim } from "./service";
import { issueVoucher, type LetterSettings } from "./voucher";

/** The most an assessor and a claims manager decide alone, in kobo; the head of claims has no limit. */
export interface AuthoritySettings {
  assessorKobo: number;
  managerKobo: number;
}

const authoritySettings = (config: { CLAIM_AUTHORITY_ASSESSOR_KOBO: number; CLAIM_AUTHORITY_MANAGER_KOBO: number }): AuthoritySettings => ({
  assessorKobo: config.CLAIM_AUTHORITY_ASSESSOR_KOBO,
  managerKobo: config.CLAIM_AUTHORITY_MANAGER_KOBO,
});

export const AUTHORITY_WORDS: Record<ClaimAuthority, string> = { assessor: "an assessor", manager: "a claims manager", head: "the head of claims" };

/** The most `authority` decides alone, in kobo (Infinity: no limit). */
export const authorityLimit = (authority: ClaimAuthority, settings: AuthoritySettings) =>
  authority === "head" ? Number.POSITIVE_INFINITY : authority === "manager" ? settings.managerKobo : settings.assessorKobo;

/** What an administrator's authority reaches, in words: "₦1,000,000.00", or "any amount". */
export const authorityReach = (authority: ClaimAuthority, settings: AuthoritySettings) => {
  const limit = authorityLimit(authority, settings);
  return limit === Number.POSITIVE_INFINITY ? "any amount" : formatNaira(limit);
};

/** The person behind an audit actor, when it is one (a portal sign-in), not an API key. */
const personOf = (actor: AuditActor) => ("userId" in actor ? actor : null);

/** An actor's authority over claims: an administrator's own; an API key decides as an assessor. */
export async function authorityOf(db: Executor, actor: AuditActor): Promise<ClaimAuthority> {
  const person = personOf(actor);
  if (!person) return "assessor";
  const [user] = await db.select({ authority: portalUsers.claimAuthority }).from(portalUsers).where(eq(portalUsers.id, person.userId));
  return user?.authority ?? "assessor";
}

/** What a decision's authority is measured on: what an approval makes payable, or the amount a rejection refuses. */
function decisionAmount(claim: ClaimRecord, decision: "approved" | "rejected", approvedKobo: number | undefined): number {
  return decision === "approved" ? approvalOf(claim, approvedKobo).payableKobo : claim.claimedKobo;
}

/** The settings a decision needs: the clock (an approval starts the voucher's), the authority limits, and what the voucher an approval issues says. */
export interface DecisionSettings {
  clock: ClockSettings;
  authority: AuthoritySettings;
  letters: LetterSettings;
}

/** The settings of decisions, as the configuration gives them. */
export const decisionSettings = (config: Config): DecisionSettings => ({
  clock: clockSettings(config),
  authority: authoritySettings(config),
  letters: { insurerName: config.INSURER_NAME, lateInterestBasisPoints: config.CLAIM_LATE_INTEREST_BASIS_POINTS },
});

/** Apply a decision; an approval of a claim whose account is known issues its discharge voucher in the same transaction. */
async function applyDecision(
  tx: Executor,
  claim: ClaimRecord,
  change: ClaimChange,
  settings: DecisionSettings,
  now: Date,
  audit: (tx: Executor, claim: ClaimDetail) => Promise<void>,
): Promise<ClaimDetail> {
  const decided = await applyTransition(tx, claim, change, now, audit);
  if (decided.status !== "approved" || !(await issueVoucher(tx, decided, settings.letters, now))) return decided;
  return { ...(await claimDetail(tx, {}, decided.claimNo)), refundTakenBackKobo: decided.refundTakenBackKobo };
}

/** Whether the fraud signals send a claim to a second reviewer (src/modules/signals: flags, never decisions). */
export const flaggedForSecondReview = async (db: Executor, claim: Pick<ClaimRecord, "id">) => (await claimSignals(db, claim.id)).needsSecondReviewer;

/** Why a decision of `amountKobo` by `actor` must wait for a second administrator: none when they may decide it alone. */
async function secondReviewGrounds(tx: Executor, claim: ClaimRecord, actor: AuditActor, amountKobo: number, settings: AuthoritySettings) {
  const grounds: SecondReviewGround[] = [];
  if (amountKobo > authorityLimit(await authorityOf(tx, actor), settings)) grounds.push("authority");
  if (await flaggedForSecondReview(tx, claim)) grounds.push("signals");
  return grounds;
}

const decisionWords = (d: Pick<ClaimDecision, "decision" | "amountKobo">) =>
  d.decision === "approved" ? `approving ${formatNaira(d.amountKobo)} payable` : `rejecting the ${formatNaira(d.amountKobo)} claimed`;

/** A decision waits: refuse another one until it is confirmed or sent back. */
function refuseWhileAwaiting(claim: ClaimDetail) {
  const waiting = claim.awaiting;
  if (waiting)
    throw new CommandError(
      409,
      `claim ${claim.claimNo} has a recommendation of ${decisionWords(waiting)} waiting for a second administrator: it must be confirmed or sent back first`,
    );
}

/**
 * The audit row of a decision applied: the status, the note as the administrator wrote it (the claim's
 * status note also carries a rejection's reason, which the row names on its own), and the figures it set.
 */
const reviewAudit =
  (actor: AuditActor, now: Date, note: string | undefined, extra: Record<string, unknown> = {}) =>
  (tx: Executor, claim: ClaimDetail) =>
    recordAudit(
      tx,
      actor,
      {
        action: "claim.review",
        subject: claim.claimNo,
        partnerId: claim.partnerId,
        details: {
          status: claim.status,
          ...(note ? { note } : {}),
          // In words: the audit log is read by people.
          ...(claim.rejectionReason ? { rejectionReason: REJECTION_REASONS[claim.rejectionReason] } : {}),
          ...(claim.approvedKobo === null ? {} : { approvedKobo: claim.approvedKobo, excessKobo: claim.excessKobo, payableKobo: claim.payableKobo }),
          ...(claim.refundTakenBackKobo ? { refundTakenBackKobo: claim.refundTakenBackKobo } : {}),
          ...extra,
        },
      },
      now,
    );

export type ReviewStatus = "in_review" | "info_requested" | "approved" | "rejected" | "paid";

/**
 * `claim review` (operator): submitted → in_review → info_requested | approved | rejected. An
 * approval accepts `approvedKobo` (default: the amount claimed) and works out the excess and the
 * payable amount; a rejection needs a reason from the documented list (and a note for "other").
 * Above the actor's authority, or on a flagged claim, the approval or rejection is recorded as a
 * recommendation (the answer's `awaiting`), and the claim stays in review. `by` names the
 * administrator in the claim's history; `actor` is who the audit log names; `mode` is its key's,
 * which must be the claim's (the portal's operator has no key). A claim is never marked paid here:
 * the payout's provider says when the money arrived.
 */
export function reviewClaim(
  db: Database,
  input: {
    claimNo: string;
    status: ReviewStatus;
    note?: string;
    approvedKobo?: number;
    rejectionReason?: RejectionReason;
    by: string;
    actor: AuditActor;
    mode?: Mode;
    now: Date;
    settings: DecisionSettings;
  },
): Promise<ClaimDetail> {
  const { actor, note, now, status } = input;
  if (status === "rejected" && !input.rejectionReason)
    throw new CommandError(
      400,
      `seed.rejectionReason is required to reject: one of ${Object.keys(REJECTION_REASONS).join(", ")} (docs/claims.md, "Rejections")`,
      "seed.rejectionReason",
    );
  if (input.rejectionReason === "other" && !note)
    throw new CommandError(400, 'seed.note is required with rejectionReason "other": say why in seed.note', "seed.note");
  if (input.rejectionReason && status !== "rejected")
    throw new CommandError(400, `seed.rejectionReason is only for rejecting: send it with status "rejected", not "${status}"`, "seed.rejectionReason");
  if (status === "info_requested" && !note)
    throw new CommandError(400, "seed.note is required to ask for information: say what the partner must send in seed.note", "seed.note");
  if (input.approvedKobo !== undefined && status !== "approved")
    throw new CommandError(400, `seed.approvedAmount is only for approving: send it with status "approved", not "${status}"`, "seed.approvedAmount");
  return db.transaction(async (tx) => {
    const locked = await lockClaim(tx, {}, input.claimNo);
    if (status === "paid")
      throw new CommandError(
        409,
        `claim ${locked.claimNo} cannot be marked paid: a claim is paid when the payout's provider says the money arrived, after the claimant accepts the discharge voucher (docs/claims.md, "Payout")`,
      );
    const claim = await claimDetail(tx, {}, locked.claimNo);
    refuseWhileAwaiting(claim);
    const change: ClaimChange = {
      to: status,
      actor: "operator",
      by: input.by,
      note,
      approvedKobo: input.approvedKobo,
      rejectionReason: input.rejectionReason,
      mode: input.mode,
      clock: input.settings.clock,
    };
    if (status === "approved" || status === "rejected") {
      const amountKobo = decisionAmount(locked, status, input.approvedKobo);
      const grounds = await secondReviewGrounds(tx, locked, actor, amountKobo, input.settings.authority);
      if (grounds.length) return recommend(tx, locked, { change, amountKobo, grounds, actor }, now);
    }
    return applyDecision(tx, locked, change, input.settings, now, reviewAudit(actor, now, change.note));
  });
}

/**
 * Record a decision as a recommendation for a second administrator (the claim's status unchanged),
 * after checking that the move itself is allowed, so nothing is recommended that cannot be done.
 */
async function recommend(
  tx: Executor,
  claim: ClaimRecord,
  input: { change: ClaimChange; amountKobo: number; grounds: SecondReviewGround[]; actor: AuditActor },
  now: Date,
): Promise<ClaimDetail> {
  const { change, actor } = input;
  const person = personOf(actor);
  const decision = change.to as "approved" | "rejected";
  await tx.insert(claimDecisions).values({
    id: newId(),
    claimId: claim.id,
    decision,
    approvedKobo: decision === "approved" ? approvalOf(claim, change.approvedKobo).approvedKobo : null,
    rejectionReason: change.rejectionReason ?? null,
    note: change.note ?? null,
    amountKobo: input.amountKobo,
    grounds: input.grounds,
    status: "awaiting",
    recommendedBy: change.by,
    recommendedByUser: person?.userId ?? null,
    createdAt: now,
  });
  await recordAudit(
    tx,
    actor,
    {
      action: "claim.recommend",
      subject: claim.claimNo,
      partnerId: claim.partnerId,
      details: {
        decision: decision === "approved" ? "approve" : "reject",
        amountKobo: input.amountKobo,
        grounds: input.grounds.map((g) => (g === "authority" ? "above the recommender's authority" : "flagged by the fraud signals")).join(", "),
        ...(change.note ? { note: change.note } : {}),
      },
    },
    now,
  );
  return claimDetail(tx, {}, claim.claimNo);
}

/**
 * What keeps `actor` from deciding the recommendation waiting on a claim, or null when they may:
 * never its author, and, confirming an amount above an assessor's reach, an authority over it.
 * The portal asks it before offering the buttons; deciding asks it again under the lock.
 */
export async function refusalToDecide(
  db: Executor,
  waiting: ClaimDecision,
  actor: AuditActor,
  settings: AuthoritySettings,
  choice: "confirm" | "return",
): Promise<CommandError | null> {
  const person = personOf(actor);
  if (!person) return new CommandError(403, "a second administrator confirms or sends back a recommendation in the portal, signed in as themselves");
  if (waiting.recommendedByUser === person.userId) return new CommandError(403, "a second administrator must decide: you recommended this decision");
  const authority = await authorityOf(db, actor);
  if (choice === "confirm" && waiting.amountKobo > authorityLimit(authority, settings))
    return new CommandError(
      403,
      `${AUTHORITY_WORDS[authority]}'s authority reaches ${authorityReach(authority, settings)}: confirming this recommendation (${decisionWords(waiting)}) needs a higher one`,
    );
  return null;
}

/**
 * A second administrator decides the recommendation waiting on a claim: confirm it (the decision
 * is applied as recommended, in the same transaction) or send it back with a reason (the claim
 * stays in review, to be decided again). Of two deciding at once, the second finds nothing waiting.
 */
export async function decideRecommendation(
  db: Database,
  input: { claimNo: string; choice: "confirm" | "return"; note?: string; by: string; actor: AuditActor; now: Date; settings: DecisionSettings },
): Promise<ClaimDetail> {
  const { actor, now, choice } = input;
  if (choice === "return" && !input.note) throw new CommandError(400, "note is required to send a recommendation back: say why", "note");
  return db.transaction(async (tx) => {
    const locked = await lockClaim(tx, {}, input.claimNo);
    const claim = await claimDetail(tx, {}, locked.claimNo);
    const waiting = claim.awaiting;
    if (!waiting) throw new CommandError(409, `no recommendation waits on claim ${claim.claimNo}: it was decided already`);
    const refusal = await refusalToDecide(tx, waiting, actor, input.settings.authority, choice);
    if (refusal) throw refusal;
    const person = personOf(actor)!;
    await tx
      .update(claimDecisions)
      .set({
        status: choice === "confirm" ? "confirmed" : "returned",
        decidedBy: input.by,
        decidedByUser: person.userId,
        decisionNote: input.note ?? null,
        decidedAt: now,
      })
      .where(eq(claimDecisions.id, waiting.id));
    if (choice === "return") {
      await recordAudit(
        tx,
        actor,
        {
          action: "claim.recommendation_returned",
          subject: claim.claimNo,
          partnerId: claim.partnerId,
          details: { decision: waiting.decision, note: input.note },
        },
        now,
      );
      return claimDetail(tx, {}, claim.claimNo);
    }
    const change: ClaimChange = {
      to: waiting.decision,
      actor: "operator",
      by: input.by,
      note: waiting.note ?? undefined,
      approvedKobo: waiting.approvedKobo ?? undefined,
      rejectionReason: waiting.rejectionReason ?? undefined,
      clock: input.settings.clock,
    };
    return applyDecision(tx, locked, change, input.settings, now, reviewAudit(actor, now, change.note, { recommendedBy: waiting.recommendedBy }));
  });
}
