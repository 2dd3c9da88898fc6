/**
 * Lost database connections (docs/reliability.md, "Lost database connections"). PostgreSQL only:
 * the service runs as a real process (src/main.ts, with its background worker) on a fresh database
 * while clients issue policies in both modes and top up wallets, and webhooks flow to a local
 * receiver. Then every backend of that database is terminated (pg_terminate_backend) every 0.3 s
 * for 6 s, under that load. Afterwards:
 * - nothing uncaught in the service's output, it still serves, and no request waited unbounded;
 * - throughput is back within seconds of the last fault, /healthz never hung;
 * - every outbox event is delivered (no undispatched event, no pending or failed delivery);
 * - the instance lock is held again (pg_locks) and the cache listener is subscribed again;
 * - the invariants: each wallet's ledger sums to its balance, one policy per reference, every
 *   answered 75 stored once.
 *
 * The same scenario then meets a restart of PostgreSQL itself (a private cluster made with initdb
 * and pg_ctl in a temporary directory, stopped for 2 s): /healthz says "down" meanwhile, and all
 * of the above holds again once it is back.
 *
 * On both engines, with the database made unreachable around the app's handle: routes other than
 * POST / answer 503 (JSON: 55/503 with the request id; portal: a "temporarily unavailable" page),
 * never 500, and /healthz says "down" within its bound while the database does not answer; and a
 * background job that loses its connection is tried again within a second, not backed off.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, inArray, notLike } from "drizzle-orm";
import postgres from "postgres";
import { freePort } from "../bench/servers";
import { type DatabaseHandle, openDatabase } from "../src/db/client";
import { INSTANCE_LOCK_CLASS } from "../src/db/shared-cache";
import { outboxEvents } from "../src/modules/events/schema";
import { createPartner, type NewPartner } from "../src/modules/partners/service";
import { policies } from "../src/modules/policies/schema";
import { walletEntries, wallets } from "../src/modules/wallet/schema";
import { webhookDeliveries } from "../src/modules/webhooks/schema";
import { startWorker } from "../src/worker/loop";
import { engine, testApp } from "./support/harness";
import { fullConsumer, insureSeed, productCases } from "./support/policies";
import { freshPostgresDatabase } from "./support/reliability";
import { type AppProcess, BOOK_EVENTS, startAppProcess, startReceiver } from "./support/webhook-receiver";

const FAULT_EVERY_MS = 300;
const FAULTS_FOR_MS = 6_000;
const CLIENTS = 8;
const PHONE = productCases["phnn-flx1-1111"]!;
/** The longest any one HTTP attempt may take: connect timeout (5 s) plus the wait to learn a lost commit's outcome (5 s), with room. */
const MAX_ATTEMPT_MS = 15_000;

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
}, 30_000);

const envelope = (partner: NewPartner, label: "test" | "live", cmmnd: string, seed?: unknown) => ({
  userInfo: { id: partner.partnerId, athrzt: partner.keys[label] },
  cmmnd: seed === undefined ? { cmmnd } : { cmmnd, seed },
});

type Kind = "topup" | "insure-test" | "insure-live";
interface Op {
  kind: Kind;
  partner: NewPartner;
  reference: string;
  amountKobo?: number;
  /** Each attempt: its answer's feedback (or "dropped") and how long it took. */
  attempts: { feedback: { id: number; id_v4: number; elbrtn?: string } | "dropped"; ms: number }[];
  answer?: any;
  answeredAt?: number;
}

/** Sent until an answer that is neither 35 nor 503 (a retry is what both ask for), with the same reference. */
async function send(app: AppProcess, op: Op, body: unknown): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const started = performance.now();
    let answer: any;
    try {
      const response = await fetch(app.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
      answer = await response.json();
    } catch {
      op.attempts.push({ feedback: "dropped", ms: performance.now() - started });
      await Bun.sleep(50);
      continue;
    }
    op.attempts.push({ feedback: answer.exctnFdbck, ms: performance.now() - started });
    if (answer.exctnFdbck.id === 35 || answer.exctnFdbck.id_v4 === 503) {
      await Bun.sleep(100);
      continue;
    }
    op.answer = answer;
    op.answeredAt = performance.now();
    return;
  }
  throw new Error(`no answer after 100 attempts: ${op.kind} ${op.reference}`);
}

