/**
 * waitForDecision: spec 3's polling guidance per product family, jittered, stopping on a, d or l —
 * against the real service with live policies (a short INSURER_DELAY_MS for the simulated insurer).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  type Answer,
  CommandRefused,
  DecisionTimeout,
  type InsureSeed,
  jittered,
  POLLING_GUIDANCE,
  pollIntervalFor,
  type StatusAnswerBody,
} from "../../clients/typescript/src/index";
import { type CliPartner, consumerSeed, imei, type Service, startService, watDate } from "./support";

let service: Service;
let partner: CliPartner;
let admin: CliPartner;
let consumerId: string;

beforeAll(async () => {
  service = await startService({ INSURER_DELAY_MS: "1500" });
  [partner, admin] = await Promise.all([service.partner(), service.partner(["--admin"])]);
  const live = service.client(partner, "live");
  await live.topUpWallet({ amount: 1_000_000, reference: "poller-funding" });
  consumerId = (await live.registerConsumer(consumerSeed())).id;
}, 60_000);

afterAll(() => service?.stop());

const phoneSeed = (id: string): InsureSeed<"phnn-flx1-1111"> => ({
  ctgry: "phnn",
  type: "flx1",
  pckg: "1111",
  id,
  insrncDrtn: "1y",
  addtnlFact: { brand: "Samsung", model: "Galaxy A54", uIdnt: imei() },
});
const creditLife = (id: string): InsureSeed<"crlt-sme1-1111"> => ({
  ctgry: "crlt",
  type: "sme1",
  pckg: "1111",
  id,
  addtnlFact: { loanAmount: 50_000_000, loanTenure: 12, disbursementDate: watDate(), loanStartDate: watDate(), loanEndDate: watDate(365) },
});

describe("the polling guidance (spec 3)", () => {
  test("vehicle, device and marine every 5–10 s; travel 10–30 s; credit life and loan guaranty every few minutes", () => {
    for (const code of ["vhcl-tprt-1111", "vhcl-cmpr-1111", "phnn-flx2-1111", "lapt-flx1-1111", "mexx-stnd-1111", "mrnn-cmpr-1111"])
      expect(pollIntervalFor(code)).toEqual({ minMs: 5_000, maxMs: 10_000 });
    expect(pollIntervalFor("ltix-stnd-1111")).toEqual({ minMs: 10_000, maxMs: 30_000 });
    for (const code of ["crlt-sme1-1111", "crlt-psnl-1111", "crlt-kymn-1111", "crlt-mrtg-1111", "lrgg-stnd-1111"])
      expect(pollIntervalFor(code)).toEqual({ minMs: 120_000, maxMs: 300_000 });
    // Families the guidance does not name are insurer-processed, answered within a minute: like vehicles.
    for (const code of ["gtrn-stnd-1111", "hlth-axam-1111", "allr-stnd-1111", "firb-stnd-1111"])
      expect(pollIntervalFor(code)).toEqual({ minMs: 5_000, maxMs: 10_000 });
    expect(Object.keys(POLLING_GUIDANCE).sort()).toEqual(["crlt", "lapt", "lrgg", "ltix", "mexx", "mrnn", "phnn", "vhcl"]);
  });

  test("jittered: uniform within the interval", () => {
    const waits = Array.from({ length: 2000 }, () => jittered({ minMs: 5_000, maxMs: 10_000 }));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(5_000);
    expect(Math.max(...waits)).toBeLessThanOrEqual(10_000);
    expect(new Set(waits).size).toBeGreaterThan(1000);
    const mean = waits.reduce((a, b) => a + b, 0) / waits.length;
    expect(mean).toBeWithin(7_250, 7_750);
    expect(jittered({ minMs: 5_000, maxMs: 10_000 }, () => 0)).toBe(5_000);
    expect(jittered({ minMs: 5_000, maxMs: 10_000 }, () => 1)).toBe(10_000);
  });
});

describe("waitForDecision against the real service", () => {
  test("a live phone policy: pending, then approved by the insurer; polled at the device pace (5–10 s)", async () => {
    const client = service.client(partner, "live");
    const txId = crypto.randomUUID();
    await client.quote("phnn-flx1-1111", { insrncDrtn: "1y" });
    const issued = await client.insure(consumerId, phoneSeed(txId));
    expect(issued.status).toBe("p");
    const updates: { at: number; status: string }[] = [];
    const started = performance.now();
    const decided = await client.waitForDecision(consumerId, "phnn-flx1-1111", issued.id, {
      onUpdate: (answer) => updates.push({ at: performance.now() - started, status: answer.status }),
    });
    expect(decided).toMatchObject({ status: "a", exctnFdbck: { id: 75 } });
    expect(decided.policyNo).toMatch(/^POL-PHNN-/);
    // The first check at once (pending: the insurer answers after 1.5 s), the next 5–10 s later.
    expect(updates.map((u) => u.status)).toEqual(["p", "a"]);
    expect(updates[0]!.at).toBeLessThan(1000);
    expect(updates[1]!.at - updates[0]!.at).toBeWithin(5_000, 10_500);
  }, 20_000);

  test("a test-mode policy is decided at the first check", async () => {
    const client = service.client(partner, "test");
    const { id: consumer } = await client.registerConsumer(consumerSeed());
    const issued = await client.insure(consumer, phoneSeed(crypto.randomUUID()));
    let calls = 0;
    const decided = await client.waitForDecision(consumer, "phnn-flx1-1111", issued.id, { onUpdate: () => calls++ });
    expect(decided.status).toBe("a");
    expect(calls).toBe(1);
  });

  test("lapsed (l) is final too", async () => {
    const client = service.client(partner, "test");
    const { id: consumer } = await client.registerConsumer(consumerSeed());
    const issued = await client.insure(consumer, phoneSeed(crypto.randomUUID()));
    await client.financeLoan({ policy: issued.id, downPayment: 1_000, installments: 2, frequency: "monthly", firstDueDate: watDate(10), graceDays: 0 });
    const lapse = await service.client(admin).runLapse({ asOf: watDate(20) });
    expect(lapse.lapsed.map((l) => l.policy)).toContain(issued.id);
    const decided = await client.waitForDecision(consumer, "phnn-flx1-1111", issued.id);
    expect(decided).toMatchObject({ status: "l", statusNote: expect.any(String) });
  });

  test("declined (d) stops the poller with the reason; a custom interval is honoured, jittered", async () => {
    const client = service.client(partner, "live");
    const txId = crypto.randomUUID();
    await client.quote("crlt-sme1-1111", { loanAmount: 50_000_000 });
    await client.insure(consumerId, creditLife(txId));
    const seen: Answer<StatusAnswerBody>[] = [];
    const times: number[] = [];
    setTimeout(
      () => void service.client(admin, "live").approve(consumerId, "crlt-sme1-1111", txId, { status: "d", statusNote: "borrower outside insurable age band" }),
      1500,
    );
    const decided = await client.waitForDecision(consumerId, "crlt-sme1-1111", txId, {
      interval: { minMs: 100, maxMs: 300 },
      onUpdate: (answer) => {
        seen.push(answer);
        times.push(performance.now());
      },
    });
    expect(decided).toMatchObject({ status: "d", statusNote: "borrower outside insurable age band" });
    expect(seen.length).toBeGreaterThan(4);
    expect(seen.slice(0, -1).every((a) => a.status === "p")).toBe(true);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    for (const gap of gaps) expect(gap).toBeWithin(95, 1000);
    expect(new Set(gaps.map((g) => Math.round(g / 10))).size).toBeGreaterThan(1);
  }, 20_000);

  test("timeoutMs: DecisionTimeout with the last answer; an abort rejects with the signal's reason", async () => {
    const client = service.client(partner, "live");
    const txId = crypto.randomUUID();
    await client.quote("crlt-sme1-1111", { loanAmount: 50_000_000 });
    await client.insure(consumerId, creditLife(txId)); // manual review: stays pending
    const timedOut = (await client
      .waitForDecision(consumerId, "crlt-sme1-1111", txId, { interval: { minMs: 50, maxMs: 50 }, timeoutMs: 300 })
      .catch((e) => e)) as DecisionTimeout;
    expect(timedOut).toBeInstanceOf(DecisionTimeout);
    expect(timedOut.last?.status).toBe("p");

    const controller = new AbortController();
    const started = performance.now();
    const waiting = client.waitForDecision(consumerId, "crlt-sme1-1111", txId, { signal: controller.signal }); // every 2–5 minutes
    setTimeout(() => controller.abort(new Error("shutting down")), 300);
    await expect(waiting).rejects.toThrow("shutting down");
    expect(performance.now() - started).toBeLessThan(2000);
  });

  test("a policy that is not there: CommandRefused (404) at once, not polled", async () => {
    const error = await service
      .client(partner, "live")
      .waitForDecision(consumerId, "phnn-flx1-1111", crypto.randomUUID())
      .catch((e) => e);
    expect(error).toBeInstanceOf(CommandRefused);
    expect(error.status).toBe(404);
  });
});
