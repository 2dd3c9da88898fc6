/**
 * At least once, across a crash: the whole service runs as a process, is killed (SIGKILL) while
 * its deliveries are in flight, and is started again on the same database. Every event must
 * arrive; a delivery cut off by the crash arrives again with the same webhook-id.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../src/db/client";
import { createPartner, type NewPartner } from "../src/modules/partners/service";
import { engine, testDatabase } from "./support/harness";
import { type AppProcess, startAppProcess, startReceiver } from "./support/webhook-receiver";

const EVENTS = 12;
const receiver = await startReceiver();
const cleanups: (() => unknown)[] = [() => receiver.stop()];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A partner in the database the app processes will open, and the environment that points them at it. */
async function database(): Promise<{ partner: NewPartner; env: Record<string, string> }> {
  const name = `Crash test ${crypto.randomUUID().slice(0, 8)}`;
  if (engine === "postgres") {
    const handle = await testDatabase();
    return { partner: await createPartner(handle.db, { name }), env: { DATABASE_URL: process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL! } };
  }
  const dataDir = mkdtempSync(join(tmpdir(), "webhooks-crash-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const handle = await openDatabase({ dataDir });
  const partner = await createPartner(handle.db, { name });
  await handle.close();
  return { partner, env: { DATA_DIR: dataDir } };
}

test(`a SIGKILL mid-delivery loses no event; repeats carry the same webhook-id (${engine})`, async () => {
  const { partner, env } = await database();
  const appEnv = { ...env, WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_SCALE: "0.001", WEBHOOK_TIMEOUT_MS: "3000", WORKER_INTERVAL_MS: "50" };
  const run = (app: AppProcess, cmmnd: string, seed?: unknown) =>
    app.post({ userInfo: { id: partner.partnerId, athrzt: partner.keys.test }, cmmnd: seed === undefined ? { cmmnd } : { cmmnd, seed } });

  let app = await startAppProcess(appEnv);
  cleanups.push(() => app.stop());
  const registered = await run(app, "webhook register", { url: receiver.url("/crash"), events: ["wallet.credited"] });
  expect(registered.exctnFdbck.id).toBe(75);
  receiver.trust("/crash", registered.secret);
  // Slow answers keep deliveries in flight long enough to be cut off.
  receiver.respond("/crash", async () => {
    await Bun.sleep(1500);
    return new Response("ok");
  });

  const references = Array.from({ length: EVENTS }, (_, i) => `crash-${i}-${crypto.randomUUID().slice(0, 8)}`);
  for (const reference of references) expect((await run(app, "wallet topup", { amount: 100, reference })).exctnFdbck.id).toBe(75);
  const inFlight = () => receiver.hitsAt("/crash").filter((h) => h.endedAt === undefined);
  await receiver.waitFor("deliveries in flight", () => inFlight().length >= 3);
  await app.kill();
  // Sent and not yet answered when the process died: the service cannot know they arrived.
  const cutOff = new Set(inFlight().map((h) => h.id));
  expect(cutOff.size).toBeGreaterThanOrEqual(3);

  app = await startAppProcess(appEnv);
  const deadline = Date.now() + 40_000;
  let log: any[] = [];
  for (;;) {
    log = (await run(app, "webhook deliveries", { limit: 100 })).list;
    if (log.length === EVENTS && log.every((d) => d.status === "succeeded")) break;
    if (Date.now() > deadline)
      throw new Error(`not every delivery succeeded: ${JSON.stringify(log.map((d) => [d.status, d.attempts.length]))}\n${app.stderr()}`);
    await Bun.sleep(250);
  }

  // Every event arrived, verified (the receiver answers 401 otherwise), and none is missing.
  const hits = receiver.hitsAt("/crash");
  const byId = Map.groupBy(hits, (h) => h.id);
  expect([...byId.keys()].sort()).toEqual(log.map((d) => d.eventId).sort());
  expect(
    hits
      .map((h) => h.payload.data.reference)
      .filter((r, i, all) => all.indexOf(r) === i)
      .sort(),
  ).toEqual([...references].sort());
  // The deliveries cut off by the crash came again, with the same webhook-id and the same body.
  for (const id of cutOff) {
    const repeats = byId.get(id)!;
    expect(repeats.length).toBeGreaterThanOrEqual(2);
    expect(new Set(repeats.map((h) => h.body)).size).toBe(1);
  }
  // Their lost first attempt left a gap in the log: the attempt after the crash is number 2.
  for (const delivery of log.filter((d) => cutOff.has(d.eventId))) {
    expect(delivery.attempts.at(-1)).toMatchObject({ number: 2, response: { status: 200 } });
  }
  expect(receiver.unverified).toEqual([]);
  await app.stop();
}, 60_000);