function nextOp(partner: NewPartner, consumerId: string): { op: Op; body: unknown } {
  const roll = Math.random();
  const reference = crypto.randomUUID();
  if (roll < 0.4) {
    const amountKobo = (100 + Math.floor(Math.random() * 5_000)) * 100 + Math.floor(Math.random() * 100);
    return {
      op: { kind: "topup", partner, reference, amountKobo, attempts: [] },
      body: envelope(partner, "live", "wallet topup", { amount: amountKobo / 100, reference }),
    };
  }
  const label = roll < 0.7 ? "test" : "live";
  return {
    op: { kind: `insure-${label}`, partner, reference, attempts: [] },
    body: envelope(partner, label, `entt_${consumerId}: insure`, insureSeed(PHONE, { id: reference })),
  };
}

describe("while the database cannot be reached", async () => {
  let away = false;
  let pingHangs = false;
  const lostConnection = () => Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" });
  /** Every query fails as a dropped connection does while `away`; `pingHangs` makes the health check's query never answer. */
  const unreachable = (handle: DatabaseHandle): DatabaseHandle => ({
    ...handle,
    db: new Proxy(handle.db, {
      get(target, property) {
        const value = Reflect.get(target, property, target);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          if (away && (property === "select" || property === "execute" || property === "transaction" || property === "update" || property === "insert"))
            throw lostConnection();
          return value.apply(target, args);
        };
      },
    }),
    ping: () => (pingHangs ? new Promise<boolean>(() => {}) : handle.ping()),
  });
  const t = await testApp({}, undefined, unreachable);
  const get = (path: string, init: RequestInit = {}) => t.app.handle(new Request(`http://localhost${path}`, init));

  test("a JSON route answers 503 in the envelope (55/503) with its request id, not 500", async () => {
    away = true;
    try {
      const response = await get("/certificates/some-token", { headers: { "x-request-id": "outage-json-1" } });
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("1");
      const body = await response.json();
      expect(body.exctnFdbck).toMatchObject({ id: 55, id_v4: 503 });
      expect(body.exctnFdbck.elbrtn).toContain("temporarily unavailable");
      expect(body.exctnFdbck.elbrtn).toContain("outage-json-1");
    } finally {
      away = false;
    }
  });

  test("a portal page answers a plain 503 'temporarily unavailable, try again' page", async () => {
    const form = await get("/login");
    const cookies = form.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1];
    expect(csrf).toBeTruthy();
    away = true;
    try {
      const response = await get("/login", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies, "x-request-id": "outage-portal-1" },
        body: new URLSearchParams({ _csrf: csrf!, email: "someone@partners.example", password: "not the password" }).toString(),
      });
      expect(response.status).toBe(503);
      expect(response.headers.get("content-type")).toContain("text/html");
      const page = await response.text();
      expect(page).toContain("temporarily unavailable: try again");
      expect(page).toContain("outage-portal-1");
    } finally {
      away = false;
    }
  });

  test("/healthz says the database is down within 2 s when it does not answer, and up once it does", async () => {
    pingHangs = true;
    const started = performance.now();
    const down = await get("/healthz");
    pingHangs = false;
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ status: "degraded", database: "down" });
    const up = await get("/healthz");
    expect(up.status).toBe(200);
    expect(await up.json()).toMatchObject({ database: "up" });
  });
});

