/**
 * Crash safety of the whole service (docs/reliability.md). The service runs as a real process
 * (src/main.ts) on its own database — a fresh PostgreSQL database, or PGlite in a temporary
 * DATA_DIR — while many clients issue policies (test mode, and live mode paid from the wallet)
 * and top up wallets. It is killed with SIGKILL at random moments (seeded: RELIABILITY_SEED
 * repeats a run) and started again. Clients behave as the spec asks of partners: 35 is retried
 * after a pause, and a request whose connection dropped is retried with the same reference.
 *
 * Afterwards, from the database itself:
 * - every request answered 75 is stored exactly once, with its events and ledger lines once;
 * - every request answered 55 or 35 left nothing, and a dropped request left nothing unless a
 *   retry with its reference found it stored (top-up: the first result again; insure: 409
 *   "already in use" — then it is stored once, as sent);
 * - each wallet's ledger sums to its balance, follows on from one balance to the next and never
 *   went below zero;
 * - every outbox event reached the webhook receiver, signed.
 *
 * A second test sends SIGTERM while requests are in flight: each gets its answer, connections
 * opened after are refused, and the process exits 0.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq, inArray, notLike } from "drizzle-orm";
import { type DatabaseHandle, openDatabase } from "../src/db/client";
import { outboxEvents } from "../src/modules/events/schema";
import { createPartner, type NewPartner } from "../src/modules/partners/service";
import { policies } from "../src/modules/policies/schema";
import { walletEntries, wallets } from "../src/modules/wallet/schema";
import { webhookDeliveries } from "../src/modules/webhooks/schema";
import { engine } from "./support/harness";
import { fullConsumer, productCases } from "./support/policies";
import { accepts, freshPostgresDatabase, type Random, runSeed, seededRandom, startRawPost } from "./support/reliability";
import { type AppProcess, BOOK_EVENTS, startAppProcess, startReceiver } from "./support/webhook-receiver";

const KILLS = Number(process.env.RELIABILITY_KILLS ?? 4);
const CLIENTS = 10;
const OPS_PER_CLIENT = 30;

const receiver = await startReceiver();
const cleanups: (() => unknown)[] = [() => receiver.stop()];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
}, 30_000);

/** Where the app processes keep their data: a fresh PostgreSQL database, or a temporary PGlite directory. */
async function storage(prefix: string): Promise<{ env: Record<string, string>; open(): Promise<DatabaseHandle> }> {
  if (engine === "postgres") {
    const database = await freshPostgresDatabase(process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL!, prefix);
    cleanups.push(() => database.drop());
    return { env: { DATABASE_URL: database.url }, open: () => openDatabase({ url: database.url }) };
  }
  const dataDir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  return { env: { DATA_DIR: dataDir }, open: () => openDatabase({ dataDir }) };
}

/** Partners made directly in the database (the app is not running: PGlite allows one process at a time). */
async function makePartners(open: () => Promise<DatabaseHandle>, count: number): Promise<NewPartner[]> {
  const handle = await open();
  try {
    const made: NewPartner[] = [];
    for (let i = 0; i < count; i++) made.push(await createPartner(handle.db, { name: `Reliability ${i} ${crypto.randomUUID().slice(0, 6)}` }));
    return made;
  } finally {
    await handle.close();
  }
}

/** A valid IMEI (Luhn check digit) from the seeded generator. */
function imei(random: Random): string {
  const body = `35${String(random.int(0, 999_999_999_999)).padStart(12, "0")}`;
  const sum = [...body].reverse().reduce((acc, ch, i) => {
    let d = Number(ch);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    return acc + d;
  }, 0);
  return body + String((10 - (sum % 10)) % 10);
}

const envelope = (partner: NewPartner, label: "test" | "live", cmmnd: string, seed?: unknown) =>
  JSON.stringify({ userInfo: { id: partner.partnerId, athrzt: partner.keys[label] }, cmmnd: seed === undefined ? { cmmnd } : { cmmnd, seed } });

type Kind = "topup" | "topup-repeat" | "insure-test" | "insure-live" | "insure-export" | "insure-bad" | "insure-duplicate";

/** One logical request: sent until it gets an answer other than 35 (the same reference every time). */
interface Op {
  kind: Kind;
  party: Party;
  reference: string;
  body: string;
  amountKobo?: number;
  imei?: string;
  /** For repeats and duplicates: the earlier request whose reference this one reuses. */
  original?: Op;
  /** What happened to each attempt before the last: dropped connections and 35s. */
  attempts: ("dropped" | "busy")[];
  answer?: any;
}

