/**
 * `npm run bench:search`: the search box (issue 36) on a big book. One partner's book grows to each
 * size (BENCH_SEARCH_SIZES, default 100000,1000000 policies), with one consumer for every five
 * policies (a tenth of them another partner's, so scoping has something to leave out), names drawn
 * from common Nigerian first and last names (many people share a name), a plate on every vehicle
 * policy, an IMEI on every phone policy, a claim on every 50th policy and a plan on every 40th (grown with SQL in batches of 100,000).
 * Each kind of search is timed over HTTP, one request at a time as people search (p50/p95), on the
 * partner's /portal/search and the operator's /admin/search, and so are the lists with the filters
 * people set (Policies/Transactions with Find, status, product, a day, a partner; Claims; Financing). Results go to docs/performance.md
 * between the bench-search markers.
 *
 * On a fresh PostgreSQL database under BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres),
 * dropped at the end. Env: BENCH_SEARCH_SIZES, BENCH_SEARCH_REQUESTS (50), BENCH_WRITE_DOCS (1).
 */
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type postgres from "postgres";
import { createPartner } from "../src/modules/partners/service";
import { describeMachine, writeSection } from "./report";
import { portalCookie, type ScaleCaller, scaleBench } from "./scale";

const SEARCH_MARKERS: [string, string] = ["<!-- bench-search:start -->", "<!-- bench-search:end -->"];
/** The aim: each kind of search under this p95 at 1M policies. */
const AIM_MS = 150;
const root = fileURLToPath(new URL("..", import.meta.url));
const env = process.env;
const sizes = (env.BENCH_SEARCH_SIZES ?? "100000,1000000").split(",").map(Number);
const requests = Number(env.BENCH_SEARCH_REQUESTS ?? 50);
const say = (line: string) => process.stdout.write(`[bench:search] ${line}\n`);

const FIRST = [
  "Adebayo",
  "Adeola",
  "Chinedu",
  "Chiamaka",
  "Ngozi",
  "Emeka",
  "Funmilayo",
  "Ifeoma",
  "Kelechi",
  "Tunde",
  "Yetunde",
  "Olumide",
  "Aisha",
  "Ibrahim",
  "Zainab",
  "Musa",
  "Bola",
  "Segun",
  "Nneka",
  "Obinna",
  "Halima",
  "Sani",
  "Kemi",
  "Tobi",
  "Uche",
  "Amaka",
  "Femi",
  "Grace",
  "Blessing",
  "Samuel",
];
const LAST = [
  "Okafor",
  "Adeyemi",
  "Eze",
  "Bello",
  "Okonkwo",
  "Balogun",
  "Nwosu",
  "Abubakar",
  "Ogunleye",
  "Ibe",
  "Adekunle",
  "Chukwu",
  "Danjuma",
  "Olawale",
  "Umeh",
  "Yusuf",
  "Afolabi",
  "Obi",
  "Lawal",
  "Onyeka",
  "Suleiman",
  "Oyelaran",
  "Nnamdi",
  "Akande",
  "Mohammed",
];

interface Timing {
  size: number;
  who: string;
  what: string;
  typed: string;
  found: boolean;
  p50: number;
  p95: number;
}

/** Consumer k of the book (1-based): its id, and whether it is the other partner's (every tenth). */
const consumerIdSql = (k: string) => `md5('consumer' || ${k})::uuid`;