test("a background job that lost its database connection is tried again within a second, not backed off", async () => {
  const tries: number[] = [];
  const worker = startWorker(
    [
      {
        name: "flaky",
        async run() {
          tries.push(performance.now());
          if (tries.length <= 4) throw Object.assign(new Error("write CONNECT_TIMEOUT"), { code: "CONNECT_TIMEOUT" });
          return 0;
        },
      },
    ],
    500,
  );
  const started = performance.now();
  while (tries.length < 5 && performance.now() - started < 10_000) await Bun.sleep(20);
  await worker.stop();
  // Backed off as for other failures, the fifth try would come 1 + 2 + 4 + 8 s after the first.
  expect(tries.length).toBe(5);
  const gaps = tries.slice(1).map((at, i) => at - tries[i]!);
  for (const gap of gaps) expect(gap).toBeLessThan(1_100);
});

const isDuplicateReference = (answer: any) => answer?.exctnFdbck?.id_v4 === 409 && /already in use/.test(answer.exctnFdbck.elbrtn);

/** What a fault did, for the log line and its own checks. */
type FaultReport = Record<string, number>;

/**
 * The scenario both faults share: the service (with its worker) on a fresh database of the server
 * at `serverUrl`, under load from CLIENTS clients, meets `fault` while /healthz is asked every
 * 200 ms; then recovery, delivery and the invariants are checked. Returns the figures.
 */
