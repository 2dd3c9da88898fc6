import { and, eq, gte, lt, ne, sql } from "drizzle-orm";
import { DAY_MS } from "../../core/time";
import type { Executor } from "../../db/client";
import { endOfWatDayAhead } from "../../products/policy-helpers";
import { claims } from "../claims";
import { type PolicyStatus, policies } from "../policies";
import { walletEntries } from "../wallet";
import { policyDailyTotals } from "./schema";

/**
 * The dashboard's figures, one function per chart. Whose figures: one partner's in the mode they
 * work in, or (no partnerId) every partner's live business for the operator. Days and months are
 * Nigerian (WAT, UTC+1 all year, src/core/time.ts). Policy figures come from the daily totals
 * (./schema.ts), never a scan of policies, so the dashboard stays fast at a million policies;
 * claims, the ledger and "expiring soon" are read through their indexes (docs/performance.md,
 * bench/charts.ts).
 */
export interface ChartScope {
  /** Absent: every partner (the operator's dashboard). */
  partnerId?: string;
  mode: "test" | "live";
}

const WAT_MS = 3_600_000;
/** Days in the "by day" charts (today included). */
const CHART_DAYS = 30;
/** Months in the "by month" charts (this month included). */
const CHART_MONTHS = 12;

/** YYYY-MM-DD of the WAT day holding `at`. */
const watDay = (at: Date) => new Date(at.getTime() + WAT_MS).toISOString().slice(0, 10);
/** The instant a WAT day (YYYY-MM-DD) starts. */
const dayStart = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - WAT_MS);

