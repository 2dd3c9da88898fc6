/**
 * Throughput benchmark: `npm run bench` (bun bench/run.ts).
 *
 * On a fresh PostgreSQL database `bench_<timestamp>` (made under BENCH_DATABASE_URL and dropped at
 * the end) it loads, one after the other with autocannon:
 *   bare      bench/bare.ts — bare Elysia + postgres.js, one INSERT per request (the baseline);
 *   quote     the service's `dump ipck_vhcl-tprt-1111*PRMM` (auth SELECT + quote INSERT);
 *   register  the service's `prfl entity` with a new e-mail every request.
 * The service runs unchanged (`bun src/main.ts`) with its default per-partner rate limit; the
 * requests rotate over enough fresh partners that the limit never refuses one. Every answer is
 * checked. The results are printed and written between the bench markers of docs/performance.md.
 *
 * Env: BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres), BENCH_CONNECTIONS (50),
 * BENCH_WARMUP (3 s), BENCH_DURATION (10 s), BENCH_LOG_LEVEL (service LOG_LEVEL, warn),
 * BENCH_WRITE_DOCS (1; 0 leaves docs/performance.md alone).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { loadConfig } from "../src/config";
import { openDatabase, type Database } from "../src/db/client";
import { createPartner } from "../src/modules/partners/service";
import { classifyBareAnswer, classifyCommandAnswer, runLoad, type LoadResult } from "./load";
import { describeMachine, QUOTE_AIM, ratio, renderSection, writeSection, type RunReport, type ScenarioReport } from "./report";
import { startServer, type Server } from "./servers";

const root = fileURLToPath(new URL("..", import.meta.url));
const env = process.env;
const settings = {
  baseUrl: env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  connections: Number(env.BENCH_CONNECTIONS ?? 50),
  warmupSeconds: Number(env.BENCH_WARMUP ?? 3),
  durationSeconds: Number(env.BENCH_DURATION ?? 10),
  logLevel: env.BENCH_LOG_LEVEL ?? "warn",
  writeDocs: env.BENCH_WRITE_DOCS !== "0",
};
/** Requests per pass of the sizing probe: a first pass warms the service up, the second is timed. */
const PROBE_REQUESTS = 1500;
/** How much faster than its probe a scenario may run during the benchmark; capped by the bare rate. */
const PROBE_HEADROOM = 1.5;
/** Spare partner capacity on top of the expected request count. */
const SAFETY = 1.2;
const PARTNER_CONCURRENCY = 8;

const say = (message: string) => process.stderr.write(`[bench] ${message}\n`);

interface Credentials {
  partnerId: string;
  keyId: string;
  key: string;
}

const envelope = (c: Credentials, cmmnd: string, seed: unknown) =>
  JSON.stringify({ userInfo: { id: c.partnerId, athrzt: { id: c.keyId, key: c.key } }, cmmnd: { cmmnd, seed } });

const QUOTE = { cmmnd: "dump ipck_vhcl-tprt-1111*PRMM", seed: { insrncDrtn: "1y" } } as const;
const runTag = Date.now().toString(36);
let registrations = 0;
const quoteBody = (c: Credentials) => envelope(c, QUOTE.cmmnd, QUOTE.seed);
const registerBody = (c: Credentials) =>
  envelope(c, "prfl entity", {
    class: "h",
    name: { first: "Ada", last: "Obi" },
    phoneNo: "+2348031234567",
    eMail: `ada.${runTag}.${++registrations}@bench.example`,
  });

