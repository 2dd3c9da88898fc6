import { and, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { newId } from "../../core/ids";
import { getOrMake } from "../../core/maps";
import { toNaira as naira } from "../../core/money";
import { encodeCursor, type Page } from "../../core/pagination";
import { uuidArray } from "../../db/arrays";
import type { Database, Executor } from "../../db/client";
import { type Encoded, encode, insertsOfCallers, writeCommitted } from "../../db/group-commit";
import type { TableRow } from "../../db/guarded";
import { afterCursor } from "../../db/keyset";
import { resultRows } from "../../db/results";
import { recordEvent } from "../events";
import { policies } from "../policies";
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

/**
 * The CTEs `locked` and `moved` of a statement whose CTE `wanted` names the wallets to move
 * (`partner_id`, `total`: the signed sum to add, `at`): the wallets locked in the order of their
 * partner, as in every write that moves wallets, then each moved by its total; `moved` returns each
 * moved wallet's `partner_id` and its balance `before`. "when covered" leaves a wallet the total
 * would take below zero as it was, and does not return it; "whatever the balance" leaves that to the
 * wallet's check, which refuses the statement. The wallets are named by key (uuidArray), not by a
 * join the planner would make a scan of every wallet.
 */
function movedWallets(partnerIds: Iterable<string>, move: "when covered" | "whatever the balance"): SQL {
  const ids = uuidArray(new Set(partnerIds));
  return sql`locked as (
        select w.partner_id from ${wallets} w join wanted using (partner_id)
        where w.partner_id = any(${ids}) order by w.partner_id for update of w
      ), moved as (
        update ${wallets} w set balance_kobo = w.balance_kobo + wanted.total, updated_at = wanted.at from wanted
        where w.partner_id = any(${ids}) and w.partner_id = wanted.partner_id and w.partner_id in (select partner_id from locked)
          ${move === "when covered" ? sql`and w.balance_kobo + wanted.total >= 0` : sql``}
        returning w.partner_id, w.balance_kobo - wanted.total as before
      )`;
}

/** A credit or debit line the caller's checks already allow: added to the balance, and its ledger line with the balance after it. */
type LedgerLine = Pick<WalletEntry, "partnerId" | "kind" | "amountKobo"> & Partial<Pick<WalletEntry, "reference" | "policyId" | "rateBasisPoints">>;

/**
 * Post ledger lines in the caller's transaction, in ONE statement whatever their number (an
 * underwriting pass's refunds or commissions): each wallet is locked (in one order, as in every
 * write that touches wallets), moved by its lines' sum, and each line carries the balance after it,
 * in the order given (none given, no statement). A partner's first line makes its wallet. The
 * wallet's check refuses an overdraft, but it sees only the sum: several lines of one partner must
 * therefore hold no debit, or one could leave a line's balance below zero unseen.
 */
async function postLines(tx: Executor, lines: readonly LedgerLine[], now: Date): Promise<WalletEntry[]> {
  if (!lines.length) return [];
  const linesOf = new Map<string, LedgerLine[]>();
  for (const line of lines) getOrMake(linesOf, line.partnerId, () => []).push(line);
  for (const ofPartner of linesOf.values())
    if (ofPartner.length > 1 && ofPartner.some((line) => line.amountKobo < 0))
      throw new Error("several ledger lines of one partner in one statement must hold no debit");
  const entries: WalletEntry[] = lines.map((line) => ({
    id: newId(),
    reference: null,
    policyId: null,
    rateBasisPoints: null,
    ...line,
    balanceAfterKobo: 0,
    createdAt: now,
  }));
  const records = entries.map((entry, n) => ({
    n,
    id: entry.id,
    partner_id: entry.partnerId,
    kind: entry.kind,
    amount_kobo: entry.amountKobo,
    reference: entry.reference,
    policy_id: entry.policyId,
    rate_basis_points: entry.rateBasisPoints,
  }));
  const posted = resultRows<{ n: number; balance_after: string }>(
    await tx.execute(sql`with lines as (
        select * from json_to_recordset(${JSON.stringify(records)}::json)
          as l(n int, id uuid, partner_id uuid, kind text, amount_kobo bigint, reference text, policy_id uuid, rate_basis_points int)
      ), wanted as (
        select partner_id, sum(amount_kobo)::bigint as total, ${now.toISOString()}::timestamptz as at from lines group by partner_id
      ), ${movedWallets(linesOf.keys(), "whatever the balance")}, posted as (
        select l.*, moved.before + sum(l.amount_kobo) over (partition by l.partner_id order by l.n) as balance_after
        from lines l join moved using (partner_id)
      ), inserted as (
        insert into ${walletEntries} (id, partner_id, kind, amount_kobo, balance_after_kobo, reference, policy_id, rate_basis_points, created_at)
        select id, partner_id, kind, amount_kobo, balance_after, reference, policy_id, rate_basis_points, ${now.toISOString()}::timestamptz from posted
      )
      select n, balance_after::text as balance_after from posted`),
  );
  for (const { n, balance_after } of posted) entries[n]!.balanceAfterKobo = Number(balance_after);
  if (posted.length === entries.length) return entries;
  // The partners without a wallet yet: theirs made, their lines posted now (nothing of theirs was written above).
  const walletHolders = new Set(posted.map(({ n }) => entries[n]!.partnerId));
  const waiting = new Set([...linesOf.keys()].filter((partnerId) => !walletHolders.has(partnerId)));
  for (const partnerId of waiting) await ensureWallet(tx, partnerId);
  const later = await postLines(
    tx,
    lines.filter((line) => waiting.has(line.partnerId)),
    now,
  );
  let next = 0;
  return entries.map((entry) => (waiting.has(entry.partnerId) ? later[next++]! : entry));
}

/**
 * Credit a top-up in the caller's transaction: the balance, its ledger line (kind `topup`, one per
 * reference: the unique index is the backstop) and `wallet.credited`.
 */
export async function creditWallet(tx: Executor, partnerId: string, input: TopUpRequest, now: Date): Promise<WalletEntry> {
  const [entry] = await postLines(tx, [{ partnerId, kind: "topup", amountKobo: input.amountKobo, reference: input.reference }], now);
  await recordEvent(
    tx,
    { partnerId, type: "wallet.credited", payload: { reference: input.reference, amount: naira(input.amountKobo), balance: naira(entry!.balanceAfterKobo) } },
    now,
  );
  return entry!;
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

/** A live premium to debit, with the rows it pays for, as a statement of several takes it. */
interface PremiumPayment {
  partnerId: string;
  policyId: string;
  premiumKobo: number;
  /** Its ledger line's id. */
  entryId: string;
  at: string;
  rows: Encoded[];
}

/**
 * What became of a premium in a statement: debited; not debited although its wallet's other
 * premiums there may have been what did not fit (so it is worth trying alone); or not debited alone.
 */
type PremiumOutcome = "paid" | "try alone" | "unpaid";

/**
 * Debit live premiums and insert what each pays for (a new policy and its event; nothing more for
 * the extra premium of a change or a reinstatement) in ONE statement. Per wallet, its premiums of
 * the statement are debited together when their sum fits the balance (the check in the UPDATE's
 * WHERE) and not at all otherwise; each ledger line carries the balance after it, and rows are
 * inserted only for premiums debited. Wallets are locked in one order, first, as in every other
 * write that touches a wallet and a policy.
 */
async function payPremiums(db: Executor, payments: PremiumPayment[]): Promise<PremiumOutcome[]> {
  const debits = payments.map((p, caller) => ({
    caller,
    partner_id: p.partnerId,
    policy_id: p.policyId,
    premium: p.premiumKobo,
    entry_id: p.entryId,
    at: p.at,
  }));
  const paid = resultRows<{ caller: number }>(
    await db.execute(sql`with debits as (
        select * from json_to_recordset(${JSON.stringify(debits)}::json)
          as d(caller int, partner_id uuid, policy_id uuid, premium bigint, entry_id uuid, at timestamptz)
      ), wanted as (
        select partner_id, -sum(premium)::bigint as total, max(at) as at from debits group by partner_id
      ), ${movedWallets(
        payments.map((p) => p.partnerId),
        "when covered",
      )}, paid as (
        select d.*, moved.before - sum(d.premium) over (partition by d.partner_id order by d.caller) as balance_after
        from debits d join moved using (partner_id)
      )${insertsOfCallers(
        "paid",
        payments.map((p) => p.rows),
      )}, lines as (
        insert into ${walletEntries} (id, partner_id, kind, amount_kobo, balance_after_kobo, policy_id, created_at)
        select entry_id, partner_id, 'premium', -premium, balance_after, policy_id, at from paid
      )
      select caller from paid`),
  );
  const debited = new Set(paid.map((row) => row.caller));
  const premiumsOf = new Map<string, number>();
  for (const p of payments) premiumsOf.set(p.partnerId, (premiumsOf.get(p.partnerId) ?? 0) + 1);
  return payments.map((p, caller) => (debited.has(caller) ? "paid" : premiumsOf.get(p.partnerId)! > 1 ? "try alone" : "unpaid"));
}

/**
 * Debit a live premium and insert what it pays for in one statement (payPremiums). Outside a
 * transaction the statement is shared with the premiums other requests pay at the same moment
 * (docs/decisions.md, "Group commit"), so a live issuance is one round trip and a share of a commit.
 * Refuses (402), having written nothing, when the balance is short (`short` words the refusal for
 * a debit that is not the caller's own premium); a partner's first debit makes its wallet first.
 */
export async function payPremiumFor(
  db: Executor,
  debit: { partnerId: string; policyId: string; premiumKobo: number; now: Date; short?: (balanceKobo: number) => string },
  paid: readonly TableRow[],
): Promise<void> {
  const { partnerId, policyId, premiumKobo } = debit;
  const payment: PremiumPayment = { partnerId, policyId, premiumKobo, entryId: newId(), at: debit.now.toISOString(), rows: encode(paid) };
  const payAlone = async () => (await payPremiums(db, [payment]))[0]!;
  let outcome = await writeCommitted(db, "live premiums", payPremiums, payment);
  // Its wallet's premiums of a shared statement together were more than the balance: alone, this one may fit.
  if (outcome === "try alone") outcome = await payAlone();
  if (outcome === "paid") return;
  // Nothing debited alone: a partner's first debit finds no wallet (made now, then tried again); else the balance is short.
  if ((await ensureWallet(db, partnerId)) && (await payAlone()) === "paid") return;
  const balance = await walletBalance(db, partnerId);
  throw new CommandError(
    402,
    debit.short?.(balance) ??
      `insufficient wallet balance: the premium is ${naira(premiumKobo)} naira and the balance is ${naira(balance)} naira; top up with wallet topup`,
  );
}

/** Give premium back (a declined policy, a cancellation's or a change's refund), in the caller's transaction. */
export async function refundPremium(tx: Executor, partnerId: string, policyId: string, premiumKobo: number, now: Date): Promise<void> {
  await refundPremiums(tx, [{ partnerId, policyId, premiumKobo }], now);
}

/** Give several premiums back in one statement (an underwriting pass's declined live policies), in the caller's transaction. */
export async function refundPremiums(tx: Executor, refunds: readonly { partnerId: string; policyId: string; premiumKobo: number }[], now: Date): Promise<void> {
  await postLines(
    tx,
    refunds.map(({ partnerId, policyId, premiumKobo }) => ({ partnerId, kind: "refund", amountKobo: premiumKobo, policyId })),
    now,
  );
}

/**
 * Post live policies' commission lines (docs/commissions.md) in one statement, in the caller's
 * transaction: kind `commission` credits what the partner earned, `commission_reversal` (negative)
 * takes back the share of a refunded premium; `rateBasisPoints` is the rate it was earned at
 * (`reference` says it in words).
 */
export async function postCommissions(tx: Executor, lines: readonly CommissionLine[], now: Date): Promise<void> {
  await postLines(tx, lines, now);
}

export interface CommissionLine {
  partnerId: string;
  policyId: string;
  kind: "commission" | "commission_reversal";
  amountKobo: number;
  rateBasisPoints: number;
  reference: string;
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
