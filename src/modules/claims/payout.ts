/**
 * Paying a claim (issue 37, item 5; docs/claims.md, "Payout"): the accepted voucher queues a
 * transfer of what is payable (and the interest for a late settlement) to the claim's account;
 * the payout provider (src/modules/payouts) is asked to send it, idempotently on our reference;
 * its signed callbacks — or the background check, when one never comes — say how it ended. A
 * claim becomes paid only on the provider's word that the money arrived, with a line in the
 * insurer's payout ledger; a failure leaves it approved for another attempt; a reversal after
 * success reopens it and gives the ledger its money back. Every outcome is applied with the claim's
 * row and then the payout's locked, so a callback racing the check, a repeat, or a reversal after
 * success finds what the first did: nothing is paid twice.
 */
import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import type { Config } from "../../core/config";
import { CommandError } from "../../core/errors";
import { newId } from "../../core/ids";
import { log } from "../../core/log";
import { toNaira as naira } from "../../core/money";
import { watTimestamp } from "../../core/time";
import type { Database, Executor } from "../../db/client";
import { isUniqueViolation } from "../../db/errors";
import { watToday } from "../../products/policy-helpers";
import { type AuditActor, recordAudit } from "../audit";
import { recordEvent } from "../events";
import { type PayoutProvider, PayoutRefused, type PayoutTransfer, payoutProvider } from "../payouts";
import type { Mode } from "../policies";
import { type ClockSettings, clockSettings, lateInterestKobo } from "./clock";
import { claimPayouts, claims, type PayoutStatus, payoutCallbacks, payoutLedger } from "./schema";
import { applyTransition, type ClaimRecord, claimHeading, lockClaim, lockClaimById } from "./service";
import { currentVoucher, latestPayout, type PayoutRecord, type VoucherRecord } from "./settlement-records";
import { type AcceptanceChannel, acceptVoucher } from "./voucher";

/** What paying needs: the provider of each mode, and the clock (the late interest of the day a payout is queued). */
export interface PayoutSettings {
  provider: (mode: Mode) => PayoutProvider;
  clock: ClockSettings;
}

/** The settings of payouts, as the configuration gives them. */
export const payoutSettings = (config: Config): PayoutSettings => ({
  provider: (mode) => payoutProvider(config, mode),
  clock: clockSettings(config),
});

/** A transfer as the provider is asked for it. */
const transferOf = (payout: PayoutRecord, claimNo: string): PayoutTransfer => ({
  reference: payout.reference,
  amountKobo: payout.amountKobo,
  recipient: { bankCode: payout.bankCode, accountNumber: payout.accountNumber, accountName: payout.accountName },
  narration: `Claim ${claimNo} settlement`,
});

/**
 * Queue a payout of a claim whose row the caller holds locked, under its accepted voucher: what is
 * payable plus the late interest as of today, to the voucher's account. The reference is the claim
 * number and the attempt, in lower case (as transfer references are).
 */
export async function queuePayout(
  tx: Executor,
  claim: ClaimRecord,
  voucher: VoucherRecord,
  input: { provider: PayoutProvider; clock: ClockSettings; queuedBy: string; now: Date },
): Promise<PayoutRecord> {
  const { now } = input;
  // Both callers (the acceptance, a resend) check it; a payout without its accepted voucher must never be.
  if (!voucher.acceptedAt) throw new CommandError(409, `claim ${claim.claimNo}: a payout is sent only under an accepted discharge voucher`);
  const [{ attempts }] = (await tx.select({ attempts: sql<number>`count(*)::int` }).from(claimPayouts).where(eq(claimPayouts.claimId, claim.id))) as [
    { attempts: number },
  ];
  const interest = lateInterestKobo(voucher.payableKobo, claim.settlementDueOn, watToday(now), input.clock.lateInterestBasisPoints);
  const payout: PayoutRecord = {
    id: newId(),
    claimId: claim.id,
    voucherVersion: voucher.version,
    reference: `${claim.claimNo.toLowerCase()}-${attempts + 1}`,
    provider: input.provider.name,
    providerReference: null,
    mode: claim.mode,
    amountKobo: voucher.payableKobo + interest,
    payableKobo: voucher.payableKobo,
    lateInterestKobo: interest,
    bankCode: voucher.bankCode,
    accountNumber: voucher.accountNumber,
    accountName: voucher.accountName,
    status: "queued",
    statusReason: null,
    queuedBy: input.queuedBy,
    createdAt: now,
    sentAt: null,
    settledAt: null,
    updatedAt: now,
  };
  try {
    await tx.insert(claimPayouts).values(payout);
  } catch (error) {
    if (isUniqueViolation(error, "claim_payouts_live_idx"))
      throw new CommandError(409, `claim ${claim.claimNo} has a payout on its way or made already: it is never paid twice`);
    throw error;
  }
  return payout;
}

