import { and, asc, desc, eq, inArray, lte, or, sql } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { newId } from "../../core/ids";
import { log } from "../../core/log";
import { formatNaira, toNaira } from "../../core/money";
import { storableText, unstorableText } from "../../core/validation";
import type { Database, Executor } from "../../db/client";
import { isUniqueViolation } from "../../db/errors";
import { type AuditActor, recordAudit } from "../audit/service";
import { recordEvent } from "../events/service";
import { portalUsers } from "../partners/schema";
import type { TopUpRequest } from "../wallet/model";
import { walletEntries, wallets } from "../wallet/schema";
import { creditWallet, earlierTopUp, type WalletEntry } from "../wallet/service";
import type { PaymentProvider, PaymentResult, ProviderCallback, ProviderPayment } from "./provider";
import { type FundingStatus, fundingCallbacks, fundingConfirmations, walletFundings } from "./schema";

export type Funding = typeof walletFundings.$inferSelect;
export type FundingConfirmation = typeof fundingConfirmations.$inferSelect;

/** Test-key top-ups are recorded as fundings of this pseudo-provider: credited at once, never in the live wallet. */
const TEST_PROVIDER = "test";

/** What a top-up request came to: the funding (absent for a top-up credited before verified funding), its ledger line once credited. */
export interface TopUpState {
  funding: Funding | null;
  entry: WalletEntry | null;
  /** True when the reference was used before: nothing new was started. */
  repeat: boolean;
  /** Test mode: the test balance after this top-up (the live wallet is untouched). */
  testBalanceKobo?: number;
}

const referenceReused = (reference: string, amountKobo: number) =>
  new CommandError(409, `seed.reference ${reference} was already used for a top-up of ${toNaira(amountKobo)} naira`, "seed.reference");

const otherMode = (reference: string, mode: "test" | "live") =>
  new CommandError(409, `seed.reference ${reference} was already used for a ${mode}-mode top-up`, "seed.reference");

async function fundingByReference(db: Executor, partnerId: string, reference: string): Promise<Funding | null> {
  const [row] = await db
    .select()
    .from(walletFundings)
    .where(and(eq(walletFundings.partnerId, partnerId), eq(walletFundings.reference, reference)));
  return row ?? null;
}

async function entryOf(db: Executor, funding: Funding): Promise<WalletEntry | null> {
  if (!funding.walletEntryId) return null;
  const [entry] = await db.select().from(walletEntries).where(eq(walletEntries.id, funding.walletEntryId));
  return entry ?? null;
}

/** The state of an earlier top-up under this reference, or null; a conflict (409) when it is another top-up. */
async function earlierState(db: Executor, partnerId: string, request: TopUpRequest, mode: "test" | "live"): Promise<TopUpState | null> {
  const prior = await fundingByReference(db, partnerId, request.reference);
  if (prior) {
    if ((prior.provider === TEST_PROVIDER) !== (mode === "test")) throw otherMode(request.reference, mode === "test" ? "live" : "test");
    if (prior.amountKobo !== request.amountKobo) throw referenceReused(request.reference, prior.amountKobo);
    return { funding: prior, entry: await entryOf(db, prior), repeat: true, ...testBalanceOf(prior) };
  }
  // A top-up credited directly, before verified funding.
  const entry = await earlierTopUp(db, partnerId, request);
  return entry ? { funding: null, entry, repeat: true } : null;
}

const testBalanceOf = (funding: Funding) =>
  funding.provider === TEST_PROVIDER ? { testBalanceKobo: Number((funding.instruction as { balanceAfterKobo?: number }).balanceAfterKobo ?? 0) } : {};

/**
 * A live top-up (docs/funding.md): a pending funding with how to pay, once per partner reference
 * (a repeat answers the funding as it is now; another amount is a conflict). The provider is asked
 * for the payment before anything is stored, so a refusal there stores nothing. The sandbox then
 * delivers the callbacks of its scenario through receiveCallback, the path every callback takes.
 */