async function underLoad<R extends FaultReport>(serverUrl: string, name: string, fault: (admin: postgres.Sql, databaseName: string) => Promise<R>) {
  const database = await freshPostgresDatabase(serverUrl, `reliability_${name}`);
  cleanups.push(() => database.drop());
  const databaseName = new URL(database.url).pathname.slice(1);
  const setup = await openDatabase({ url: database.url });
  const partners = [await createPartner(setup.db, { name: "Connections A" }), await createPartner(setup.db, { name: "Connections B" })];
  await setup.close();

  const receiver = await startReceiver();
  cleanups.push(() => receiver.stop());
  const app = await startAppProcess({
    DATABASE_URL: database.url,
    WEBHOOK_ALLOW_PRIVATE: "true",
    WEBHOOK_RETRY_SCALE: "0.001",
    WEBHOOK_TIMEOUT_MS: "2000",
    WORKER_INTERVAL_MS: "50",
    INSURER_DELAY_MS: "300",
    RATE_LIMIT_MAX: "1000000",
  });
  cleanups.push(() => app.stop());

  const consumers: string[] = [];
  for (const [i, partner] of partners.entries()) {
    const post = async (label: "test" | "live", cmmnd: string, seed?: unknown) => {
      const answer = await app.post(envelope(partner, label, cmmnd, seed));
      expect(answer.exctnFdbck).toMatchObject({ id: 75 });
      return answer;
    };
    consumers.push((await post("test", "prfl entity", fullConsumer())).id);
    await post("live", `dump ipck_${PHONE.code}*PRMM`, PHONE.quote);
    const endpoint = await post("test", "webhook register", { url: receiver.url(`/partner-${i}`), events: BOOK_EVENTS });
    receiver.trust(`/partner-${i}`, endpoint.secret);
    // Enough for any run: live issues cost more on average than the load's top-ups bring in, and a
    // wallet run dry would answer a retried issue 402 (a true answer, but not what this test is about).
    await post("live", "wallet topup", { amount: 100_000_000, reference: `funding-${i}` });
  }

  // Load: each client sends one request after another until told to stop.
  const ops: Op[] = [];
  let loading = true;
  const clients = Array.from({ length: CLIENTS }, async (_, c) => {
    const at = c % partners.length;
    while (loading) {
      const { op, body } = nextOp(partners[at]!, consumers[at]!);
      ops.push(op);
      await send(app, op, body);
    }
  });
  const answeredBetween = (from: number, to: number) =>
    ops.filter((op) => op.answeredAt! >= from && op.answeredAt! < to && op.answer?.exctnFdbck.id === 75).length;

  await Bun.sleep(3_000);
  const baselinePerSecond = answeredBetween(performance.now() - 2_000, performance.now()) / 2;

  // The fault, while /healthz is asked every 200 ms: it must always answer, and soon.
  const admin = postgres(new URL("/postgres", serverUrl).toString(), { max: 1, onnotice: () => {} });
  cleanups.push(() => admin.end());
  let probing = true;
  const probes: { ms: number; status: number }[] = [];
  const prober = (async () => {
    while (probing) {
      const started = performance.now();
      const status = await fetch(`${app.url}healthz`, { signal: AbortSignal.timeout(10_000) }).then((r) => r.status);
      probes.push({ ms: performance.now() - started, status });
      await Bun.sleep(200);
    }
  })();
  const report = await fault(admin, databaseName);
  const faultEnded = performance.now();
  probing = false;
  await prober;

  // Throughput after the fault, second by second, until it is back to half the baseline (or 10 s).
  let recoveredAfterMs: number | null = null;
  for (let second = 0; second < 10 && recoveredAfterMs === null; second++) {
    await Bun.sleep(1_000);
    if (answeredBetween(performance.now() - 1_000, performance.now()) >= baselinePerSecond / 2) recoveredAfterMs = Math.round(performance.now() - faultEnded);
  }
  loading = false;
  await Promise.all(clients);

  const attempts = ops.flatMap((op) => op.attempts);
  const stats = {
    ...report,
    requests: ops.length,
    attempts: attempts.length,
    dropped: attempts.filter((a) => a.feedback === "dropped").length,
    retried35or503: attempts.filter((a) => a.feedback !== "dropped" && (a.feedback.id === 35 || a.feedback.id_v4 === 503)).length,
    answered75: ops.filter((op) => op.answer.exctnFdbck.id === 75).length,
    baselinePerSecond,
    recoveredAfterMs,
    slowestAttemptMs: Math.round(Math.max(...attempts.map((a) => a.ms))),
    healthzDown: probes.filter((p) => p.status === 503).length,
    slowestHealthzMs: Math.round(Math.max(...probes.map((p) => p.ms))),
  };
  console.log(`reliability-connections (${name}): ${JSON.stringify(stats)}`);
  expect(recoveredAfterMs).not.toBeNull();
  expect(recoveredAfterMs!).toBeLessThanOrEqual(5_000);
  expect(stats.slowestAttemptMs).toBeLessThan(MAX_ATTEMPT_MS);
  expect(stats.slowestHealthzMs).toBeLessThan(3_000);
  // No answer lies or fails: never a 500; each request ends 75 (or, for a policy whose earlier attempt
  // was stored before its connection dropped, "already in use" — then stored once, checked below).
  const internal = attempts.filter((a) => a.feedback !== "dropped" && a.feedback.id_v4 === 500);
  // What the server logged for them, so a failure says which error was not taken for a lost connection.
  const internalIds = internal.flatMap((a) => (a.feedback !== "dropped" && /request id ([\w-]+)/.exec(a.feedback.elbrtn ?? "")?.[1]) || []);
  if (internal.length)
    console.log(
      app
        .stderr()
        .split("\n")
        .filter((line) => internalIds.some((id) => line.includes(id)))
        .join("\n"),
    );
  expect(internal).toEqual([]);
  for (const op of ops) {
    const retried = op.attempts.length > 1;
    const ok = op.answer.exctnFdbck.id === 75 || (op.kind !== "topup" && retried && isDuplicateReference(op.answer));
    expect({ op: op.kind, answer: ok ? "ok" : { final: op.answer.exctnFdbck, attempts: op.attempts } }).toEqual({ op: op.kind, answer: "ok" });
  }

  // The service still serves, healthy, and logged nothing uncaught.
  const health = await fetch(`${app.url}healthz`);
  expect(health.status).toBe(200);
  expect(app.stderr()).not.toMatch(/uncaught exception|unhandled rejection|socket\.write/);

  // Live policies decided, then every outbox event delivered, with nothing left pending.
  const deadline = Date.now() + 60_000;
  for (const partner of partners) {
    while ((await app.post(envelope(partner, "live", "dump entt_*", { status: "p", limit: 1 }))).list?.length !== 0) {
      if (Date.now() > deadline) throw new Error(`live policies still pending\n${app.stderr()}`);
      await Bun.sleep(200);
    }
  }
  const check = await openDatabase({ url: database.url });
  cleanups.push(() => check.close());
  const partnerIds = partners.map((p) => p.partnerId);
  const events = () =>
    check.db
      .select()
      .from(outboxEvents)
      .where(and(inArray(outboxEvents.partnerId, partnerIds), notLike(outboxEvents.type, "message.%")));
  const received = () => new Set(receiver.hits.filter((h) => h.verifiedBy.length).map((h) => h.id));
  let eventIds = new Set<string>();
  try {
    await receiver.waitFor(
      "every outbox event at the receiver",
      () => {
        void events().then((rows) => (eventIds = new Set(rows.map((e) => e.id))));
        return eventIds.size > 0 && [...eventIds].every((id) => received().has(id));
      },
      60_000,
    );
  } catch (error) {
    // Say where each missing event stands: not fanned out, or its delivery and what it met.
    const missing = (await events()).filter((e) => !received().has(e.id));
    const deliveries = await check.db
      .select()
      .from(webhookDeliveries)
      .where(
        inArray(
          webhookDeliveries.eventId,
          missing.map((e) => e.id),
        ),
      );
    console.log(`missing events: ${JSON.stringify(missing.map((e) => ({ id: e.id, type: e.type, createdAt: e.createdAt, dispatchedAt: e.dispatchedAt })))}`);
    console.log(`their deliveries: ${JSON.stringify(deliveries)}`);
    console.log(
      `now ${new Date().toISOString()}; server warnings:\n${app
        .stderr()
        .split("\n")
        .filter((line) => /"level":"(warn|error)"/.test(line))
        .slice(-40)
        .join("\n")}`,
    );
    throw error;
  }
  for (;;) {
    const deliveries = await check.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.partnerId, partnerIds));
    if (deliveries.every((d) => d.status === "succeeded")) break;
    if (Date.now() > deadline + 30_000) throw new Error(`deliveries not succeeded: ${JSON.stringify(deliveries.filter((d) => d.status !== "succeeded"))}`);
    await Bun.sleep(250);
  }
  expect((await events()).filter((e) => !e.dispatchedAt)).toEqual([]);

  // The instance is registered again, and its cache listener subscribed again.
  const registered = await admin`select count(*)::int as n from pg_locks
    where locktype = 'advisory' and classid = ${INSTANCE_LOCK_CLASS} and objsubid = 2 and granted
      and database = (select oid from pg_database where datname = ${databaseName})`;
  expect(registered[0]!.n).toBe(1);
  const listening = await admin`select count(*)::int as n from pg_stat_activity where datname = ${databaseName} and query ilike 'listen %'`;
  expect(listening[0]!.n).toBeGreaterThanOrEqual(1);

  // The invariants of docs/reliability.md.
  const storedPolicies = await check.db.select().from(policies).where(inArray(policies.partnerId, partnerIds));
  const entries = await check.db.select().from(walletEntries).where(inArray(walletEntries.partnerId, partnerIds));
  const perReference = Map.groupBy(storedPolicies, (p) => `${p.partnerId} ${p.reference}`);
  expect([...perReference].filter(([, rows]) => rows.length !== 1)).toEqual([]);
  for (const op of ops) {
    const where = `${op.kind} ${op.reference}`;
    if (op.kind === "topup") {
      const credits = entries.filter((e) => e.partnerId === op.partner.partnerId && e.kind === "topup" && e.reference === op.reference);
      expect({ where, credits: credits.map((e) => e.amountKobo) }).toEqual({ where, credits: [op.amountKobo!] });
    } else {
      expect({ where, stored: perReference.get(`${op.partner.partnerId} ${op.reference}`)?.length ?? 0 }).toEqual({ where, stored: 1 });
    }
  }
  for (const partnerId of partnerIds) {
    const [wallet] = await check.db
      .select()
      .from(wallets)
      .where(inArray(wallets.partnerId, [partnerId]));
    const sum = entries.filter((e) => e.partnerId === partnerId).reduce((total, e) => total + e.amountKobo, 0);
    expect({ partnerId, sum }).toEqual({ partnerId, sum: wallet!.balanceKobo });
  }

  await app.stop();
  expect(await app.exited).toBe(0);
  return stats;
}