type Outcome = "success" | "failed" | "reversed";
export type CallbackOutcome = "applied" | "repeat" | "ignored" | "rejected";

/**
 * Apply what the provider said of a payout, with the claim's row and the payout's locked (the
 * caller locked the claim): success pays the claim (once), failure leaves it approved, a reversal
 * after success reopens it. Returns whether it changed anything.
 */
async function settleLocked(
  tx: Executor,
  claim: ClaimRecord,
  payoutId: string,
  said: { outcome: Outcome; reason?: string | null; amountKobo?: number | null; source: "callback" | "check" | "send" },
  now: Date,
): Promise<"applied" | "repeat" | "ignored"> {
  const [payout] = await tx.select().from(claimPayouts).where(eq(claimPayouts.id, payoutId)).for("update");
  if (!payout) return "ignored";
  const { outcome } = said;
  if (said.amountKobo != null && said.amountKobo !== payout.amountKobo) {
    log.warn("payout outcome for another amount: ignored", { reference: payout.reference, said: said.amountKobo, sent: payout.amountKobo });
    return "ignored";
  }
  const move = async (status: PayoutStatus, extra: Partial<PayoutRecord> = {}) =>
    tx
      .update(claimPayouts)
      .set({ status, updatedAt: now, ...(said.reason ? { statusReason: said.reason } : {}), ...extra })
      .where(eq(claimPayouts.id, payout.id));
  const event = (type: "claim.payout_failed" | "claim.payout_reversed", current: ClaimRecord) =>
    recordEvent(
      tx,
      {
        partnerId: current.partnerId,
        type,
        targetUrl: current.policyWebhook,
        payload: {
          ...claimHeading(current),
          payout: wirePayout(payout, { status: type === "claim.payout_failed" ? "failed" : "reversed", reason: said.reason ?? null }),
        },
      },
      now,
    );
  const open = payout.status === "queued" || payout.status === "pending";
  if (outcome === "success") {
    if (payout.status === "success") return "repeat";
    if (!open) return "ignored";
    await move("success", { settledAt: now });
    await tx
      .insert(payoutLedger)
      .values({ id: newId(), mode: payout.mode, claimId: claim.id, payoutId: payout.id, kind: "claim_paid", amountKobo: payout.amountKobo, createdAt: now });
    if (claim.status === "approved")
      await applyTransition(tx, claim, { to: "paid", actor: "payout", by: "payout", lateInterestKobo: payout.lateInterestKobo }, now);
    return "applied";
  }
  if (outcome === "failed") {
    if (payout.status === "failed") return "repeat";
    if (!open) return "ignored";
    await move("failed");
    await event("claim.payout_failed", claim);
    return "applied";
  }
  if (payout.status === "reversed") return "repeat";
  if (payout.status === "failed") return "ignored";
  await move("reversed");
  if (payout.status === "success") {
    await tx
      .insert(payoutLedger)
      .values({ id: newId(), mode: payout.mode, claimId: claim.id, payoutId: payout.id, kind: "reversal", amountKobo: -payout.amountKobo, createdAt: now });
    const reopened =
      claim.status === "paid"
        ? await applyTransition(tx, claim, { to: "approved", actor: "payout", by: "payout", note: said.reason ?? undefined }, now)
        : claim;
    await event("claim.payout_reversed", reopened);
  } else await event("claim.payout_failed", claim);
  return "applied";
}