interface Party {
  partner: NewPartner;
  consumerId: string;
}

const PHONE = "phnn-flx1-1111";
const EXPORT = "mexx-stnd-1111";

function insureBody(party: Party, label: "test" | "live", code: string, reference: string, addtnlFact: Record<string, unknown>) {
  const [ctgry, type, pckg] = code.split("-");
  const insrncDrtn = productCases[code]!.insrncDrtn;
  return envelope(party.partner, label, `entt_${party.consumerId}: insure`, {
    ctgry,
    type,
    pckg,
    id: reference,
    ...(insrncDrtn ? { insrncDrtn } : {}),
    addtnlFact,
  });
}

/** The next request of a client: a mix of top-ups, issuance in both modes, and requests that must be refused. */
function nextOp(random: Random, party: Party, done: Op[]): Op {
  const reference = crypto.randomUUID();
  const roll = random.next();
  const answered = (kinds: Kind[]) => done.filter((o) => o.party === party && kinds.includes(o.kind) && o.answer?.exctnFdbck?.id === 75);
  if (roll < 0.28) {
    const amountKobo = random.int(1_000, 20_000) * 100 + (random.chance(0.3) ? random.int(1, 99) : 0);
    return {
      kind: "topup",
      party,
      reference,
      amountKobo,
      body: envelope(party.partner, "live", "wallet topup", { amount: amountKobo / 100, reference }),
      attempts: [],
    };
  }
  if (roll < 0.33) {
    const original = answered(["topup"]).at(-1);
    if (original)
      return {
        kind: "topup-repeat",
        party,
        reference: original.reference,
        amountKobo: original.amountKobo,
        original,
        body: envelope(party.partner, "live", "wallet topup", { amount: original.amountKobo! / 100, reference: original.reference }),
        attempts: [],
      };
  }
  if (roll < 0.38) {
    const original = answered(["insure-test", "insure-live"]).at(-1);
    if (original) {
      const device = imei(random);
      const label = original.kind === "insure-test" ? "test" : "live";
      return {
        kind: "insure-duplicate",
        party,
        reference: original.reference,
        imei: device,
        original,
        body: insureBody(party, label, PHONE, original.reference, { brand: "Tecno", model: "Spark 10", uIdnt: device }),
        attempts: [],
      };
    }
  }
  if (roll < 0.42) {
    // Refused by validation (an IMEI failing its check digit): must leave nothing.
    return {
      kind: "insure-bad",
      party,
      reference,
      body: insureBody(party, "live", PHONE, reference, { brand: "Tecno", model: "Spark 10", uIdnt: "356938035643800" }),
      attempts: [],
    };
  }
  if (roll < 0.46)
    return { kind: "insure-export", party, reference, body: insureBody(party, "live", EXPORT, reference, productCases[EXPORT]!.addtnlFact()), attempts: [] };
  if (roll < 0.7) {
    const device = imei(random);
    return {
      kind: "insure-test",
      party,
      reference,
      imei: device,
      body: insureBody(party, "test", PHONE, reference, { brand: "Samsung", model: "Galaxy A54", uIdnt: device }),
      attempts: [],
    };
  }
  // Live: pending until the simulated insurer decides; now and then the same phone twice, so one is declined and refunded.
  const earlier = answered(["insure-live"]).at(-1);
  const device = earlier?.imei && random.chance(0.15) ? earlier.imei : imei(random);
  return {
    kind: "insure-live",
    party,
    reference,
    imei: device,
    body: insureBody(party, "live", PHONE, reference, { brand: "Samsung", model: "Galaxy A54", uIdnt: device }),
    attempts: [],
  };
}

/** The app process of the moment, killed and started again by the chaos loop. */
class Chaos {
  app!: AppProcess;
  up: Promise<void> = Promise.resolve();
  sentSinceStart = 0;
  kills = 0;
  constructor(private readonly env: Record<string, string>) {}

  async start() {
    this.app = await startAppProcess(this.env);
    this.sentSinceStart = 0;
  }

  async kill() {
    let restarted!: () => void;
    this.up = new Promise((resolve) => (restarted = resolve));
    await this.app.kill();
    this.kills++;
    await this.start();
    restarted();
  }

