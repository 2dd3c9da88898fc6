/**
 * The operator's desk (docs/funding.md): a bank transfer confirmed by hand, a held funding credited
 * or rejected, under four eyes above a threshold. The funding row is locked first, as by every
 * action on a funding, so a callback racing one finds its outcome.
 */
import { and, eq, or } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { newId, normaliseUuid } from "../../core/ids";
import type { Database, Executor } from "../../db/client";
import { isUniqueViolation } from "../../db/errors";
import { type AuditActor, recordAudit } from "../audit";
import { type FundingStatus, fundingConfirmations, walletFundings } from "./schema";
import {
  type CallbackOutcome,
  credit,
  type Funding,
  type FundingConfirmation,
  lockFunding,
  moveTo,
  STATUS_WORDS,
  settleLocked,
  TEST_PROVIDER,
} from "./settlement";

/** An administrator, as audit rows name them. */
type Admin = Extract<AuditActor, { userId: string }>;

export interface ManualConfirmation {
  bankReference: string;
  amountKobo: number;
}

const CONFIRMABLE: readonly FundingStatus[] = ["pending", "expired"];

/** A funding an administrator may confirm a transfer of by hand: pending or expired, and a live one. */
function refuseUnconfirmable(funding: Funding): void {
  if (!CONFIRMABLE.includes(funding.status) || funding.provider === TEST_PROVIDER)
    throw new CommandError(409, `this funding is ${STATUS_WORDS[funding.status]}: only a pending or expired funding can be confirmed`);
}

/** A held funding with something received to credit. */
function refuseUncreditable(funding: Funding): void {
  if (funding.status !== "held") throw new CommandError(409, `this funding is ${STATUS_WORDS[funding.status]}, not held`);
  if ((funding.receivedKobo ?? 0) <= 0) throw new CommandError(409, "nothing was received to credit");
}

/** A confirmation still waiting, decided by someone else than the administrator who asked (when approving). */
function refuseDecision(confirmation: FundingConfirmation, decision: "approve" | "reject", admin: Admin): void {
  if (confirmation.status !== "awaiting_approval") throw new CommandError(409, "this confirmation was already decided");
  if (decision === "approve" && confirmation.requestedBy === admin.userId)
    throw new CommandError(403, "a second administrator must approve: you asked for this confirmation");
}

/**
 * What an administrator's confirmation step names before they credit by hand (the funding; for an
 * approval, the confirmation waiting on it), with the refusal the action itself would give, so
 * nothing is asked that cannot be done. The action checks again with the funding locked.
 */
async function fundingOf(db: Executor, fundingId: string): Promise<Funding> {
  const id = normaliseUuid(fundingId);
  const [funding] = id ? await db.select().from(walletFundings).where(eq(walletFundings.id, id)) : [];
  if (!funding) throw new CommandError(404, "no such funding");
  return funding;
}

export async function fundingToConfirm(db: Executor, fundingId: string): Promise<Funding> {
  const funding = await fundingOf(db, fundingId);
  refuseUnconfirmable(funding);
  return funding;
}

export async function heldToCredit(db: Executor, fundingId: string): Promise<Funding> {
  const funding = await fundingOf(db, fundingId);
  refuseUncreditable(funding);
  return funding;
}

export async function confirmationToApprove(
  db: Executor,
  confirmationId: string,
  admin: Admin,
): Promise<{ funding: Funding; confirmation: FundingConfirmation }> {
  const id = normaliseUuid(confirmationId);
  const [confirmation] = id ? await db.select().from(fundingConfirmations).where(eq(fundingConfirmations.id, id)) : [];
  if (!confirmation) throw new CommandError(404, "no such confirmation");
  refuseDecision(confirmation, "approve", admin);
  return { funding: await fundingOf(db, confirmation.fundingId), confirmation };
}

const oneWaits = () => new CommandError(409, "a confirmation of this funding already waits for approval by a second administrator: approve or reject it first");

