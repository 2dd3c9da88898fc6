import { describe, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import fc from "fast-check";
import { MemoryRateLimiter, RedisRateLimiter } from "../src/core/rate-limit";
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