/** The last CHART_DAYS WAT days, oldest first. */
function lastDays(now: Date): string[] {
  const today = Date.parse(`${watDay(now)}T00:00:00Z`);
  return Array.from({ length: CHART_DAYS }, (_, i) => new Date(today - (CHART_DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

/** The last CHART_MONTHS WAT months (YYYY-MM), oldest first. */
function lastMonths(now: Date): string[] {
  const [year, month] = watDay(now).split("-").map(Number) as [number, number];
  return Array.from({ length: CHART_MONTHS }, (_, i) => new Date(Date.UTC(year, month - 1 - (CHART_MONTHS - 1 - i), 1)).toISOString().slice(0, 7));
}

/** The WAT day or month of a timestamp column, as text: the +1 hour is WAT (no time zone database needed, PGlite included). */
const watMonth = (column: typeof claims.createdAt) => sql<string>`to_char((${column} at time zone 'UTC') + interval '1 hour', 'YYYY-MM')`;
const watDayOf = (column: typeof walletEntries.createdAt) => sql<string>`to_char((${column} at time zone 'UTC') + interval '1 hour', 'YYYY-MM-DD')`;

/** Bound text ISO instant: postgres.js does not bind a Date inside raw sql. */
const instant = (at: Date) => sql`${at.toISOString()}::timestamptz`;

const totalsScope = (scope: ChartScope) =>
  scope.partnerId ? and(eq(policyDailyTotals.partnerId, scope.partnerId), eq(policyDailyTotals.mode, scope.mode)) : eq(policyDailyTotals.mode, scope.mode);

export interface Bucket {
  /** YYYY-MM-DD or YYYY-MM (WAT). */
  key: string;
  premiumKobo: number;
  policies: number;
}

/**
 * Premium written in each bucket: policies issued then, declined ones left out (their premium was
 * never taken), the same rule as the dashboard's "premium this month". Read from the daily totals.
 */
async function premiumBuckets(db: Executor, scope: ChartScope, unit: "day" | "month", keys: string[]): Promise<Bucket[]> {
  const since = unit === "day" ? keys[0]! : `${keys[0]}-01`;
  const bucket = sql<string>`to_char(${policyDailyTotals.day}, ${sql.raw(unit === "day" ? "'YYYY-MM-DD'" : "'YYYY-MM'")})`;
  const rows = await db
    .select({ key: bucket, premium: sql<string>`sum(${policyDailyTotals.premiumKobo})`, count: sql<string>`sum(${policyDailyTotals.policies})` })
    .from(policyDailyTotals)
    .where(and(totalsScope(scope), gte(policyDailyTotals.day, since), ne(policyDailyTotals.status, "d")))
    .groupBy(bucket);
  const found = new Map(rows.map((r) => [r.key, r]));
  return keys.map((key) => ({ key, premiumKobo: Number(found.get(key)?.premium ?? 0), policies: Number(found.get(key)?.count ?? 0) }));
}

/** Premium written on each of the last 30 WAT days, oldest first, every day present. */
export const premiumsByDay = (db: Executor, scope: ChartScope, now: Date) => premiumBuckets(db, scope, "day", lastDays(now));

/** Premium written in each of the last 12 WAT months, oldest first, every month present. */
export const premiumsByMonth = (db: Executor, scope: ChartScope, now: Date) => premiumBuckets(db, scope, "month", lastMonths(now));

/** How many policies of each product there are (every status), most first. */
export async function policiesByProduct(db: Executor, scope: ChartScope): Promise<{ productCode: string; policies: number }[]> {
  const rows = await db
    .select({ productCode: policyDailyTotals.productCode, count: sql<string>`sum(${policyDailyTotals.policies})` })
    .from(policyDailyTotals)
    .where(totalsScope(scope))
    .groupBy(policyDailyTotals.productCode);
  return rows
    .map((r) => ({ productCode: r.productCode, policies: Number(r.count) }))
    .filter((r) => r.policies > 0)
    .sort((a, b) => b.policies - a.policies || a.productCode.localeCompare(b.productCode));
}

/** How many policies stand in each status. */
export async function policiesByStatus(db: Executor, scope: ChartScope): Promise<Record<PolicyStatus, number>> {
  const rows = await db
    .select({ status: policyDailyTotals.status, count: sql<string>`sum(${policyDailyTotals.policies})` })
    .from(policyDailyTotals)
    .where(totalsScope(scope))
    .groupBy(policyDailyTotals.status);
  const byStatus: Record<PolicyStatus, number> = { p: 0, a: 0, d: 0, l: 0, c: 0, e: 0 };
  for (const row of rows) byStatus[row.status] = Number(row.count);
  return byStatus;
}

/** Approved policies whose cover ends within the next 30 days, by the end of the WAT day 30 days on (the expiry job's index: active policies by end of cover). */
export async function expiringSoon(db: Executor, scope: ChartScope, now: Date): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(policies)
    .where(
      and(
        eq(policies.status, "a"),
        sql`${policies.coverEnd} > ${instant(now)}`,
        sql`${policies.coverEnd} <= ${instant(endOfWatDayAhead(now, 30))}`,
        scope.partnerId ? eq(policies.partnerId, scope.partnerId) : undefined,
        eq(policies.mode, scope.mode),
      ),
    );
  return row?.count ?? 0;
}

export interface ClaimsRatioMonth {
  /** YYYY-MM (WAT). */
  month: string;
  /** Claims reported that month: paid, or still held in reserve (claimed while open, payable once approved). */
  claimsKobo: number;
  premiumKobo: number;
  /** claims ÷ premium; null when no premium was written that month. */
  ratio: number | null;
}

/**
 * Claims against premium, month by month: the claims reported in a month (what was paid on them,
 * or what is reserved while they are open) over the premium written that month. Rejected and
 * withdrawn claims count nothing.
 */
export async function claimsRatioByMonth(db: Executor, scope: ChartScope, now: Date): Promise<ClaimsRatioMonth[]> {
  const months = lastMonths(now);
  const bucket = watMonth(claims.createdAt);
  const incurred = sql<string>`sum(case
    when ${claims.status} in ('submitted', 'in_review', 'info_requested') then ${claims.reserveKobo}
    when ${claims.status} in ('approved', 'paid') then coalesce(${claims.payableKobo}, 0)
    else 0 end)`;
  const [rows, premiums] = await Promise.all([
    db
      .select({ key: bucket, claims: incurred })
      .from(claims)
      .innerJoin(policies, eq(policies.id, claims.policyId))
      .where(
        and(
          scope.partnerId ? eq(claims.partnerId, scope.partnerId) : undefined,
          eq(policies.mode, scope.mode),
          sql`${claims.createdAt} >= ${instant(dayStart(`${months[0]}-01`))}`,
        ),
      )
      .groupBy(bucket),
    premiumBuckets(db, scope, "month", months),
  ]);
  const found = new Map(rows.map((r) => [r.key, Number(r.claims ?? 0)]));
  return premiums.map(({ key, premiumKobo }) => {
    const claimsKobo = found.get(key) ?? 0;
    return { month: key, claimsKobo, premiumKobo, ratio: premiumKobo > 0 ? claimsKobo / premiumKobo : null };
  });
}

export interface BalanceDay {
  /** YYYY-MM-DD (WAT). */
  day: string;
  /** The balance at the end of that day. */
  balanceKobo: number;
}

/**
 * One partner's wallet at the end of each of the last 30 WAT days, from the ledger's running
 * balance (balance_after of the day's last line; a quiet day keeps the day before's). The wallet
 * is the partner's one prepaid account, the same in both modes.
 */
export async function walletBalanceByDay(db: Executor, partnerId: string, now: Date): Promise<BalanceDay[]> {
  const days = lastDays(now);
  const since = dayStart(days[0]!);
  const latestFirst = [sql`${walletEntries.createdAt} desc`, sql`${walletEntries.id} desc`];
  const bucket = watDayOf(walletEntries.createdAt);
  const [before, inWindow] = await Promise.all([
    db
      .select({ balance: walletEntries.balanceAfterKobo })
      .from(walletEntries)
      .where(and(eq(walletEntries.partnerId, partnerId), lt(walletEntries.createdAt, since)))
      .orderBy(...latestFirst)
      .limit(1),
    // The day's last line: DISTINCT ON keeps the first row of each day in this order.
    db
      .selectDistinctOn([bucket], { day: bucket, balance: walletEntries.balanceAfterKobo })
      .from(walletEntries)
      .where(and(eq(walletEntries.partnerId, partnerId), gte(walletEntries.createdAt, since)))
      .orderBy(bucket, ...latestFirst),
  ]);
  const endOfDay = new Map(inWindow.map((r) => [r.day, r.balance]));
  let balance = before[0]?.balance ?? 0;
  return days.map((day) => {
    balance = endOfDay.get(day) ?? balance;
    return { day, balanceKobo: balance };
  });
}