/** A payout as the wire and the events show it. */
export const wirePayout = (p: PayoutRecord, as?: { status: PayoutStatus; reason: string | null }) => {
  const reason = as ? as.reason : p.statusReason;
  return {
    status: as?.status ?? p.status,
    amount: naira(p.amountKobo),
    ...(p.lateInterestKobo ? { lateInterest: naira(p.lateInterestKobo) } : {}),
    reference: p.reference,
    ...(reason ? { reason } : {}),
    voucherVersion: p.voucherVersion,
    queued: watTimestamp(p.createdAt),
    ...(p.settledAt ? { settled: watTimestamp(p.settledAt) } : {}),
  };
};

/** The claim of a payout, its row locked (claims first, then payouts: every path locks in this order). */
const lockClaimOf = (tx: Executor, payout: Pick<PayoutRecord, "claimId">) => lockClaimById(tx, payout.claimId);

/**
 * Send a queued payout to its provider: the transfer is asked for outside any transaction (the
 * provider is another party), idempotent on our reference, so a crash before its answer is stored
 * only sends the same request again. A refusal (a request the provider will never take) fails the
 * payout; a network failure leaves it queued for the background check. The sandbox's callbacks
 * then arrive through the same path as a real provider's.
 */
export async function sendPayout(db: Database, settings: PayoutSettings, payoutId: string, now: Date): Promise<void> {
  const [payout] = await db.select().from(claimPayouts).where(eq(claimPayouts.id, payoutId));
  if (payout?.status !== "queued") return;
  const provider = settings.provider(payout.mode);
  const transfer = transferOf(payout, await claimNoOf(db, payout.claimId));
  let answer: Awaited<ReturnType<PayoutProvider["createTransfer"]>>;
  try {
    answer = await provider.createTransfer(transfer);
  } catch (error) {
    if (!(error instanceof PayoutRefused)) {
      log.warn("payout provider did not answer: the payout stays queued", { reference: payout.reference, error: String(error) });
      return;
    }
    await db.transaction(async (tx) =>
      settleLocked(tx, await lockClaimOf(tx, payout), payout.id, { outcome: "failed", reason: error.message, source: "send" }, now),
    );
    return;
  }
  await db.transaction(async (tx) => {
    const claim = await lockClaimOf(tx, payout);
    await tx
      .update(claimPayouts)
      .set({ status: "pending", providerReference: answer.providerReference, sentAt: now, updatedAt: now })
      .where(and(eq(claimPayouts.id, payout.id), eq(claimPayouts.status, "queued")));
    if (answer.status !== "pending") await settleLocked(tx, claim, payout.id, { outcome: answer.status, reason: answer.reason, source: "send" }, now);
  });
  for (const callback of provider.immediateCallbacks?.(transfer) ?? []) await receivePayoutCallback(db, provider, callback.body, callback.signature, now);
}

/** The claim number a transfer's narration names. */
const claimNoOf = async (db: Executor, claimId: string) =>
  (await db.select({ claimNo: claims.claimNo }).from(claims).where(eq(claims.id, claimId)))[0]!.claimNo;

/** How many bytes of a callback with a bad signature are kept in the trail. */
const FORGED_BODY_KEPT = 512;

/**
 * A provider's callback (POST /payouts/callbacks/<provider>): the signature over the raw bytes
 * first (a bad one is trailed and changes nothing: 401), then the payout it names, settled with
 * the claim and the payout locked. A reference we do not know, or a body we cannot trust in full,
 * is trailed and ignored (200: the provider would retry anything else for days).
 */
