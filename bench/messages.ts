/**
 * `npm run bench:messages`: the delivery of the outbox of e-mail (issue 38, item 1) to an in-process
 * SMTP server (test/support/smtp.ts), by the delivery job as the worker runs it (a pass, again at
 * once after a full batch, else after WORKER_INTERVAL_MS), with the delivery settings' defaults:
 *
 *   small burst   BENCH_MESSAGES_SMALL (20) messages queued at once: each must arrive within 5 s of
 *                 being queued (queued → the SMTP server has parsed it).
 *   large burst   BENCH_MESSAGES_BURST (10,000) queued at once, in transactions of 500: delivered at
 *                 100 a second or more (the first queued → the last arrived).
 *
 * On PGlite in memory by default, or on the PostgreSQL database BENCH_DATABASE_URL names (migrated,
 * its messages left behind). Results go to docs/performance.md between the bench-messages markers
 * (BENCH_WRITE_DOCS=0 only prints).
 */
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../src/core/config";
import { setLogLevel } from "../src/core/log";
import { type Database, openDatabase } from "../src/db/client";
import { type OutgoingMessage, queueMessages } from "../src/modules/messages";
import { deliverDueMessages, deliverySettings } from "../src/modules/messages/delivery";
import { mailerFor } from "../src/modules/messages/mailer";
import { smsProvider } from "../src/modules/messages/sms-providers";
import { createPartner } from "../src/modules/partners/service";
import { startSmtpServer, type TestSmtpServer } from "../test/support/smtp";
import { describeMachine, writeSection } from "./report";

const MARKERS: [string, string] = ["<!-- bench-messages:start -->", "<!-- bench-messages:end -->"];
const env = process.env;
const SMALL = Number(env.BENCH_MESSAGES_SMALL ?? 20);
const BURST = Number(env.BENCH_MESSAGES_BURST ?? 10_000);
const WORKER_INTERVAL_MS = 500;
const AIM_RATE = 100;
const AIM_LATENCY_MS = 5_000;
const root = fileURLToPath(new URL("..", import.meta.url));
const say = (line: string) => process.stdout.write(`[bench:messages] ${line}\n`);

setLogLevel("warn");