/**
 * Record an administrator's credit by hand on a funding whose row the caller holds locked: applied
 * alone ("approved" by its own author) while what that administrator alone has moved on this
 * funding, this amount included, stays below `fourEyesKobo`; else waiting for a second
 * administrator. The total counts every credit they applied alone on the funding, so a large
 * amount cannot be split into small ones; and while any confirmation of the funding waits, nothing
 * is recorded (so none is confirmed small while a large one waits, and only one waits).
 */
async function recordCreditByHand(
  tx: Executor,
  funding: Funding,
  credit: { kind: FundingConfirmation["kind"]; bankReference: string | null; amountKobo: number },
  admin: Admin,
  fourEyesKobo: number,
  now: Date,
): Promise<{ confirmation: FundingConfirmation; needsSecond: boolean }> {
  const c = fundingConfirmations;
  // Any confirmation waiting on the funding, and what this administrator applied on it alone.
  const earlier = await tx
    .select({ status: c.status, amountKobo: c.amountKobo })
    .from(c)
    .where(
      and(
        eq(c.fundingId, funding.id),
        or(eq(c.status, "awaiting_approval"), and(eq(c.status, "approved"), eq(c.requestedBy, admin.userId), eq(c.decidedBy, admin.userId))),
      ),
    );
  if (earlier.some((row) => row.status === "awaiting_approval")) throw oneWaits();
  const alone = earlier.reduce((sum, row) => sum + row.amountKobo, credit.amountKobo);
  const needsSecond = alone >= fourEyesKobo;
  const [confirmation] = await tx
    .insert(c)
    .values({
      id: newId(),
      fundingId: funding.id,
      ...credit,
      status: needsSecond ? "awaiting_approval" : "approved",
      requestedBy: admin.userId,
      requestedAt: now,
      ...(needsSecond ? {} : { decidedBy: admin.userId, decidedAt: now }),
    })
    .returning();
  return { confirmation: confirmation!, needsSecond };
}

/**
 * An administrator confirms a bank transfer by hand, with the bank's reference: applied at once
 * while what they alone moved on the funding stays below `fourEyesKobo`, else it waits for a second
 * administrator. Audited in its transaction; the funding row is locked, so a callback racing it
 * finds the outcome (one credit at most).
 */
export async function confirmTransfer(
  db: Database,
  fundingId: string,
  input: ManualConfirmation,
  admin: Admin,
  fourEyesKobo: number,
  now: Date,
): Promise<{ confirmation: FundingConfirmation; outcome: CallbackOutcome | "awaiting_approval" }> {
  try {
    return await db.transaction(async (tx) => {
      const funding = await lockFunding(tx, fundingId);
      refuseUnconfirmable(funding);
      const { confirmation, needsSecond } = await recordCreditByHand(tx, funding, { kind: "transfer", ...input }, admin, fourEyesKobo, now);
      const outcome = needsSecond ? "awaiting_approval" : await settleLocked(tx, funding, { status: "paid", amountKobo: input.amountKobo }, "manual", now);
      await recordAudit(
        tx,
        admin,
        {
          action: needsSecond ? "funding.confirm_requested" : "funding.confirm",
          subject: funding.reference,
          partnerId: funding.partnerId,
          details: { bankReference: input.bankReference, amountKobo: input.amountKobo, outcome },
        },
        now,
      );
      return { confirmation, outcome };
    });
  } catch (error) {
    if (isUniqueViolation(error, "funding_confirmations_bank_reference_idx"))
      throw new CommandError(409, `bank reference ${input.bankReference} was already used to confirm a transfer`, "bankReference");
    if (isUniqueViolation(error, "funding_confirmations_open_idx")) throw oneWaits();
    throw error;
  }
}

/**
 * A second administrator decides a confirmation waiting for approval: approve (the credit) or
 * reject. The one who asked cannot approve. The funding row is locked first, as by every action on
 * a funding.
 */
