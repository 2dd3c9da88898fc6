/**
 * The regulator's view at a million claims (`npm run bench:claims-report`; docs/performance.md,
 * "Claims for the regulator at 1M"): the three figures' queries — open claims by age, settlement
 * times, rejections — timed in process with the indexes they read and without them (dropped in a
 * transaction rolled back afterwards), and the whole page and a download over HTTP.
 *
 * A fresh PostgreSQL database `bench_regulator_<pid>` under BENCH_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres), made with generate_series and dropped afterwards
 * (BENCH_KEEP_DATABASE=1 keeps it). BENCH_CLAIMS sets the size (1,000,000).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import type { Executor } from "../src/db/client";
import { openDatabase } from "../src/db/client";
import { registerConsumer } from "../src/modules/consumers/service";
import { createPartner } from "../src/modules/partners/service";
import { claimsAgeing, rejections, settlementTimes } from "../src/modules/reporting/claims-report";
import { watMidnight, watToday } from "../src/products/policy-helpers";
import { describeMachine, writeSection } from "./report";
import { portalCookie } from "./scale";
import { startServer } from "./servers";

const MARKERS: [string, string] = ["<!-- bench-claims-report:start -->", "<!-- bench-claims-report:end -->"];
const root = fileURLToPath(new URL("..", import.meta.url));
const env = process.env;
const SIZE = Number(env.BENCH_CLAIMS ?? 1_000_000);
/** The indexes the report adds (drizzle/0034_claims_report_indexes.sql); without them the ageing reads the clock's partial index of open claims. */
const REPORT_INDEXES = ["claims_open_report_idx", "claims_settled_idx", "claims_decided_idx", "policies_mode_product_idx"];
const PRODUCTS = ["vhcl-tprt-1111", "vhcl-cmpr-1111", "phnn-flx1-1111", "ltix-stnd-1111", "gtrn-stnd-1111", "crlt-psnl-1111"];
const REASONS = ["not_covered", "excluded_cause", "outside_cover", "insufficient_evidence", "misrepresentation", "duplicate", "late_notification", "other"];
const say = (line: string) => process.stdout.write(`[bench:claims-report] ${line}\n`);

/** p50 and p95 of `count` calls after `warm` unmeasured ones. */
async function timed(count: number, warm: number, run: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < warm; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]! * 10) / 10;
  return { p50: at(0.5), p95: at(0.95) };
}

/**
 * `SIZE` live-and-test policies with one claim each, over the last two years, for two partners (90 %
 * and 10 %): 8 % open (submitted, in review, waiting, approved), 64 % paid 1–75 days after
 * notification, 14 % rejected (one in nine without a recorded reason), 14 % withdrawn; 5 % test mode.
 */
