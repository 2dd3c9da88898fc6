import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type postgres from "postgres";
import {
  type ChartScope,
  claimsRatioByMonth,
  expiringSoon,
  policiesByProduct,
  policiesByStatus,
  premiumsByDay,
  premiumsByMonth,
  walletBalanceByDay,
} from "../src/modules/dashboard/statistics";
import { createPartner } from "../src/modules/partners/service";
import { describeMachine, writeSection } from "./report";
import { growPolicies, portalCookie, type ScaleCaller, scaleBench } from "./scale";

const CHARTS_MARKERS: [string, string] = ["<!-- bench-charts:start -->", "<!-- bench-charts:end -->"];
/** The aim: the whole dashboard under this at 1M policies. */
const PAGE_AIM_MS = 300;
const root = fileURLToPath(new URL("..", import.meta.url));
const env = process.env;
const sizes = (env.BENCH_CHARTS_SIZES ?? "100000,1000000").split(",").map(Number);
const say = (line: string) => process.stdout.write(`[bench:charts] ${line}\n`);

interface Timing {
  size: number;
  what: string;
  p50: number;
  p95: number;
}

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

/** Some claims on live policies and a month of wallet lines, so every chart has figures to read. */
async function addClaimsAndLedger(sql: postgres.Sql, caller: ScaleCaller): Promise<void> {
  await sql`
    insert into claims (id, partner_id, policy_id, claim_no, status, incident_date, description, claimed_kobo, reserve_kobo, payable_kobo, history, settlement_due_on, created_at, updated_at)
    select gen_random_uuid(), partner_id, id, 'CLM-BULK-' || reference, (array['submitted','in_review','approved','paid','rejected'])[1 + (abs(hashtext(reference)) % 5)],
      (created_at at time zone 'UTC')::date, 'bulk', 500000, 500000, 400000, '[]'::jsonb, (created_at at time zone 'UTC')::date + 60, created_at, created_at
    from policies where partner_id = ${caller.partnerId} and mode = 'live' and status = 'a' and not exists (select 1 from claims c where c.policy_id = policies.id)
      and abs(hashtext(reference)) % 50 = 0`;
  await sql`delete from wallet_entries where partner_id = ${caller.partnerId}`;
  await sql`
    insert into wallet_entries (id, partner_id, kind, amount_kobo, balance_after_kobo, reference, created_at)
    select gen_random_uuid(), ${caller.partnerId}, 'topup', 100000, 100000 * n, 'bulk-' || n, now() - make_interval(mins => 3000 - n)
    from generate_series(1, 3000) as n`;
  await sql`analyze claims`;
  await sql`analyze wallet_entries`;
}

interface WriteCost {
  /** 100,000 policies in one statement, with the trigger and without. */
  bulkWithMs: number;
  bulkWithoutMs: number;
  /** One policy a statement (as issuance writes them), per policy. */
  singleWithMs: number;
  singleWithoutMs: number;
}

/** Run `write` in a transaction rolled back, with the triggers off (session_replication_role = replica) or on; its time. */
async function rolledBack(sql: postgres.Sql, triggers: boolean, write: (tx: postgres.Sql) => Promise<unknown>): Promise<number> {
  let ms = 0;
  await sql
    .begin(async (tx) => {
      if (!triggers) await tx`set local session_replication_role = replica`;
      const started = performance.now();
      await write(tx as unknown as postgres.Sql);
      ms = performance.now() - started;
      throw new Error("roll back");
    })
    .catch((error: Error) => {
      if (error.message !== "roll back") throw error;
    });
  return ms;
}

/** What the trigger that keeps the daily totals costs a write, from an empty table. */
async function triggerCost(sql: postgres.Sql, caller: ScaleCaller): Promise<WriteCost> {
  const bulk = (tx: postgres.Sql) => growPolicies(tx, caller, 100_000);
  const singles = async (tx: postgres.Sql) => {
    for (let n = 0; n < 1_000; n++)
      await tx`
        insert into policies (id, partner_id, consumer_id, reference, product_code, mode, status, route, premium_kobo, cover_start, cover_end,
          facts, printed, certificate_token, created_at, status_at)
        values (gen_random_uuid(), ${caller.partnerId}, ${caller.consumerId}, ${`single-${n}`}, 'ltix-stnd-1111', 'test', 'a', 'approve', 1500000,
          now(), now() + interval '1 year', '{}'::jsonb, '[]'::jsonb, ${`single-${n}-${caller.partnerId}`}, now(), now())`;
  };
  return {
    bulkWithoutMs: await rolledBack(sql, false, bulk),
    bulkWithMs: await rolledBack(sql, true, bulk),
    singleWithoutMs: (await rolledBack(sql, false, singles)) / 1_000,
    singleWithMs: (await rolledBack(sql, true, singles)) / 1_000,
  };
}

