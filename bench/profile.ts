/**
 * Where the service spends a request: `npm run bench:profile` (bun bench/profile.ts).
 *
 * On a fresh database it makes PROFILE_PARTNERS partners (20; each with a consumer, an approved
 * test policy and a funded live wallet), starts the service under Bun's CPU profiler
 * (`--cpu-prof-md`) without its rate limit, loads one scenario with autocannon and stops the
 * service, which writes the profile as markdown (functions by self time) into PROFILE_DIR. The
 * database is dropped at the end.
 *
 * Env: PROFILE_SCENARIO (quote; also insure, insure-live, register, status, list), PROFILE_SECONDS (10),
 * PROFILE_CONNECTIONS (50), PROFILE_PARTNERS (20; 1 puts every request on one wallet), PROFILE_DIR
 * (a new temporary folder), PROFILE_CPU (0: measure without the profiler, to compare two versions),
 * BENCH_DATABASE_URL.
 */
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { openDatabase } from "../src/db/client";
import { issuePolicy } from "../src/modules/issuance/issuance";
import { classifyCommandAnswer, runLoad } from "./load";
import { cpuMs, fundedPartners, postgresPids, withScratchDatabase } from "./measure";
import { benchInsureSeed, benchPerson } from "./seeds";
import { allocatorEnv, freePort } from "./servers";

const root = fileURLToPath(new URL("..", import.meta.url));
const env = process.env;
const scenario = env.PROFILE_SCENARIO ?? "quote";
const seconds = Number(env.PROFILE_SECONDS ?? 10);
const PARTNERS = Number(env.PROFILE_PARTNERS ?? 20);
const dir = env.PROFILE_DIR ?? mkdtempSync(join(tmpdir(), "profile-"));

