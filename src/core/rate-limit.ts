import { RedisClient } from "bun";

export interface RateDecision {
  allowed: boolean;
  /** When refused: milliseconds until the oldest counted request leaves the window. */
  retryAfterMs: number;
}

/** At most `max` requests per key in any rolling `windowMs` (a sliding log, not fixed buckets). */
export interface RateLimiter {
  hit(key: string): Promise<RateDecision>;
  close(): Promise<void>;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly log = new Map<string, number[]>();
  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async hit(key: string): Promise<RateDecision> {
    const now = this.now();
    const since = now - this.windowMs;
    const times = (this.log.get(key) ?? []).filter((t) => t > since);
    if (times.length >= this.max) {
      this.log.set(key, times);
      return { allowed: false, retryAfterMs: times[0]! + this.windowMs - now };
    }
    times.push(now);
    this.log.set(key, times);
    return { allowed: true, retryAfterMs: 0 };
  }

  async close() {}
}

// Atomic on the Redis server, so several instances enforce one limit.
const SLIDING_LOG = `
local key, now, window, max, member = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
if redis.call('ZCARD', key) >= max then
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return tonumber(oldest[2]) + window - now
end
redis.call('ZADD', key, now, member)
redis.call('PEXPIRE', key, window)
return -1`;

export class RedisRateLimiter implements RateLimiter {
  private readonly client: RedisClient;
  constructor(
    url: string,
    private readonly max: number,
    private readonly windowMs: number,
    private readonly prefix = "ratelimit:",
  ) {
    this.client = new RedisClient(url);
  }

  async hit(key: string): Promise<RateDecision> {
    const now = Date.now();
    const wait = Number(
      await this.client.send("EVAL", [SLIDING_LOG, "1", this.prefix + key, String(now), String(this.windowMs), String(this.max), `${now}:${crypto.randomUUID()}`]),
    );
    return wait < 0 ? { allowed: true, retryAfterMs: 0 } : { allowed: false, retryAfterMs: wait };
  }

  async close() {
    this.client.close();
  }
}
