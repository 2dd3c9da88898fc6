import { RedisClient } from "bun";

export interface RateDecision {
  allowed: boolean;
  /** When refused: milliseconds until the oldest counted request leaves the window. */
  retryAfterMs: number;
}

/** At most `max` requests per key in any rolling `windowMs` (a sliding log, not fixed buckets). */
export interface RateLimiter {
  /** Count one request for `key`, unless the window is full (then refused, and not counted). */
  hit(key: string): Promise<RateDecision>;
  /** Whether a request for `key` would be refused now, counting nothing. */
  peek(key: string): Promise<RateDecision>;
  /** Forget what was counted for `key` (a success that ends a run of failures). */
  clear(key: string): Promise<void>;
  close(): Promise<void>;
}

export class MemoryRateLimiter implements RateLimiter {
  /**
   * Per key, the times counted, oldest first, from `start` on: leaving the window only moves
   * `start` (the array is compacted now and then), so a decision costs the same at any limit —
   * filtering the whole log each time cost a third of a busy partner's request at a large limit.
   */
  private readonly log = new Map<string, { times: number[]; start: number }>();
  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async hit(key: string): Promise<RateDecision> {
    return this.decide(key, true);
  }

  async peek(key: string): Promise<RateDecision> {
    return this.decide(key, false);
  }

  async clear(key: string) {
    this.log.delete(key);
  }

  private decide(key: string, count: boolean): RateDecision {
    const now = this.now();
    const since = now - this.windowMs;
    let entry = this.log.get(key);
    if (entry) {
      const { times } = entry;
      while (entry.start < times.length && times[entry.start]! <= since) entry.start++;
      if (entry.start === times.length) {
        this.log.delete(key);
        entry = undefined;
      } else if (entry.start > 1024 && entry.start * 2 > times.length) {
        entry.times = times.slice(entry.start);
        entry.start = 0;
      }
    }
    const counted = entry ? entry.times.length - entry.start : 0;
    if (counted >= this.max) return { allowed: false, retryAfterMs: entry!.times[entry!.start]! + this.windowMs - now };
    if (count) {
      if (entry) entry.times.push(now);
      else this.log.set(key, { times: [now], start: 0 });
    }
    return { allowed: true, retryAfterMs: 0 };
  }

  async close() {}
}

// Atomic on the Redis server, so several instances enforce one limit.
const SLIDING_LOG = `
local key, now, window, max, member, count = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], ARGV[5]
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
if redis.call('ZCARD', key) >= max then
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return tonumber(oldest[2]) + window - now
end
if count ~= '1' then return -1 end
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
    return this.decide(key, true);
  }

  async peek(key: string): Promise<RateDecision> {
    return this.decide(key, false);
  }

  async clear(key: string) {
    await this.client.send("DEL", [this.prefix + key]);
  }

  private async decide(key: string, count: boolean): Promise<RateDecision> {
    const now = Date.now();
    const args = [String(now), String(this.windowMs), String(this.max), `${now}:${crypto.randomUUID()}`, count ? "1" : "0"];
    const wait = Number(await this.client.send("EVAL", [SLIDING_LOG, "1", this.prefix + key, ...args]));
    return wait < 0 ? { allowed: true, retryAfterMs: 0 } : { allowed: false, retryAfterMs: wait };
  }

  async close() {
    this.client.close();
  }
}

/**
 * Requests refused before or at authentication (an unreadable body, a malformed envelope, an
 * unknown partner, a wrong key), counted per client address and per claimed partner id in one
 * limiter. Only refusals are counted, so they never use a partner's own limit, and the claimed id
 * only turns further refusals into 429: the partner presenting its genuine key is always served.
 */
export const refusalKeys = {
  address: (address: string) => `address:${address}`,
  partner: (partnerId: string) => `partner:${partnerId}`,
};

/** Count one refusal against each key; the longest wait when any of them is already full. */
export async function countRefusal(limiter: RateLimiter, keys: string[]): Promise<RateDecision> {
  const decisions = await Promise.all(keys.map((key) => limiter.hit(key)));
  const refused = decisions.filter((d) => !d.allowed);
  return refused.length ? { allowed: false, retryAfterMs: Math.max(...refused.map((d) => d.retryAfterMs)) } : { allowed: true, retryAfterMs: 0 };
}