export async function decideConfirmation(
  db: Database,
  confirmationId: string,
  decision: "approve" | "reject",
  admin: Admin,
  now: Date,
): Promise<{ funding: Funding; confirmation: FundingConfirmation; outcome: CallbackOutcome | "rejected" }> {
  return db.transaction(async (tx) => {
    const byId = eq(fundingConfirmations.id, confirmationId);
    const [asked] = await tx.select({ fundingId: fundingConfirmations.fundingId }).from(fundingConfirmations).where(byId);
    if (!asked) throw new CommandError(404, "no such confirmation");
    const funding = await lockFunding(tx, asked.fundingId);
    const [confirmation] = await tx.select().from(fundingConfirmations).where(byId).for("update");
    refuseDecision(confirmation!, decision, admin);
    const { kind, amountKobo, bankReference } = confirmation!;
    let outcome: CallbackOutcome | "rejected" = "rejected";
    if (decision === "approve" && kind === "transfer") {
      outcome = await settleLocked(tx, funding, { status: "paid", amountKobo }, "manual", now);
      if (outcome === "repeat") throw new CommandError(409, `this funding is already ${STATUS_WORDS[funding.status]}: reject the confirmation instead`);
    } else if (decision === "approve") {
      if (funding.status !== "held" || funding.receivedKobo !== amountKobo)
        throw new CommandError(409, `this funding is ${STATUS_WORDS[funding.status]}, no longer held for that amount: reject the confirmation instead`);
      await credit(tx, funding, amountKobo, "manual", now);
      outcome = "credited";
    }
    await tx
      .update(fundingConfirmations)
      .set({ status: decision === "approve" ? "approved" : "rejected", decidedBy: admin.userId, decidedAt: now })
      .where(byId);
    const held = kind === "held_credit";
    await recordAudit(
      tx,
      admin,
      {
        action:
          decision === "approve"
            ? held
              ? "funding.held_credit_approved"
              : "funding.confirm_approved"
            : held
              ? "funding.held_credit_rejected"
              : "funding.confirm_rejected",
        subject: funding.reference,
        partnerId: funding.partnerId,
        details: { ...(bankReference ? { bankReference } : {}), amountKobo, outcome },
      },
      now,
    );
    return { funding, confirmation: confirmation!, outcome };
  });
}

/**
 * An administrator resolves a held funding: credit what was received (under the same four eyes as
 * a confirmed transfer), or reject it (the money goes back outside the service). Neither while a
 * confirmation of the funding waits for approval.
 */
export async function resolveHeld(
  db: Database,
  fundingId: string,
  decision: "credit" | "reject",
  admin: Admin,
  fourEyesKobo: number,
  now: Date,
): Promise<{ funding: Funding; outcome: "credited" | "awaiting_approval" | "failed" }> {
  return db.transaction(async (tx) => {
    const funding = await lockFunding(tx, fundingId);
    if (funding.status !== "held") throw new CommandError(409, `this funding is ${STATUS_WORDS[funding.status]}, not held`);
    const received = funding.receivedKobo ?? 0;
    let outcome: "credited" | "awaiting_approval" | "failed" = "failed";
    if (decision === "credit") {
      refuseUncreditable(funding);
      const { needsSecond } = await recordCreditByHand(
        tx,
        funding,
        { kind: "held_credit", bankReference: null, amountKobo: received },
        admin,
        fourEyesKobo,
        now,
      );
      if (!needsSecond) await credit(tx, funding, received, "manual", now);
      outcome = needsSecond ? "awaiting_approval" : "credited";
    } else {
      const [waiting] = await tx
        .select({ id: fundingConfirmations.id })
        .from(fundingConfirmations)
        .where(and(eq(fundingConfirmations.fundingId, fundingId), eq(fundingConfirmations.status, "awaiting_approval")));
      if (waiting) throw oneWaits();
      await moveTo(tx, funding, { status: "failed", statusNote: `Rejected by an administrator (${funding.statusNote ?? "held"})`, settledBy: "manual" }, now);
    }
    await recordAudit(
      tx,
      admin,
      {
        action: decision === "reject" ? "funding.held_reject" : outcome === "credited" ? "funding.held_credit" : "funding.held_credit_requested",
        subject: funding.reference,
        partnerId: funding.partnerId,
        details: { amountKobo: funding.amountKobo, receivedKobo: received },
      },
      now,
    );
    return { funding: (await lockFunding(tx, fundingId))!, outcome };
  });
}