  /** Send until an answer that is not 35; every attempt before it is noted on the op. */
  async send(op: Op, random: Random): Promise<void> {
    for (let attempt = 0; attempt < 200; attempt++) {
      await this.up;
      const app = this.app;
      this.sentSinceStart++;
      let answer: any;
      try {
        const response = await fetch(app.url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: op.body,
          signal: AbortSignal.timeout(30_000),
        });
        answer = await response.json();
      } catch {
        op.attempts.push("dropped");
        await Bun.sleep(random.int(20, 150));
        continue;
      }
      if (answer.exctnFdbck?.id === 35) {
        op.attempts.push("busy");
        await Bun.sleep(random.int(10, 80));
        continue;
      }
      op.answer = answer;
      return;
    }
    throw new Error(`no answer after 200 attempts: ${op.kind} ${op.reference}`);
  }
}

const isDuplicateReference = (answer: any) => answer?.exctnFdbck?.id_v4 === 409 && /already in use/.test(answer.exctnFdbck.elbrtn);

/**
 * Every ledger line follows on from the balance before it: the lines, as edges from the balance
 * before to the balance after, form one path from 0 to the final balance using each line once
 * (an Euler path), whatever order they committed in.
 */
function ledgerIsOnePath(entries: { amountKobo: number; balanceAfterKobo: number }[], finalBalance: number): boolean {
  const out = new Map<number, number[]>();
  for (const e of entries) out.set(e.balanceAfterKobo - e.amountKobo, [...(out.get(e.balanceAfterKobo - e.amountKobo) ?? []), e.balanceAfterKobo]);
  // Hierholzer's algorithm from balance 0.
  const stack = [0];
  const path: number[] = [];
  while (stack.length) {
    const at = stack.at(-1)!;
    const next = out.get(at)?.pop();
    if (next === undefined) path.push(stack.pop()!);
    else stack.push(next);
  }
  path.reverse();
  return path.length === entries.length + 1 && path.at(-1) === finalBalance;
}