export async function receivePayoutCallback(
  db: Database,
  provider: PayoutProvider,
  rawBody: Uint8Array | string,
  signature: string | null,
  now: Date,
): Promise<{ status: 200 | 401; outcome: CallbackOutcome }> {
  const bytes = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  const trail = (outcome: CallbackOutcome, valid: "yes" | "no", fields: { reference?: string | null; event?: string | null } = {}) => ({
    id: newId(),
    provider: provider.name,
    reference: fields.reference ?? null,
    event: fields.event ?? null,
    signatureValid: valid,
    outcome,
    body: valid === "yes" ? bytes : bytes.subarray(0, FORGED_BODY_KEPT),
    receivedAt: now,
  });
  if (!provider.verifySignature(bytes, signature)) {
    await db.insert(payoutCallbacks).values(trail("rejected", "no"));
    log.warn("payout callback with a bad signature", { provider: provider.name });
    return { status: 401, outcome: "rejected" };
  }
  let callback: ReturnType<PayoutProvider["readCallback"]>;
  try {
    callback = provider.readCallback(bytes.toString("utf8"));
  } catch {
    await db.insert(payoutCallbacks).values(trail("ignored", "yes"));
    return { status: 200, outcome: "ignored" };
  }
  const { reference, outcome } = callback;
  const [payout] =
    reference && outcome
      ? await db
          .select({ id: claimPayouts.id, claimId: claimPayouts.claimId })
          .from(claimPayouts)
          .where(and(eq(claimPayouts.provider, provider.name), eq(claimPayouts.reference, reference)))
      : [];
  if (!payout || !outcome) {
    if (reference && outcome) log.warn("payout callback for an unknown transfer", { provider: provider.name, reference });
    await db.insert(payoutCallbacks).values(trail("ignored", "yes", callback));
    return { status: 200, outcome: "ignored" };
  }
  return db.transaction(async (tx) => {
    const claim = await lockClaimOf(tx, payout);
    const result = await settleLocked(tx, claim, payout.id, { outcome, reason: callback.reason, amountKobo: callback.amountKobo, source: "callback" }, now);
    await tx.insert(payoutCallbacks).values(trail(result, "yes", callback));
    return { status: 200 as const, outcome: result };
  });
}

/**
 * The background check: payouts still queued (the provider did not answer, or the process stopped
 * before asking) are sent again; pending ones whose callback has not come within `checkAfterMs`
 * are asked about and settled by what the provider says. A payout the check could not move (still
 * pending, not answered) goes to the back of the queue, to be asked again after `checkAfterMs`:
 * transfers stuck at the provider never keep the check from the others. Returns how many changed.
 */
export async function checkPayouts(db: Database, settings: PayoutSettings, now: Date, checkAfterMs: number, limit = 100): Promise<number> {
  const due = await db
    .select()
    .from(claimPayouts)
    .where(and(inArray(claimPayouts.status, ["queued", "pending"]), lte(claimPayouts.updatedAt, new Date(now.getTime() - checkAfterMs))))
    .orderBy(asc(claimPayouts.updatedAt))
    .limit(limit);
  // Only while it is as read: a payout something else moved meanwhile keeps that change.
  const postpone = (payout: PayoutRecord) =>
    db
      .update(claimPayouts)
      .set({ updatedAt: now })
      .where(and(eq(claimPayouts.id, payout.id), eq(claimPayouts.status, payout.status), eq(claimPayouts.updatedAt, payout.updatedAt)));
  let changed = 0;
  for (const payout of due) {
    if (payout.status === "queued") {
      await sendPayout(db, settings, payout.id, now);
      await postpone(payout);
      changed++;
      continue;
    }
    const provider = settings.provider(payout.mode);
    let state: Awaited<ReturnType<PayoutProvider["queryTransfer"]>>;
    try {
      state = await provider.queryTransfer(transferOf(payout, await claimNoOf(db, payout.claimId)));
    } catch (error) {
      log.warn("payout provider status query failed", { reference: payout.reference, error: String(error) });
      await postpone(payout);
      continue;
    }
    if (state.status === "pending") {
      await postpone(payout);
      continue;
    }
    const outcomes: Outcome[] = state.status === "reversed" ? ["success", "reversed"] : [state.status];
    const moved = await db.transaction(async (tx) => {
      const claim = await lockClaimOf(tx, payout);
      let applied = false;
      // A reversal the check finds was a success first: the claim was paid, then reopened.
      for (const outcome of outcomes) {
        const current: ClaimRecord = outcome === "reversed" && applied ? await lockClaimOf(tx, payout) : claim;
        applied =
          (await settleLocked(tx, current, payout.id, { outcome, reason: state.reason, amountKobo: state.amountKobo, source: "check" }, now)) === "applied" ||
          applied;
      }
      return applied;
    });
    if (moved) changed++;
    else await postpone(payout);
  }
  return changed;
}

