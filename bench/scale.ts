/**
 * The second half of `npm run bench`: how list pages and queries behave as the policies table
 * grows, and whether a server's memory stays flat under sustained load.
 *
 *   lists     GET /portal/policies (a signed-in partner: first page, filtered, a page deep in
 *             the list) and the administrators' /admin/policies, timed one request at a time
 *             (p50/p95/p99) with the table at 10k, 100k and 1M policies. (`dump entt_*` runs the
 *             same query; its throughput is a scenario of the first half.)
 *   memory    the server's resident memory, sampled while quotes are sent for BENCH_SOAK_SECONDS.
 *
 * Rows are made in bulk with SQL (generate_series) for one partner, with the same shape issuance
 * writes; they are marked published to the registry so the background jobs leave them alone.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { type Database, openDatabase } from "../src/db/client";
import { registerConsumer } from "../src/modules/consumers/service";
import { createPartner } from "../src/modules/partners/service";
import { type Server, startServer } from "./servers";

export interface ScaleCaller {
  partnerId: string;
  consumerId: string;
  keyId: string;
  key: string;
  portal: { email: string; password: string };
}

export interface LatencyRow {
  size: number;
  what: string;
  p50: number;
  p95: number;
  p99: number;
}

export interface MemorySample {
  second: number;
  rssMiB: number;
}

const PRODUCTS = ["vhcl-tprt-1111", "vhcl-cmpr-1111", "phnn-flx1-1111", "ltix-stnd-1111", "gtrn-stnd-1111", "crlt-psnl-1111"];

/** Add policies for `caller` until the table holds `target` of theirs. */
export async function growPolicies(sql: postgres.Sql, caller: ScaleCaller, target: number): Promise<void> {
  const [{ n: have }] = (await sql`select count(*)::int as n from policies where partner_id = ${caller.partnerId}`) as unknown as [{ n: number }];
  if (have >= target) return;
  const batch = 100_000;
  for (let from = have; from < target; from += batch) {
    const to = Math.min(target, from + batch) - 1;
    await sql`
      insert into policies (id, partner_id, consumer_id, reference, product_code, mode, status, status_note, route, premium_kobo,
        duration, cover_start, cover_end, facts, printed, device_id, policy_no, certificate_token, webhook_url, underwrite_at,
        decided_by, created_at, status_at, registry_published_at)
      select gen_random_uuid(), ${caller.partnerId}, ${caller.consumerId}, 'bulk-' || n, (${sql.array(PRODUCTS)}::text[])[1 + n % ${PRODUCTS.length}],
        case when n % 10 = 0 then 'live' else 'test' end,
        (array['a','a','a','p','d'])[1 + n % 5],
        case when n % 5 = 4 then 'declined in bulk' end,
        'insurer', 1500000 + (n % 7) * 10000, '1y', now() - make_interval(secs => n), now() - make_interval(secs => n) + interval '1 year',
        '{}'::jsonb, '[]'::jsonb, null,
        case when n % 5 < 3 then 'BLK-' || n end,
        md5('bulk' || n || ${caller.partnerId}), null, null, 'bulk',
        now() - make_interval(secs => n), now() - make_interval(secs => n), now()
      from generate_series(${from}::int, ${to}::int) as n`;
  }
  await sql`analyze policies`;
}

/** Latencies of `count` requests sent one after another (the portal's case: people, not load). */
async function timed(count: number, send: (i: number) => Promise<Response>): Promise<{ p50: number; p95: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await send(i);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`answered HTTP ${response.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]! * 10) / 10;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

/** Sign in through the real form and keep the session cookie. */
export async function portalCookie(service: Server, portal: { email: string; password: string }): Promise<string> {
  const form = await fetch(`${service.url}login`);
  const preCookie = form.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
  const signedIn = await fetch(`${service.url}login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: preCookie },
    body: new URLSearchParams({ _csrf: csrf, email: portal.email, password: portal.password }),
  });
  const session = signedIn.headers.getSetCookie().find((c) => c.startsWith("session="));
  if (!session) throw new Error(`could not sign in (${signedIn.status})`);
  return session.split(";")[0]!;
}

