/**
 * The complaints report (issue 38, item 4; docs/complaints.md, "The report"): the published results
 * the regulator asks for, for a period of Nigerian days — complaints received and resolved, those
 * resolved within the deadline, the outcomes and redress, the complaints still open at the period's
 * end by age, and each by category, by product and by partner. Aggregated in the database, one
 * statement per table; test and live are never mixed.
 */
import { sql } from "drizzle-orm";
import type { Mode } from "../../core/principal";
import type { Executor } from "../../db/client";
import { resultRows } from "../../db/results";
import { complaints } from "./schema";

export interface ComplaintsReportScope {
  mode: Mode;
  /** Nigerian days, both included. */
  from: string;
  to: string;
}

/** The age bands of complaints open at the period's end, in days since the day received (day 0). */
export const AGE_BANDS = [
  { key: "0-7", label: "0–7 days", upTo: 7 },
  { key: "8-14", label: "8–14 days", upTo: 14 },
  { key: "15-30", label: "15–30 days", upTo: 30 },
  { key: "over-30", label: "Over 30 days", upTo: null },
] as const;

/** The figures of one group (a category, a product, a partner, or everything). */
export interface ComplaintFigures {
  received: number;
  resolved: number;
  resolvedInTime: number;
  upheld: number;
  partlyUpheld: number;
  notUpheld: number;
  withdrawn: number;
  redressKobo: number;
  /** Open at the end of the period. */
  open: number;
}

export interface ComplaintsReport {
  scope: ComplaintsReportScope;
  totals: ComplaintFigures;
  /** Open at the period's end, by band. */
  ageing: { band: (typeof AGE_BANDS)[number]["key"]; open: number }[];
  byCategory: (ComplaintFigures & { key: string })[];
  /** key null: no policy linked. */
  byProduct: (ComplaintFigures & { key: string | null })[];
  byPartner: (ComplaintFigures & { key: string })[];
}

const watDay = (column: unknown) => sql`((${column} at time zone 'UTC') + interval '1 hour')::date`;

/** The figures of the groups `by` makes (sql`null` for one group of everything). */
async function figures(db: Executor, scope: ComplaintsReportScope, by: ReturnType<typeof sql>) {
  const from = sql`${scope.from}::date`;
  const to = sql`${scope.to}::date`;
  const closedOn = watDay(complaints.closedAt);
  const resolvedIn = sql`${complaints.status} = 'resolved' and ${closedOn} between ${from} and ${to}`;
  const rows = resultRows<Record<string, unknown>>(
    await db.execute(sql`
      select ${by} as key,
        count(*) filter (where ${complaints.receivedOn} between ${from} and ${to}) as received,
        count(*) filter (where ${resolvedIn}) as resolved,
        count(*) filter (where ${resolvedIn} and ${closedOn} <= ${complaints.resolveDueOn}) as resolved_in_time,
        count(*) filter (where ${resolvedIn} and ${complaints.outcome} = 'upheld') as upheld,
        count(*) filter (where ${resolvedIn} and ${complaints.outcome} = 'partly_upheld') as partly_upheld,
        count(*) filter (where ${resolvedIn} and ${complaints.outcome} = 'not_upheld') as not_upheld,
        count(*) filter (where ${complaints.status} = 'withdrawn' and ${closedOn} between ${from} and ${to}) as withdrawn,
        coalesce(sum(${complaints.redressKobo}) filter (where ${resolvedIn}), 0) as redress_kobo,
        count(*) filter (where ${complaints.receivedOn} <= ${to} and (${complaints.closedAt} is null or ${closedOn} > ${to})) as open
      from ${complaints}
      where ${complaints.mode} = ${scope.mode} and ${complaints.receivedOn} <= ${to}
        and (${complaints.closedAt} is null or ${closedOn} >= ${from} or ${complaints.receivedOn} >= ${from})
      group by 1 order by 1 nulls last`),
  );
  return rows.map((r) => ({
    key: r.key as string | null,
    received: Number(r.received),
    resolved: Number(r.resolved),
    resolvedInTime: Number(r.resolved_in_time),
    upheld: Number(r.upheld),
    partlyUpheld: Number(r.partly_upheld),
    notUpheld: Number(r.not_upheld),
    withdrawn: Number(r.withdrawn),
    redressKobo: Number(r.redress_kobo),
    open: Number(r.open),
  }));
}

const NONE: ComplaintFigures = { received: 0, resolved: 0, resolvedInTime: 0, upheld: 0, partlyUpheld: 0, notUpheld: 0, withdrawn: 0, redressKobo: 0, open: 0 };

/** Complaints open at the end of the period, by how long they had been open then. */
async function ageing(db: Executor, scope: ComplaintsReportScope) {
  const to = sql`${scope.to}::date`;
  const age = sql`(${to} - ${complaints.receivedOn})`;
  const band = sql.raw(
    `case ${AGE_BANDS.filter((b) => b.upTo !== null)
      .map((b) => `when age <= ${b.upTo} then '${b.key}'`)
      .join(" ")} else 'over-30' end`,
  );
  const rows = resultRows<{ band: string; open: unknown }>(
    await db.execute(sql`select ${band} as band, count(*) as open from (
        select ${age} as age from ${complaints}
        where ${complaints.mode} = ${scope.mode} and ${complaints.receivedOn} <= ${to}
          and (${complaints.closedAt} is null or ${watDay(complaints.closedAt)} > ${to})
      ) open_complaints group by 1`),
  );
  const counts = new Map(rows.map((r) => [r.band, Number(r.open)]));
  return AGE_BANDS.map((b) => ({ band: b.key, open: counts.get(b.key) ?? 0 }));
}

export async function complaintsReport(db: Executor, scope: ComplaintsReportScope): Promise<ComplaintsReport> {
  const [totals] = await figures(db, scope, sql`null::text`);
  return {
    scope,
    totals: totals ?? { key: null, ...NONE },
    ageing: await ageing(db, scope),
    byCategory: (await figures(db, scope, sql`${complaints.category}`)) as (ComplaintFigures & { key: string })[],
    byProduct: await figures(db, scope, sql`${complaints.productCode}`),
    byPartner: (await figures(db, scope, sql`${complaints.partnerId}::text`)) as (ComplaintFigures & { key: string })[],
  };
}