test.skipIf(engine !== "postgres")(
  "pg_terminate_backend on every connection every 0.3 s for 6 s under load: no uncaught error, recovery within seconds, every event delivered, invariants hold",
  async () => {
    const stats = await underLoad((process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL)!, "terminate", async (admin, databaseName) => {
      let terminated = 0;
      const until = performance.now() + FAULTS_FOR_MS;
      while (performance.now() < until) {
        const killed = await admin`select pg_terminate_backend(pid) as done from pg_stat_activity where datname = ${databaseName} and pid <> pg_backend_pid()`;
        terminated += killed.filter((row) => row.done).length;
        await Bun.sleep(FAULT_EVERY_MS);
      }
      return { terminatedBackends: terminated };
    });
    expect(stats.terminatedBackends).toBeGreaterThan(20);
  },
  180_000,
);

/** The binaries of an installed PostgreSQL (for a private cluster), if any. */
const postgresBin = (() => {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  return (
    readdirSync(root)
      .map((version) => `${root}/${version}/bin`)
      .find((bin) => existsSync(`${bin}/initdb`)) ?? null
  );
})();

/**
 * A PostgreSQL server of our own in a temporary directory, to stop and start at will. initdb refuses
 * to run as root: then it (and the server) runs as the `postgres` user.
 */
