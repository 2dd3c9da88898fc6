import { createHash, randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { CapacityGate } from "./core/capacity";
import { type Config, loadConfig } from "./core/config";
import { MemoryDelayLimiter, MemoryRateLimiter, type RateLimiter, RedisDelayLimiter, RedisRateLimiter } from "./core/rate-limit";
import { openDatabase } from "./db/client";
import type { AppDeps } from "./http/context";
import { sessionSecret } from "./modules/accounts/service";

/** Config → database (migrated) → limits: everything the app needs, built the same way by main.ts, the CLI and tests. */
export async function buildDeps(config: Config = loadConfig()): Promise<AppDeps> {
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, connection: config });
  return {
    database,
    config,
    rateLimiter: limiter(config, config.RATE_LIMIT_MAX, config.RATE_LIMIT_WINDOW_MS, "ratelimit:"),
    loginLimiters: loginLimiters(config),
    refusalLimiter: limiter(config, config.REFUSAL_LIMIT_MAX, config.REFUSAL_LIMIT_WINDOW_MS, "refusals:"),
    capacity: new CapacityGate(config.MAX_IN_FLIGHT, config.UNIDENTIFIED_BODY_BYTES),
    sessionSecret: await sessionSecret(database.db, config),
  };
}

/** In memory for one instance; shared through Redis when REDIS_URL is set. */
const limiter = (config: Config, max: number, windowMs: number, prefix: string): RateLimiter =>
  config.REDIS_URL ? new RedisRateLimiter(config.REDIS_URL, max, windowMs, `${deploymentOf(config)}:${prefix}`) : new MemoryRateLimiter(max, windowMs);

/** A run of sign-in failures is remembered for a day after its last wait (then the free attempts come back). */
const SIGN_IN_RUN_MEMORY_MS = 24 * 3_600_000;

/** The sign-in and password reset throttles (docs/security.md), in memory or shared through Redis like every limiter. */
export function loginLimiters(config: Config): AppDeps["loginLimiters"] {
  const schedule = {
    free: config.LOGIN_FREE_ATTEMPTS,
    firstDelayMs: config.LOGIN_DELAY_MS,
    maxDelayMs: config.LOGIN_MAX_DELAY_MS,
    forgetAfterMs: SIGN_IN_RUN_MEMORY_MS,
  };
  return {
    perAccountAtAddress: config.REDIS_URL
      ? new RedisDelayLimiter(config.REDIS_URL, schedule, `${deploymentOf(config)}:login-account-address:`)
      : new MemoryDelayLimiter(schedule),
    perAddress: limiter(config, config.LOGIN_ADDRESS_MAX, config.LOGIN_WINDOW_MS, "login-address:"),
    resetPerEmail: limiter(config, config.PASSWORD_RESET_EMAIL_MAX, config.PASSWORD_RESET_WINDOW_MS, "reset-email:"),
    resetPerAddress: limiter(config, config.PASSWORD_RESET_ADDRESS_MAX, config.PASSWORD_RESET_WINDOW_MS, "reset-address:"),
  };
}

/**
 * The Redis namespace of one deployment: the instances of a deployment share their database, so
 * its address (without credentials) names them; two services on one Redis (or test servers on
 * their own databases) never share a count. An in-memory database is one process's own.
 */
function deploymentOf(config: Config): string {
  const url = config.DATABASE_URL ? new URL(config.DATABASE_URL) : undefined;
  const identity = url ? `${url.hostname}:${url.port}${url.pathname}` : config.DATA_DIR.startsWith("memory://") ? randomUUID() : resolve(config.DATA_DIR);
  return createHash("sha256").update(identity).digest("hex").slice(0, 12);
}

export async function closeDeps(deps: AppDeps) {
  await deps.rateLimiter.close();
  await deps.loginLimiters.perAccountAtAddress.close();
  await deps.loginLimiters.perAddress.close();
  await deps.loginLimiters.resetPerEmail.close();
  await deps.loginLimiters.resetPerAddress.close();
  await deps.refusalLimiter.close();
  await deps.database.close();
}