export async function startFunding(
  db: Database,
  provider: PaymentProvider,
  partnerId: string,
  request: TopUpRequest,
  now: Date,
  actor?: AuditActor,
): Promise<TopUpState> {
  let state = await earlierState(db, partnerId, request, "live");
  if (!state) {
    const fundingId = newId();
    const payment = await provider.createPayment({ fundingId, reference: request.reference, amountKobo: request.amountKobo }, now);
    const created = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(walletFundings)
        .values({
          id: fundingId,
          partnerId,
          reference: request.reference,
          amountKobo: request.amountKobo,
          provider: provider.name,
          providerReference: payment.providerReference,
          instruction: payment.instruction,
          createdAt: now,
          expiresAt: payment.expiresAt,
        })
        .onConflictDoNothing()
        .returning();
      if (row && actor)
        await recordAudit(
          tx,
          actor,
          { action: "funding.start", subject: request.reference, details: { amountKobo: request.amountKobo, provider: provider.name } },
          now,
        );
      return row;
    });
    // Lost a race with the same reference: the first one's funding is the answer.
    state = created ? { funding: created, entry: null, repeat: false } : await earlierState(db, partnerId, request, "live");
    if (!state) throw new Error(`funding ${request.reference} neither stored nor found`);
  }
  return deliverAtOnce(db, provider, state, now);
}

/**
 * The sandbox's payment of its scenario, for a funding still pending. Also on a repeat and on the
 * recovery of a lost answer: a run that stopped between the funding and its callback (a lost
 * connection) leaves the funding to the next one, and callbacks are idempotent.
 */
async function deliverAtOnce(db: Database, provider: PaymentProvider, state: TopUpState, now: Date): Promise<TopUpState> {
  const funding = state.funding;
  if (funding?.status !== "pending" || funding.provider !== provider.name || !provider.immediateCallbacks) return state;
  for (const callback of provider.immediateCallbacks(paymentOf(funding))) await receiveCallback(db, provider, callback.body, callback.signature, now);
  const settled = (await fundingByReference(db, funding.partnerId, funding.reference))!;
  return { ...state, funding: settled, entry: await entryOf(db, settled) };
}

const paymentOf = (funding: Funding): Required<ProviderPayment> => ({
  fundingId: funding.id,
  reference: funding.reference,
  amountKobo: funding.amountKobo,
  providerReference: funding.providerReference,
});

/**
 * A test-key top-up: credited at once as a specimen, recorded as a funding of the `test` provider,
 * never in the live wallet (a test key must not create money a live key can spend). The answer's
 * balance is the test balance: the sum of the partner's test top-ups.
 */