/** `count` new partners (each costs an argon2 hash of its portal password), their test keys. */
async function createPartners(db: Database, count: number, label: string): Promise<Credentials[]> {
  const started = performance.now();
  const made: Credentials[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const partner = await createPartner(db, { name: `bench ${label} ${i}` });
      made.push({ partnerId: partner.partnerId, keyId: partner.keys.test.id, key: partner.keys.test.key });
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARTNER_CONCURRENCY, count) }, worker));
  say(`created ${count} partners for ${label} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return made;
}

/** Round-robin over `pool`: every partner gets the same share of the requests. */
function rotation(pool: Credentials[]): () => Credentials {
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
    const serviceEnv: Record<string, string | undefined> = { ...env, DATABASE_URL: benchUrl.toString(), LOG_LEVEL: settings.logLevel, SEED_DEMO: "false" };
    for (const name of ["RATE_LIMIT_MAX", "RATE_LIMIT_WINDOW_MS", "REDIS_URL", "MAX_IN_FLIGHT"]) delete serviceEnv[name];
    const serviceConfig = loadConfig(serviceEnv);
    const limit = { max: serviceConfig.RATE_LIMIT_MAX, windowMs: serviceConfig.RATE_LIMIT_WINDOW_MS };

    const probePool = await createPartners(database.db, partnersFor(4 * PROBE_REQUESTS, 1, limit), "probe");
    servers.push(await startServer({ name: "bare", script: "bench/bare.ts", env: { ...env, DATABASE_URL: benchUrl.toString() }, logDir, cwd: root }));
    const service = await startServer({ name: "service", script: "src/main.ts", env: serviceEnv, logDir, cwd: root });
    servers.push(service);
    const bare = servers[0]!;
    say(`servers up: bare ${bare.url}, service ${service.url} (logs in ${logDir})`);

    const problems: string[] = [];
    const load = async (label: string, url: string, nextBody: () => string, classify: (s: number, b: string) => string, time: { seconds?: number; amount?: number }) => {
      const result = await runLoad({ url, connections: settings.connections, duration: time.seconds, amount: time.amount, nextBody, classify });
      say(describe(label, result));
      if (result.failed || result.errors) problems.push(`${label}: ${result.failed} not ok, ${result.errors} without answer; e.g. ${result.failureSamples.join(" | ")}`);
      return result;
    };
    /** Warm-up then measured run, back to back, on one body source. */
    const measure = async (name: string, url: string, nextBody: () => string, classify: (s: number, b: string) => string) => {
      await load(`${name} warm-up`, url, nextBody, classify, { seconds: settings.warmupSeconds });
      return load(name, url, nextBody, classify, { seconds: settings.durationSeconds });
    };

    const fakeCaller: Credentials = { partnerId: crypto.randomUUID(), keyId: crypto.randomUUID(), key: "x".repeat(44) };
    const scenarios: ScenarioReport[] = [];
    // The baseline gets the quote envelope as its body, so both parse and store the same bytes.
    const bareResult = await measure("bare", bare.url, () => quoteBody(fakeCaller), classifyBareAnswer);
    scenarios.push({ name: "bare", description: "bare Elysia + postgres.js: one INSERT", partners: 0, result: bareResult });

    // Size the partner pools from short probes of the service: a warming pass, then a timed one.
    const nextProbe = rotation(probePool);
    const probe = async (name: string, nextBody: () => string) => {
      await load(`${name} probe (warming)`, service.url, nextBody, classifyCommandAnswer, { amount: PROBE_REQUESTS });
      return load(`${name} probe`, service.url, nextBody, classifyCommandAnswer, { amount: PROBE_REQUESTS });
    };
    const quoteProbe = await probe("quote", () => quoteBody(nextProbe()));
    const registerProbe = await probe("register", () => registerBody(nextProbe()));
    const scenarioSeconds = settings.warmupSeconds + settings.durationSeconds;
    const expected = (probe: LoadResult) => Math.min(bareResult.requestsPerSecond, probe.requestsPerSecond * PROBE_HEADROOM);
    const quotePool = await createPartners(database.db, partnersFor(expected(quoteProbe), scenarioSeconds, limit), "quote");
    const registerPool = await createPartners(database.db, partnersFor(expected(registerProbe), scenarioSeconds, limit), "register");

    const nextQuoter = rotation(quotePool);
    const quoteResult = await measure("quote", service.url, () => quoteBody(nextQuoter()), classifyCommandAnswer);
    scenarios.push({ name: "quote", description: "`dump ipck_vhcl-tprt-1111*PRMM`: auth SELECT + quote INSERT", partners: quotePool.length, result: quoteResult });
    const nextRegistrant = rotation(registerPool);
    const registerResult = await measure("register", service.url, () => registerBody(nextRegistrant()), classifyCommandAnswer);
    scenarios.push({ name: "register", description: "`prfl entity`, new e-mail: auth SELECT + transaction (SELECT … FOR UPDATE, INSERT)", partners: registerPool.length, result: registerResult });

    const count = async (table: string) => Number(((await bench!`select count(*)::int as n from ${bench!(table)}`) as unknown as [{ n: number }])[0].n);
    const report: RunReport = {
      startedAt,
      machine: describeMachine(pgVersion),
      settings: {
        connections: settings.connections,
        warmupSeconds: settings.warmupSeconds,
        durationSeconds: settings.durationSeconds,
        logLevel: settings.logLevel,
        rateLimit: `${limit.max} / ${limit.windowMs / 1000} s`,
      },
      scenarios,
      stored: { quotes: await count("quotes"), consumers: await count("consumers"), bare: await count("bare_requests") },
    };
    const answeredOk = (name: string) => report.scenarios.filter((s) => s.name === name).reduce((n, s) => n + (s.result.outcomes.ok ?? 0), 0);
    if (report.stored.quotes < answeredOk("quote")) problems.push(`only ${report.stored.quotes} quotes stored for ${answeredOk("quote")} answers 75`);
    if (report.stored.consumers < answeredOk("register")) problems.push(`only ${report.stored.consumers} consumers stored for ${answeredOk("register")} answers 75`);
    const serviceErrors = service.stderr().trim();
    if (serviceErrors) problems.push(`the service wrote to stderr:\n${serviceErrors.slice(-2000)}`);

    const section = renderSection(report);
    process.stdout.write(`\n${section}\n\n`);
    const quoteRatio = ratio(report, "quote");
    if (quoteRatio !== null && quoteRatio < QUOTE_AIM) say(`quote / bare = ${quoteRatio.toFixed(2)}, below the aim of ${QUOTE_AIM}`);
    if (problems.length) {
      say(`NOT CLEAN — docs/performance.md left as it was:\n  ${problems.join("\n  ")}`);
      return 1;
    }
    if (settings.writeDocs) {
      writeSection(join(root, "docs/performance.md"), section);
      say("docs/performance.md updated");
    }
    return 0;
  } finally {
    await cleanup();
  }
}

process.exit(await main());
