/**
 * The client's retry policy (spec 7, 8): 35 → the same request after 2 s, 4 s, 8 s, then AtCapacity;
 * 55/429 → wait retryAfter (or 1–2 s), bounded; any other 55 → CommandRefused at once; network
 * errors → repeated only for commands safe to repeat. Against the real service where it can
 * produce the condition (MAX_IN_FLIGHT=1 with a request held in flight; a low RATE_LIMIT_MAX), and
 * against a local fake where a test needs an answer the service would not give on demand.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer, type Server as NetServer } from "node:net";
import {
  AtCapacity,
  CommandRefused,
  isSafeToRepeat,
  NetworkError,
  PartnerClient,
  RateLimited,
  RequestTimeout,
  type RetryEvent,
  UnexpectedAnswer,
} from "../../clients/typescript/src/index";
import { startVerificationService } from "../support/verification-service";
import { type CliPartner, consumerSeed, countingFetch, type Service, startService, vehicleFacts } from "./support";

/** One command in flight at a time; its registry answers a first lookup after 1.5 s. */
let service: Service;
let registry: Awaited<ReturnType<typeof startVerificationService>>;
/** Three requests per partner in any 2 s. */
let limited: Service;
let first: CliPartner;
let second: CliPartner;

beforeAll(async () => {
  registry = await startVerificationService({ NIID_LATENCY_MIN_MS: "1500", NIID_LATENCY_MAX_MS: "1500" });
  [service, limited] = await Promise.all([
    startService({ MAX_IN_FLIGHT: "1", NIID_URL: registry.url }),
    startService({ RATE_LIMIT_MAX: "3", RATE_LIMIT_WINDOW_MS: "2000" }),
  ]);
  [first, second] = await Promise.all([service.partner(["--enrichment"]), limited.partner()]);
}, 60_000);

afterAll(async () => {
  registry?.stop();
  await Promise.all([service?.stop(), limited?.stop()]);
  fake?.stop(true);
});

/** A local stand-in for the service whose answers each test chooses. */
let answer: (body: any, nth: number) => Response | Promise<Response> = () => Response.json({ exctnFdbck: { id: 75, id_v4: 200 } });
let received: { body: string; at: number }[] = [];
const fake = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  idleTimeout: 30,
  async fetch(request) {
    const body = await request.text();
    received.push({ body, at: performance.now() });
    return answer(JSON.parse(body), received.length);
  },
});
const fakeUrl = `http://127.0.0.1:${fake.port}/`;
const credentials = { partnerId: crypto.randomUUID(), keyId: crypto.randomUUID(), key: btoa("k".repeat(32)) };
const fakeClient = (options: Partial<ConstructorParameters<typeof PartnerClient>[0]> = {}) =>
  new PartnerClient({ baseUrl: fakeUrl, ...credentials, ...options });
const reset = (responder: typeof answer) => {
  answer = responder;
  received = [];
};
const AT_CAPACITY = { exctnFdbck: { id: 35, id_v4: 503, elbrtn: "service at capacity" } };

