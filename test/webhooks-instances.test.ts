/**
 * Two instances of the service on one PostgreSQL run the background loop together: every event is
 * delivered, and no delivery is ever attempted by both at once (leases under SKIP LOCKED).
 */
import { afterAll, expect, test } from "bun:test";
import { createPartner } from "../src/modules/partners/service";
import { engine, testDatabase } from "./support/harness";
import { type AppProcess, senderPid, startAppProcess, startReceiver } from "./support/webhook-receiver";

const EVENTS = 30;
const receiver = await startReceiver();
const apps: AppProcess[] = [];
afterAll(async () => {
  for (const app of apps) await app.stop();
  receiver.stop();
});

if (engine !== "postgres")
  console.warn("\n!!! SKIPPED webhooks with two instances: it needs PostgreSQL (PGlite is one process's database); run with TEST_ENGINE=postgres\n");

test.skipIf(engine !== "postgres")(
  "two instances deliver every event, each attempt once",
  async () => {
    const handle = await testDatabase();
    const partner = await createPartner(handle.db, { name: `Two instances ${crypto.randomUUID().slice(0, 8)}` });
    const env = {
      DATABASE_URL: process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL!,
      WEBHOOK_ALLOW_PRIVATE: "true",
      WEBHOOK_RETRY_SCALE: "0.001",
      WEBHOOK_TIMEOUT_MS: "3000",
      WORKER_INTERVAL_MS: "50",
    };
    apps.push(...(await Promise.all([startAppProcess(env), startAppProcess(env)])));
    const run = (app: AppProcess, cmmnd: string, seed?: unknown) =>
      app.post({ userInfo: { id: partner.partnerId, athrzt: partner.keys.test }, cmmnd: seed === undefined ? { cmmnd } : { cmmnd, seed } });

    const registered = await run(apps[0]!, "webhook register", { url: receiver.url("/pair"), events: ["wallet.credited"] });
    receiver.trust("/pair", registered.secret);
    // Every other event fails its first attempt, so retries are shared out too; answers take a moment.
    const senders = new Map<string, number | null>();
    receiver.respond("/pair", async (hit) => {
      senders.set(`${hit.id} ${hit.remotePort}`, senderPid(hit.remotePort, receiver.port));
      await Bun.sleep(100);
      const first = receiver.hitsAt("/pair").find((h) => h.id === hit.id) === hit;
      return new Response(first && hit.payload.data.amount % 2 === 1 ? "try again" : "ok", { status: first && hit.payload.data.amount % 2 === 1 ? 503 : 200 });
    });
    const topUps = Array.from({ length: EVENTS }, (_, i) =>
      run(apps[i % 2]!, "wallet topup", { amount: i + 1, reference: `pair-${i}-${crypto.randomUUID().slice(0, 8)}` }),
    );
    for (const answer of await Promise.all(topUps)) expect(answer.exctnFdbck.id).toBe(75);

    const deadline = Date.now() + 40_000;
    let log: any[] = [];
    for (;;) {
      log = (await run(apps[1]!, "webhook deliveries", { limit: 100 })).list;
      if (log.length === EVENTS && log.every((d) => d.status === "succeeded")) break;
      if (Date.now() > deadline) throw new Error(`not every delivery succeeded: ${JSON.stringify(log.map((d) => d.status))}`);
      await Bun.sleep(200);
    }

    const hits = Map.groupBy(receiver.hitsAt("/pair"), (h) => h.id);
    expect([...hits.keys()].sort()).toEqual(log.map((d) => d.eventId).sort());
    for (const delivery of log) {
      const received = hits.get(delivery.eventId)!;
      // The log and the receiver agree: each attempt made once, numbered without gaps.
      expect(delivery.attempts.map((a: any) => a.number)).toEqual(received.map((_, i) => i + 1));
      expect(received.length).toBe(delivery.attempts.length);
      expect(received.length).toBe(received[0]!.payload.data.amount % 2 === 1 ? 2 : 1);
      // Never two at once: each attempt started after the previous one was answered.
      for (let i = 1; i < received.length; i++) expect(received[i]!.startedAt).toBeGreaterThanOrEqual(received[i - 1]!.endedAt!);
    }
    // Both instances made attempts (the sender of each request, from its connection).
    expect(new Set(senders.values())).toEqual(new Set(apps.map((a) => a.pid)));
    expect(receiver.unverified).toEqual([]);
  },
  60_000,
);
