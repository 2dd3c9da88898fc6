/**
 * The regulator's view of claims (issue 37, item 7; docs/reporting.md, "The regulator's view"): the
 * open claims by age and against the settlement deadline, how long paid claims took from notification
 * to money received, and how many decided claims were rejected and why. Every figure is aggregated
 * in the database, one statement per table, through indexes that keep it fast at a million claims
 * (docs/performance.md, "Claims for the regulator at 1M"); nothing reads claims into memory.
 *
 * Days are Nigerian (WAT, UTC+1 all year, `+ interval '1 hour'` as the dashboard writes it, so PGlite
 * needs no time zone database). A claim's mode is its policy's; test and live are never mixed.
 *
 * The indexes are the report's own (drizzle/0034_claims_report_indexes.sql): each figure's claims are
 * a range of a partial index that holds every column the figure reads of them, and their policies'
 * mode and product are read from `policies_mode_product_idx`, so neither table is visited row by row.
 * A change to what a query reads of claims must change its index too (the benchmark shows the cost).
 */
import { sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Mode } from "../../core/principal";
import type { Executor } from "../../db/client";
import { resultRows } from "../../db/results";
import { watMidnight } from "../../products/policy-helpers";
import { addDays } from "../calendar";
import { claims, type RejectionReason } from "../claims";
import { policies } from "../policies";

/** Whose claims: one mode always, and one partner's or every partner's. */
export interface ClaimsReportScope {
  mode: Mode;
  partnerId?: string;
}

/** Nigerian days, both included (YYYY-MM-DD, already checked). */
export interface ReportPeriod {
  from: string;
  to: string;
}

/** The age bands of open claims, in days since the day of notification (that day is day 0). */
export const AGE_BANDS = [
  { key: "0-15", upTo: 15 },
  { key: "16-30", upTo: 30 },
  { key: "31-45", upTo: 45 },
  { key: "46-60", upTo: 60 },
  { key: "over-60", upTo: null },
] as const;
export type AgeBand = (typeof AGE_BANDS)[number]["key"];

/** What a set of open claims holds: how many, where they stand against the settlement deadline, and their reserve. */
interface OpenFigures {
  claims: number;
  /** More than `dueSoonDays` days left. */
  withinTime: number;
  /** Between 0 (the deadline's last day) and `dueSoonDays` days left. */
  dueSoon: number;
  /** The deadline's day has passed. */
  overdue: number;
  reserveKobo: number;
}

/** One line of the ageing: a product (null: every product) and a band (null: every band). */
export interface AgeingLine extends OpenFigures {
  productCode: string | null;
  band: AgeBand | null;
}

export interface Ageing {
  /** The Nigerian day the claims are aged on: today. */
  asOf: string;
  dueSoonDays: number;
  /** Every product and band with open claims, each product's total (band null), each band's over every product (product null), and the grand total (both null, always present). */
  lines: AgeingLine[];
}

/** The settlement times of one product's paid claims (null: every product). */
export interface SettlementLine {
  productCode: string | null;
  paid: number;
  /** From notification (created) to money received (settled), in seconds: the median and the 90th percentile (percentile_cont). */
  medianSeconds: number;
  p90Seconds: number;
  /** Settled on a Nigerian day after the claim's settlement deadline. */
  late: number;
  lateInterestKobo: number;
}

/** The decisions on one product's claims (null: every product). */
interface DecisionLine {
  productCode: string | null;
  /** Approved (paid since, or not) or rejected in the period. */
  decided: number;
  rejected: number;
}

/** Rejections of one product (null: every product) for one reason (null: not recorded, rejected before reasons were kept). */
export interface ReasonLine {
  productCode: string | null;
  reason: RejectionReason | null;
  rejected: number;
}

export interface Rejections {
  decisions: DecisionLine[];
  reasons: ReasonLine[];
}

/** The first instant of a Nigerian day, and the first after the period's last day: the period is [start, end). */
const periodBounds = (period: ReportPeriod) => ({ start: watMidnight(period.from), end: watMidnight(addDays(period.to, 1)) });

/** Bound text ISO instant: postgres.js does not bind a Date inside raw sql. */
const instant = (at: Date) => sql`${at.toISOString()}::timestamptz`;

/** The Nigerian day of a timestamp column. */
const watDayOf = (column: AnyPgColumn) => sql`((${column} at time zone 'UTC') + interval '1 hour')::date`;

/** Claims of the scope's mode (their policy's) and partner, joined to their policy for both. */
const claimsOf = (scope: ClaimsReportScope) => sql`${claims} join ${policies} on ${policies.id} = ${claims.policyId}
  and ${policies.mode} = ${scope.mode}${scope.partnerId ? sql` and ${claims.partnerId} = ${scope.partnerId}::uuid` : sql``}`;

