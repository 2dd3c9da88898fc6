/**
 * Throughput benchmark: `npm run bench` (bun bench/run.ts).
 *
 * On a fresh PostgreSQL database `bench_<timestamp>` (made under BENCH_DATABASE_URL and dropped at
 * the end) it loads, one after the other with autocannon:
 *   bare      bench/bare.ts — bare Elysia + postgres.js, one INSERT per request (the baseline), and
 *             one SELECT by primary key per request (the read commands' reference), measured
 *             before the first scenario and again after each one: each scenario is compared with
 *             the bare runs next to it, as the machine drifts over a run;
 *   quote     the service's `dump ipck_vhcl-tprt-1111*PRMM` (auth + quote INSERT);
 *   register  the service's `prfl entity` with a new e-mail every request;
 *   insure    the service's `entt_<consumer>: insure` (vhcl-tprt-1111, test mode), a new reference every request;
 *   insure-live  the same with the live key: the premium is debited from the wallet, the insurer decides later;
 *   list      the service's `dump entt_*` (20 newest transactions);
 *   status    the service's `dump entt_<consumer>|insr_vhcl-tprt-1111-<tx_id>*STATUS` of an approved test policy;
 *   hostile   one partner's quotes alone, then while hostile clients send 8 MB bodies, strings from many addresses
 *             and bodies a byte a second (bench/hostile.ts).
 * The service runs unchanged (`bun src/main.ts`) with its default per-partner rate limit; the
 * requests rotate over enough fresh partners that the limit never refuses one. Every answer is
 * checked. The results are printed and written between the bench markers of docs/performance.md.
 *
 * Env: BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres), BENCH_CONNECTIONS (50),
 * BENCH_WARMUP (3 s), BENCH_DURATION (10 s), BENCH_BARE_WARMUP (1 s: warm-up of the bare runs
 * between scenarios; the first uses BENCH_WARMUP), BENCH_LOG_LEVEL (service LOG_LEVEL, warn),
 * BENCH_WRITE_DOCS (1; 0 leaves docs/performance.md alone), BENCH_ONLY (comma-separated scenario
 * names to run besides bare; the docs are then left alone), BENCH_HOSTILE_RATE (200 quotes/s),
 * BENCH_HOSTILE_CONNECTIONS (10), BENCH_HOSTILE_THROUGHPUT_CONNECTIONS (4: the partner's in the unpaced
 * phases), BENCH_HOSTILE_SECONDS (10 s per phase).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { loadConfig } from "../src/core/config";
import { type Database, openDatabase } from "../src/db/client";
import { registerConsumer } from "../src/modules/consumers/service";
import { issuePolicy } from "../src/modules/issuance/issuance";
import { createPartner } from "../src/modules/partners/service";
import { creditWallet } from "../src/modules/wallet/service";
import { measureHostile } from "./hostile";
import { classifyBareAnswer, classifyCommandAnswer, type LoadResult, runLoad } from "./load";
import {
  type BareKind,
  type BareRun,
  describeMachine,
  HOSTILE_MARKERS,
  P99_AIM,
  type RunReport,
  renderHostileSection,
  renderScaleSection,
  renderSection,
  SCALE_MARKERS,
  type ScenarioReport,
  scenariosOf,
  verdicts,
  writeSection,
} from "./report";
import { measureLists, measureMemory, portalCookie } from "./scale";
import { benchInsureSeed, benchPerson } from "./seeds";
import { type Server, startServer } from "./servers";

const root = fileURLToPath(new URL("..", import.meta.url));
const env = process.env;
const settings = {
  baseUrl: env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  connections: Number(env.BENCH_CONNECTIONS ?? 50),
  warmupSeconds: Number(env.BENCH_WARMUP ?? 3),
  durationSeconds: Number(env.BENCH_DURATION ?? 10),
  bareWarmupSeconds: Number(env.BENCH_BARE_WARMUP ?? 1),
  logLevel: env.BENCH_LOG_LEVEL ?? "warn",
  only: env.BENCH_ONLY ? new Set(env.BENCH_ONLY.split(",").map((s) => s.trim())) : null,
  scaleSizes: (env.BENCH_SCALE_SIZES ?? "10000,100000,1000000").split(",").map(Number),
  listRequests: Number(env.BENCH_LIST_REQUESTS ?? 200),
  soakSeconds: Number(env.BENCH_SOAK_SECONDS ?? 60),
  soakConnections: Number(env.BENCH_SOAK_CONNECTIONS ?? 20),
  writeDocs: env.BENCH_WRITE_DOCS !== "0" && !env.BENCH_ONLY,
  hostile: {
    rate: Number(env.BENCH_HOSTILE_RATE ?? 200),
    connections: Number(env.BENCH_HOSTILE_CONNECTIONS ?? 10),
    throughputConnections: Number(env.BENCH_HOSTILE_THROUGHPUT_CONNECTIONS ?? 4),
    warmupSeconds: Number(env.BENCH_WARMUP ?? 3),
    seconds: Number(env.BENCH_HOSTILE_SECONDS ?? 10),
  },
};
/** Requests per pass of the sizing probe: a first pass warms the service up, the second is timed. */
const PROBE_REQUESTS = 1500;
/** How much faster than its probe a scenario may run during the benchmark; capped by the bare rate. */
const PROBE_HEADROOM = 2;
/** The longest wait for the service's background work after a scenario. */
const SETTLE_LIMIT_MS = 180_000;
/** Spare partner capacity on top of the expected request count. */
const SAFETY = 1.2;
/**
 * Partners made at once. Each takes up to two of the 10 database connections at a time; with one
 * shared password hash a partner costs ~2 ms here (4 at once 2.5 ms, 8 1.8 ms, 16 1.7 ms).
 */