test(`SIGKILL at random moments under concurrent issuance and top-ups: answered 75 is stored once, the rest leave nothing (${engine})`, async () => {
  const seed = runSeed();
  console.log(`reliability-crash: seed ${seed} (RELIABILITY_SEED=${seed} repeats the choices), ${KILLS} kills, ${engine}`);
  const random = seededRandom(seed);
  const { env, open } = await storage("reliability_crash");
  const partners = await makePartners(open, 2);
  const chaos = new Chaos({
    ...env,
    WEBHOOK_ALLOW_PRIVATE: "true",
    WEBHOOK_RETRY_SCALE: "0.001",
    WEBHOOK_TIMEOUT_MS: "2000",
    WORKER_INTERVAL_MS: "50",
    INSURER_DELAY_MS: "300",
    // Small, so that some requests meet the capacity bound (35) and must leave nothing.
    MAX_IN_FLIGHT: engine === "postgres" ? "4" : "2",
    RATE_LIMIT_MAX: "100000",
  });
  await chaos.start();
  cleanups.push(() => chaos.app.stop());

  // Before the chaos: a consumer, quotes, an endpoint receiving every event, and money in each wallet.
  const parties: Party[] = [];
  const ops: Op[] = [];
  for (const [i, partner] of partners.entries()) {
    const post = async (label: "test" | "live", cmmnd: string, seed?: unknown) => {
      const answer = await chaos.app.post(JSON.parse(envelope(partner, label, cmmnd, seed)));
      expect(answer.exctnFdbck).toMatchObject({ id: 75 });
      return answer;
    };
    const consumer = await post("test", "prfl entity", fullConsumer());
    for (const code of [PHONE, EXPORT]) await post("live", `dump ipck_${code}*PRMM`, productCases[code]!.quote);
    const endpoint = await post("test", "webhook register", { url: receiver.url(`/partner-${i}`), events: BOOK_EVENTS });
    receiver.trust(`/partner-${i}`, endpoint.secret);
    receiver.respond(`/partner-${i}`, async () => {
      await Bun.sleep(Math.floor(Math.random() * 60));
      return new Response("ok");
    });
    const party = { partner, consumerId: consumer.id as string };
    parties.push(party);
    const funding: Op = {
      kind: "topup",
      party,
      reference: `funding-${i}`,
      amountKobo: 30_000_00,
      body: envelope(partner, "live", "wallet topup", { amount: 30_000, reference: `funding-${i}` }),
      attempts: [],
    };
    await chaos.send(funding, random);
    ops.push(funding);
  }

  // The chaos: clients send their requests while the killer waits for a random amount of traffic, kills, restarts.
  let clientsDone = 0;
  const clients = Array.from({ length: CLIENTS }, async (_, c) => {
    const own = seededRandom(seed + c + 1);
    const party = parties[c % parties.length]!;
    for (let n = 0; n < OPS_PER_CLIENT; n++) {
      const op = nextOp(own, party, ops);
      ops.push(op);
      await chaos.send(op, own);
      await Bun.sleep(own.int(0, 15));
    }
    clientsDone++;
  });
  const killer = (async () => {
    while (chaos.kills < KILLS && clientsDone < CLIENTS) {
      const after = random.int(15, 45);
      while (chaos.sentSinceStart < after && clientsDone < CLIENTS) await Bun.sleep(2);
      if (clientsDone === CLIENTS) break;
      await Bun.sleep(random.int(0, 25));
      await chaos.kill();
    }
  })();
  await Promise.all([...clients, killer]);
  expect(chaos.kills).toBe(KILLS);

  // Let the insurer decide every pending live policy (status list through the app, which owns the database).
  const deadline = Date.now() + 60_000;
  for (const party of parties) {
    for (;;) {
      const pending = await chaos.app.post(JSON.parse(envelope(party.partner, "live", "dump entt_*", { status: "p", limit: 1 })));
      if (pending.list?.length === 0) break;
      if (Date.now() > deadline) throw new Error(`policies still pending: ${JSON.stringify(pending)}\n${chaos.app.stderr()}`);
      await Bun.sleep(200);
    }
  }
  await chaos.app.stop();
  expect(await chaos.app.exited).toBe(0);

  // What the clients saw.
  const outcome = (op: Op) => op.answer.exctnFdbck as { id: number; id_v4: number; elbrtn?: string };
  const stats = {
    requests: ops.length,
    attempts: ops.reduce((n, op) => n + op.attempts.length + 1, 0),
    dropped: ops.reduce((n, op) => n + op.attempts.filter((a) => a === "dropped").length, 0),
    busy35: ops.reduce((n, op) => n + op.attempts.filter((a) => a === "busy").length, 0),
    answered75: ops.filter((op) => outcome(op).id === 75).length,
    refused55: Object.entries(
      Object.groupBy(
        ops.filter((op) => outcome(op).id === 55),
        (op) => String(outcome(op).id_v4),
      ),
    )
      .map(([s, l]) => `${s}×${l!.length}`)
      .join(" "),
    storedByDroppedAttempt: ops.filter((op) => op.kind !== "insure-duplicate" && isDuplicateReference(op.answer)).length,
  };
  console.log(`reliability-crash: ${JSON.stringify(stats)}`);
  expect(stats.dropped).toBeGreaterThan(0); // the kills did cut requests off
  for (const op of ops) {
    // No unexpected errors: every answer is 75 or a deliberate refusal.
    expect({ op: op.kind, ...outcome(op) }).not.toMatchObject({ id_v4: 500 });
    if (op.kind === "insure-bad") expect(outcome(op)).toMatchObject({ id: 55, id_v4: 400 });
    if (op.kind === "insure-duplicate") expect(isDuplicateReference(op.answer)).toBe(true);
    if (op.kind === "topup" || op.kind === "topup-repeat") expect(outcome(op).id).toBe(75);
    if (op.kind === "insure-test") expect(outcome(op).id === 75 || isDuplicateReference(op.answer)).toBe(true);
    if (op.kind === "insure-live" || op.kind === "insure-export")
      expect(outcome(op).id === 75 || isDuplicateReference(op.answer) || outcome(op).id_v4 === 402).toBe(true);
    // "Already in use" on a first request means an earlier attempt of it was stored: only possible if one was cut off.
    if (op.kind !== "insure-duplicate" && isDuplicateReference(op.answer)) expect(op.attempts).toContain("dropped");
    if (op.kind === "topup-repeat") expect(op.answer.balance).toBe(op.original!.answer.balance); // the first result, unchanged
  }

  // What the database holds.
  const handle = await open();
  cleanups.push(() => handle.close());
  const db = handle.db;
  const partnerIds = partners.map((p) => p.partnerId);
  const storedPolicies = await db.select().from(policies).where(inArray(policies.partnerId, partnerIds));
  const entries = await db.select().from(walletEntries).where(inArray(walletEntries.partnerId, partnerIds));
  const events = await db
    .select()
    .from(outboxEvents)
    .where(and(inArray(outboxEvents.partnerId, partnerIds), notLike(outboxEvents.type, "message.%")));
  const policyEventsOf = (reference: string) =>
    events
      .filter((e) => e.type.startsWith("policy.") && e.payload.id === reference)
      .map((e) => e.type)
      .sort();

  for (const op of ops) {
    const partnerId = op.party.partner.partnerId;
    const stored = storedPolicies.filter((p) => p.partnerId === partnerId && p.reference === op.reference);
    const where = `${op.kind} ${op.reference} (${JSON.stringify(outcome(op))}, attempts ${op.attempts.join(",") || "none"})`;
    if (op.kind === "topup") {
      const credits = entries.filter((e) => e.partnerId === partnerId && e.kind === "topup" && e.reference === op.reference);
      expect({ where, credits: credits.map((e) => e.amountKobo) }).toEqual({ where, credits: [op.amountKobo!] });
      expect({
        where,
        events: events.filter((e) => e.type === "wallet.credited" && e.partnerId === partnerId && e.payload.reference === op.reference).length,
      }).toEqual({ where, events: 1 });
      expect(op.answer).toMatchObject({ reference: op.reference, amount: op.amountKobo! / 100 });
    } else if (op.kind === "topup-repeat" || op.kind === "insure-duplicate") {
      // Checked with their originals: still exactly one.
    } else if (outcome(op).id === 75 || isDuplicateReference(op.answer)) {
      // Stored exactly once, as this request sent it.
      expect({ where, count: stored.length }).toEqual({ where, count: 1 });
      const policy = stored[0]!;
      if (op.imei) expect(policy.deviceId).toBe(`imei:${op.imei}`);
      if (outcome(op).id === 75) expect(op.answer.id).toBe(op.reference);
      const debits = entries.filter((e) => e.policyId === policy.id && e.kind === "premium");
      const refunds = entries.filter((e) => e.policyId === policy.id && e.kind === "refund");
      const types = policyEventsOf(op.reference);
      if (op.kind === "insure-test") {
        expect({ where, status: policy.status, mode: policy.mode, types, debits: debits.length }).toEqual({
          where,
          status: "a",
          mode: "test",
          types: ["policy.approved"],
          debits: 0,
        });
      } else if (op.kind === "insure-export") {
        expect({ where, status: policy.status, types, debits: debits.map((e) => e.amountKobo) }).toEqual({
          where,
          status: "a",
          types: ["policy.approved"],
          debits: [-policy.premiumKobo],
        });
      } else {
        // Live phone cover: pending, then decided by the insurer exactly once; a decline refunded exactly once.
        expect(["a", "d"]).toContain(policy.status);
        const decision = policy.status === "a" ? "policy.approved" : "policy.declined";
        expect({ where, types, debits: debits.map((e) => e.amountKobo), refunds: refunds.map((e) => e.amountKobo) }).toEqual({
          where,
          types: [decision, "policy.pending"].sort(),
          debits: [-policy.premiumKobo],
          refunds: policy.status === "d" ? [policy.premiumKobo] : [],
        });
      }
    } else {
      // Refused (55): nothing stored, no event, no ledger line.
      expect({ where, stored: stored.length, events: policyEventsOf(op.reference).length }).toEqual({ where, stored: 0, events: 0 });
    }
  }
  // Repeats and duplicates changed nothing: their originals are still the only record.
  for (const op of ops.filter((o) => o.kind === "insure-duplicate" && o.original!.answer.exctnFdbck.id === 75)) {
    const stored = storedPolicies.filter((p) => p.partnerId === op.party.partner.partnerId && p.reference === op.reference);
    expect(stored.map((p) => p.deviceId)).toEqual([`imei:${op.original!.imei}`]);
  }
  // Nothing stored that no request asked for.
  const asked = new Set(ops.map((op) => op.reference));
  expect(storedPolicies.filter((p) => !asked.has(p.reference))).toEqual([]);
  expect(entries.filter((e) => e.kind === "topup" && !asked.has(e.reference!))).toEqual([]);
  const policyIds = new Set(storedPolicies.map((p) => p.id));
  expect(entries.filter((e) => e.kind !== "topup" && !policyIds.has(e.policyId!))).toEqual([]);

  // The ledger invariant, per wallet.
  for (const partnerId of partnerIds) {
    const [wallet] = await db.select().from(wallets).where(eq(wallets.partnerId, partnerId));
    const own = entries.filter((e) => e.partnerId === partnerId);
    expect(own.reduce((sum, e) => sum + e.amountKobo, 0)).toBe(wallet!.balanceKobo);
    expect(own.every((e) => e.balanceAfterKobo >= 0)).toBe(true);
    expect(ledgerIsOnePath(own, wallet!.balanceKobo)).toBe(true);
  }

  // Every event reaches the receiver: start the service once more and wait for the last ones.
  const eventIds = new Set(events.map((e) => e.id));
  await handle.close();
  cleanups.pop();
  await chaos.start();
  const received = () => new Set(receiver.hits.filter((h) => h.verifiedBy.length).map((h) => h.id));
  await receiver.waitFor(`all ${eventIds.size} events`, () => [...eventIds].every((id) => received().has(id)), 60_000);
  // An attempt cut off by a kill may have arrived without its outcome being recorded: it is made again once its lease runs out.
  for (const party of parties) {
    for (;;) {
      const pending = await chaos.app.post(JSON.parse(envelope(party.partner, "test", "webhook deliveries", { status: "pending", limit: 1 })));
      if (pending.list?.length === 0) break;
      if (Date.now() > deadline + 60_000) throw new Error(`deliveries still pending: ${JSON.stringify(pending)}`);
      await Bun.sleep(250);
    }
  }
  await chaos.app.stop();
  expect(await chaos.app.exited).toBe(0);
  expect(receiver.unverified).toEqual([]);
  // Nothing arrived that the outbox does not hold, and repeats of an event carry the same body.
  expect([...received()].filter((id) => !eventIds.has(id))).toEqual([]);
  for (const [id, hits] of Map.groupBy(receiver.hits, (h) => h.id)) expect({ id, bodies: new Set(hits.map((h) => h.body)).size }).toEqual({ id, bodies: 1 });
  const after = await open();
  try {
    const deliveries = await after.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.partnerId, partnerIds));
    expect(deliveries.filter((d) => d.status !== "succeeded")).toEqual([]);
    expect(new Set(deliveries.map((d) => d.eventId))).toEqual(eventIds);
    expect(
      (
        await after.db
          .select()
          .from(outboxEvents)
          .where(and(inArray(outboxEvents.partnerId, partnerIds)))
      ).filter((e) => !e.dispatchedAt),
    ).toEqual([]);
  } finally {
    await after.close();
  }
}, 240_000);