interface BurstResult {
  what: string;
  count: number;
  seconds: number;
  rate: number;
  p50: number;
  p95: number;
  max: number;
  load: string;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** Queue `count` e-mails at once (transactions of 500), then run the worker's passes until every one has arrived. */
async function burst(
  what: string,
  db: Database,
  partnerId: string,
  smtp: TestSmtpServer,
  run: (now: Date) => Promise<number>,
  count: number,
): Promise<BurstResult> {
  const tag = crypto.randomUUID().slice(0, 8);
  const queuedAt = new Map<string, number>();
  const load = [loadavg()[0]!.toFixed(1)];
  const first = Date.now();
  for (let start = 0; start < count; start += 500) {
    const now = new Date();
    const batch: OutgoingMessage[] = Array.from({ length: Math.min(500, count - start) }, (_, i) => ({
      partnerId,
      channel: "email",
      kind: "policy.issued",
      recipient: `bench-${tag}-${start + i}@customers.example`,
      recipientName: "Bench Customer",
      subject: "Your policy is ready",
      body: "Dear customer,\n\nYour policy POL-BENCH is in force.\n",
      html: "<p>Dear customer,</p><p>Your policy <strong>POL-BENCH</strong> is in force.</p>",
      dedupeKey: `bench:${tag}:${start + i}`,
    }));
    await db.transaction((tx) => queueMessages(tx, batch, now));
    for (const m of batch) queuedAt.set(m.recipient, now.getTime());
  }
  const before = smtp.mails.length;
  const deadline = Date.now() + 10 * 60_000;
  while (smtp.mails.length - before < count) {
    if (Date.now() > deadline) throw new Error(`${what}: only ${smtp.mails.length - before} of ${count} arrived`);
    if ((await run(new Date())) === 0) await Bun.sleep(WORKER_INTERVAL_MS);
  }
  const arrived = smtp.mails.slice(before).filter((m) => queuedAt.has(m.to[0]!));
  const latencies = arrived.map((m) => m.receivedAt.getTime() - queuedAt.get(m.to[0]!)!).sort((a, b) => a - b);
  const last = Math.max(...arrived.map((m) => m.receivedAt.getTime()));
  load.push(loadavg()[0]!.toFixed(1));
  const seconds = (last - first) / 1000;
  return {
    what,
    count,
    seconds,
    rate: count / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    max: latencies.at(-1)!,
    load: load.join(" to "),
  };
}

function render(results: BurstResult[], engine: string, machine: ReturnType<typeof describeMachine>): string {
  const ms = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value} ms`);
  return [
    `## Messages: delivering the outbox (issue 38, item 1; \`npm run bench:messages\`, ${new Date().toISOString().slice(0, 10)})`,
    "",
    `E-mails queued at once into the outbox, delivered by the delivery job as the worker runs it (a pass of MESSAGE_BATCH 50, MESSAGE_CONCURRENCY 10, again at once`,
    `after a full batch, else after ${WORKER_INTERVAL_MS} ms) over nodemailer's pool to an in-process SMTP server that parses every message (smtp-server + mailparser,`,
    `in the same process: its parsing is part of the cost), on ${engine}, on ${machine.cores} cores (${machine.cpu}). Each message's time is queued → parsed by the server.`,
    "",
    `Aims: a small burst arrives within ${AIM_LATENCY_MS / 1000} s of being queued; a large one at ${AIM_RATE} a second or more.`,
    "",
    "| burst | messages | first queued → last arrived | rate | queued → arrived: p50 | p95 | max | machine's load (1 min) |",
    "|---|---:|---:|---:|---:|---:|---:|---|",
    ...results.map(
      (r) =>
        `| ${r.what} | ${r.count.toLocaleString("en")} | ${r.seconds.toFixed(2)} s | ${Math.round(r.rate)} a second | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.max)} | ${r.load} |`,
    ),
    "",
    ...(BURST < 10_000
      ? [
          `The large burst was ${BURST.toLocaleString("en")} messages (BENCH_MESSAGES_BURST), not 10,000, to keep the run under a minute on a shared machine; at the rate measured, 10,000 would take about ${Math.round(10_000 / results[1]!.rate)} s (not measured).`,
          "",
        ]
      : []),
    "In a large burst a message's wait is its place in the queue: the last of the burst waits for all before it. The database's share falls as the load rises:",
    'outcomes are written in groups (docs/messages.md, "Delivery"), so the SMTP exchange and the server\'s parsing, in the same process here, are most of the cost.',
  ].join("\n");
}

async function main(): Promise<number> {
  const url = env.BENCH_DATABASE_URL;
  const database = await openDatabase(url ? { url } : { dataDir: "memory://" });
  const smtp = await startSmtpServer();
  const config = loadConfig({}, { SMTP_URL: smtp.url });
  const settings = deliverySettings(config, mailerFor(config), smsProvider(config));
  try {
    const db = database.db;
    const { partnerId } = await createPartner(db, { name: `Bench messages ${Date.now()}` });
    const run = (now: Date) => deliverDueMessages(db, settings, now);
    const results: BurstResult[] = [];
    say(`small burst of ${SMALL}`);
    results.push(await burst("small", db, partnerId, smtp, run, SMALL));
    say(`large burst of ${BURST}`);
    results.push(await burst("large", db, partnerId, smtp, run, BURST));
    const engine = url ? "PostgreSQL" : "PGlite (in memory)";
    const section = render(results, engine, describeMachine(url ? "(BENCH_DATABASE_URL)" : "none (PGlite)"));
    process.stdout.write(`\n${section}\n`);
    if (env.BENCH_WRITE_DOCS !== "0") writeSection(join(root, "docs/performance.md"), section, MARKERS);
    const [small, large] = results as [BurstResult, BurstResult];
    if (small.max > AIM_LATENCY_MS) say(`aim missed: a small burst's message took ${small.max} ms`);
    if (large.rate < AIM_RATE) say(`aim missed: ${Math.round(large.rate)} a second`);
    return 0;
  } finally {
    settings.mailer.close();
    await smtp.stop();
    await database.close();
  }
}

process.exit(await main());