const PARTNER_CONCURRENCY = 16;
/** The portal password of every bench partner, hashed once (createPartner would hash one per partner). */
const PORTAL_PASSWORD = "bench-portal-password";
const portalPassword = { password: PORTAL_PASSWORD, hash: await Bun.password.hash(PORTAL_PASSWORD, { algorithm: "argon2id" }) };
/** The partners made for the scenarios, and the time that took. */
const partnersMade = { count: 0, seconds: 0, by: [] as string[] };

const say = (message: string) => process.stderr.write(`[bench] ${message}\n`);

/** A partner's keys, and what the scenarios need: a registered consumer, an approved policy, a funded wallet. */
interface Caller {
  partnerId: string;
  keyId: string;
  key: string;
  live: { id: string; key: string };
  consumerId: string;
  policyReference: string;
}

const envelope = (c: Pick<Caller, "partnerId" | "keyId" | "key">, cmmnd: string, seed?: unknown) =>
  JSON.stringify({ userInfo: { id: c.partnerId, athrzt: { id: c.keyId, key: c.key } }, cmmnd: seed === undefined ? { cmmnd } : { cmmnd, seed } });

const PRODUCT = "vhcl-tprt-1111";

interface Scenario {
  name: string;
  description: string;
  /** A read command: the bare SELECT is measured next to it and compared, for reference. */
  reads?: boolean;
  body: (c: Caller) => string;
}

const SCENARIOS: Scenario[] = [
  {
    name: "quote",
    description: `\`dump ipck_${PRODUCT}*PRMM\`: auth + quote INSERT`,
    body: (c) => envelope(c, `dump ipck_${PRODUCT}*PRMM`, { insrncDrtn: "1y" }),
  },
  {
    name: "register",
    description: "`prfl entity`, new e-mail: auth + one INSERT … ON CONFLICT DO NOTHING (the locking path only for a known e-mail)",
    body: (c) => envelope(c, "prfl entity", benchPerson()),
  },
  {
    name: "insure",
    description: `\`entt_<consumer>: insure\` ${PRODUCT}, test mode, new reference: auth and consumer (cached) + one INSERT of the policy and its outbox event`,
    body: (c) => envelope(c, `entt_${c.consumerId}: insure`, benchInsureSeed()),
  },
  {
    name: "insure-live",
    description: `\`entt_<consumer>: insure\` ${PRODUCT}, live key: auth and consumer (cached) + one statement (wallet debit with its balance check, policy, outbox event, ledger line); the insurer decides it 3 s later in the background`,
    body: (c) => envelope({ ...c, keyId: c.live.id, key: c.live.key }, `entt_${c.consumerId}: insure`, benchInsureSeed()),
  },
  {
    name: "list",
    reads: true,
    description: "`dump entt_*` (20 newest of the partner's transactions): auth + one keyset SELECT",
    body: (c) => envelope(c, "dump entt_*", { limit: 20 }),
  },
  {
    name: "status",
    reads: true,
    description: `\`dump entt_<consumer>\\|insr_${PRODUCT}-<tx_id>*STATUS\` of an approved test policy: auth + policy SELECT`,
    body: (c) => envelope(c, `dump entt_${c.consumerId}|insr_${PRODUCT}-${c.policyReference}*STATUS`),
  },
];