async function grow(sql: postgres.Sql, big: { partnerId: string; consumerId: string }, small: { partnerId: string; consumerId: string }) {
  const batch = 100_000;
  for (let from = 1; from <= SIZE; from += batch) {
    const to = Math.min(SIZE, from + batch - 1);
    say(`policies and claims ${from.toLocaleString("en-NG")} to ${to.toLocaleString("en-NG")}`);
    await sql`
      insert into policies (id, partner_id, consumer_id, reference, product_code, mode, status, route, premium_kobo, duration, cover_start, cover_end,
        facts, printed, policy_no, certificate_token, decided_by, created_at, status_at, registry_published_at)
      select gen_random_uuid(), case when n % 10 = 0 then ${small.partnerId}::uuid else ${big.partnerId}::uuid end,
        case when n % 10 = 0 then ${small.consumerId}::uuid else ${big.consumerId}::uuid end, 'bulk-' || n,
        (string_to_array(${PRODUCTS.join(",")}, ','))[1 + n % ${PRODUCTS.length}], case when n % 20 = 0 then 'test' else 'live' end, 'a', 'insurer', 1500000, '1y',
        now() - interval '800 days', now() - interval '435 days', '{}'::jsonb, '[]'::jsonb, 'BLK-' || n, md5('bulk' || n), 'bulk',
        now() - interval '800 days', now() - interval '800 days', now()
      from generate_series(${from}::int, ${to}::int) as n`;
    await sql`
      with made as (
        select p.id as policy_id, p.partner_id, n,
          now() - make_interval(secs => (n::bigint * 7919) % (730 * 86400)) as notified,
          (n * 31) % 100 as h, 1 + n % 45 as decide_after, n % 30 as pay_after
        from generate_series(${from}::int, ${to}::int) as n join policies p on p.reference = 'bulk-' || n
      ), shaped as (
        select *, case when h < 2 then 'submitted' when h < 4 then 'in_review' when h < 5 then 'info_requested' when h < 8 then 'approved'
            when h < 72 then 'paid' when h < 86 then 'rejected' else 'withdrawn' end as status,
          notified + make_interval(days => decide_after) as decided,
          notified + make_interval(days => decide_after + pay_after, secs => n % 86400) as settled
        from made
      )
      insert into claims (id, partner_id, policy_id, claim_no, status, rejection_reason, incident_date, description, claimed_kobo, approved_kobo, excess_kobo,
        payable_kobo, history, settlement_due_on, paused_since, paused_until, reserve_kobo, settled_at, late_interest_kobo, created_at, updated_at)
      select gen_random_uuid(), partner_id, policy_id, 'CLM-BULK-' || n, status,
        case when status = 'rejected' and n % 9 <> 0 then (string_to_array(${REASONS.join(",")}, ','))[1 + n % ${REASONS.length}] end,
        ((notified at time zone 'UTC') + interval '1 hour')::date, 'bulk', 500000,
        case when status in ('approved', 'paid') then 450000 end, case when status in ('approved', 'paid') then 0 end,
        case when status in ('approved', 'paid') then 450000 end,
        jsonb_build_array(jsonb_build_object('status', 'submitted', 'by', 'partner', 'at', to_char(notified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
          || case when status in ('approved', 'paid', 'rejected') then jsonb_build_array(jsonb_build_object('status', case when status = 'rejected' then 'rejected' else 'approved' end,
            'by', 'admin', 'at', to_char(decided at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))) else '[]'::jsonb end
          || case when status = 'paid' then jsonb_build_array(jsonb_build_object('status', 'paid', 'by', 'admin', 'at', to_char(settled at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))) else '[]'::jsonb end,
        ((notified at time zone 'UTC') + interval '1 hour')::date + 60,
        case when status = 'info_requested' then ((notified at time zone 'UTC') + interval '1 hour')::date + 5 end,
        case when status = 'info_requested' then ((notified at time zone 'UTC') + interval '1 hour')::date + 35 end,
        case when status in ('submitted', 'in_review', 'info_requested') then 500000 when status = 'approved' then 450000 else 0 end,
        case when status = 'paid' then settled end,
        case when status = 'paid' and decide_after + pay_after > 60 then 450000 * 27 * (decide_after + pay_after - 60) / 36500 end,
        notified, case when status = 'paid' then settled when status in ('approved', 'rejected') then decided else notified end
      from shaped`;
  }
  await sql`vacuum analyze policies`;
  await sql`vacuum analyze claims`;
}

interface Timing {
  what: string;
  indexes: "with" | "without";
  p50: number;
  p95: number;
}

/** Run `body` in a transaction with the report's indexes dropped, then roll it back (the indexes come back). */
async function withoutIndexes(db: Executor, body: (tx: Executor) => Promise<void>): Promise<void> {
  await db
    .transaction(async (tx) => {
      for (const name of REPORT_INDEXES) await tx.execute(`drop index ${name}`);
      await body(tx);
      throw new Error("roll back");
    })
    .catch((error: Error) => {
      if (error.message !== "roll back") throw error;
    });
}