/**
 * An administrator sends a failed or reversed payout again (the same accepted voucher, a new
 * attempt with its own reference and the late interest of today), with a confirmation naming the
 * amount in the portal. Refused while another payout of the claim is on its way or made.
 */
export async function resendPayout(
  db: Database,
  settings: PayoutSettings,
  input: { claimNo: string; by: string; actor: AuditActor; now: Date },
): Promise<PayoutRecord> {
  const { now } = input;
  const payout = await db.transaction(async (tx) => {
    const claim = await lockClaim(tx, {}, input.claimNo);
    if (claim.status !== "approved") throw new CommandError(409, `claim ${claim.claimNo} is ${claim.status}: only an approved claim is paid`);
    const last = await latestPayout(tx, claim.id);
    if (!last || (last.status !== "failed" && last.status !== "reversed"))
      throw new CommandError(409, `claim ${claim.claimNo} has no failed payout to send again`);
    const voucher = await currentVoucher(tx, claim.id);
    if (!voucher?.acceptedAt)
      throw new CommandError(409, `the voucher in force of claim ${claim.claimNo} (the account changed) is not accepted yet: its acceptance sends the payout`);
    const queued = await queuePayout(tx, claim, voucher, { provider: settings.provider(claim.mode), clock: settings.clock, queuedBy: input.by, now });
    await recordAudit(
      tx,
      input.actor,
      {
        action: "claim.payout_resend",
        subject: claim.claimNo,
        partnerId: claim.partnerId,
        details: { amountKobo: queued.amountKobo, reference: queued.reference },
      },
      now,
    );
    return queued;
  });
  await sendPayout(db, settings, payout.id, now);
  return payout;
}

/**
 * `claim accept` and the claim page: the claimant's acceptance of the voucher in force, which
 * queues its payout in the same transaction; the payout is then sent at once (the background check
 * sends it should this process stop first). A repeat of the acceptance changes nothing, and finds
 * the payout the first one queued on its way: were it still queued (the first still sending), the
 * repeat sends it too — the provider's idempotency on the reference and the guarded update make
 * that one transfer — so every repeat answers with the payout as far as the first's got.
 */
export async function acceptAndPay(
  db: Database,
  settings: PayoutSettings,
  input: { partnerId: string; mode: Mode; claimNo: string; version: number; channel: AcceptanceChannel; by: string; now: Date },
): Promise<void> {
  let queued: PayoutRecord | undefined;
  const { claimId } = await acceptVoucher(db, input, async (tx, claim, voucher) => {
    queued = await queuePayout(tx, claim, voucher, { provider: settings.provider(claim.mode), clock: settings.clock, queuedBy: "voucher", now: input.now });
  });
  const payout = queued ?? (await latestPayout(db, claimId));
  if (payout?.status === "queued" && payout.voucherVersion === input.version) await sendPayout(db, settings, payout.id, input.now);
}
