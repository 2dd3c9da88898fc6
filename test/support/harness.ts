import { RedisClient } from "bun";
import { createApp } from "../../src/app";
import { CapacityGate } from "../../src/core/capacity";
import { type Config, loadConfig } from "../../src/core/config";
import { setLogLevel } from "../../src/core/log";
import { MemoryRateLimiter, type RateLimiter } from "../../src/core/rate-limit";
import { type DatabaseHandle, openDatabase } from "../../src/db/client";
import { sessionSecret } from "../../src/modules/accounts/service";
import type { ClaimAuthority } from "../../src/modules/partners";
import { createPartner, type KeyLabel, type NewPartner } from "../../src/modules/partners/service";
import { loginLimiters } from "../../src/runtime";

setLogLevel("silent");

/** The Redis the tests use for shared limits: REDIS_URL, else the local default. */
export const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/** Whether that Redis answers (the tests of Redis-backed limits are skipped outside CI when not). */
export async function redisAvailable(): Promise<boolean> {
  const client = new RedisClient(redisUrl, { connectionTimeout: 500, autoReconnect: false });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    client.close();
  }
}

/** Which engine this run tests: scripts/test.ts runs the suite once per engine. */
export const engine = process.env.TEST_ENGINE === "postgres" ? "postgres" : "pglite";

let shared: Promise<DatabaseHandle> | undefined;

/** One migrated database per test process (PGlite in memory, or the run's fresh PostgreSQL database). Tests isolate by partner. */
export function testDatabase(): Promise<DatabaseHandle> {
  shared ??= openDatabase(engine === "postgres" ? { url: process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL } : { dataDir: "memory://" });
  return shared;
}

export interface TestApp {
  app: ReturnType<typeof createApp>;
  database: DatabaseHandle;
  config: Config;
  capacity: CapacityGate;
  /** POST / with a JSON value (or raw text) and return the parsed answer, asserting HTTP 200. */
  post(body: unknown, headers?: Record<string, string>): Promise<any>;
  /** A fresh partner with keys of every label. */
  partner(options?: { admin?: boolean; enrichment?: boolean; name?: string; claimAuthority?: ClaimAuthority }): Promise<TestPartner>;
}

export interface TestPartner extends NewPartner {
  /** Run a command with the key of `label` (default test) and return the parsed answer. */
  run(cmmnd: string, seed?: unknown, label?: KeyLabel): Promise<any>;
  envelope(cmmnd: string, seed?: unknown, label?: KeyLabel): unknown;
}

/** `wrapDatabase`: the app gets this instead of the shared database (fault injection, test/reliability-outcome.test.ts). */
export async function testApp(
  overrides: Partial<Config> = {},
  rateLimiter?: RateLimiter,
  wrapDatabase: (database: DatabaseHandle) => DatabaseHandle = (database) => database,
): Promise<TestApp> {
  const database = wrapDatabase(await testDatabase());
  // Generous limits by default so suites are not throttled; the rate-limit and hostile-input tests set their own.
  // The suite's fixtures share their identifiers (one VIN, one phone, one id number) and claim on the
  // day cover starts: left to the default threshold, nearly every claim in the suite would wait for a
  // second reviewer. Tests of the signals and of that rule set the threshold themselves.
  const config = loadConfig({}, { RATE_LIMIT_MAX: 100_000, REFUSAL_LIMIT_MAX: 100_000, CLAIM_SIGNAL_REVIEW_SCORE: 10_000, ...overrides });
  const capacity = new CapacityGate(config.MAX_IN_FLIGHT, config.UNIDENTIFIED_BODY_BYTES);
  const app = createApp({
    database,
    config,
    capacity,
    rateLimiter: rateLimiter ?? new MemoryRateLimiter(config.RATE_LIMIT_MAX, config.RATE_LIMIT_WINDOW_MS),
    loginLimiters: loginLimiters(config),
    refusalLimiter: new MemoryRateLimiter(config.REFUSAL_LIMIT_MAX, config.REFUSAL_LIMIT_WINDOW_MS),
    sessionSecret: await sessionSecret(database.db, config),
  });
  async function post(body: unknown, headers: Record<string, string> = {}) {
    const response = await app.handle(
      new Request("http://localhost/", {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
    );
    if (response.status !== 200) throw new Error(`POST / answered HTTP ${response.status}`);
    return response.json();
  }
  async function partner(options: { admin?: boolean; enrichment?: boolean; name?: string; claimAuthority?: ClaimAuthority } = {}): Promise<TestPartner> {
    const created = await createPartner(database.db, { name: options.name ?? `Partner ${crypto.randomUUID().slice(0, 8)}`, ...options });
    const envelope = (cmmnd: string, seed?: unknown, label: KeyLabel = "test") => ({
      userInfo: { id: created.partnerId, athrzt: created.keys[label] },
      cmmnd: seed === undefined ? { cmmnd } : { cmmnd, seed },
    });
    return { ...created, envelope, run: (cmmnd, seed, label) => post(envelope(cmmnd, seed, label)) };
  }
  return { app, database, config, capacity, post, partner };
}

/** A minimal real PNG (1×1). */
export const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
export const PDF_BASE64 = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n").toString("base64");

export const individual = (overrides: Record<string, unknown> = {}) => ({
  type: "s",
  class: "h",
  name: { first: "Adaeze", last: "Okafor" },
  gender: "f",
  dob: { date: "1990-04-12" },
  addrss: { addrss: "12 Admiralty Way, Lekki, Lagos" },
  phoneNo: "+2348031234567",
  eMail: `adaeze.${crypto.randomUUID().slice(0, 8)}@example.ng`,
  ...overrides,
});

export const expectError = (answer: any) => answer.exctnFdbck as { id: number; id_v4: number; elbrtn: string };