const count = (value: unknown) => Number(value ?? 0);

/**
 * When a claim was decided: the instant of its history's step to approved or rejected (a claim has
 * at most one: approved leads only to paid, rejected is final), as the ISO text the history keeps.
 * The same expression, in the C collation, is the index `claims_decided_idx` (drizzle/0034), so a
 * period's decisions are read as a range of it.
 */
const decidedAt = sql`(jsonb_path_query_first(${claims.history}, '$[*] ? (@.status == "approved" || @.status == "rejected").at') #>> '{}') collate "C"`;
/** ISO text of an instant, in the form the history writes (Date#toISOString), to compare with decidedAt. */
const isoText = (at: Date) => sql`${at.toISOString()} collate "C"`;

/**
 * The open claims (submitted, in review, waiting for information, approved: not paid, rejected or
 * withdrawn) as they stand today, by age since the day of notification and against the settlement
 * deadline as it runs today (a claim waiting for information: moved by the days waited, up to its
 * pause's allowance, as the claims clock reads it). Read from `claims_open_report_idx`, partial on
 * next_due_on, which is set exactly while a claim is open (the clock's `claims_next_due_idx`).
 */
export async function claimsAgeing(db: Executor, scope: ClaimsReportScope, today: string, dueSoonDays: number): Promise<Ageing> {
  const day = sql`${today}::date`;
  const age = sql`(${day} - ${watDayOf(claims.createdAt)})`;
  // The band's number, from 1: the first whose last day the age has not passed.
  const band = sql`case ${sql.join(
    AGE_BANDS.flatMap((b, i) => (b.upTo === null ? [] : [sql`when ${age} <= ${sql.raw(String(b.upTo))} then ${sql.raw(String(i + 1))}`])),
    sql` `,
  )} else ${sql.raw(String(AGE_BANDS.length))} end`;
  const due = sql`(${claims.settlementDueOn} + case when ${claims.status} = 'info_requested'
    then coalesce(least(greatest(${day} - ${claims.pausedSince}, 0), ${claims.pausedUntil} - ${claims.pausedSince}), 0) else 0 end)`;
  const rows = resultRows<Record<string, unknown>>(
    await db.execute(sql`
      select product_code, band, grouping(product_code, band) as whole, count(*)::int as claims,
        (count(*) filter (where days_left > ${dueSoonDays}))::int as within_time,
        (count(*) filter (where days_left between 0 and ${dueSoonDays}))::int as due_soon,
        (count(*) filter (where days_left < 0))::int as overdue,
        coalesce(sum(reserve_kobo), 0)::text as reserve_kobo
      from (
        select ${policies.productCode} as product_code, ${band} as band, (${due} - ${day}) as days_left, ${claims.reserveKobo} as reserve_kobo
        from ${claims} join ${policies} on ${policies.id} = ${claims.policyId} and ${policies.mode} = ${scope.mode}
        where ${claims.nextDueOn} is not null and ${claims.status} in ('submitted', 'in_review', 'info_requested', 'approved')
          ${scope.partnerId ? sql`and ${claims.partnerId} = ${scope.partnerId}::uuid` : sql``}
      ) as open
      group by grouping sets ((product_code, band), (product_code), (band), ())`),
  );
  const lines = rows.map((r) => {
    const whole = count(r.whole);
    return {
      // grouping(): bit 2 set when the product is rolled up, bit 1 when the band is.
      productCode: whole & 2 ? null : String(r.product_code),
      band: whole & 1 ? null : AGE_BANDS[count(r.band) - 1]!.key,
      claims: count(r.claims),
      withinTime: count(r.within_time),
      dueSoon: count(r.due_soon),
      overdue: count(r.overdue),
      reserveKobo: count(r.reserve_kobo),
    };
  });
  // No open claim: the grand total is still a line (of noughts).
  if (!lines.some((l) => l.productCode === null && l.band === null))
    lines.push({ productCode: null, band: null, claims: 0, withinTime: 0, dueSoon: 0, overdue: 0, reserveKobo: 0 });
  return { asOf: today, dueSoonDays, lines };
}

/**
 * Claims paid in the period (money received, `settled_at`, within it), per product and over every
 * product: how many, the median and 90th percentile of the time from notification to money received
 * (PostgreSQL's percentile_cont: interpolated between the two nearest claims), how many were settled
 * on a day after their deadline, and the late interest fixed on them.
 */