async function privateCluster(bin: string) {
  const dir = mkdtempSync(join(tmpdir(), "reliability-pg-"));
  const asOwner = process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--"] : [];
  const run = async (...command: string[]) => {
    const child = Bun.spawn([...asOwner, ...command], { stdout: "pipe", stderr: "pipe" });
    if ((await child.exited) !== 0) throw new Error(`${command.join(" ")} failed: ${await new Response(child.stderr).text()}`);
  };
  if (asOwner.length) Bun.spawnSync(["chown", "postgres", dir]);
  const port = await freePort();
  const data = join(dir, "data");
  await run(`${bin}/initdb`, "-D", data, "-U", "postgres", "-A", "trust", "--no-sync");
  const start = () =>
    run(`${bin}/pg_ctl`, "-D", data, "-l", join(dir, "log"), "-w", "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, "start");
  const stop = (mode: "fast" | "immediate") => run(`${bin}/pg_ctl`, "-D", data, "-m", mode, "-w", "stop");
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async remove() {
      await stop("immediate").catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const RESTART_DOWN_MS = 2_000;

test.skipIf(engine !== "postgres" || !postgresBin)(
  "a PostgreSQL restart under load: /healthz says down meanwhile, then recovery within seconds, every event delivered, invariants hold",
  async () => {
    const cluster = await privateCluster(postgresBin!);
    cleanups.push(() => cluster.remove());
    const stats = await underLoad(cluster.url, "restart", async () => {
      const stopping = performance.now();
      await cluster.stop("fast");
      await Bun.sleep(RESTART_DOWN_MS);
      await cluster.start();
      return { downForMs: Math.round(performance.now() - stopping) };
    });
    expect(stats.healthzDown).toBeGreaterThan(0);
  },
  180_000,
);