/** The list pages and the list command at each table size. */
export async function measureLists(
  sql: postgres.Sql,
  service: Server,
  caller: ScaleCaller,
  adminCookie: string,
  sizes: number[],
  requests: number,
): Promise<LatencyRow[]> {
  const rows: LatencyRow[] = [];
  const partnerCookie = await portalCookie(service, caller.portal);
  const get = (path: string, cookie: string) => fetch(`${service.url}${path.replace(/^\//, "")}`, { headers: { cookie } });
  for (const size of sizes) {
    await growPolicies(sql, caller, size);
    // A cursor 50 pages (1,250 rows) into the list, as "Show more" would reach it.
    let deep = "/portal/policies";
    for (let page = 0; page < 50; page++) {
      const html = await (await get(deep, partnerCookie)).text();
      const next = /hx-get="(\/portal\/policies\?[^"]+)"/.exec(html)?.[1];
      if (!next) break;
      deep = next.replaceAll("&amp;", "&");
    }
    const cases: [string, (i: number) => Promise<Response>][] = [
      ["/portal/policies (first page)", () => get("/portal/policies", partnerCookie)],
      ["/portal/policies?status=a&product=phnn-flx1-1111", () => get("/portal/policies?status=a&product=phnn-flx1-1111", partnerCookie)],
      ["/portal/policies, 50 pages deep", () => get(deep, partnerCookie)],
      ["/admin/policies (every partner)", () => get("/admin/policies", adminCookie)],
    ];
    for (const [what, send] of cases) {
      await timed(20, send); // warm
      rows.push({ size, what, ...(await timed(requests, send)) });
    }
  }
  return rows;
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

/** The server's memory every `everySeconds` while `load` runs for `seconds`. */
export async function measureMemory(
  service: Server,
  seconds: number,
  everySeconds: number,
  load: (seconds: number) => Promise<unknown>,
): Promise<MemorySample[]> {
  const samples: MemorySample[] = [{ second: 0, rssMiB: rssMiB(service.pid) }];
  const started = performance.now();
  const timer = setInterval(() => samples.push({ second: Math.round((performance.now() - started) / 1000), rssMiB: rssMiB(service.pid) }), everySeconds * 1000);
  try {
    await load(seconds);
  } finally {
    clearInterval(timer);
  }
  samples.push({ second: Math.round((performance.now() - started) / 1000), rssMiB: rssMiB(service.pid) });
  return samples;
}

/** What a benchmark on a grown policies table works with (scaleBench). */
export interface ScaleBench {
  db: Database;
  /** A plain connection to the bench database, for growing tables with SQL. */
  bench: postgres.Sql;
  /** The partner whose policies grow, with a registered consumer. */
  caller: ScaleCaller;
  /** The service (`bun src/main.ts`) on the bench database, without its worker. */
  service: Server;
  pgVersion: string;
}

/**
 * Run `body` on a fresh PostgreSQL database `bench_<name>_<time>` under BENCH_DATABASE_URL, with
 * the service started on it and one partner ready to grow; everything is stopped and the database
 * dropped afterwards, whatever happens (kept with BENCH_KEEP_DATABASE=1, to study its plans).
 */
export async function scaleBench(name: string, body: (setup: ScaleBench) => Promise<void>): Promise<void> {
  const baseUrl = new URL(process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
  const dbName = `bench_${name}_${Date.now()}`;
  const admin = postgres(baseUrl.toString(), { max: 1, onnotice: () => {} });
  const benchUrl = new URL(baseUrl);
  benchUrl.pathname = `/${dbName}`;
  let service: Server | null = null;
  let database: Awaited<ReturnType<typeof openDatabase>> | null = null;
  let bench: postgres.Sql | null = null;
  try {
    const [{ server_version: pgVersion }] = (await admin`show server_version`) as unknown as [{ server_version: string }];
    await admin`create database ${admin(dbName)}`;
    database = await openDatabase({ url: benchUrl.toString() });
    bench = postgres(benchUrl.toString(), { max: 1, onnotice: () => {} });
    const owner = await createPartner(database.db, { name: `bench ${name}` });
    const consumer = await registerConsumer(
      database.db,
      owner.partnerId,
      { type: "s", class: "h", name: { first: "Ada", last: "Obi" }, phoneNo: "+2348031234567", eMail: "ada@example.ng" },
      { maxDocumentBytes: 1 << 20 },
    );
    service = await startServer({
      name: "service",
      script: "src/main.ts",
      env: { ...process.env, DATABASE_URL: benchUrl.toString(), LOG_LEVEL: "warn", SEED_DEMO: "false", NIID_START: "false", WORKER: "false" },
      logDir: mkdtempSync(join(tmpdir(), `bench-${name}-`)),
      cwd: fileURLToPath(new URL("..", import.meta.url)),
    });
    const caller = { partnerId: owner.partnerId, consumerId: consumer.id, keyId: owner.keys.test.id, key: owner.keys.test.key, portal: owner.portal };
    await body({ db: database.db, bench, caller, service, pgVersion });
  } finally {
    await service?.stop();
    await bench?.end();
    await database?.close();
    // BENCH_KEEP_DATABASE=1 keeps the grown book to study its plans (EXPLAIN) afterwards.
    if (process.env.BENCH_KEEP_DATABASE === "1") process.stdout.write(`[bench] kept ${benchUrl}\n`);
    else await admin`drop database if exists ${admin(dbName)} with (force)`.catch(() => {});
    await admin.end();
  }
}
