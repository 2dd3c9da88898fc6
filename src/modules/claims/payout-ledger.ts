/**
 * The insurer's payout account as the operator reads it (docs/claims.md, "The payout ledger"): what
 * its ledger says was paid out and came back, per mode, and the payouts newest first. Never mixed
 * with a partner's wallet, nor test with live.
 */
import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { encodeCursor, type Page } from "../../core/pagination";
import type { Executor } from "../../db/client";
import { afterCursor } from "../../db/keyset";
import { resultRows } from "../../db/results";
import type { Mode } from "../policies";
import { claimPayouts, claims, PAYOUT_STATUSES, type PayoutStatus, payoutLedger } from "./schema";
import type { PayoutRecord } from "./settlement-records";

export interface LedgerTotals {
  paidOutKobo: number;
  reversedKobo: number;
  /** paid out less what came back: what left the account. */
  netKobo: number;
  entries: number;
}

/** The ledger's totals of a mode. */
export async function ledgerTotals(db: Executor, mode: Mode): Promise<LedgerTotals> {
  const [row] = resultRows<{ paid: string | number; reversed: string | number; entries: number }>(
    await db.execute(sql`select
        coalesce(sum(amount_kobo) filter (where kind = 'claim_paid'), 0) as paid,
        coalesce(-sum(amount_kobo) filter (where kind = 'reversal'), 0) as reversed,
        count(*)::int as entries
      from ${payoutLedger} where mode = ${mode}`),
  );
  const paidOutKobo = Number(row?.paid ?? 0);
  const reversedKobo = Number(row?.reversed ?? 0);
  return { paidOutKobo, reversedKobo, netKobo: paidOutKobo - reversedKobo, entries: row?.entries ?? 0 };
}

export interface PayoutFilters {
  mode: Mode;
  status?: PayoutStatus;
}

/** A payout with the number of its claim. */
export type ListedPayout = PayoutRecord & { claimNo: string; partnerId: string };

/** The payout list's filters from a query: live by default; a status from the list. */
export function payoutFiltersOf(query: Record<string, string | undefined>): PayoutFilters {
  const status = query.status?.trim() || undefined;
  if (status && !PAYOUT_STATUSES.includes(status as PayoutStatus)) throw new CommandError(400, `status must be one of ${PAYOUT_STATUSES.join(", ")}`, "status");
  return { mode: query.mode === "test" ? "test" : "live", ...(status ? { status: status as PayoutStatus } : {}) };
}

/** Payouts newest first, keyset-paginated. */
export async function listPayouts(db: Executor, filters: PayoutFilters, page: { limit: number; cursor?: string }): Promise<Page<ListedPayout>> {
  const conditions: SQL[] = [eq(claimPayouts.mode, filters.mode)];
  if (filters.status) conditions.push(eq(claimPayouts.status, filters.status));
  if (page.cursor) conditions.push(afterCursor(claimPayouts.createdAt, claimPayouts.id, page.cursor));
  const rows = await db
    .select({ payout: claimPayouts, claimNo: claims.claimNo, partnerId: claims.partnerId })
    .from(claimPayouts)
    .innerJoin(claims, eq(claims.id, claimPayouts.claimId))
    .where(and(...conditions))
    .orderBy(desc(claimPayouts.createdAt), desc(claimPayouts.id))
    .limit(page.limit + 1);
  const items = rows.slice(0, page.limit).map((r) => ({ ...r.payout, claimNo: r.claimNo, partnerId: r.partnerId }));
  const last = items.at(-1);
  return { items, nextCursor: rows.length > page.limit && last ? encodeCursor(last.createdAt, last.id) : null };
}