/** Grow the book to `target` policies (and their consumers, claims and plans), in batches of 100,000. */
async function growBook(sql: postgres.Sql, caller: ScaleCaller, otherId: string, target: number): Promise<void> {
  const [{ n: have }] = (await sql`select count(*)::int as n from policies where reference like 'srch%'`) as unknown as [{ n: number }];
  const batch = 100_000;
  for (let from = have + 1; from <= target; from += batch) {
    const to = Math.min(target, from + batch - 1);
    // One consumer per five policies: consumer k for policies 5k-4 … 5k.
    await sql.unsafe(
      `insert into consumers (id, partner_id, class, email, profile, created_at, updated_at)
       select ${consumerIdSql("k")}, case when k % 10 = 0 then $1::uuid else $2::uuid end, 'h', 'person' || k || '@bench.ng',
         jsonb_build_object('type', 's', 'class', 'h',
           'name', jsonb_build_object('first', ($3::text[])[1 + k % ${FIRST.length}], 'last', ($4::text[])[1 + (k / ${FIRST.length}) % ${LAST.length}]),
           'phoneNo', '+23481' || lpad(k::text, 8, '0'), 'eMail', 'person' || k || '@bench.ng'),
         now() - make_interval(secs => k * 5), now()
       from generate_series($5::int, $6::int) as k`,
      [otherId, caller.partnerId, FIRST, LAST, Math.ceil(from / 5), Math.ceil(to / 5)],
    );
    await sql.unsafe(
      `insert into policies (id, partner_id, consumer_id, reference, product_code, mode, status, route, premium_kobo, duration,
         cover_start, cover_end, facts, printed, device_id, policy_no, certificate_token, created_at, status_at, registry_published_at)
       select md5('policy' || n)::uuid, case when ((n + 4) / 5) % 10 = 0 then $1::uuid else $2::uuid end, ${consumerIdSql("((n + 4) / 5)")},
         'srch' || n, case n % 3 when 0 then 'vhcl-tprt-1111' when 1 then 'phnn-flx1-1111' else 'ltix-stnd-1111' end,
         case when n % 10 = 0 then 'live' else 'test' end, 'a', 'insurer', 1500000, '1y',
         now() - make_interval(secs => n), now() - make_interval(secs => n) + interval '1 year',
         case when n % 3 = 0 then jsonb_build_object('brand', 'Toyota', 'model', 'Corolla', 'year', '2018', 'rgstrtId', 'B' || lpad(n::text, 7, '0') || 'AB')
           when n % 3 = 1 then jsonb_build_object('brand', 'Samsung', 'model', 'Galaxy A54', 'uIdnt', '35' || lpad(n::text, 13, '0'))
           else '{}'::jsonb end,
         '[]'::jsonb,
         case when n % 3 = 1 then 'imei:35' || lpad(n::text, 13, '0') end,
         'TST-BNCH-2026-' || lpad(n::text, 12, '0'), md5('search' || n),
         now() - make_interval(secs => n), now() - make_interval(secs => n), now()
       from generate_series($3::int, $4::int) as n`,
      [otherId, caller.partnerId, from, to],
    );
    await sql.unsafe(
      `insert into claims (id, partner_id, policy_id, claim_no, reference, status, incident_date, description, claimed_kobo, reserve_kobo, history, settlement_due_on, created_at, updated_at)
       select md5('claim' || n)::uuid, p.partner_id, p.id, 'CLM-2026-' || lpad(n::text, 10, '0'), 'claim-ref-' || n, 'submitted',
         (p.created_at at time zone 'UTC')::date, 'bench', 500000, 500000, '[]'::jsonb, (p.created_at at time zone 'UTC')::date + 60, p.created_at, p.created_at
       from generate_series($1::int, $2::int) as n join policies p on p.id = md5('policy' || n)::uuid where n % 50 = 1`,
      [from, to],
    );
    await sql.unsafe(
      `insert into financing_plans (id, partner_id, policy_id, plan_no, status, premium_kobo, down_payment_kobo, installment_count, frequency,
         grace_days, next_due_date, paid_kobo, created_at)
       select md5('plan' || n)::uuid, p.partner_id, p.id, 'FIN-2026-' || lpad(n::text, 10, '0'), 'active', 1500000, 300000, 4, 'weekly',
         7, current_date + 7, 300000, p.created_at
       from generate_series($1::int, $2::int) as n join policies p on p.id = md5('policy' || n)::uuid where n % 40 = 1`,
      [from, to],
    );
    say(`  ${to.toLocaleString("en-NG")} policies`);
  }
  for (const table of ["consumers", "policies", "claims", "financing_plans"]) await sql.unsafe(`vacuum analyze ${table}`);
}

/** p50 and p95 of `count` requests after `warm` unmeasured ones, one at a time. */
async function timed(count: number, warm: number, send: () => Promise<string>): Promise<{ p50: number; p95: number; body: string }> {
  let body = "";
  for (let i = 0; i < warm; i++) body = await send();
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    body = await send();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]! * 10) / 10;
  return { p50: at(0.5), p95: at(0.95), body };
}