await withScratchDatabase("profile", async (url) => {
  const database = await openDatabase({ url });
  // Enough partners that none fills its API-log share (ApiLogBuffer's maxPerPartner) as one partner would;
  // enough funds for the whole run on however few wallets (a premium is 15,000 naira).
  const funded = await fundedPartners(database.db, PARTNERS, "profile", 10_000_000_000 * Math.ceil(20 / PARTNERS));
  const callers: ((typeof funded)[number] & { policyReference: string })[] = [];
  for (const { partner, consumerId } of funded) {
    const policySeed = benchInsureSeed();
    await issuePolicy(database.db, {
      partnerId: partner.partnerId,
      mode: "test",
      consumerParam: consumerId,
      seed: policySeed,
      now: new Date(),
      insurerDelayMs: 0,
    });
    callers.push({ partner, consumerId, policyReference: policySeed.id });
  }
  await database.close();

  let turn = 0;
  const envelope = (make: (c: (typeof callers)[number]) => [string, unknown?], live = false) => {
    const c = callers[turn++ % callers.length]!;
    const key = live ? c.partner.keys.live : c.partner.keys.test;
    const [cmmnd, seed] = make(c);
    return JSON.stringify({
      userInfo: { id: c.partner.partnerId, athrzt: { id: key.id, key: key.key } },
      cmmnd: seed === undefined ? { cmmnd } : { cmmnd, seed },
    });
  };
  const bodies: Record<string, () => string> = {
    quote: () => envelope(() => ["dump ipck_vhcl-tprt-1111*PRMM", { insrncDrtn: "1y" }]),
    insure: () => envelope((c) => [`entt_${c.consumerId}: insure`, benchInsureSeed()]),
    "insure-live": () => envelope((c) => [`entt_${c.consumerId}: insure`, benchInsureSeed()], true),
    register: () => envelope(() => ["prfl entity", benchPerson()]),
    status: () => envelope((c) => [`dump entt_${c.consumerId}|insr_vhcl-tprt-1111-${c.policyReference}*STATUS`]),
    list: () => envelope(() => ["dump entt_*", { limit: 20 }]),
  };
  const nextBody = bodies[scenario];
  if (!nextBody) throw new Error(`PROFILE_SCENARIO must be one of ${Object.keys(bodies).join(", ")}`);

  const port = await freePort();
  const profiler = env.PROFILE_CPU === "0" ? [] : ["--cpu-prof-md", `--cpu-prof-dir=${dir}`];
  const service = Bun.spawn([process.execPath, ...profiler, "src/main.ts"], {
    cwd: root,
    env: {
      ...allocatorEnv(),
      ...env,
      PORT: String(port),
      DATABASE_URL: url,
      LOG_LEVEL: "warn",
      SEED_DEMO: "false",
      NIID_START: "false",
      RATE_LIMIT_MAX: "1000000000",
    },
    stdout: "inherit",
    stderr: "inherit",
  });
  for (let up = false; !up; await Bun.sleep(200))
    up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
  const run = (duration: number) =>
    runLoad({ url: `http://127.0.0.1:${port}/`, connections: Number(env.PROFILE_CONNECTIONS ?? 50), duration, nextBody, classify: classifyCommandAnswer });
  await run(2);
  const stats = postgres(url, { max: 1, onnotice: () => {} });
  const activity = async () =>
    (
      (await stats`select xact_commit::int8 as commits, tup_inserted::int8 as inserted, tup_updated::int8 as updated, tup_fetched::int8 as fetched
        from pg_stat_database where datname = current_database()`) as unknown as { commits: string; inserted: string; updated: string; fetched: string }[]
    )[0]!;
  // Rows read per table, by index (entries read) and by sequential scan: which statement reads more than its own rows;
  // and rows inserted and updated per table.
  const tableRows = async () =>
    new Map(
      (
        (await stats`select indexrelname as source, idx_tup_read::int8 as rows from pg_stat_user_indexes
          union all select relname || ' (sequential)', seq_tup_read::int8 from pg_stat_user_tables
          union all select relname || ' (inserted)', n_tup_ins::int8 from pg_stat_user_tables
          union all select relname || ' (updated)', n_tup_upd::int8 from pg_stat_user_tables`) as unknown as { source: string; rows: string }[]
      ).map((row) => [row.source, Number(row.rows)]),
    );
  const before = { service: cpuMs([service.pid]), postgres: cpuMs(postgresPids()), database: await activity(), tables: await tableRows() };
  const result = await run(seconds);
  // The statistics collector reports with a delay (up to 500 ms).
  await Bun.sleep(1000);
  const after = await activity();
  const per = (key: keyof typeof after) => ((Number(after[key]) - Number(before.database[key])) / Math.max(1, result.answered)).toFixed(2);
  process.stderr.write(
    `[profile] per request: ${per("commits")} transactions, ${per("inserted")} rows inserted, ${per("updated")} updated, ${per("fetched")} fetched\n`,
  );
  const rowsPerRequest = [...(await tableRows())]
    .map(([table, rows]) => [table, (rows - (before.tables.get(table) ?? 0)) / Math.max(1, result.answered)] as const)
    .filter(([, rows]) => rows >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([table, rows]) => `${table} ${rows.toFixed(2)}`);
  process.stderr.write(`[profile] rows per request, read by index or sequential scan, inserted, updated: ${rowsPerRequest.join(", ") || "none"}\n`);
  await stats.end();
  const perRequest = (ms: number) => ((ms * 1000) / Math.max(1, result.answered)).toFixed(0);
  const cpu = { service: perRequest(cpuMs([service.pid]) - before.service), postgres: perRequest(cpuMs(postgresPids()) - before.postgres) };
  process.stderr.write(
    `[profile] ${scenario}: ${result.requestsPerSecond.toFixed(0)} req/s, p99 ${result.p99Ms} ms, ${result.failed} not ok ${JSON.stringify(result.outcomes)}; ` +
      `CPU per request: service ${cpu.service} µs, PostgreSQL ${cpu.postgres} µs\n`,
  );
  service.kill("SIGTERM");
  await service.exited;
  process.stderr.write(
    `[profile] written: ${readdirSync(dir)
      .map((f) => join(dir, f))
      .join(", ")}\n`,
  );
});