/**
 * `count` new partners (sharing one portal password and its hash), each with a registered consumer
 * and an approved test-mode policy for the insure and status scenarios, and a funded wallet.
 */
async function createCallers(db: Database, count: number, label: string): Promise<Caller[]> {
  const started = performance.now();
  const made: Caller[] = [];
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < count && !failed) {
      const i = next++;
      try {
        const partner = await createPartner(db, { name: `bench ${label} ${i}` }, undefined, { portalPassword });
        const seed = benchInsureSeed();
        const [consumer] = await Promise.all([
          (async () => {
            const consumer = await registerConsumer(db, partner.partnerId, benchPerson(), { maxDocumentBytes: 1 << 20 });
            await issuePolicy(db, { partnerId: partner.partnerId, mode: "test", consumerParam: consumer.id, seed, now: new Date(), insurerDelayMs: 0 });
            return consumer;
          })(),
          // Enough for every live premium the partner's share of a run can issue (70 a minute at most).
          db.transaction((tx) => creditWallet(tx, partner.partnerId, { amountKobo: 100 * 1_500_000, reference: "bench-funds" }, new Date())),
        ]);
        made.push({
          partnerId: partner.partnerId,
          keyId: partner.keys.test.id,
          key: partner.keys.test.key,
          live: partner.keys.live,
          consumerId: consumer.id,
          policyReference: seed.id,
        });
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  // Every worker settles before the first failure is thrown: the database must not close under the others.
  const settled = await Promise.allSettled(Array.from({ length: Math.min(PARTNER_CONCURRENCY, count) }, worker));
  const failure = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failure) throw failure.reason;
  const seconds = (performance.now() - started) / 1000;
  partnersMade.count += count;
  partnersMade.seconds += seconds;
  partnersMade.by.push(`${label} ${count} in ${seconds.toFixed(1)} s`);
  say(`created ${count} partners for ${label} in ${seconds.toFixed(1)} s (${((1000 * seconds) / Math.max(count, 1)).toFixed(1)} ms each)`);
  return made;
}

/** Round-robin over `pool`: every partner gets the same share of the requests. */
function rotation(pool: Caller[]): () => Caller {
  let i = 0;
  return () => pool[i++ % pool.length]!;
}

/** Partners needed so that `rps` requests a second for `seconds` stay under the limit of each. */
function partnersFor(rps: number, seconds: number, limit: { max: number; windowMs: number }): number {
  const requestsInAWindow = rps * Math.min(seconds, limit.windowMs / 1000);
  return Math.max(1, Math.ceil((requestsInAWindow * SAFETY) / limit.max));
}

function describe(name: string, r: LoadResult): string {
  const failures = r.failed ? `, ${r.failed} not ok ${JSON.stringify(r.outcomes)}` : "";
  return `${name}: ${r.requestsPerSecond.toFixed(0)} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, ${r.answered} answered${failures}${r.errors ? `, ${r.errors} errors` : ""}`;
}

