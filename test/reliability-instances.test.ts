/**
 * Several instances (docs/reliability.md): three app processes (src/main.ts) on one fresh
 * PostgreSQL database and one Redis, each with its background loop.
 *
 * - The rate limit is shared: 70 requests per partner in any rolling minute, in total.
 * - What one instance answers, the others see at once: a key revoked (portal) or rotated on one is
 *   refused by the others on the very next request; a mode switch and a consumer update likewise.
 * - Background jobs run once: each live policy underwritten once, each overdue plan lapsed once,
 *   each webhook attempt made once.
 * - The same end-to-end command flow passes against each instance, and alternating between them.
 *
 * PostgreSQL only (PGlite is one process's database): skipped loudly on the PGlite run.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { RedisClient } from "bun";
import { and, eq, inArray } from "drizzle-orm";
import { type DatabaseHandle, openDatabase } from "../src/db/client";
import { outboxEvents } from "../src/modules/events/schema";
import { financingInstallments, financingPlans } from "../src/modules/financing/schema";
import { createPartner, type NewPartner } from "../src/modules/partners/service";
import { policies } from "../src/modules/policies/schema";
import { walletEntries, wallets } from "../src/modules/wallet/schema";
import { engine, individual, PNG_BASE64 } from "./support/harness";
import { fullConsumer, insureSeed, newImei, productCases, watDate } from "./support/policies";
import { freshPostgresDatabase, PortalClient } from "./support/reliability";
import { type AppProcess, type Receiver, senderPid, startAppProcess, startReceiver } from "./support/webhook-receiver";

const INSTANCES = 3;
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

async function redisAnswers(url: string): Promise<boolean> {
  const client = new RedisClient(url, { connectionTimeout: 2000, autoReconnect: false });
  try {
    return (await client.send("PING", [])) === "PONG";
  } catch {
    return false;
  } finally {
    client.close();
  }
}

let skipReason = engine !== "postgres" ? "it needs PostgreSQL (PGlite is one process's database); run with TEST_ENGINE=postgres" : "";
if (!skipReason && !(await redisAnswers(redisUrl))) {
  if (process.env.CI === "true") throw new Error(`the several-instances test needs Redis at ${redisUrl} (REDIS_URL) in CI`);
  skipReason = `no Redis answers at ${redisUrl}: set REDIS_URL`;
}
if (skipReason) console.warn(`\n!!! SKIPPED several instances (test/reliability-instances.test.ts): ${skipReason}\n`);

let database: { url: string; drop(): Promise<void> };
let handle: DatabaseHandle;
let receiver: Receiver;
const apps: AppProcess[] = [];

beforeAll(async () => {
  if (skipReason) return;
  database = await freshPostgresDatabase(process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL!, "reliability_instances");
  handle = await openDatabase({ url: database.url });
  receiver = await startReceiver();
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl,
    WEBHOOK_ALLOW_PRIVATE: "true",
    WEBHOOK_RETRY_SCALE: "0.001",
    WEBHOOK_TIMEOUT_MS: "3000",
    WORKER_INTERVAL_MS: "50",
    INSURER_DELAY_MS: "300",
    LAPSE_INTERVAL_MS: "200",
  };
  // One after the other: each takes a free port before the next looks for one.
  for (let i = 0; i < INSTANCES; i++) apps.push(await startAppProcess(env));
}, 60_000);

afterAll(async () => {
  await Promise.all(apps.map((app) => app.stop()));
  receiver?.stop();
  await handle?.close();
  await database?.drop();
}, 30_000);

const newPartner = (options: { admin?: boolean; enrichment?: boolean } = {}) =>
  createPartner(handle.db, { name: `Instances ${crypto.randomUUID().slice(0, 8)}`, ...options });

type Label = "test" | "live" | "legacy";
const envelope = (partner: NewPartner, label: Label, cmmnd: string, seed?: unknown) => ({
  userInfo: { id: partner.partnerId, athrzt: partner.keys[label] },
  cmmnd: seed === undefined ? { cmmnd } : { cmmnd, seed },
});
const run = (app: AppProcess, partner: NewPartner, label: Label, cmmnd: string, seed?: unknown) => app.post(envelope(partner, label, cmmnd, seed));

/** No instance logged a failed background job or an unexpected error. */
function expectQuietLogs() {
  for (const app of apps) {
    expect(app.stderr()).not.toContain("background job failed");
    expect(app.stderr()).not.toContain("command failed");
  }
}