test(`SIGTERM drains in-flight requests, refuses new connections, exits 0 (${engine})`, async () => {
  const { env, open } = await storage("reliability_term");
  const [partner] = await makePartners(open, 1);
  const app = await startAppProcess({ ...env, RATE_LIMIT_MAX: "100000", WORKER_INTERVAL_MS: "50" });
  cleanups.push(() => app.stop());
  const consumer = await app.post(JSON.parse(envelope(partner!, "test", "prfl entity", fullConsumer())));
  expect(consumer.exctnFdbck.id).toBe(75);
  await app.post(JSON.parse(envelope(partner!, "live", "wallet topup", { amount: 1_000_000, reference: "term-funding" })));
  const party = { partner: partner!, consumerId: consumer.id as string };

  // Requests held in flight: headers and part of the body sent, the rest only after SIGTERM.
  const held = await Promise.all(
    Array.from({ length: 16 }, async (_, i) => {
      const reference = crypto.randomUUID();
      const body =
        i % 2
          ? envelope(partner!, "live", "wallet topup", { amount: 100 + i, reference })
          : insureBody(party, i % 4 ? "test" : "live", PHONE, reference, { brand: "Samsung", model: "Galaxy A54", uIdnt: imei(seededRandom(i + 1)) });
      return { reference, kind: i % 2 ? "topup" : "insure", exchange: await startRawPost(app.url, body) };
    }),
  );
  // Time for the service to read their headers and start them (a request not yet read when it stops is refused, not in flight).
  await Bun.sleep(500);
  // And a burst sent just before it: each is answered, or refused without leaving anything.
  const burst = Array.from({ length: 12 }, (_, i) => {
    const reference = `burst-${i}-${crypto.randomUUID().slice(0, 8)}`;
    const answer = fetch(app.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: envelope(partner!, "live", "wallet topup", { amount: 10 + i, reference }),
    }).then(
      (r) => r.json() as Promise<any>,
      () => null,
    );
    return { reference, answer };
  });
  await Bun.sleep(5);
  process.kill(app.pid, "SIGTERM");
  // Stopped listening (within 5 s: a busy machine may take more than a moment to deliver the
  // signal), still running: its requests are not finished, and cannot be until they are sent.
  const listeningUntil = Date.now() + 5_000;
  while ((await accepts(app.url)) && Date.now() < listeningUntil) await Bun.sleep(100);
  expect(await accepts(app.url)).toBe(false);
  expect(await Promise.race([app.exited.then(() => "exited"), Bun.sleep(200).then(() => "running")])).toBe("running");

  const answers = await Promise.all(held.map((h) => h.exchange.finish()));
  for (const answer of answers) expect({ status: answer.status, feedback: answer.body.exctnFdbck }).toEqual({ status: 200, feedback: { id: 75, id_v4: 200 } });
  const burstAnswers = await Promise.all(burst.map(async (b) => ({ ...b, answer: await b.answer })));
  expect(await Promise.race([app.exited, Bun.sleep(15_000).then(() => "still running")])).toBe(0);
  expect(app.stderr()).not.toContain("error");

  const handle = await open();
  try {
    const db = handle.db;
    for (const h of held) {
      if (h.kind === "topup")
        expect(
          await db
            .select()
            .from(walletEntries)
            .where(and(eq(walletEntries.partnerId, partner!.partnerId), eq(walletEntries.reference, h.reference))),
        ).toHaveLength(1);
      else
        expect(
          await db
            .select()
            .from(policies)
            .where(and(eq(policies.partnerId, partner!.partnerId), eq(policies.reference, h.reference))),
        ).toHaveLength(1);
    }
    for (const b of burstAnswers) {
      const stored = await db
        .select()
        .from(walletEntries)
        .where(and(eq(walletEntries.partnerId, partner!.partnerId), eq(walletEntries.reference, b.reference)));
      expect({ reference: b.reference, stored: stored.length }).toEqual({ reference: b.reference, stored: b.answer?.exctnFdbck?.id === 75 ? 1 : 0 });
    }
    console.log(
      `reliability-crash: SIGTERM with ${held.length} requests in flight and a burst of ${burst.length}: ${burstAnswers.filter((b) => b.answer).length} of the burst answered, the rest refused`,
    );
  } finally {
    await handle.close();
  }
}, 60_000);

