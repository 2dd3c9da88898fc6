import { and, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { newId } from "../../core/ids";
import { toNaira as naira } from "../../core/money";
import { encodeCursor, type Page } from "../../core/pagination";
import type { Database, Executor } from "../../db/client";
import { insertsWhen, type TableRow } from "../../db/guarded";
import { afterCursor } from "../../db/keyset";
import { resultRows } from "../../db/results";
import { recordEvent } from "../events/service";
import { policies } from "../policies/schema";
import type { TopUpRequest } from "./model";
import { walletEntries, wallets } from "./schema";

export type WalletEntry = typeof walletEntries.$inferSelect;

/** Make the partner's wallet unless it has one; true when this made it. */
async function ensureWallet(tx: Executor, partnerId: string): Promise<boolean> {
  return (await tx.insert(wallets).values({ partnerId }).onConflictDoNothing().returning({ partnerId: wallets.partnerId })).length > 0;
}

export async function walletBalance(db: Executor, partnerId: string): Promise<number> {
  const [row] = await db.select({ balance: wallets.balanceKobo }).from(wallets).where(eq(wallets.partnerId, partnerId));
  return row?.balance ?? 0;
}

/** A credit or debit line the caller's checks already allow: added to the balance, and its ledger line with the balance after it. */
type LedgerLine = Pick<WalletEntry, "partnerId" | "kind" | "amountKobo"> & Partial<Pick<WalletEntry, "reference" | "policyId" | "rateBasisPoints">>;

/**
 * Post a ledger line in the caller's transaction. The UPDATE locks the wallet row, so the lines of
 * one partner are written one at a time and each balance after is exact; a partner's first line
 * makes its wallet.
 */
async function postLine(tx: Executor, line: LedgerLine, now: Date): Promise<WalletEntry> {
  const addTo = () =>
    tx
      .update(wallets)
      .set({ balanceKobo: sql`${wallets.balanceKobo} + ${line.amountKobo}`, updatedAt: now })
      .where(eq(wallets.partnerId, line.partnerId))
      .returning({ balance: wallets.balanceKobo });
  let [wallet] = await addTo();
  if (!wallet) {
    await ensureWallet(tx, line.partnerId);
    [wallet] = await addTo();
  }
  const [entry] = await tx
    .insert(walletEntries)
    .values({ id: newId(), ...line, balanceAfterKobo: wallet!.balance, createdAt: now })
    .returning();
  return entry!;
}

/**
 * Credit a top-up in the caller's transaction: the balance, its ledger line (kind `topup`, one per
 * reference: the unique index is the backstop) and `wallet.credited`.
 */
export async function creditWallet(tx: Executor, partnerId: string, input: TopUpRequest, now: Date): Promise<WalletEntry> {
  const entry = await postLine(tx, { partnerId, kind: "topup", amountKobo: input.amountKobo, reference: input.reference }, now);
  await recordEvent(
    tx,
    { partnerId, type: "wallet.credited", payload: { reference: input.reference, amount: naira(input.amountKobo), balance: naira(entry.balanceAfterKobo) } },
    now,
  );
  return entry;
}

/**
 * The top-up stored under `input.reference`, when it is the same top-up (a repeat, or a request
 * whose answer was lost); the same reference with another amount is a conflict.
 */
export async function earlierTopUp(db: Executor, partnerId: string, input: TopUpRequest): Promise<WalletEntry | null> {
  const [prior] = await db
    .select()
    .from(walletEntries)
    .where(and(eq(walletEntries.partnerId, partnerId), eq(walletEntries.kind, "topup"), eq(walletEntries.reference, input.reference)));
  if (prior && prior.amountKobo !== input.amountKobo)
    throw new CommandError(409, `seed.reference ${input.reference} was already used for a top-up of ${naira(prior.amountKobo)} naira`, "seed.reference");
  return prior ?? null;
}

/**
 * Debit a live premium and insert what it pays for (a new policy and its event; nothing more for
 * the extra premium of a change or a reinstatement) in ONE statement: the debit with the balance
 * check in its WHERE, the rows only when the debit happened, and the ledger line with the balance
 * after it. A statement is atomic on its own, so outside a transaction this is a live issuance in
 * one round trip; the wallet row is the first thing it locks, as in every other write that touches
 * a wallet and a policy. Refuses (402), having written nothing, when the balance is short; a
 * partner's first debit makes its wallet first.
 */
export async function payPremiumFor(
  db: Executor,
  debit: { partnerId: string; policyId: string; premiumKobo: number; now: Date },
  paid: readonly TableRow[],
): Promise<void> {
  const { partnerId, policyId, premiumKobo } = debit;
  const now = debit.now.toISOString();
  const statement = sql`with debit as (
      update ${wallets} set balance_kobo = balance_kobo - ${premiumKobo}::bigint, updated_at = ${now}::timestamptz
      where partner_id = ${partnerId}::uuid and balance_kobo >= ${premiumKobo}::bigint
      returning balance_kobo
    )${insertsWhen("debit", paid)}
    insert into ${walletEntries} (id, partner_id, kind, amount_kobo, balance_after_kobo, policy_id, created_at)
    select ${newId()}::uuid, ${partnerId}::uuid, 'premium', ${-premiumKobo}::bigint, balance_kobo, ${policyId}::uuid, ${now}::timestamptz from debit
    returning 1 as paid`;
  if (resultRows(await db.execute(statement)).length) return;
  // Nothing debited: a partner's first debit finds no wallet (made now, then tried again); else the balance is short.
  if ((await ensureWallet(db, partnerId)) && resultRows(await db.execute(statement)).length) return;
  const balance = await walletBalance(db, partnerId);
  throw new CommandError(
    402,
    `insufficient wallet balance: the premium is ${naira(premiumKobo)} naira and the balance is ${naira(balance)} naira; top up with wallet topup`,
  );
}

/** Give premium back (a declined policy, a cancellation's or a change's refund), in the caller's transaction. */
export async function refundPremium(tx: Executor, partnerId: string, policyId: string, premiumKobo: number, now: Date): Promise<void> {
  await postLine(tx, { partnerId, kind: "refund", amountKobo: premiumKobo, policyId }, now);
}

/**
 * Post a live policy's commission line (docs/commissions.md), in the caller's transaction: kind
 * `commission` credits what the partner earned, `commission_reversal` (negative) takes back the
 * share of a refunded premium; `rateBasisPoints` is the rate it was earned at (`reference` says it in words).
 */
export async function postCommission(
  tx: Executor,
  line: { partnerId: string; policyId: string; kind: "commission" | "commission_reversal"; amountKobo: number; rateBasisPoints: number; reference: string },
  now: Date,
): Promise<void> {
  await postLine(tx, line, now);
}

/** The ledger, newest first, keyset-paginated. */
export async function walletLedger(db: Database, partnerId: string, page: { limit: number; cursor?: string }): Promise<Page<WalletEntry>> {
  const conditions: SQL[] = [eq(walletEntries.partnerId, partnerId)];
  if (page.cursor) {
    conditions.push(afterCursor(walletEntries.createdAt, walletEntries.id, page.cursor));
  }
  const rows = await db
    .select()
    .from(walletEntries)
    .where(and(...conditions))
    .orderBy(desc(walletEntries.createdAt), desc(walletEntries.id))
    .limit(page.limit + 1);
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > page.limit && last ? encodeCursor(last.createdAt, last.id) : null };
}

/** The transaction references of the partner's policies among `policyIds` (ledger lines name the policy they paid for). */
export async function policyReferences(db: Database, partnerId: string, policyIds: string[]): Promise<Map<string, string>> {
  if (policyIds.length === 0) return new Map();
  const rows = await db
    .select({ id: policies.id, reference: policies.reference })
    .from(policies)
    .where(and(eq(policies.partnerId, partnerId), inArray(policies.id, [...new Set(policyIds)])));
  return new Map(rows.map((row) => [row.id, row.reference]));
}