export async function testTopUp(db: Database, partnerId: string, request: TopUpRequest, now: Date): Promise<TopUpState> {
  const earlier = await earlierState(db, partnerId, request, "test");
  if (earlier) return earlier;
  const stored = await db.transaction(async (tx) => {
    // One partner's test top-ups one at a time, so each sees the balance before it.
    await tx.insert(wallets).values({ partnerId }).onConflictDoNothing();
    await tx.select({ partnerId: wallets.partnerId }).from(wallets).where(eq(wallets.partnerId, partnerId)).for("update");
    const [sum] = await tx
      .select({ total: sql<string>`coalesce(sum(${walletFundings.amountKobo}), 0)` })
      .from(walletFundings)
      .where(and(eq(walletFundings.partnerId, partnerId), eq(walletFundings.provider, TEST_PROVIDER)));
    const balanceAfterKobo = Number(sum?.total ?? 0) + request.amountKobo;
    const id = newId();
    const [row] = await tx
      .insert(walletFundings)
      .values({
        id,
        partnerId,
        reference: request.reference,
        amountKobo: request.amountKobo,
        provider: TEST_PROVIDER,
        providerReference: `TEST_${id}`,
        instruction: { method: "test", balanceAfterKobo },
        status: "credited",
        receivedKobo: request.amountKobo,
        settledBy: "test",
        createdAt: now,
        expiresAt: now,
        settledAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (row)
      await recordEvent(
        tx,
        {
          partnerId,
          type: "wallet.credited",
          payload: { reference: request.reference, amount: toNaira(request.amountKobo), balance: toNaira(balanceAfterKobo), mode: "test" },
        },
        now,
      );
    return row;
  });
  if (stored)
    return { funding: stored, entry: null, repeat: false, testBalanceKobo: Number((stored.instruction as { balanceAfterKobo: number }).balanceAfterKobo) };
  const raced = await earlierState(db, partnerId, request, "test");
  if (!raced) throw new Error(`test top-up ${request.reference} neither stored nor found`);
  return raced;
}

/**
 * The top-up stored under the reference, answered as a repeat is (the command's recovery after a
 * lost answer: a live one still pending gets the sandbox's payment a repeat would); null when none.
 */
export async function earlierTopUpState(
  db: Database,
  provider: PaymentProvider,
  partnerId: string,
  request: TopUpRequest,
  mode: "test" | "live",
  now: Date,
): Promise<TopUpState | null> {
  const state = await earlierState(db, partnerId, request, mode);
  return state && mode === "live" ? deliverAtOnce(db, provider, state, now) : state;
}

/** How many bytes of a callback with a bad signature are kept in the trail. */
const FORGED_BODY_KEPT = 512;

/** Longer than any provider's reference or event name: not one (and too long for the trail's index). */
const MAX_CALLBACK_FIELD = 200;

type CallbackOutcome = "credited" | "repeat" | "held" | "failed" | "ignored" | "rejected";

/** A verified callback's content, or null when it is not the provider's JSON or names what no column can hold. */
function understood(provider: PaymentProvider, rawBody: string): ProviderCallback | null {
  let callback: ProviderCallback;
  try {
    callback = provider.readCallback(rawBody);
  } catch {
    return null;
  }
  const readable = (field: string | null) => field === null || (field.length <= MAX_CALLBACK_FIELD && !unstorableText(field));
  return readable(callback.providerReference) && readable(callback.event) ? callback : null;
}

/**
 * A provider callback (POST /funding/callbacks/<provider>): the signature over the raw body first
 * (a bad one is recorded and changes nothing else: 401), then the payment it names, settled in one
 * transaction with the funding row locked, so repeats, late arrivals and a racing manual
 * confirmation find the first outcome. A reference we do not know, or a signed body we cannot
 * read, is recorded and ignored (200: the provider retries anything else for days).
 */
export async function receiveCallback(
  db: Database,
  provider: PaymentProvider,
  rawBody: Uint8Array | string,
  signature: string | null,
  now: Date,
): Promise<{ status: 200 | 401; outcome: CallbackOutcome }> {
  const bytes = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  const trail = (outcome: CallbackOutcome, signatureValid: "yes" | "no", fields: { providerReference?: string | null; event?: string | null } = {}) => ({
    id: newId(),
    provider: provider.name,
    providerReference: fields.providerReference ?? null,
    event: fields.event ?? null,
    signatureValid,
    outcome,
    // A forged callback keeps only its opening (enough to see what was tried), so senders
    // without the key cannot grow the table by 64 KiB a request.
    body: signatureValid === "yes" ? bytes : bytes.subarray(0, FORGED_BODY_KEPT),
    receivedAt: now,
  });
  if (!provider.verifySignature(bytes, signature)) {
    await db.insert(fundingCallbacks).values(trail("rejected", "no"));
    log.warn("funding callback with a bad signature", { provider: provider.name });
    return { status: 401, outcome: "rejected" };
  }
  const callback = understood(provider, bytes.toString("utf8"));
  if (!callback) {
    await db.insert(fundingCallbacks).values(trail("ignored", "yes"));
    log.warn("funding callback not understood", { provider: provider.name });
    return { status: 200, outcome: "ignored" };
  }
  const { providerReference, result } = callback;
  if (!providerReference || !result) {
    await db.insert(fundingCallbacks).values(trail("ignored", "yes", callback));
    return { status: 200, outcome: "ignored" };
  }
  return db.transaction(async (tx) => {
    const [funding] = await tx
      .select()
      .from(walletFundings)
      .where(and(eq(walletFundings.provider, provider.name), eq(walletFundings.providerReference, providerReference)))
      .for("update");
    const outcome = funding ? await settleLocked(tx, funding, result, "callback", now) : "ignored";
    if (!funding) log.warn("funding callback for an unknown payment", { provider: provider.name, providerReference });
    await tx.insert(fundingCallbacks).values(trail(outcome, "yes", callback));
    return { status: 200 as const, outcome };
  });
}

type Settlement = Exclude<PaymentResult, { status: "pending" }>;

/**
 * What a provider's word does to a funding whose row the caller holds locked. Only a pending
 * funding moves (a failure after a success, a repeat, anything after a manual decision: "repeat");
 * money arriving for an expired funding is held, as is an amount other than the one asked for.
 */
async function settleLocked(tx: Executor, funding: Funding, result: Settlement, by: "callback" | "check" | "manual", now: Date): Promise<CallbackOutcome> {
  const late = funding.status === "expired";
  if (funding.status !== "pending" && !(late && result.status === "paid")) return "repeat";
  if (result.status === "failed") {
    // The provider's own words: kept, whatever they hold.
    await moveTo(tx, funding, { status: "failed", statusNote: storableText(result.reason), settledBy: by }, now);
    return "failed";
  }
  if (result.amountKobo === funding.amountKobo && !late) {
    await credit(tx, funding, result.amountKobo, by, now);
    return "credited";
  }
  const statusNote = late
    ? `${formatNaira(result.amountKobo)} arrived after the funding expired`
    : `${formatNaira(result.amountKobo)} arrived for a top-up of ${formatNaira(funding.amountKobo)}`;
  await moveTo(tx, funding, { status: "held", statusNote, receivedKobo: result.amountKobo, settledBy: by }, now);
  return "held";
}

async function credit(tx: Executor, funding: Funding, amountKobo: number, by: string, now: Date): Promise<WalletEntry> {
  const entry = await creditWallet(tx, funding.partnerId, { amountKobo, reference: funding.reference }, now);
  await tx
    .update(walletFundings)
    .set({ status: "credited", receivedKobo: amountKobo, walletEntryId: entry.id, settledBy: by, settledAt: now })
    .where(eq(walletFundings.id, funding.id));
  return entry;
}

const STATUS_EVENTS: Partial<Record<FundingStatus, string>> = {
  held: "wallet.funding_held",
  failed: "wallet.funding_failed",
  expired: "wallet.funding_expired",
};

/** A funding that ends without a credit (or waits for an administrator), with its event. */
async function moveTo(
  tx: Executor,
  funding: Funding,
  change: { status: "held" | "failed" | "expired"; statusNote: string; receivedKobo?: number; settledBy?: string },
  now: Date,
) {
  await tx
    .update(walletFundings)
    .set({ ...change, settledAt: change.status === "held" ? null : now })
    .where(eq(walletFundings.id, funding.id));
  await recordEvent(
    tx,
    {
      partnerId: funding.partnerId,
      type: STATUS_EVENTS[change.status]!,
      payload: {
        reference: funding.reference,
        amount: toNaira(funding.amountKobo),
        ...(change.receivedKobo !== undefined ? { received: toNaira(change.receivedKobo) } : {}),
        note: change.statusNote,
      },
    },
    now,
  );
}

async function lockFunding(tx: Executor, fundingId: string): Promise<Funding> {
  const [funding] = await tx.select().from(walletFundings).where(eq(walletFundings.id, fundingId)).for("update");
  if (!funding) throw new CommandError(404, "no such funding");
  return funding;
}

/**
 * The background check (the funding job): pending fundings whose callback has not come within
 * `checkAfterMs` are asked about at the provider and settled by what it says; unpaid ones past
 * their expiry are expired. Returns how many changed.
 */
export async function checkFundings(db: Database, provider: PaymentProvider, now: Date, checkAfterMs: number, limit = 100): Promise<number> {
  const due = await db
    .select()
    .from(walletFundings)
    .where(
      and(
        eq(walletFundings.status, "pending"),
        eq(walletFundings.provider, provider.name),
        or(lte(walletFundings.createdAt, new Date(now.getTime() - checkAfterMs)), lte(walletFundings.expiresAt, now)),
      ),
    )
    .orderBy(asc(walletFundings.expiresAt))
    .limit(limit);
  let changed = 0;
  for (const funding of due) {
    let result: PaymentResult;
    try {
      result = await provider.queryPayment(paymentOf(funding));
    } catch (error) {
      log.warn("payment provider status query failed", { provider: provider.name, reference: funding.reference, error: String(error) });
      continue;
    }
    const moved = await db.transaction(async (tx) => {
      const locked = await lockFunding(tx, funding.id);
      if (locked.status !== "pending") return false;
      if (result.status !== "pending") return (await settleLocked(tx, locked, result, "check", now)) !== "repeat";
      if (locked.expiresAt > now) return false;
      await moveTo(tx, locked, { status: "expired", statusNote: "No payment arrived before the funding expired", settledBy: "check" }, now);
      return true;
    });
    if (moved) changed++;
  }
  return changed;
}

/** The sandbox's "pay now": the provider's signed callback of the payment, through the callback path. */
export async function payInSandbox(db: Database, provider: PaymentProvider, partnerId: string, fundingId: string, now: Date) {
  const [funding] = await db
    .select()
    .from(walletFundings)
    .where(and(eq(walletFundings.id, fundingId), eq(walletFundings.partnerId, partnerId), eq(walletFundings.provider, provider.name)));
  if (!funding) throw new CommandError(404, "no such funding");
  const callback = provider.payNow?.(paymentOf(funding));
  if (!callback) throw new CommandError(409, "this payment provider cannot be paid from here");
  return receiveCallback(db, provider, callback.body, callback.signature, now);
}

// ---- The operator: manual confirmation with four eyes, held fundings ----

/** An administrator, as audit rows name them. */
type Admin = Extract<AuditActor, { userId: string }>;

export interface ManualConfirmation {
  bankReference: string;
  amountKobo: number;
}

const CONFIRMABLE: readonly FundingStatus[] = ["pending", "expired"];

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
      if (!CONFIRMABLE.includes(funding.status) || funding.provider === TEST_PROVIDER)
        throw new CommandError(409, `this funding is ${STATUS_WORDS[funding.status]}: only a pending or expired funding can be confirmed`);
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
    if (confirmation!.status !== "awaiting_approval") throw new CommandError(409, "this confirmation was already decided");
    if (decision === "approve" && confirmation!.requestedBy === admin.userId)
      throw new CommandError(403, "a second administrator must approve: you asked for this confirmation");
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
      if (received <= 0) throw new CommandError(409, "nothing was received to credit");
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

/** Plain words of a status, for refusals. */
const STATUS_WORDS: Record<FundingStatus, string> = {
  pending: "waiting for payment",
  credited: "credited",
  held: "held for review",
  failed: "failed",
  expired: "expired",
};

// ---- Lists ----

/** A partner's live fundings, newest first (the portal's list). */
export async function partnerFundings(db: Database, partnerId: string, limit = 20): Promise<Funding[]> {
  return db
    .select()
    .from(walletFundings)
    .where(and(eq(walletFundings.partnerId, partnerId), sql`${walletFundings.provider} <> ${TEST_PROVIDER}`))
    .orderBy(desc(walletFundings.createdAt), desc(walletFundings.id))
    .limit(limit);
}

/** The operator's work: fundings in these statuses (pending and held by default), oldest first, with their open confirmations. */
export async function operatorFundings(
  db: Database,
  statuses: readonly FundingStatus[] = ["pending", "held"],
  limit = 200,
): Promise<{ funding: Funding; awaiting: FundingConfirmation | null }[]> {
  const rows = await db
    .select()
    .from(walletFundings)
    .where(and(inArray(walletFundings.status, [...statuses]), sql`${walletFundings.provider} <> ${TEST_PROVIDER}`))
    .orderBy(asc(walletFundings.createdAt), asc(walletFundings.id))
    .limit(limit);
  if (rows.length === 0) return [];
  const open = await db
    .select()
    .from(fundingConfirmations)
    .where(
      and(
        inArray(
          fundingConfirmations.fundingId,
          rows.map((r) => r.id),
        ),
        eq(fundingConfirmations.status, "awaiting_approval"),
      ),
    );
  const byFunding = new Map(open.map((c) => [c.fundingId, c]));
  return rows.map((funding) => ({ funding, awaiting: byFunding.get(funding.id) ?? null }));
}

/** The e-mail addresses of the administrators who asked for confirmations (the page names them). */
export async function requesterEmails(db: Database, userIds: string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ id: portalUsers.id, email: portalUsers.email })
    .from(portalUsers)
    .where(inArray(portalUsers.id, [...new Set(userIds)]));
  return new Map(rows.map((row) => [row.id, row.email]));
}
