import { describe, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import fc from "fast-check";
import { type DelayLimiter, MemoryDelayLimiter, MemoryRateLimiter, type RateDecision, RedisDelayLimiter, RedisRateLimiter } from "../src/core/rate-limit";
import { consumers } from "../src/modules/consumers/schema";
import { individual, redisAvailable, redisUrl, testApp } from "./support/harness";

const redisUp = await redisAvailable();

describe("rate limit: 70 requests (60 + 10 burst) in any rolling 60 seconds per partner", () => {
  test("the 71st request gets 55/429 rate limit exceeded with a retry hint; other partners are unaffected", async () => {
    const t = await testApp({ RATE_LIMIT_MAX: 70 });
    const busy = await t.partner();
    const answers = await Promise.all(Array.from({ length: 70 }, () => busy.run("dump entt_*CSTMRS", { limit: 1 })));
    expect(answers.every((a) => a.exctnFdbck.id === 75)).toBe(true);
    const refused = await busy.run("dump entt_*CSTMRS");
    expect(refused.exctnFdbck).toMatchObject({ id: 55, id_v4: 429 });
    expect(refused.exctnFdbck.elbrtn).toContain("rate limit exceeded");
    expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
    const quiet = await t.partner();
    expect((await quiet.run("dump entt_*CSTMRS")).exctnFdbck.id).toBe(75);
  }, 60_000);

  test("the window rolls: a request is allowed again once the oldest leaves the window", async () => {
    let now = 0;
    const limiter = new MemoryRateLimiter(3, 60_000, () => now);
    for (const at of [0, 10_000, 20_000]) {
      now = at;
      expect((await limiter.hit("p")).allowed).toBe(true);
    }
    now = 59_999;
    expect(await limiter.hit("p")).toEqual({ allowed: false, retryAfterMs: 1 });
    now = 60_001;
    expect((await limiter.hit("p")).allowed).toBe(true);
    expect((await limiter.hit("p")).allowed).toBe(false);
  });

  test("over long runs of hits and peeks it decides exactly as a plain sliding log would", () => {
    fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ gap: fc.integer({ min: 0, max: 6 }), peek: fc.boolean(), key: fc.constantFrom("a", "b") }), { minLength: 1, maxLength: 6000 }),
        async (steps) => {
          let now = 0;
          const limiter = new MemoryRateLimiter(150, 1000, () => now);
          const model = new Map<string, number[]>();
          for (const step of steps) {
            now += step.gap;
            const times = (model.get(step.key) ?? []).filter((t) => t > now - 1000);
            const allowed = times.length < 150;
            if (allowed && !step.peek) times.push(now);
            model.set(step.key, times);
            const decision = await (step.peek ? limiter.peek(step.key) : limiter.hit(step.key));
            expect(decision).toEqual({ allowed, retryAfterMs: allowed ? 0 : times[0]! + 1000 - now });
          }
        },
      ),
      { numRuns: 20 },
    );
  });

  test.skipIf(!redisUp && process.env.CI !== "true")("with REDIS_URL, two instances enforce one limit", async () => {
    const prefix = `test:${crypto.randomUUID()}:`;
    const a = new RedisRateLimiter(redisUrl, 5, 60_000, prefix);
    const b = new RedisRateLimiter(redisUrl, 5, 60_000, prefix);
    const decisions = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).hit("partner")));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
    const refused = decisions.find((d) => !d.allowed)!;
    expect(refused.retryAfterMs).toBeGreaterThan(59_000);
    await a.close();
    await b.close();
  });
});

describe("growing delays: sign-in failures per e-mail and address (issue 34)", () => {
  const schedule = { free: 3, firstDelayMs: 1_000, maxDelayMs: 8_000, forgetAfterMs: 60_000 };
  const allowed = { allowed: true, retryAfterMs: 0 };
  const waitFor = (retryAfterMs: number) => ({ allowed: false, retryAfterMs });

  test("the free attempts, then each waits twice as long as the one before, up to the longest; a success clears the run; an old run is forgotten", async () => {
    let now = 0;
    const limiter = new MemoryDelayLimiter(schedule, () => now);
    for (let i = 0; i < 3; i++) expect(await limiter.take("owner")).toEqual(allowed);
    expect(await limiter.take("owner")).toEqual(waitFor(1_000));
    // Another key (the owner at another address) is not slowed down.
    expect(await limiter.take("owner elsewhere")).toEqual(allowed);
    // [the clock, what an attempt then gets]: waits of 1, 2, 4, 8, then 8 seconds again (the longest).
    const steps: [number, RateDecision][] = [
      [1_000, allowed],
      [1_000, waitFor(2_000)],
      [2_999, waitFor(1)],
      [3_000, allowed],
      [7_000, allowed],
      [15_000, allowed],
      [15_000, waitFor(8_000)],
      [23_000, allowed],
      [23_000, waitFor(8_000)],
    ];
    for (const [clock, decision] of steps) {
      now = clock;
      expect(await limiter.take("owner")).toEqual(decision);
    }
    await limiter.clear("owner");
    for (let i = 0; i < 3; i++) expect(await limiter.take("owner")).toEqual(allowed);
    // Forgotten a while after the last wait ended: the free attempts are back.
    now += 1_000 + schedule.forgetAfterMs;
    for (let i = 0; i < 3; i++) expect(await limiter.take("owner")).toEqual(allowed);
  });

  const sameMoment = async (instances: DelayLimiter[]) => {
    const decisions = await Promise.all(Array.from({ length: 12 }, (_, i) => instances[i % instances.length]!.take("owner@198.51.100.7")));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(3);
    expect(Math.min(...decisions.filter((d) => !d.allowed).map((d) => d.retryAfterMs))).toBeGreaterThan(59_000);
  };
  const slow = { ...schedule, firstDelayMs: 60_000, maxDelayMs: 600_000 };

  test("attempts at the same moment cannot slip past the wait: each is counted when taken", async () => {
    await sameMoment([new MemoryDelayLimiter(slow)]);
  });

  test.skipIf(!redisUp && process.env.CI !== "true")("with REDIS_URL, two instances keep one run per key", async () => {
    const prefix = `test:${crypto.randomUUID()}:`;
    const [a, b] = [new RedisDelayLimiter(redisUrl, slow, prefix), new RedisDelayLimiter(redisUrl, slow, prefix)];
    await sameMoment([a, b]);
    await a.clear("owner@198.51.100.7");
    expect(await b.take("owner@198.51.100.7")).toEqual(allowed);
    await a.close();
    await b.close();
  });
});

describe("capacity: a bound on commands in flight", () => {
  test("past it the answer is 35/503 at once and nothing is stored", async () => {
    const t = await testApp({ MAX_IN_FLIGHT: 2 });
    const p = await t.partner();
    expect(t.capacity.tryEnter() && t.capacity.tryEnter()).toBe(true); // two slow commands in flight
    const answer = await p.run("prfl entity", individual());
    expect(answer.exctnFdbck).toMatchObject({ id: 35, id_v4: 503 });
    const [stored] = await t.database.db.select({ n: count() }).from(consumers).where(eq(consumers.partnerId, p.partnerId));
    expect(stored!.n).toBe(0);
    t.capacity.leave();
    const retried = await p.run("prfl entity", individual());
    expect(retried.exctnFdbck.id).toBe(75);
    t.capacity.leave();
    expect(t.capacity.current).toBe(0);
  });
});
