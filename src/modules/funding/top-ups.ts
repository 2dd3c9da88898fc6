/**
 * Top-ups (`wallet topup`, the portal's form; docs/funding.md): a live one starts a funding the
 * provider's payment settles, once per partner reference; a test key's is credited at once as a
 * specimen, never in the live wallet.
 */
import { and, eq, sql } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { newId } from "../../core/ids";
import { toNaira } from "../../core/money";
import type { Database, Executor } from "../../db/client";
import { type AuditActor, recordAudit } from "../audit";
import { recordEvent } from "../events";
import type { TopUpRequest } from "../wallet";
import { earlierTopUp, type WalletEntry, walletEntries, wallets } from "../wallet";
import { receiveCallback } from "./callbacks";
import type { PaymentProvider } from "./provider";
import { walletFundings } from "./schema";
import { type Funding, paymentOf, TEST_PROVIDER } from "./settlement";

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

/** A partner's test balance: the sum of its test top-ups (specimens, never in the live wallet). */
export async function testBalance(db: Executor, partnerId: string): Promise<number> {
  const [sum] = await db
    .select({ total: sql<string>`coalesce(sum(${walletFundings.amountKobo}), 0)` })
    .from(walletFundings)
    .where(and(eq(walletFundings.partnerId, partnerId), eq(walletFundings.provider, TEST_PROVIDER)));
  return Number(sum?.total ?? 0);
}

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
    const balanceAfterKobo = (await testBalance(tx, partnerId)) + request.amountKobo;
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