function render(
  timings: Timing[],
  pages: { what: string; p50: number; p95: number }[],
  counts: Record<string, number>,
  machine: ReturnType<typeof describeMachine>,
) {
  const rows = timings.map((t) => `| ${t.what} | ${t.indexes} | ${t.p50} ms | ${t.p95} ms |`);
  return [
    `## Claims for the regulator at 1M (issue 37, item 7; \`npm run bench:claims-report\`, ${new Date().toISOString().slice(0, 10)})`,
    "",
    `${SIZE.toLocaleString("en-NG")} claims, one per policy, notified over the last two years, two partners (90 % and 10 %), 5 % in test mode; ` +
      `${counts.open!.toLocaleString("en-NG")} open, ${counts.paid!.toLocaleString("en-NG")} paid, ${counts.rejected!.toLocaleString("en-NG")} rejected. ` +
      `The period is the last 90 days (${counts.paidInPeriod!.toLocaleString("en-NG")} claims paid and ${counts.decidedInPeriod!.toLocaleString("en-NG")} decided in it). ` +
      `On ${machine.cores} cores (${machine.cpu}; PostgreSQL ${machine.postgres}).`,
    "",
    "Each figure's query, in process (10 calls after 2 to warm); *without* drops the report's four indexes (`claims_open_report_idx`, `claims_settled_idx`, `claims_decided_idx`, `policies_mode_product_idx`) in a transaction rolled back afterwards (the ageing then reads the clock's partial index of open claims and each claim's row):",
    "",
    "| query | indexes | p50 | p95 |",
    "|---|---|---:|---:|",
    ...rows,
    "",
    "With the indexes, a figure reads index entries only (index-only scans of the claims' partial indexes, each claim's policy from `policies_mode_product_idx`), so its cost follows the claims it counts — here a heavy book: 8 % of all claims open, and a quarter's payments and decisions over 100,000 each — not the size of the table. The rejections' expression index is no covering one (PostgreSQL serves no index-only scan from an expression index), so the period's decided claims are still read from the table. The page runs its three statements at once and draws the tables; the machine is a shared two-core one, so timings vary between runs.",
    "",
    "Over HTTP, with the indexes (10 requests after 2):",
    "",
    "| request | p50 | p95 |",
    "|---|---:|---:|",
    ...pages.map((p) => `| ${p.what} | ${p.p50} ms | ${p.p95} ms |`),
  ].join("\n");
}