/** What each kind of search types at a book of `size` policies: identifiers of the partner's own records, as people type them. */
function queries(size: number): [what: string, typed: string][] {
  // Policy n: a vehicle when n % 3 = 0, a phone when n % 3 = 1; claims on n % 50 = 1, plans on n % 40 = 1 (all the caller's);
  // consumer k = ceil(n / 5), the other partner's when k % 10 = 0.
  const n = Math.floor(size / 2 / 600) * 600 + 1; // a phone policy of the caller's, mid-book
  const vehicle = n + 2;
  const claimed = Math.floor(size / 2 / 50) * 50 + 1;
  const planned = Math.floor(size / 2 / 40) * 40 + 1;
  const k = Math.ceil(n / 5);
  const phone = String(k).padStart(8, "0");
  return [
    ["policy number", `tst-bnch-2026-${String(vehicle).padStart(12, "0")}`],
    ["transaction reference", `srch${vehicle}`],
    ["claim number", `CLM-2026-${String(claimed).padStart(10, "0")}`],
    ["plan number", `FIN-2026-${String(planned).padStart(10, "0")}`],
    ["phone as typed (0813 …)", `081${phone.slice(0, 1)} ${phone.slice(1, 4)} ${phone.slice(4)}`],
    ["plate with spaces", `B${String(vehicle).padStart(7, "0").slice(0, 3)} ${String(vehicle).padStart(7, "0").slice(3)} AB`],
    ["IMEI", `35${String(n).padStart(13, "0")}`],
    ["e-mail", `Person${k}@bench.ng`],
    ["full name", `${FIRST[k % FIRST.length]} ${LAST[Math.floor(k / FIRST.length) % LAST.length]}`],
    ["part of a name (common)", "ade"],
    ["nothing found", "Zzyzx Qwerty"],
  ];
}

/** A list page with its filters, as people set them: what it is, its address, and the record a row of it names. */
type ListCase = [what: string, path: string, rowMark: string];

/**
 * The list filters people set on each surface (the partner's lists, and the operator's with a
 * partner chosen), and the policy lists' Find, at a book of `size` policies.
 */
function listCases(size: number, partnerId: string): Record<"partner" | "operator", ListCase[]> {
  const searches = queries(size);
  const typed = (what: string) => encodeURIComponent(searches.find(([w]) => w === what)![1]);
  // Policies are a second apart, newest now: the day the middle of the book was written (WAT).
  const day = new Date(Date.now() - (size / 2) * 1000 + 3_600_000).toISOString().slice(0, 10);
  const first = encodeURIComponent(FIRST[1]!);
  return {
    partner: [
      ["Policies: Find, a plate with spaces", `portal/policies?q=${typed("plate with spaces")}`, "TST-BNCH-2026-"],
      ["Policies: Find, a full name", `portal/policies?q=${typed("full name")}`, "TST-BNCH-2026-"],
      ["Policies: Find, a common first name", `portal/policies?q=${first}`, "TST-BNCH-2026-"],
      ["Policies: status and product", "portal/policies?status=a&product=vhcl-tprt-1111", "TST-BNCH-2026-"],
      ["Policies: one day", `portal/policies?from=${day}&to=${day}`, "TST-BNCH-2026-"],
      ["Claims: status", "portal/claims?status=submitted", "CLM-2026-"],
      ["Financing plans: status", "portal/financing?status=active", "FIN-2026-"],
    ],
    operator: [
      ["Transactions: a partner, live and test", `admin/policies?partner=${partnerId}&mode=all`, "TST-BNCH-2026-"],
      ["Transactions: a partner, status and product", `admin/policies?partner=${partnerId}&status=a&product=phnn-flx1-1111`, "TST-BNCH-2026-"],
      ["Transactions: one day, live", `admin/policies?from=${day}&to=${day}`, "TST-BNCH-2026-"],
      ["Transactions: Find, a common first name", `admin/policies?q=${first}&mode=all`, "TST-BNCH-2026-"],
      ["Claims: a partner", `admin/claims?partner=${partnerId}`, "CLM-2026-"],
      ["Financing plans: a partner", `admin/financing?partner=${partnerId}`, "FIN-2026-"],
    ],
  };
}