describe("id 35: the same request after 2 s, 4 s, 8 s, then give up", () => {
  test("the real service at capacity (MAX_IN_FLIGHT=1, a registry check in flight): retried after 2 s, then answered", async () => {
    // A body that has not arrived holds no slot (docs/security.md); a command waiting on the registry does.
    const plate = `HLD${crypto.randomUUID().slice(0, 5).toUpperCase()}`;
    const held = globalThis.fetch(service.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userInfo: { id: first.partnerId, athrzt: first.keys.test }, cmmnd: { cmmnd: "enrch niid_vehicle", seed: { value: plate } } }),
    });
    await Bun.sleep(300); // the check is under way: the one slot is taken
    const events: RetryEvent[] = [];
    const { fetch, bodies } = countingFetch();
    const counted = service.client(first, "test", { fetch, onRetry: (e) => events.push(e) });
    const started = performance.now();
    const quote = counted.quote("vhcl-tprt-1111", { insrncDrtn: "1y" });
    expect((await (await held).json()).exctnFdbck.id).toBe(75); // the slot is free again
    expect(await quote).toMatchObject({ prmm: 15000, exctnFdbck: { id: 75 } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(1990);
    expect(events).toMatchObject([{ reason: "capacity", attempt: 1, delayMs: 2000, answer: { exctnFdbck: { id: 35, id_v4: 503 } } }]);
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toBe(bodies[0]!);
  }, 20_000);

  test("still at capacity after 2 s, 4 s and 8 s: AtCapacity, four identical requests at those intervals", async () => {
    reset(() => Response.json(AT_CAPACITY));
    const error = (await fakeClient()
      .insure("3f1c0d9e8b7a4c2f9e1d0c3b5a7f9e21", {
        ctgry: "vhcl",
        type: "tprt",
        pckg: "1111",
        id: crypto.randomUUID(),
        insrncDrtn: "1y",
        addtnlFact: vehicleFacts(),
      })
      .catch((e) => e)) as AtCapacity;
    expect(error).toBeInstanceOf(AtCapacity);
    expect(error.attempts).toBe(4);
    expect(error.answer.exctnFdbck.id).toBe(35);
    expect(new Set(received.map((r) => r.body)).size).toBe(1);
    const gaps = received.slice(1).map((r, i) => r.at - received[i]!.at);
    for (const [i, expected] of [2000, 4000, 8000].entries()) {
      expect(gaps[i]!).toBeGreaterThanOrEqual(expected - 10);
      expect(gaps[i]!).toBeLessThan(expected + 500);
    }
  }, 25_000);

  test("the delays are configurable; aborting while waiting rejects at once with the signal's reason", async () => {
    reset(() => Response.json(AT_CAPACITY));
    const error = await fakeClient({ retry: { capacityDelaysMs: [5, 5] } })
      .listTransactions()
      .catch((e) => e);
    expect(error).toBeInstanceOf(AtCapacity);
    expect(received).toHaveLength(3);
    const controller = new AbortController();
    const started = performance.now();
    const pending = fakeClient().listTransactions({}, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("the user gave up")), 100);
    await expect(pending).rejects.toThrow("the user gave up");
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe("55/429: wait retryAfter (or 1–2 s), bounded", () => {
  test("the real service's rate limit: the fourth request in 2 s is answered 429 with retryAfter; the client waits it and succeeds", async () => {
    const events: RetryEvent[] = [];
    const { fetch, bodies } = countingFetch();
    const client = limited.client(second, "test", { fetch, onRetry: (e) => events.push(e) });
    for (let i = 0; i < 3; i++) await client.quote("vhcl-tprt-1111", { insrncDrtn: "1y" });
    const answer = await client.quote("vhcl-tprt-1111", { insrncDrtn: "1y" });
    expect(answer.prmm).toBe(15000);
    expect(events.length).toBeGreaterThanOrEqual(1);
    const refusal = events[0]!;
    expect(refusal.reason).toBe("rate-limit");
    expect(refusal.answer!.exctnFdbck).toMatchObject({ id: 55, id_v4: 429 });
    const retryAfter = (refusal.answer as { retryAfter?: number }).retryAfter!;
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(refusal.delayMs).toBe(retryAfter * 1000);
    expect(bodies).toHaveLength(4 + events.length);
    await Bun.sleep(2100); // a fresh window for the next test
  }, 20_000);

  test("bounded: with no retries left, RateLimited carries retryAfter", async () => {
    const client = limited.client(second, "test", { retry: { rateLimitRetries: 0 } });
    for (let i = 0; i < 3; i++) await client.listConsumers();
    const error = (await client.listConsumers().catch((e) => e)) as RateLimited;
    expect(error).toBeInstanceOf(RateLimited);
    expect(error).toBeInstanceOf(CommandRefused);
    expect(error.status).toBe(429);
    expect(error.retryAfter).toBeGreaterThanOrEqual(1);
    expect(error.attempts).toBe(1);
    await Bun.sleep(2100);
  });

  test("without retryAfter the wait is 1–2 s; three retries, then RateLimited; a longer retryAfter than allowed is not waited", async () => {
    reset(() => Response.json({ exctnFdbck: { id: 55, id_v4: 429, elbrtn: "rate limit exceeded" } }));
    const events: RetryEvent[] = [];
    const error = (await fakeClient({ onRetry: (e) => events.push(e), retry: { rateLimitFallback: { minMs: 10, maxMs: 20 } } })
      .listConsumers()
      .catch((e) => e)) as RateLimited;
    expect(error).toBeInstanceOf(RateLimited);
    expect(error.attempts).toBe(4);
    expect(events.map((e) => e.reason)).toEqual(["rate-limit", "rate-limit", "rate-limit"]);
    for (const e of events) expect(e.delayMs).toBeWithin(10, 21);

    reset((_, nth) =>
      Response.json(
        nth === 1 ? { exctnFdbck: { id: 55, id_v4: 429, elbrtn: "rate limit exceeded" } } : { list: [], nextCursor: null, exctnFdbck: { id: 75, id_v4: 200 } },
      ),
    );
    const waits: number[] = [];
    const started = performance.now();
    await fakeClient({ onRetry: (e) => waits.push(e.delayMs) }).listConsumers();
    expect(waits[0]!).toBeWithin(1000, 2001);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000);

    reset(() => Response.json({ retryAfter: 45, exctnFdbck: { id: 55, id_v4: 429, elbrtn: "rate limit exceeded" } }));
    const tooLong = (await fakeClient({ retry: { maxRateLimitWaitMs: 10_000 } })
      .listConsumers()
      .catch((e) => e)) as RateLimited;
    expect(tooLong.retryAfter).toBe(45);
    expect(received).toHaveLength(1);
  });
});

describe("any other 55: never retried", () => {
  for (const status of [400, 404, 409, 500, 502, 504]) {
    test(`55/${status} → CommandRefused after one request${status >= 502 ? " (marked transient: the caller may retry later)" : ""}`, async () => {
      reset(() => Response.json({ exctnFdbck: { id: 55, id_v4: status, elbrtn: `seed.value refused with ${status}` } }));
      const error = (await fakeClient()
        .checkVehicle({ value: "ABC123DE" })
        .catch((e) => e)) as CommandRefused;
      expect(error).toBeInstanceOf(CommandRefused);
      expect(error).not.toBeInstanceOf(RateLimited);
      expect(error).toMatchObject({ status, elbrtn: `seed.value refused with ${status}`, field: "seed.value", transient: status >= 502 });
      expect(received).toHaveLength(1);
    });
  }
});

describe("network errors: repeated only when the command is safe to repeat", () => {
  /** A TCP server that accepts and drops every connection: no answer at all. */
  let dropper: NetServer;
  let dropperUrl = "";
  let dropped = 0;
  beforeAll(async () => {
    dropper = createServer((socket) => {
      dropped++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => dropper.listen(0, "127.0.0.1", resolve));
    dropperUrl = `http://127.0.0.1:${(dropper.address() as { port: number }).port}/`;
  });
  afterAll(() => void dropper.close());

  const dropping = (options: Partial<ConstructorParameters<typeof PartnerClient>[0]> = {}) =>
    new PartnerClient({ baseUrl: dropperUrl, ...credentials, retry: { networkDelaysMs: [10, 10] }, ...options });

  test("the rule", () => {
    const insure = { ctgry: "vhcl", type: "tprt", pckg: "1111", id: "7c9e6679-7425-40de-944b-e07fc1f90ae7" };
    const safe: [string, unknown?][] = [
      ["dump ipck_vhcl-tprt-1111*PRMM", { insrncDrtn: "1y" }],
      ["dump entt_ab|insr_vhcl-tprt-1111-x*STATUS"],
      ["dump entt_*"],
      ["dump entt_*CSTMRS"],
      ["dump hlth_*HSPTLS"],
      ["enrch niid_vehicle", { value: "ABC123DE" }],
      ["enrch vin_vehicle", { vin: "1HGCM82633A004352" }],
      ["set env_live"],
      ["claim status", { claimNo: "CLM-2026-ABCDEFGHIJ" }],
      ["claim list"],
      ["payment status", { planNo: "FIN-2026-ABCDEFGHIJ" }],
      ["webhook list"],
      ["webhook deliveries"],
      ["entt_3f1c0d9e8b7a4c2f9e1d0c3b5a7f9e21: insure", insure],
      ["wallet topup", { amount: 100, reference: "bank-ref-001" }],
      ["payment recordInstallment", { planNo: "FIN-2026-ABCDEFGHIJ", amount: 100, reference: "pay-1" }],
      ["claim submit", { policy: "x", reference: "claim-1" }],
      ["prfl entity", { class: "h", eMail: "a@b.ng" }],
      ["webhook secret"],
      ["webhook update", { endpointId: "x", enabled: true }],
      ["dump entt_ab|insr_vhcl-tprt-1111-x*REFUND"],
      ["dump entt_ab|insr_vhcl-tprt-1111-x*ENDORSE", { addtnlFact: { rgstrtId: "LND456XY" } }],
      ["rnew entt_ab|insr_vhcl-tprt-1111-x*AUTO", { enabled: true }],
      ["cncl entt_ab|insr_vhcl-tprt-1111-x", { id: "CNCL-1", reason: "duplicate" }],
      ["rinst entt_ab|insr_vhcl-tprt-1111-x", { id: "RINST-1" }],
      ["rnew entt_ab|insr_vhcl-tprt-1111-x", { id: "RNEW-1" }],
      ["ndrs entt_ab|insr_vhcl-tprt-1111-x", { id: "NDRS-1", addtnlFact: { rgstrtId: "LND456XY" } }],
    ];
    const unsafe: [string, unknown?][] = [
      ["entt_3f1c0d9e8b7a4c2f9e1d0c3b5a7f9e21: insure", { ...insure, id: undefined }],
      ["wallet topup", { amount: 100 }],
      ["claim submit", { policy: "x" }],
      ["prfl entity", { class: "h" }],
      ["appr entt_ab|insr_vhcl-tprt-1111-x"],
      ["payment financeLoan", {}],
      ["payment runLapse"],
      ["claim withdraw", {}],
      ["claim review", {}],
      ["webhook register", { url: "https://x.ng" }],
      ["webhook delete", {}],
      ["webhook replay", {}],
      ["webhook test", {}],
      ["webhook secret", { rotate: true }],
      ["webhook update", { endpointId: "x", rotateSecret: true }],
      ["cncl entt_ab|insr_vhcl-tprt-1111-x", { reason: "duplicate" }],
      ["rinst entt_ab|insr_vhcl-tprt-1111-x", {}],
      ["rnew entt_ab|insr_vhcl-tprt-1111-x", {}],
      ["ndrs entt_ab|insr_vhcl-tprt-1111-x", { addtnlFact: { rgstrtId: "LND456XY" } }],
      ["something new", {}],
    ];
    for (const [cmmnd, seed] of safe) expect({ cmmnd, safe: isSafeToRepeat(cmmnd, seed) }).toEqual({ cmmnd, safe: true });
    for (const [cmmnd, seed] of unsafe) expect({ cmmnd, safe: isSafeToRepeat(cmmnd, seed) }).toEqual({ cmmnd, safe: false });
  });

  test("a read is repeated (twice by default), then NetworkError", async () => {
    dropped = 0;
    const events: RetryEvent[] = [];
    const error = (await dropping({ onRetry: (e) => events.push(e) })
      .listTransactions()
      .catch((e) => e)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ attempts: 3, safeToRepeat: true, mayHaveBeenApplied: true });
    expect(dropped).toBe(3);
    expect(events.map((e) => e.reason)).toEqual(["network", "network"]);
  });

  test("a write without a reference is sent once: NetworkError says it was not repeated", async () => {
    dropped = 0;
    const error = (await dropping()
      .registerWebhook({ url: "https://hooks.partner.ng/x" })
      .catch((e) => e)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ attempts: 1, safeToRepeat: false });
    expect(error.message).toContain("not safe to repeat");
    expect(dropped).toBe(1);
  });

  test("a timeout is a network error (RequestTimeout); the timeout is per client and per call", async () => {
    reset(async () => {
      await Bun.sleep(600);
      return Response.json({ exctnFdbck: { id: 75, id_v4: 200 } });
    });
    const slow = fakeClient({ timeoutMs: 100, retry: { networkDelaysMs: [] } });
    const started = performance.now();
    const error = await slow.listTransactions().catch((e) => e);
    expect(error).toBeInstanceOf(RequestTimeout);
    expect(error).toBeInstanceOf(NetworkError);
    expect(performance.now() - started).toBeLessThan(1000);
    expect((await slow.listTransactions({}, { timeoutMs: 5000 })).exctnFdbck.id).toBe(75);
  });

  test("a registry check gets registryTimeoutMs (45 s by default), not the general timeout", async () => {
    reset(async () => {
      await Bun.sleep(400);
      return Response.json({ status: "not_found", details: {}, from_cache: false, message: "no record", exctnFdbck: { id: 75, id_v4: 200 } });
    });
    const client = fakeClient({ timeoutMs: 100, registryTimeoutMs: 2000, retry: { networkDelaysMs: [] } });
    expect((await client.checkVehicle({ value: "XYZ999ZZ" })).status).toBe("not_found");
    expect(await client.listTransactions().catch((e) => e)).toBeInstanceOf(RequestTimeout);
  });

  test("an answer that is not the service's (a gateway's 502 page) is UnexpectedAnswer", async () => {
    reset(() => new Response("<html>Bad gateway</html>", { status: 502 }));
    const error = (await fakeClient({ retry: { networkDelaysMs: [5] } })
      .quote("vhcl-tprt-1111", { insrncDrtn: "1y" })
      .catch((e) => e)) as UnexpectedAnswer;
    expect(error).toBeInstanceOf(UnexpectedAnswer);
    expect(error).toMatchObject({ httpStatus: 502, attempts: 2 });
    expect(error.body).toContain("Bad gateway");
  });

  /** A fetch that delivers the request and then loses the answer `times` times. */
  function losingAnswers(times: number) {
    const counted = countingFetch();
    let lost = 0;
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await counted.fetch(input, init);
      if (lost++ < times) {
        await response.text();
        throw new TypeError("socket hang up");
      }
      return response;
    }) as typeof globalThis.fetch;
    return { fetch, bodies: counted.bodies };
  }

  test("insure with its id: the answer is lost, the repeat finds the reference taken, and the client reads the policy instead", async () => {
    const client = service.client(first);
    const { id: consumerId } = await client.registerConsumer(consumerSeed());
    const { fetch, bodies } = losingAnswers(1);
    const losing = service.client(first, "test", { fetch, retry: { networkDelaysMs: [10] } });
    const txId = crypto.randomUUID().replaceAll("-", "").toUpperCase(); // stored as a lower-case hyphenated UUID
    const answer = await losing.insure(consumerId, { ctgry: "vhcl", type: "tprt", pckg: "1111", id: txId, insrncDrtn: "1y", addtnlFact: vehicleFacts() });
    expect(answer).toMatchObject({ status: "a", exctnFdbck: { id: 75 } });
    expect(answer.id.replaceAll("-", "")).toBe(txId.toLowerCase());
    expect(answer.policyNo).toMatch(/^TST-VHCL-/);
    // insure, its repeat (409), then the status read
    expect(bodies.map((b) => JSON.parse(b).cmmnd.cmmnd)).toEqual([
      `entt_${consumerId}: insure`,
      `entt_${consumerId}: insure`,
      `dump entt_${consumerId}|insr_vhcl-tprt-1111-${answer.id}*STATUS`,
    ]);
    const policies = await client.listTransactions();
    expect(policies.list.filter((p) => p.id === answer.id)).toHaveLength(1);
  });

  test("wallet topup with its reference: repeated, credited once", async () => {
    const { fetch, bodies } = losingAnswers(1);
    const losing = service.client(first, "test", { fetch, retry: { networkDelaysMs: [10] } });
    const reference = `lost-${crypto.randomUUID().slice(0, 8)}`;
    const answer = await losing.topUpWallet({ amount: 700, reference });
    expect(bodies).toHaveLength(2);
    const again = await service.client(first).topUpWallet({ amount: 700, reference });
    expect(again.balance).toBe(answer.balance);
  });

  test("webhook register: the answer is lost and it is not repeated (a repeat would be refused and the secret lost)", async () => {
    const { fetch, bodies } = losingAnswers(1);
    const losing = service.client(first, "test", { fetch, retry: { networkDelaysMs: [10] } });
    const error = (await losing.registerWebhook({ url: "https://hooks.partner.ng/lost" }).catch((e) => e)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.safeToRepeat).toBe(false);
    expect(bodies).toHaveLength(1);
  });
});