async function main(): Promise<number> {
  const baseUrl = new URL(env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
  const dbName = `bench_regulator_${process.pid}`;
  const admin = postgres(baseUrl.toString(), { max: 1, onnotice: () => {} });
  const url = new URL(baseUrl);
  url.pathname = `/${dbName}`;
  let database: Awaited<ReturnType<typeof openDatabase>> | null = null;
  let bench: postgres.Sql | null = null;
  let service: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    const [{ server_version: pgVersion }] = (await admin`show server_version`) as unknown as [{ server_version: string }];
    await admin`create database ${admin(dbName)}`;
    database = await openDatabase({ url: url.toString() });
    const db = database.db;
    bench = postgres(url.toString(), { max: 1, onnotice: () => {} });
    const consumerOf = async (partnerId: string) =>
      (
        await registerConsumer(
          db,
          partnerId,
          { type: "s", class: "h", name: { first: "Ada", last: "Obi" }, phoneNo: "+2348031234567", eMail: `ada-${partnerId}@example.ng` },
          { maxDocumentBytes: 1 << 20 },
        )
      ).id;
    const big = await createPartner(db, { name: "bench big partner" });
    const small = await createPartner(db, { name: "bench small partner" });
    const operator = await createPartner(db, { name: "bench operator", admin: true });
    await grow(
      bench,
      { partnerId: big.partnerId, consumerId: await consumerOf(big.partnerId) },
      { partnerId: small.partnerId, consumerId: await consumerOf(small.partnerId) },
    );

    const now = new Date();
    const today = watToday(now);
    const from = new Date(now.getTime() - 89 * 86_400_000 + 3_600_000).toISOString().slice(0, 10);
    const period = { from, to: today };
    const [counted] = await bench`
      select count(*) filter (where next_due_on is not null)::int as open, count(*) filter (where status = 'paid')::int as paid,
        count(*) filter (where status = 'rejected')::int as rejected,
        count(*) filter (where status = 'paid' and settled_at >= ${`${from}T00:00:00+01:00`}::timestamptz)::int as "paidInPeriod",
        count(*) filter (where status in ('approved', 'paid', 'rejected') and (history -> 1 ->> 'at') >= ${watMidnight(from).toISOString()})::int as "decidedInPeriod"
      from claims`;
    const counts = counted as unknown as Record<string, number>;
    const scopes = [
      ["every partner", { mode: "live" as const }],
      ["one partner (10 %)", { mode: "live" as const, partnerId: small.partnerId }],
    ] as const;
    const timings: Timing[] = [];
    const measure = async (executor: Executor, indexes: Timing["indexes"]) => {
      for (const [whose, scope] of scopes) {
        const figures: [string, () => Promise<unknown>][] = [
          ["open claims by age", () => claimsAgeing(executor, scope, today, 7)],
          ["settlement times, last 90 days", () => settlementTimes(executor, scope, period)],
          ["rejections, last 90 days", () => rejections(executor, scope, period)],
        ];
        for (const [what, run] of figures) {
          timings.push({ what: `${what} (${whose})`, indexes, ...(await timed(10, 2, run)) });
          say(`${what} (${whose}), ${indexes} indexes: p50 ${timings.at(-1)!.p50} ms`);
        }
      }
    };
    await measure(db, "with");
    await withoutIndexes(db, (tx) => measure(tx, "without"));

    service = await startServer({
      name: "service",
      script: "src/main.ts",
      env: { ...process.env, DATABASE_URL: url.toString(), LOG_LEVEL: "warn", SEED_DEMO: "false", NIID_START: "false", WORKER: "false" },
      logDir: mkdtempSync(join(tmpdir(), "bench-regulator-")),
      cwd: root,
    });
    const cookie = await portalCookie(service, operator.portal);
    const get = async (path: string, mustHave: string) => {
      const response = await fetch(`${service!.url}${path.replace(/^\//, "")}`, { headers: { cookie } });
      const text = await response.text();
      if (!response.ok || !text.includes(mustHave)) throw new Error(`${path} answered HTTP ${response.status} without "${mustHave}"`);
    };
    const query = `from=${from}&to=${today}`;
    const pages: { what: string; p50: number; p95: number }[] = [];
    for (const [what, path, mustHave] of [
      ["GET /admin/reports/regulator (every partner, last 90 days)", `/admin/reports/regulator?${query}`, "Open claims by age"],
      [`GET /admin/reports/regulator (one partner)`, `/admin/reports/regulator?${query}&partner=${small.partnerId}`, "Open claims by age"],
      ["GET /admin/reports/regulator/settlement-times.csv", `/admin/reports/regulator/settlement-times.csv?${query}`, "All products"],
      ["GET /admin/reports/regulator.xlsx (the four tables)", `/admin/reports/regulator.xlsx?${query}`, ""],
    ] as const) {
      pages.push({ what, ...(await timed(10, 2, () => get(path, mustHave))) });
      say(`${what}: p50 ${pages.at(-1)!.p50} ms`);
    }
    const section = render(timings, pages, counts, describeMachine(pgVersion));
    process.stdout.write(`\n${section}\n`);
    if (env.BENCH_WRITE_DOCS !== "0") writeSection(join(root, "docs/performance.md"), section, MARKERS);
  } finally {
    await service?.stop();
    await bench?.end();
    await database?.close();
    if (env.BENCH_KEEP_DATABASE === "1") say(`kept ${url}`);
    else await admin`drop database if exists ${admin(dbName)} with (force)`.catch(() => {});
    await admin.end();
  }
  return 0;
}

process.exit(await main());