function render(timings: Timing[], machine: ReturnType<typeof describeMachine>, load: number[]): string {
  const largest = Math.max(...sizes);
  const worst = Math.max(...timings.filter((t) => t.size === largest).map((t) => t.p95));
  return [
    `## Search (issue 36; \`npm run bench:search\`, ${new Date().toISOString().slice(0, 10)})`,
    "",
    `One partner's book at each size, with a consumer for every five policies (a tenth of them another partner's), names from ${FIRST.length} first and ${LAST.length} last names, a plate on every`,
    "vehicle policy, an IMEI on every phone policy, a claim on every 50th policy and a financing plan on every 40th. Whole pages over HTTP, one request at a time",
    `(${requests} after 5 to warm), on ${machine.cores} cores (${machine.cpu}; PostgreSQL ${machine.postgres}). Indexes: drizzle/0028_policy_find.sql, drizzle/0029_search_indexes.sql.`,
    `The machine's load average (1 min) while timing: ${Math.min(...load).toFixed(1)} to ${Math.max(...load).toFixed(1)}, on ${machine.cores} cores: figures above a few milliseconds are mostly waiting for a core.`,
    "",
    `Aim: p95 under ${AIM_MS} ms for each kind at ${largest.toLocaleString("en-NG")} policies; worst p95 measured there: ${worst} ms.`,
    "",
    "| policies | who | search or list | typed | found | p50 | p95 |",
    "|---:|---|---|---|---|---:|---:|",
    ...timings.map(
      (t) => `| ${t.size.toLocaleString("en-NG")} | ${t.who} | ${t.what} | \`${t.typed}\` | ${t.found ? "yes" : "nothing"} | ${t.p50} ms | ${t.p95} ms |`,
    ),
  ].join("\n");
}

async function main(): Promise<number> {
  await scaleBench("search", async ({ db, bench, caller, service, pgVersion }) => {
    const operator = await createPartner(db, { name: "bench operator", admin: true });
    const other = await createPartner(db, { name: "bench other partner" });
    const surfaces = [
      { who: "partner", path: "portal/search", cookie: await portalCookie(service, caller.portal) },
      { who: "operator", path: "admin/search", cookie: await portalCookie(service, operator.portal) },
    ];
    const timings: Timing[] = [];
    const load: number[] = [];
    for (const size of sizes) {
      say(`growing the book to ${size.toLocaleString("en-NG")} policies`);
      await growBook(bench, caller, other.partnerId, size);
      const lists = listCases(size, caller.partnerId);
      for (const surface of surfaces) {
        const cases: (readonly [what: string, path: string, typed: string, found: (body: string) => boolean])[] = [
          ...queries(size).map(
            ([what, typed]) => [what, `${surface.path}?q=${encodeURIComponent(typed)}`, typed, (body: string) => !body.includes("Nothing found for")] as const,
          ),
          ...lists[surface.who as "partner" | "operator"].map(
            ([what, path, mark]) => [what, path, decodeURIComponent(path.slice(path.indexOf("?") + 1)), (body: string) => body.includes(mark)] as const,
          ),
        ];
        for (const [what, path, typed, foundIn] of cases) {
          const send = async () => {
            const response = await fetch(`${service.url}${path}`, { headers: { cookie: surface.cookie } });
            const body = await response.text();
            if (!response.ok) throw new Error(`${path} answered HTTP ${response.status}`);
            return body;
          };
          load.push(loadavg()[0]!);
          const { p50, p95, body } = await timed(requests, 5, send);
          const found = foundIn(body);
          timings.push({ size, who: surface.who, what, typed, found, p50, p95 });
          say(`${size} ${surface.who} ${what}: p50 ${p50} ms, p95 ${p95} ms${found ? "" : " (nothing found)"}`);
        }
      }
    }
    const section = render(timings, describeMachine(pgVersion), load);
    process.stdout.write(`\n${section}\n`);
    if (env.BENCH_WRITE_DOCS !== "0") writeSection(join(root, "docs/performance.md"), section, SEARCH_MARKERS);
  });
  return 0;
}

process.exit(await main());