function render(timings: Timing[], plain: Timing[], pages: Timing[], writes: WriteCost, machine: ReturnType<typeof describeMachine>): string {
  const table = (rows: Timing[]) => [
    "| policies | what | p50 | p95 |",
    "|---:|---|---:|---:|",
    ...rows.map((r) => `| ${r.size.toLocaleString("en-NG")} | ${r.what} | ${r.p50} ms | ${r.p95} ms |`),
  ];
  const worst = Math.max(...pages.filter((p) => p.size === Math.max(...sizes)).map((p) => p.p95));
  return [
    `## Dashboard charts (issue 17; \`npm run bench:charts\`, ${new Date().toISOString().slice(0, 10)})`,
    "",
    `One partner at each size, 90 % of its policies in test mode, all issued within the last 12 days (\`growPolicies\`), on ${machine.cores} cores (${machine.cpu}; PostgreSQL ${machine.postgres}).`,
    "The charts read `policy_daily_totals` (policies by WAT day, product and status, kept by a trigger on policies; docs/decisions.md, Dashboard charts).",
    "",
    "Each chart's figures, in process (20 calls after 3 to warm):",
    "",
    ...table(timings),
    "",
    "The same figures as a plain GROUP BY over policies, what the daily totals replace (3 calls):",
    "",
    ...table(plain),
    "",
    `Whole pages over HTTP (aim: under ${PAGE_AIM_MS} ms at 1M; worst p95 at the largest size: ${worst} ms):`,
    "",
    ...table(pages),
    "",
    "What the trigger costs a write (rolled back; without it: `session_replication_role = replica`):",
    "",
    "| write | with the trigger | without |",
    "|---|---:|---:|",
    `| 100,000 policies in one statement | ${(writes.bulkWithMs / 1000).toFixed(1)} s | ${(writes.bulkWithoutMs / 1000).toFixed(1)} s |`,
    `| one policy a statement (as issuance writes), each | ${writes.singleWithMs.toFixed(2)} ms | ${writes.singleWithoutMs.toFixed(2)} ms |`,
  ].join("\n");
}

async function main(): Promise<number> {
  await scaleBench("charts", async ({ db, bench, caller, service, pgVersion }) => {
    const operator = await createPartner(db, { name: "bench operator", admin: true });
    say("timing the trigger on 100,000 inserted policies (rolled back)");
    const writes = await triggerCost(bench, caller);
    const partnerCookie = await portalCookie(service, caller.portal);
    const adminCookie = await portalCookie(service, operator.portal);
    const get = async (path: string, cookie: string) => {
      const response = await fetch(`${service.url}${path.replace(/^\//, "")}`, { headers: { cookie } });
      const text = await response.text();
      if (!response.ok || !text.includes("Premium by day")) throw new Error(`${path} answered HTTP ${response.status} without the charts`);
    };
    const timings: Timing[] = [];
    const plain: Timing[] = [];
    const pages: Timing[] = [];
    for (const size of sizes) {
      say(`growing the policies table to ${size}`);
      await growPolicies(bench, caller, size);
      await addClaimsAndLedger(bench, caller);
      await bench`vacuum analyze policies`;
      await bench`vacuum analyze policy_daily_totals`;
      const now = new Date();
      const scopes: [string, ChartScope][] = [
        ["partner, test mode", { partnerId: caller.partnerId, mode: "test" }],
        ["partner, live mode", { partnerId: caller.partnerId, mode: "live" }],
        ["operator, every partner", { mode: "live" }],
      ];
      for (const [whose, scope] of scopes) {
        const figures: [string, () => Promise<unknown>][] = [
          ["premium by day", () => premiumsByDay(db, scope, now)],
          ["premium by month", () => premiumsByMonth(db, scope, now)],
          ["policies by product", () => policiesByProduct(db, scope)],
          ["policies by status", () => policiesByStatus(db, scope)],
          ["claims ratio by month", () => claimsRatioByMonth(db, scope, now)],
          ["expiring within 30 days", () => expiringSoon(db, scope, now)],
        ];
        if (scope.partnerId) figures.push(["wallet balance by day", () => walletBalanceByDay(db, caller.partnerId, now)]);
        for (const [what, run] of figures) timings.push({ size, what: `${what} (${whose})`, ...(await timed(20, 3, run)) });
      }
      const since = new Date(now.getTime() - 30 * 86_400_000).toISOString();
      const plainQueries: [string, () => Promise<unknown>][] = [
        [
          "premium by day, GROUP BY over policies (partner, test mode)",
          () =>
            bench`select to_char((created_at at time zone 'UTC') + interval '1 hour', 'YYYY-MM-DD') as day, sum(premium_kobo), count(*)
              from policies where partner_id = ${caller.partnerId} and mode = 'test' and created_at >= ${since}::timestamptz and status <> 'd' group by 1`,
        ],
        [
          "policies by product, GROUP BY over policies (partner, test mode)",
          () => bench`select product_code, count(*) from policies where partner_id = ${caller.partnerId} and mode = 'test' group by 1`,
        ],
      ];
      for (const [what, run] of plainQueries) plain.push({ size, what, ...(await timed(3, 1, run)) });
      pages.push({ size, what: "GET /portal (partner, test mode)", ...(await timed(20, 3, () => get("/portal", partnerCookie))) });
      pages.push({ size, what: "GET /admin/dashboard (every partner)", ...(await timed(20, 3, () => get("/admin/dashboard", adminCookie))) });
      say(
        `${size}: ${pages
          .slice(-2)
          .map((p) => `${p.what} p95 ${p.p95} ms`)
          .join("; ")}`,
      );
    }
    const section = render(timings, plain, pages, writes, describeMachine(pgVersion));
    process.stdout.write(`\n${section}\n`);
    if (env.BENCH_WRITE_DOCS !== "0") writeSection(join(root, "docs/performance.md"), section, CHARTS_MARKERS);
  });
  return 0;
}

process.exit(await main());