describe.skipIf(!!skipReason)(`${INSTANCES} instances on one PostgreSQL and Redis`, () => {
  test("the rate limit is shared: 70 per partner per rolling minute in total, whichever instance is asked", async () => {
    const [limited, other] = [await newPartner(), await newPartner()];
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => run(apps[i % INSTANCES]!, limited, "test", "dump entt_*CSTMRS", { limit: 1 })));
    const allowed = answers.filter((a) => a.exctnFdbck.id === 75);
    const refused = answers.filter((a) => a.exctnFdbck.id_v4 === 429);
    expect(allowed).toHaveLength(70);
    expect(refused).toHaveLength(30);
    for (const answer of refused) {
      expect(answer.exctnFdbck.id).toBe(55);
      expect(answer.retryAfter).toBeGreaterThanOrEqual(1);
      expect(answer.retryAfter).toBeLessThanOrEqual(60);
    }
    // Every instance refuses from now on, and another partner is not affected.
    for (const app of apps) expect((await run(app, limited, "test", "dump entt_*CSTMRS")).exctnFdbck.id_v4).toBe(429);
    for (const app of apps) expect((await run(app, other, "test", "dump entt_*CSTMRS")).exctnFdbck.id).toBe(75);
  }, 30_000);

  test("a key revoked or rotated in the portal on one instance is refused by the others on the very next request", async () => {
    const partner = await newPartner();
    const [a, ...others] = apps as [AppProcess, ...AppProcess[]];
    const owner = new PortalClient(a.url);
    await owner.signIn(partner.portal.email, partner.portal.password);
    const listWith = (app: AppProcess, athrzt: { id: string; key: string }) =>
      app.post({ userInfo: { id: partner.partnerId, athrzt }, cmmnd: { cmmnd: "dump entt_*CSTMRS", seed: { limit: 1 } } });
    const rotate = async () => {
      await owner.get("/portal/keys");
      const page = await owner.post("/portal/keys/rotate", { label: "test" });
      expect(page.status).toBe(200);
      return { id: /id="new-key-id"[^>]*>([^<]+)</.exec(page.text)![1]!.trim(), key: /id="new-key"[^>]*>([^<]+)</.exec(page.text)![1]!.trim() };
    };
    const warm = async (athrzt: { id: string; key: string }) => {
      for (const app of others) expect((await listWith(app, athrzt)).exctnFdbck.id).toBe(75);
    };
    const refusedAtOnce = async (athrzt: { id: string; key: string }) => {
      const answers = await Promise.all(others.map((app) => listWith(app, athrzt)));
      for (const answer of answers) expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 401, elbrtn: expect.stringContaining("revoked") });
    };
    // Repeated, because a stale cache would only show in a race: the answer overtaking the notice.
    for (let round = 0; round < 8; round++) {
      // The others have the key cached (a successful request each); it is rotated out on the first instance.
      const first = await rotate();
      await warm(first);
      const second = await rotate();
      await refusedAtOnce(first);
      // The new one works everywhere at once; then it is revoked outright.
      await warm(second);
      await owner.get("/portal/keys");
      const revoked = await owner.post("/portal/keys/revoke", { keyId: second.id });
      expect(revoked.text).toContain("is revoked");
      await refusedAtOnce(second);
    }
  }, 60_000);

  test("a mode switch and a consumer update answered by one instance are what the next request on another sees", async () => {
    const partner = await newPartner();
    const [a, b, c] = apps as [AppProcess, AppProcess, AppProcess];
    // The legacy key follows the account's mode: a live phone policy without money in the wallet is refused 402, a test one is issued.
    const consumer = (await run(a, partner, "legacy", "prfl entity", fullConsumer())).id as string;
    const phone = () => ({ ...insureSeed(productCases["phnn-flx1-1111"]!), addtnlFact: { brand: "Tecno", model: "Spark 10", uIdnt: newImei() } });
    for (let round = 0; round < 4; round++) {
      const mode = round % 2 ? "test" : "live";
      const [switcher, reader] = round % 2 ? [b, c] : [a, b];
      expect((await run(reader, partner, "legacy", "dump entt_*CSTMRS", { limit: 1 })).exctnFdbck.id).toBe(75); // cached there
      expect(await run(switcher, partner, "legacy", `set env_${mode}`)).toMatchObject({ mode, keyMode: mode });
      const issued = await run(reader, partner, "legacy", `entt_${consumer}: insure`, phone());
      if (mode === "live") expect(issued.exctnFdbck).toMatchObject({ id: 55, id_v4: 402 });
      else expect(issued).toMatchObject({ status: "a", policyNo: expect.stringMatching(/^TST-/) });
    }

    // A consumer completed on one instance can be insured on another at once (the consumer cache).
    for (const [writer, reader] of [
      [a, b],
      [c, a],
    ] as const) {
      const person = individual(); // no socialID: comprehensive vehicle cover needs one
      const registered = await run(writer, partner, "test", "prfl entity", person);
      const c1 = productCases["vhcl-cmpr-1111"]!;
      expect((await run(reader, partner, "test", `entt_${registered.id}: insure`, insureSeed(c1))).exctnFdbck.elbrtn).toContain("socialID");
      const updated = await run(writer, partner, "test", "prfl entity", {
        class: "h",
        eMail: person.eMail,
        socialID: { type: "nidd", id: "12345678901", image: PNG_BASE64 },
      });
      expect(updated.id).toBe(registered.id);
      expect((await run(reader, partner, "test", `entt_${registered.id}: insure`, insureSeed(c1))).exctnFdbck).toEqual({ id: 75, id_v4: 200 });
    }
  }, 60_000);

  test("background jobs run once: each live policy is underwritten once, each overdue plan lapsed once", async () => {
    const partner = await newPartner();
    const db = handle.db;
    expect((await run(apps[0]!, partner, "live", "wallet topup", { amount: 1_000_000, reference: "jobs-funding" })).exctnFdbck.id).toBe(75);
    const consumer = (await run(apps[1]!, partner, "live", "prfl entity", fullConsumer())).id as string;
    // 24 live phone policies from every instance; some phones twice, so the insurer declines (and refunds) one of each pair.
    const twice = [newImei(), newImei(), newImei(), newImei()];
    const seeds = Array.from({ length: 24 }, (_, i) => ({
      ...insureSeed(productCases["phnn-flx1-1111"]!),
      addtnlFact: { brand: "Samsung", model: "Galaxy A54", uIdnt: i < 8 ? twice[i % 4]! : newImei() },
    }));
    const issued = await Promise.all(seeds.map((seed, i) => run(apps[i % INSTANCES]!, partner, "live", `entt_${consumer}: insure`, seed)));
    for (const answer of issued) expect(answer).toMatchObject({ status: "p", exctnFdbck: { id: 75 } });

    // Plans overdue today (test-mode vehicle cover, ₦15,000: ₦3,000 down, four weekly ₦3,000), lapsed by whichever loop claims them.
    const vehicle = productCases["vhcl-tprt-1111"]!;
    expect((await run(apps[2]!, partner, "test", `dump ipck_${vehicle.code}*PRMM`, vehicle.quote)).exctnFdbck.id).toBe(75);
    const planNos: string[] = [];
    for (let i = 0; i < 6; i++) {
      const seed = insureSeed(vehicle);
      expect((await run(apps[i % INSTANCES]!, partner, "test", `entt_${consumer}: insure`, seed)).status).toBe("a");
      const plan = await run(apps[(i + 1) % INSTANCES]!, partner, "test", "payment financeLoan", {
        policy: seed.id,
        downPayment: 3000,
        installments: 4,
        frequency: "weekly",
        firstDueDate: watDate(),
        graceDays: 0,
      });
      expect(plan.exctnFdbck.id).toBe(75);
      planNos.push(plan.planNo);
    }
    const planIds = (await db.select({ id: financingPlans.id }).from(financingPlans).where(inArray(financingPlans.planNo, planNos))).map((r) => r.id);
    await db.transaction(async (tx) => {
      await tx
        .update(financingPlans)
        .set({ nextDueDate: watDate(-3) })
        .where(inArray(financingPlans.id, planIds));
      await tx
        .update(financingInstallments)
        .set({ dueDate: watDate(-3) })
        .where(and(inArray(financingInstallments.planId, planIds), eq(financingInstallments.number, 1)));
    });

    const references = seeds.map((s) => s.id);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const pending = await db
        .select({ id: policies.id })
        .from(policies)
        .where(and(inArray(policies.reference, references), eq(policies.status, "p")));
      const active = await db
        .select({ id: financingPlans.id })
        .from(financingPlans)
        .where(and(inArray(financingPlans.id, planIds), eq(financingPlans.status, "active")));
      if (!pending.length && !active.length) break;
      if (Date.now() > deadline) throw new Error(`${pending.length} policies still pending, ${active.length} plans still active`);
      await Bun.sleep(100);
    }

    const events = await db.select().from(outboxEvents).where(eq(outboxEvents.partnerId, partner.partnerId));
    const stored = await db
      .select()
      .from(policies)
      .where(and(eq(policies.partnerId, partner.partnerId), inArray(policies.reference, references)));
    const entries = await db.select().from(walletEntries).where(eq(walletEntries.partnerId, partner.partnerId));
    for (const policy of stored) {
      const types = events.filter((e) => e.type.startsWith("policy.") && e.payload.id === policy.reference).map((e) => e.type);
      const decision = policy.status === "a" ? "policy.approved" : "policy.declined";
      expect({ reference: policy.reference, types: types.sort(), by: policy.decidedBy }).toEqual({
        reference: policy.reference,
        types: [decision, "policy.pending"].sort(),
        by: "insurer",
      });
      expect(
        entries
          .filter((e) => e.policyId === policy.id)
          .map((e) => e.kind)
          .sort(),
      ).toEqual(policy.status === "d" ? ["premium", "refund"] : ["premium"]);
    }
    // One of each pair of the same phone was declined as already insured.
    expect(stored.filter((p) => p.status === "d").map((p) => p.statusNote)).toEqual(Array(4).fill(expect.stringContaining("already insured")));
    const [wallet] = await db.select().from(wallets).where(eq(wallets.partnerId, partner.partnerId));
    expect(entries.reduce((sum, e) => sum + e.amountKobo, 0)).toBe(wallet!.balanceKobo);
    // Each plan lapsed once.
    const lapsedPlans = events.filter((e) => e.type === "financing.lapsed").map((e) => e.payload.planNo);
    expect(lapsedPlans.sort()).toEqual([...planNos].sort());
    expect(events.filter((e) => e.type === "policy.lapsed")).toHaveLength(planNos.length);
    expectQuietLogs();
  }, 60_000);

  test("each webhook attempt is made once, by one instance, never two at once", async () => {
    const partner = await newPartner();
    const registered = await run(apps[0]!, partner, "test", "webhook register", { url: receiver.url("/instances"), events: ["wallet.credited"] });
    receiver.trust("/instances", registered.secret);
    const senders = new Set<number | null>();
    // Every other event fails its first attempt, so retries are shared out too; answers take a moment.
    receiver.respond("/instances", async (hit) => {
      senders.add(senderPid(hit.remotePort, receiver.port));
      await Bun.sleep(60);
      const first = receiver.hitsAt("/instances").find((h) => h.id === hit.id) === hit;
      const fail = first && hit.payload.data.amount % 2 === 1;
      return new Response(fail ? "try again" : "ok", { status: fail ? 503 : 200 });
    });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => run(apps[i % INSTANCES]!, partner, "live", "wallet topup", { amount: i + 1, reference: `instances-${i}` })),
    );
    for (const answer of answers) expect(answer.exctnFdbck.id).toBe(75);

    const deadline = Date.now() + 40_000;
    let log: any[] = [];
    for (;;) {
      log = (await run(apps[2]!, partner, "test", "webhook deliveries", { limit: 100 })).list;
      if (log.length === 30 && log.every((d) => d.status === "succeeded")) break;
      if (Date.now() > deadline) throw new Error(`not every delivery succeeded: ${JSON.stringify(log.map((d) => d.status))}`);
      await Bun.sleep(200);
    }
    const hits = Map.groupBy(receiver.hitsAt("/instances"), (h) => h.id);
    expect([...hits.keys()].sort()).toEqual(log.map((d) => d.eventId).sort());
    for (const delivery of log) {
      const received = hits.get(delivery.eventId)!;
      expect(delivery.attempts.map((a: any) => a.number)).toEqual(received.map((_, i) => i + 1));
      // An odd amount's first attempt is refused (503); an attempt that outlived the sender's timeout
      // on a loaded machine is retried too, and the log says so. Any other extra attempt is a double send.
      const refusedFirst = received[0]!.payload.data.amount % 2 === 1;
      delivery.attempts.forEach((attempt: any, i: number) => {
        const last = i === delivery.attempts.length - 1;
        const allowed = last ? ["200"] : i === 0 && refusedFirst ? ["503", "timed out"] : ["timed out"];
        expect(allowed).toContain(attempt.response ? String(attempt.response.status) : String(attempt.error).slice(0, 9));
      });
      // Never two at once: an attempt starts after the one before it was answered. One the sender gave
      // up on (timed out) may still be running at the receiver when its retry arrives: that is no double send.
      for (let i = 1; i < received.length; i++) {
        const before = delivery.attempts[i - 1].response ? received[i - 1]!.endedAt! : received[i - 1]!.startedAt;
        expect(received[i]!.startedAt).toBeGreaterThanOrEqual(before);
      }
    }
    // The work was shared (which instance sends is up to their loops; at least two took part).
    expect([...senders].filter((pid) => apps.some((a) => a.pid === pid)).length).toBeGreaterThanOrEqual(2);
    expect(receiver.unverified).toEqual([]);
    expectQuietLogs();
  }, 60_000);

  /** One partner's whole command flow; `at(step)` says which instance serves each step. */
  async function commandFlow(at: (step: number) => AppProcess) {
    const partner = await newPartner();
    let step = 0;
    const call = (label: Label, cmmnd: string, seed?: unknown) => run(at(step++), partner, label, cmmnd, seed);
    const ok = async (label: Label, cmmnd: string, seed?: unknown) => {
      const answer = await call(label, cmmnd, seed);
      expect({ cmmnd, feedback: answer.exctnFdbck }).toEqual({ cmmnd, feedback: { id: 75, id_v4: 200 } });
      return answer;
    };
    const consumer = (await ok("test", "prfl entity", fullConsumer())).id as string;
    expect((await ok("test", "dump entt_*CSTMRS")).list.map((c: any) => c.id)).toContain(consumer);

    // Test mode: approved at once; status, certificate and list from other instances.
    const phone = productCases["phnn-flx1-1111"]!;
    expect((await ok("test", `dump ipck_${phone.code}*PRMM`, phone.quote)).prmm).toBe(7200);
    const testSeed = insureSeed(phone);
    const testPolicy = await ok("test", `entt_${consumer}: insure`, testSeed);
    expect(testPolicy).toMatchObject({ id: testSeed.id, status: "a", policyNo: expect.stringMatching(/^TST-/) });
    expect(await ok("test", `dump entt_${consumer}|insr_${phone.code}-${testSeed.id}*STATUS`)).toMatchObject({ status: "a", policyNo: testPolicy.policyNo });
    const certificate = await fetch(new URL(new URL(testPolicy.certUrl).pathname, at(step++).url));
    expect(certificate.status).toBe(200);
    expect(
      Buffer.from(await certificate.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).toBe("%PDF");

    // Live mode, paid from the wallet: approved at once with its certificate, and through the insurer.
    expect(await ok("live", "wallet topup", { amount: 200_000, reference: "flow-funding" })).toMatchObject({ balance: 200_000 });
    const cargo = productCases["mexx-stnd-1111"]!;
    await ok("live", `dump ipck_${cargo.code}*PRMM`, cargo.quote);
    const exportPolicy = await ok("live", `entt_${consumer}: insure`, insureSeed(cargo));
    expect(exportPolicy).toMatchObject({ status: "a", crtfctType: "docx", policyNo: expect.stringMatching(/^POL-MEXX-/) });
    const liveSeed = insureSeed(phone);
    expect(await ok("live", `entt_${consumer}: insure`, liveSeed)).toMatchObject({ status: "p" });
    const deadline = Date.now() + 15_000;
    for (;;) {
      const status = await ok("live", `dump entt_${consumer}|insr_${phone.code}-${liveSeed.id}*STATUS`);
      if (status.status === "a") break;
      expect(status.status).toBe("p");
      if (Date.now() > deadline) throw new Error("the live policy was not underwritten");
      await Bun.sleep(200);
    }
    const listed = (await ok("live", "dump entt_*")).list;
    expect(listed.map((p: any) => p.id).sort()).toEqual([testSeed.id, liveSeed.id, exportPolicy.id].sort());

    // Financing and a claim on the test policy.
    const plan = await ok("test", "payment financeLoan", {
      policy: testSeed.id,
      downPayment: 1200,
      installments: 3,
      frequency: "monthly",
      firstDueDate: watDate(30),
    });
    await ok("test", "payment recordInstallment", { planNo: plan.planNo, amount: 2000, reference: "flow-installment-1" });
    expect(await ok("test", "payment status", { planNo: plan.planNo })).toMatchObject({ paid: 2000, outstanding: 4000, status: "active" });
    const claim = await ok("test", "claim submit", { policy: testSeed.id, incidentDate: watDate(), description: "Screen cracked", amount: 20_000 });
    expect(await ok("test", "claim status", { claimNo: claim.claimNo })).toMatchObject({ claimNo: claim.claimNo, status: "submitted" });

    // A webhook endpoint registered on one instance gets its test event from whichever delivers it.
    const path = `/flow-${partner.partnerId}`;
    const endpoint = await ok("test", "webhook register", { url: receiver.url(path) });
    receiver.trust(path, endpoint.secret);
    await ok("test", "webhook test", { endpointId: endpoint.endpointId });
    await receiver.waitFor("the test event", () => receiver.hitsAt(path).some((h) => h.payload.type === "webhook.test"), 15_000);
    const wallet = await db().select().from(wallets).where(eq(wallets.partnerId, partner.partnerId));
    expect(wallet[0]!.balanceKobo).toBeLessThan(200_000_00);
  }
  const db = () => handle.db;

  for (let i = 0; i < INSTANCES; i++) test(`the end-to-end command flow against instance ${i + 1} alone`, () => commandFlow(() => apps[i]!), 60_000);
  test("the end-to-end command flow with every request on the next instance", async () => {
    await commandFlow((step) => apps[step % INSTANCES]!);
    expectQuietLogs();
  }, 60_000);
});