async function main(): Promise<number> {
  const startedAt = new Date();
  const dbName = `bench_${startedAt.getTime()}`;
  const benchUrl = new URL(settings.baseUrl);
  benchUrl.pathname = `/${dbName}`;
  const admin = postgres(settings.baseUrl, { max: 1, onnotice: () => {} });
  const servers: Server[] = [];
  let database: Awaited<ReturnType<typeof openDatabase>> | null = null;
  let bench: postgres.Sql | null = null;
  let cleaned = false;
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    await Promise.all(servers.map((s) => s.stop()));
    await database?.close();
    await bench?.end({ timeout: 5 });
    await admin`drop database if exists ${admin(dbName)} with (force)`.catch((e: Error) => say(`could not drop ${dbName}: ${e.message}`));
    await admin.end({ timeout: 5 });
    say(`dropped database ${dbName}`);
  };
  const interrupted = () => void cleanup().finally(() => process.exit(130));
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);

  try {
    const [{ server_version: pgVersion }] = (await admin`show server_version`) as unknown as [{ server_version: string }];
    await admin`create database ${admin(dbName)}`;
    say(`created database ${dbName} (PostgreSQL ${pgVersion})`);
    database = await openDatabase({ url: benchUrl.toString() }); // applies the service's migrations
    bench = postgres(benchUrl.toString(), { max: 1, onnotice: () => {} });
    const logDir = mkdtempSync(join(tmpdir(), "bench-"));

    // The service's own environment, without anything that would change its limits.
    // No verification service beside it: the vehicle registry's 12-17 s first lookups are not what is measured.
    const serviceEnv: Record<string, string | undefined> = {
      ...env,
      DATABASE_URL: benchUrl.toString(),
      LOG_LEVEL: settings.logLevel,
      SEED_DEMO: "false",
      NIID_START: "false",
    };
    for (const name of ["RATE_LIMIT_MAX", "RATE_LIMIT_WINDOW_MS", "REDIS_URL", "MAX_IN_FLIGHT"]) delete serviceEnv[name];
    const serviceConfig = loadConfig(serviceEnv);
    const limit = { max: serviceConfig.RATE_LIMIT_MAX, windowMs: serviceConfig.RATE_LIMIT_WINDOW_MS };

    const scenarios = SCENARIOS.filter((scenario) => !settings.only || settings.only.has(scenario.name));
    const probePool = await createCallers(
      database.db,
      partnersFor((2 * scenarios.length * PROBE_REQUESTS) / settings.durationSeconds, settings.durationSeconds, limit),
      "probe",
    );
    servers.push(await startServer({ name: "bare", script: "bench/bare.ts", env: { ...env, DATABASE_URL: benchUrl.toString() }, logDir, cwd: root }));
    const service = await startServer({ name: "service", script: "src/main.ts", env: serviceEnv, logDir, cwd: root });
    servers.push(service);
    const bare = servers[0]!;
    say(`servers up: bare ${bare.url}, service ${service.url} (logs in ${logDir})`);

    const problems: string[] = [];
    const load = async (
      label: string,
      url: string,
      nextBody: () => string,
      classify: (s: number, b: string) => string,
      time: { seconds?: number; amount?: number },
    ) => {
      const result = await runLoad({ url, connections: settings.connections, duration: time.seconds, amount: time.amount, nextBody, classify });
      say(describe(label, result));
      if (result.failed || result.errors)
        problems.push(`${label}: ${result.failed} not ok, ${result.errors} without answer; e.g. ${result.failureSamples.join(" | ")}`);
      return result;
    };
    /**
     * A checkpoint before each warm-up: PostgreSQL starts one of its own once the WAL since the last
     * reaches about half of max_wal_size (540 MB here, two runs' worth or so), and the full-page
     * images written after it slowed whichever run it fell in (insure-live's p99 83 ms in one full
     * run, 34–43 ms otherwise). Each run now starts just after one, bare and scenario alike.
     */
    const checkpoint = async () => {
      await bench!`checkpoint`.catch((error: Error) => say(`no checkpoint before the run (${error.message})`));
    };
    /** Warm-up then measured run, back to back, on one body source. */
    const measure = async (name: string, url: string, nextBody: () => string, classify: (s: number, b: string) => string) => {
      await checkpoint();
      await load(`${name} warm-up`, url, nextBody, classify, { seconds: settings.warmupSeconds });
      return load(name, url, nextBody, classify, { seconds: settings.durationSeconds });
    };

    const fakeCaller: Caller = {
      partnerId: crypto.randomUUID(),
      keyId: crypto.randomUUID(),
      key: "x".repeat(44),
      live: { id: "", key: "" },
      consumerId: "",
      policyReference: "",
    };
    // Both bare routes get the quote envelope as their body, so they parse (and the INSERT stores) the same bytes as the service.
    const bareBody = () => SCENARIOS[0]!.body(fakeCaller);
    const bareUrl: Record<BareKind, string> = { insert: bare.url, select: `${bare.url}read` };
    // A first look at the bare INSERT caps the sizing below (the bare runs that count come later).
    await load("bare probe (warming)", bareUrl.insert, bareBody, classifyBareAnswer, { amount: PROBE_REQUESTS });
    const bareProbe = await load("bare probe", bareUrl.insert, bareBody, classifyBareAnswer, { amount: 2 * PROBE_REQUESTS });

    // Size each scenario's partner pool from a short probe of the service: a warming pass, then a timed one.
    const nextProbe = rotation(probePool);
    const scenarioSeconds = settings.warmupSeconds + settings.durationSeconds;
    const pools = new Map<string, Caller[]>();
    for (const scenario of scenarios) {
      const body = () => scenario.body(nextProbe());
      await load(`${scenario.name} probe (warming)`, service.url, body, classifyCommandAnswer, { amount: PROBE_REQUESTS });
      const probe = await load(`${scenario.name} probe`, service.url, body, classifyCommandAnswer, { amount: PROBE_REQUESTS });
      // A probe runs on a machine still busy with the one before (a read scenario ran 2.7 times its
      // probe's rate once), so a pool is never sized below the bare handler's rate.
      const expected = Math.max(bareProbe.requestsPerSecond, probe.requestsPerSecond * PROBE_HEADROOM);
      pools.set(scenario.name, await createCallers(database.db, partnersFor(expected, scenarioSeconds, limit), scenario.name));
    }
    say(`partner creation: ${partnersMade.seconds.toFixed(1)} s in total for ${partnersMade.count} partners (${partnersMade.by.join(", ")})`);

    // The bare handler before the first scenario and after each one: INSERT always, SELECT next to the read scenarios.
    const runs: (BareRun | ScenarioReport)[] = [];
    const bareCount: Record<BareKind, number> = { insert: 0, select: 0 };
    const count = async (table: string) => Number(((await bench!`select count(*)::int as n from ${bench!(table)}`) as unknown as [{ n: number }])[0].n);
    let bareRowsStored = 0;
    const measureBare = async (base: BareKind) => {
      const number = ++bareCount[base];
      const name = `bare ${base.toUpperCase()} #${number}`;
      const warmup = number === 1 ? settings.warmupSeconds : settings.bareWarmupSeconds;
      // Each bare INSERT run starts on an empty table, as the single bare run did: a table grown by
      // the runs before would slow the INSERT down (by about a quarter at 450k rows here), which is not drift.
      if (base === "insert") await bench!`truncate bare_requests`;
      await checkpoint();
      const warm = await load(`${name} warm-up`, bareUrl[base], bareBody, classifyBareAnswer, { seconds: warmup });
      const result = await load(name, bareUrl[base], bareBody, classifyBareAnswer, { seconds: settings.durationSeconds });
      runs.push({ kind: "bare", base, number, result });
      if (base === "insert") {
        // Every answer of the run must have left its row.
        const stored = await count("bare_requests");
        const answered = (warm.outcomes.ok ?? 0) + (result.outcomes.ok ?? 0);
        bareRowsStored += stored;
        if (stored < answered) problems.push(`${name}: only ${stored} bare rows stored for ${answered} answers`);
      }
    };
    const measureBares = async (select: boolean) => {
      await measureBare("insert");
      if (select) await measureBare("select");
    };
    /**
     * Wait (at most SETTLE_LIMIT_MS) until the background work a scenario left is done — live
     * policies the insurer decides seconds later, events to dispatch, PostgreSQL's autovacuum of the
     * rows it wrote — so that it is measured with the scenario that made it, not as drift in the bare
     * runs and scenarios after it.
     */
    const settled: Record<string, number> = {};
    const settle = async (after: string) => {
      const started = performance.now();
      for (;;) {
        const [left] = (await bench!`select
            (select count(*) from policies where status = 'p' and underwrite_at is not null)::int as underwriting,
            (select count(*) from outbox_events where dispatched_at is null)::int as outbox,
            (select count(*) from pg_stat_activity where backend_type = 'autovacuum worker' and datname = current_database())::int as vacuum`) as unknown as [
          { underwriting: number; outbox: number; vacuum: number },
        ];
        const busy = left.underwriting || left.outbox || left.vacuum;
        if (!busy || performance.now() - started > SETTLE_LIMIT_MS) {
          settled[after] = (performance.now() - started) / 1000;
          if (busy)
            say(
              `after ${after}: still ${left.underwriting} policies to underwrite, ${left.outbox} events to dispatch and ${left.vacuum} autovacuum workers after ${SETTLE_LIMIT_MS / 1000} s`,
            );
          else if (settled[after] > 1) say(`after ${after}: the service's background work took ${settled[after].toFixed(1)} s more`);
          return;
        }
        await Bun.sleep(500);
      }
    };
    await settle("the probes");
    await measureBares(true);
    for (const [i, scenario] of scenarios.entries()) {
      const pool = pools.get(scenario.name)!;
      const next = rotation(pool);
      const result = await measure(scenario.name, service.url, () => scenario.body(next()), classifyCommandAnswer);
      await settle(scenario.name);
      runs.push({
        kind: "scenario",
        name: scenario.name,
        description: scenario.description,
        partners: pool.length,
        reads: !!scenario.reads,
        result,
        settledSeconds: settled[scenario.name]!,
      });
      await measureBares(!!scenario.reads || !!scenarios[i + 1]?.reads);
    }

    let hostileSection: string | null = null;
    if (!settings.only || settings.only.has("hostile")) {
      // A server of its own whose partner limit lets one partner quote throughout; what limits
      // unauthenticated requests stays as configured, since that is what is measured. The hostile
      // client is another client than the partner, as behind a real reverse proxy: the server
      // trusts loopback as its proxy and the sender names its own address in X-Forwarded-For.
      const hostileServer = await startServer({
        name: "hostile",
        script: "src/main.ts",
        env: { ...serviceEnv, RATE_LIMIT_MAX: "1000000000", TRUSTED_PROXIES: "127.0.0.1,::1" },
        logDir,
        cwd: root,
      });
      servers.push(hostileServer);
      const victim = await createPartner(database.db, { name: "bench hostile" }, undefined, { portalPassword });
      const hostile = await measureHostile(
        hostileServer,
        { partnerId: victim.partnerId, keyId: victim.keys.test.id, key: victim.keys.test.key },
        settings.hostile,
        logDir,
        say,
        checkpoint,
      );
      for (const { name, quotes } of hostile.phases)
        if (quotes.failed || quotes.errors)
          problems.push(`hostile, ${name}: ${quotes.failed} quotes not ok, ${quotes.errors} without answer; e.g. ${quotes.failureSamples.join(" | ")}`);
      const hostileErrors = hostileServer.stderr().trim();
      if (hostileErrors) problems.push(`the hostile scenario's server wrote to stderr:\n${hostileErrors.slice(-2000)}`);
      await hostileServer.stop();
      hostileSection = renderHostileSection(startedAt, hostile);
    }

    const report: RunReport = {
      startedAt,
      machine: describeMachine(pgVersion),
      settings: {
        connections: settings.connections,
        warmupSeconds: settings.warmupSeconds,
        durationSeconds: settings.durationSeconds,
        bareWarmupSeconds: settings.bareWarmupSeconds,
        logLevel: settings.logLevel,
        rateLimit: `${limit.max} / ${limit.windowMs / 1000} s`,
      },
      runs,
      partnersMade: { count: partnersMade.count, seconds: partnersMade.seconds },
      stored: { quotes: await count("quotes"), consumers: await count("consumers"), policies: await count("policies"), bare: bareRowsStored },
    };
    // Every answer 75 of a writing scenario must have left its row (warm-ups and probes wrote more).
    const answeredOk = (name: string) =>
      scenariosOf(report)
        .filter((s) => s.name === name)
        .reduce((n, s) => n + (s.result.outcomes.ok ?? 0), 0);
    for (const [scenarios, table] of [
      [["quote"], "quotes"],
      [["register"], "consumers"],
      [["insure", "insure-live"], "policies"],
    ] as const) {
      const answered = scenarios.reduce((n, s) => n + answeredOk(s), 0);
      if (report.stored[table] < answered)
        problems.push(`only ${report.stored[table]} ${table} stored for ${answered} answers 75 to ${scenarios.join(" and ")}`);
    }
    // Lists as the table grows, and memory under sustained load (a full run only).
    let scaleSection: string | null = null;
    if (!settings.only) {
      const operator = await createPartner(database.db, { name: "bench operator", admin: true }, undefined, { portalPassword });
      const owner = await createPartner(database.db, { name: "bench lists" }, undefined, { portalPassword });
      const consumer = await registerConsumer(database.db, owner.partnerId, benchPerson(), { maxDocumentBytes: 1 << 20 });
      const listCaller = { partnerId: owner.partnerId, consumerId: consumer.id, keyId: owner.keys.test.id, key: owner.keys.test.key, portal: owner.portal };
      const lists = await measureLists(bench, service, listCaller, await portalCookie(service, operator.portal), settings.scaleSizes, settings.listRequests);
      for (const row of lists) say(`${row.what} at ${row.size}: p50 ${row.p50} ms, p95 ${row.p95} ms, p99 ${row.p99} ms`);
      // A server of its own without the rate limit, so one partner can keep it busy for the whole soak.
      const soak = await startServer({
        name: "soak",
        script: "src/main.ts",
        env: { ...serviceEnv, RATE_LIMIT_MAX: "1000000000", WORKER: "false" },
        logDir,
        cwd: root,
      });
      servers.push(soak);
      const soakCaller = { ...listCaller, live: owner.keys.live, policyReference: "" };
      const memory = await measureMemory(soak, settings.soakSeconds, 5, (seconds) =>
        runLoad({
          url: soak.url,
          connections: settings.soakConnections,
          duration: seconds,
          nextBody: () => SCENARIOS[0]!.body(soakCaller),
          classify: classifyCommandAnswer,
        }),
      );
      say(`memory under load: ${memory.map((m) => `${m.second}s ${m.rssMiB} MiB`).join(", ")}`);
      scaleSection = renderScaleSection(startedAt, lists, memory, {
        requests: settings.listRequests,
        soakSeconds: settings.soakSeconds,
        soakConnections: settings.soakConnections,
      });
    }

    const serviceErrors = service.stderr().trim();
    if (serviceErrors) problems.push(`the service wrote to stderr:\n${serviceErrors.slice(-2000)}`);

    const section = renderSection(report);
    process.stdout.write(`\n${section}\n\n`);
    if (hostileSection) process.stdout.write(`${hostileSection}\n\n`);
    for (const v of verdicts(report)) {
      if (v.aim !== undefined && (v.ratio === null || v.ratio < v.aim)) say(`${v.name} / bare = ${v.ratio?.toFixed(2) ?? "n/a"}, below the aim of ${v.aim}`);
      if (v.aim !== undefined && (v.p99Ratio === null || v.p99Ratio > P99_AIM))
        say(`${v.name} p99 / bare p99 = ${v.p99Ratio?.toFixed(2) ?? "n/a"}, above the aim of ${P99_AIM}`);
    }
    if (problems.length) {
      say(`NOT CLEAN — docs/performance.md left as it was:\n  ${problems.join("\n  ")}`);
      return 1;
    }
    if (settings.writeDocs) {
      writeSection(join(root, "docs/performance.md"), section);
      if (scaleSection) writeSection(join(root, "docs/performance.md"), scaleSection, SCALE_MARKERS);
      if (hostileSection) writeSection(join(root, "docs/performance.md"), hostileSection, HOSTILE_MARKERS);
      say("docs/performance.md updated");
    }
    return 0;
  } finally {
    await cleanup();
  }
}

process.exit(await main());
