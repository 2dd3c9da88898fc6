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
 * When a run of failures makes each further attempt wait: the first `free` go through at once, then
 * each waits `firstDelayMs` after the one before, doubling with every failure up to `maxDelayMs`.
 * A run is forgotten `forgetAfterMs` after its last wait ends.
 */
export interface DelaySchedule {
  free: number;
  firstDelayMs: number;
  maxDelayMs: number;
  forgetAfterMs: number;
}

/** The wait after the `failures`-th failure of a run. */
const delayAfter = (failures: number, s: DelaySchedule) => (failures < s.free ? 0 : Math.min(s.maxDelayMs, s.firstDelayMs * 2 ** (failures - s.free)));

/**
 * Growing delays instead of a lock-out (OWASP, "Authentication Cheat Sheet"): a key's attempts slow
 * down as its failures add up, but never stop for good. An attempt is counted as a failure when it
 * is taken, before its outcome is known, so attempts sent at the same moment cannot all slip past
 * the wait; a success clears the key.
 */
export interface DelayLimiter {
  /** Take an attempt for `key`: refused (counting nothing) while its wait lasts, else counted. */
  take(key: string): Promise<RateDecision>;
  /** Forget the key's run of failures (a success). */
  clear(key: string): Promise<void>;
  close(): Promise<void>;
}

export class MemoryDelayLimiter implements DelayLimiter {
  private readonly runs = new Map<string, { failures: number; nextAt: number }>();
  /** The map's size after the last sweep of forgotten runs: swept again when it doubles. */
  private swept = 1024;
  constructor(
    private readonly schedule: DelaySchedule,
    private readonly now: () => number = Date.now,
  ) {}

  async take(key: string): Promise<RateDecision> {
    const now = this.now();
    const forgotten = (run: { nextAt: number }) => run.nextAt + this.schedule.forgetAfterMs <= now;
    let run = this.runs.get(key);
    if (run && forgotten(run)) run = undefined;
    if (run && now < run.nextAt) return { allowed: false, retryAfterMs: run.nextAt - now };
    const failures = (run?.failures ?? 0) + 1;
    this.runs.set(key, { failures, nextAt: now + delayAfter(failures, this.schedule) });
    if (this.runs.size > this.swept * 2) {
      for (const [k, r] of this.runs) if (forgotten(r)) this.runs.delete(k);
      this.swept = Math.max(1024, this.runs.size);
    }
    return { allowed: true, retryAfterMs: 0 };
  }

  async clear(key: string) {
    this.runs.delete(key);
  }

  async close() {}
}

// Atomic on the Redis server, so several instances keep one run per key.
const GROWING_DELAY = `
local key, now, free, first, max, forget = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local run = redis.call('HMGET', key, 'failures', 'next')
local failures, nextAt = tonumber(run[1]) or 0, tonumber(run[2]) or 0
if now < nextAt then return nextAt - now end
failures = failures + 1
local wait = 0
if failures >= free then wait = math.min(max, first * 2 ^ (failures - free)) end
redis.call('HSET', key, 'failures', failures, 'next', string.format('%d', now + wait))
redis.call('PEXPIRE', key, math.floor(wait + forget))
return -1`;

export class RedisDelayLimiter implements DelayLimiter {
  private readonly client: RedisClient;
  constructor(
    url: string,
    private readonly schedule: DelaySchedule,
    private readonly prefix: string,
  ) {
    this.client = new RedisClient(url);
  }

  async take(key: string): Promise<RateDecision> {
    const { free, firstDelayMs, maxDelayMs, forgetAfterMs } = this.schedule;
    const args = [Date.now(), free, firstDelayMs, maxDelayMs, forgetAfterMs].map(String);
    const wait = Number(await this.client.send("EVAL", [GROWING_DELAY, "1", this.prefix + key, ...args]));
    return wait < 0 ? { allowed: true, retryAfterMs: 0 } : { allowed: false, retryAfterMs: wait };
  }

  async clear(key: string) {
    await this.client.send("DEL", [this.prefix + key]);
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
