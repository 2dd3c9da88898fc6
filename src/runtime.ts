import { loadConfig, type Config } from "./config";
import { CapacityGate } from "./core/capacity";
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from "./core/rate-limit";
import { openDatabase } from "./db/client";
import type { AppDeps } from "./http/context";

/** Config → database (migrated) → limits: everything the app needs, built the same way by main.ts, the CLI and tests. */
export async function buildDeps(config: Config = loadConfig()): Promise<AppDeps> {
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const rateLimiter: RateLimiter = config.REDIS_URL
    ? new RedisRateLimiter(config.REDIS_URL, config.RATE_LIMIT_MAX, config.RATE_LIMIT_WINDOW_MS)
    : new MemoryRateLimiter(config.RATE_LIMIT_MAX, config.RATE_LIMIT_WINDOW_MS);
  return { database, config, rateLimiter, capacity: new CapacityGate(config.MAX_IN_FLIGHT) };
}

export async function closeDeps(deps: AppDeps) {
  await deps.rateLimiter.close();
  await deps.database.close();
}
