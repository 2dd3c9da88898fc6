import { loadConfig, type Config } from "./config";
import { CapacityGate } from "./core/capacity";
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from "./core/rate-limit";
import { openDatabase } from "./db/client";
import type { AppDeps } from "./http/context";
import { sessionSecret } from "./modules/portal/service";

/** Config → database (migrated) → limits: everything the app needs, built the same way by main.ts, the CLI and tests. */
export async function buildDeps(config: Config = loadConfig()): Promise<AppDeps> {
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, connection: config });
  return {
    database,
    config,
    rateLimiter: limiter(config, config.RATE_LIMIT_MAX, config.RATE_LIMIT_WINDOW_MS, "ratelimit:"),
    loginLimiters: {
      perAccount: limiter(config, config.LOGIN_MAX_ATTEMPTS, config.LOGIN_WINDOW_MS, "login-account:"),
      perAddress: limiter(config, config.LOGIN_MAX_ATTEMPTS * 10, config.LOGIN_WINDOW_MS, "login-address:"),
    },
    refusalLimiter: limiter(config, config.REFUSAL_LIMIT_MAX, config.REFUSAL_LIMIT_WINDOW_MS, "refusals:"),
    capacity: new CapacityGate(config.MAX_IN_FLIGHT),
    sessionSecret: await sessionSecret(database.db, config),
  };
}

/** In memory for one instance; shared through Redis when REDIS_URL is set. */
const limiter = (config: Config, max: number, windowMs: number, prefix: string): RateLimiter =>
  config.REDIS_URL ? new RedisRateLimiter(config.REDIS_URL, max, windowMs, prefix) : new MemoryRateLimiter(max, windowMs);

export async function closeDeps(deps: AppDeps) {
  await deps.rateLimiter.close();
  await deps.loginLimiters.perAccount.close();
  await deps.loginLimiters.perAddress.close();
  await deps.refusalLimiter.close();
  await deps.database.close();
}