test(`SIGTERM with a client that never finishes its request: cut off after SHUTDOWN_TIMEOUT_MS, nothing stored, exit 0 (${engine})`, async () => {
  const { env, open } = await storage("reliability_drain");
  const [partner] = await makePartners(open, 1);
  const app = await startAppProcess({ ...env, SHUTDOWN_TIMEOUT_MS: "1500" });
  cleanups.push(() => app.stop());
  // One request held in flight and finished after SIGTERM; another whose client keeps sending a byte at a time.
  const finished = await startRawPost(app.url, envelope(partner!, "live", "wallet topup", { amount: 50, reference: "drain-finished" }));
  const endless = await startRawPost(app.url, envelope(partner!, "live", "wallet topup", { amount: 60, reference: "drain-endless" }), 1);
  const trickle = setInterval(() => endless.trickle(), 100);
  try {
    await Bun.sleep(400); // both read and started by the service
    const sentAt = performance.now();
    process.kill(app.pid, "SIGTERM");
    await Bun.sleep(200);
    expect((await finished.finish()).body.exctnFdbck).toEqual({ id: 75, id_v4: 200 });
    expect(await Promise.race([app.exited, Bun.sleep(10_000).then(() => "still running")])).toBe(0);
    const took = performance.now() - sentAt;
    expect(took).toBeGreaterThanOrEqual(1400);
    expect(took).toBeLessThan(6000);
    await expect(endless.finish()).rejects.toThrow("without an answer");
    expect(app.stderr()).toContain("SHUTDOWN_TIMEOUT_MS ran out");
  } finally {
    clearInterval(trickle);
  }
  const handle = await open();
  try {
    const stored = await handle.db.select().from(walletEntries).where(eq(walletEntries.partnerId, partner!.partnerId));
    expect(stored.map((e) => e.reference)).toEqual(["drain-finished"]);
  } finally {
    await handle.close();
  }
}, 60_000);