export async function settlementTimes(db: Executor, scope: ClaimsReportScope, period: ReportPeriod): Promise<SettlementLine[]> {
  const { start, end } = periodBounds(period);
  const seconds = sql`extract(epoch from (${claims.settledAt} - ${claims.createdAt}))`;
  const rows = resultRows<Record<string, unknown>>(
    await db.execute(sql`
      select ${policies.productCode} as product_code, grouping(${policies.productCode}) as whole, count(*)::int as paid,
        (percentile_cont(0.5) within group (order by ${seconds}))::float8 as median_seconds,
        (percentile_cont(0.9) within group (order by ${seconds}))::float8 as p90_seconds,
        (count(*) filter (where ${watDayOf(claims.settledAt)} > ${claims.settlementDueOn}))::int as late,
        coalesce(sum(${claims.lateInterestKobo}), 0)::text as late_interest_kobo
      from ${claimsOf(scope)}
      where ${claims.status} = 'paid' and ${claims.settledAt} >= ${instant(start)} and ${claims.settledAt} < ${instant(end)}
      group by grouping sets ((${policies.productCode}), ())`),
  );
  return rows.map((r) => ({
    productCode: count(r.whole) ? null : String(r.product_code),
    paid: count(r.paid),
    medianSeconds: count(r.median_seconds),
    p90Seconds: count(r.p90_seconds),
    late: count(r.late),
    lateInterestKobo: count(r.late_interest_kobo),
  }));
}

/**
 * Claims decided in the period — approved (and perhaps paid since) or rejected, at the instant of that
 * step in their history — per product and over every product, and the rejected ones by reason (per
 * product and over every product). A claim rejected before reasons were kept has none (null).
 */
export async function rejections(db: Executor, scope: ClaimsReportScope, period: ReportPeriod): Promise<Rejections> {
  const { start, end } = periodBounds(period);
  // "" stands for a rejection without a recorded reason, so that it is a group of its own; non-rejected claims have no reason group (null).
  const rows = resultRows<Record<string, unknown>>(
    await db.execute(sql`
      select product_code, reason, grouping(product_code, reason) as whole, count(*)::int as decided,
        (count(*) filter (where status = 'rejected'))::int as rejected
      from (
        select ${policies.productCode} as product_code, ${claims.status} as status,
          case when ${claims.status} = 'rejected' then coalesce(${claims.rejectionReason}, '') end as reason
        from ${claimsOf(scope)}
        where ${claims.status} in ('approved', 'paid', 'rejected') and ${decidedAt} >= ${isoText(start)} and ${decidedAt} < ${isoText(end)}
      ) as decided
      group by grouping sets ((product_code), (), (product_code, reason), (reason))`),
  );
  const decisions: DecisionLine[] = [];
  const reasons: ReasonLine[] = [];
  for (const r of rows) {
    const whole = count(r.whole);
    const productCode = whole & 2 ? null : String(r.product_code);
    if (whole & 1) decisions.push({ productCode, decided: count(r.decided), rejected: count(r.rejected) });
    // A reason group of claims not rejected (reason null) is no reason's.
    else if (r.reason !== null)
      reasons.push({ productCode, reason: r.reason === "" ? null : (String(r.reason) as RejectionReason), rejected: count(r.rejected) });
  }
  if (!decisions.some((d) => d.productCode === null)) decisions.push({ productCode: null, decided: 0, rejected: 0 });
  return { decisions, reasons };
}

/** The three figures of the regulator's view for one scope: the open claims today, and the period's settlements and decisions. */
export interface ClaimsReport {
  ageing: Ageing;
  settlement: SettlementLine[];
  rejections: Rejections;
}

/** Which of the figures to work out: a table's file needs only its own. */
export type ClaimsReportPart = keyof ClaimsReport;

/** The figures of `parts` (all three by default); the others are left empty, as for a scope without claims. */
export async function claimsReport(
  db: Executor,
  filters: { scope: ClaimsReportScope; period: ReportPeriod },
  today: string,
  dueSoonDays: number,
  parts: readonly ClaimsReportPart[] = ["ageing", "settlement", "rejections"],
): Promise<ClaimsReport> {
  const wanted = new Set(parts);
  const [ageing, settlement, decided] = await Promise.all([
    wanted.has("ageing") ? claimsAgeing(db, filters.scope, today, dueSoonDays) : { asOf: today, dueSoonDays, lines: [] },
    wanted.has("settlement") ? settlementTimes(db, filters.scope, filters.period) : [],
    wanted.has("rejections") ? rejections(db, filters.scope, filters.period) : { decisions: [], reasons: [] },
  ]);
  return { ageing, settlement, rejections: decided };
}
