/**
 * The delivery of the outbox (docs/messages.md): a pass leases the messages that are due, sends
 * them a few at once, and writes each outcome with its log line and its event in one transaction.
 * Leasing takes the rows FOR UPDATE SKIP LOCKED, so instances share the queue and never send one
 * message at the same time; a process that dies mid-attempt leaves its messages leased, and they
 * are taken again when the lease runs out (at least once: the Message-ID says it is the same one).
 */
import { and, eq, inArray, lte, sql } from "drizzle-orm";
import type { Config } from "../../core/config";
import { newId } from "../../core/ids";
import { log } from "../../core/log";
import type { Database } from "../../db/client";
import { announce } from "./announce";
import { receiveSmsReport } from "./callbacks";
import type { Mailer } from "./mailer";
import { type MessageStatus, messageEvents, messages } from "./schema";
import { type OutgoingSms, type SmsProvider, SmsRefused } from "./sms-provider";

export interface DeliverySettings {
  mailer: Mailer;
  sms: SmsProvider;
  senderId: string;
  batch: number;
  concurrency: number;
  /** The longest an attempt may take: past it, it counts as failed and is tried again. */
  timeoutMs: number;
  /** How long a pass holds its messages: every attempt of its batch, `concurrency` at a time, and the time to write the outcomes. */
  leaseMs: number;
  /** The waits before the 2nd, 3rd … attempt, scaled; one attempt more than waits. */
  retryWaitsMs: number[];
}

/** A lease outlasts its batch's attempts by this much (the time to write the outcomes). */
const LEASE_MARGIN_MS = 10_000;

export const deliverySettings = (config: Config, mailer: Mailer, sms: SmsProvider): DeliverySettings => ({
  mailer,
  sms,
  senderId: config.SMS_SENDER_ID,
  batch: config.MESSAGE_BATCH,
  concurrency: config.MESSAGE_CONCURRENCY,
  timeoutMs: config.MESSAGE_SEND_TIMEOUT_MS,
  // The last of a batch starts only after the attempts before it: its lease must cover them all.
  leaseMs: Math.ceil(config.MESSAGE_BATCH / config.MESSAGE_CONCURRENCY) * config.MESSAGE_SEND_TIMEOUT_MS + LEASE_MARGIN_MS,
  retryWaitsMs: config.MESSAGE_RETRY_SCHEDULE_S.split(",").map((s) => Math.round(Number(s) * 1000 * config.MESSAGE_RETRY_SCALE)),
});

type Message = typeof messages.$inferSelect;

/** What one attempt came to, with the provider's words and, when it took the message, its reference. */
type Attempt =
  | { result: "sent" | "delivered"; provider: string; reference: string; words: string }
  | { result: "bounced" | "failed" | "retry"; provider: string; words: string };

/** Lease the due messages: each is `sending` until the lease ends, its attempt counted. */
async function leaseDue(db: Database, settings: DeliverySettings, now: Date): Promise<Message[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: messages.id })
      .from(messages)
      .where(and(inArray(messages.status, ["queued", "sending"]), lte(messages.nextAttemptAt, now)))
      .orderBy(messages.nextAttemptAt)
      .limit(settings.batch)
      .for("update", { skipLocked: true });
    if (!due.length) return [];
    const until = new Date(now.getTime() + settings.leaseMs);
    return tx
      .update(messages)
      .set({ status: "sending", attempts: sql`${messages.attempts} + 1`, leaseUntil: until, nextAttemptAt: until })
      .where(
        inArray(
          messages.id,
          due.map((m) => m.id),
        ),
      )
      .returning();
  });
}

const smsOf = (m: Message, settings: DeliverySettings): OutgoingSms => ({ messageId: m.id, to: m.recipient, from: settings.senderId, text: m.body });

/**
 * One attempt, outside any transaction (the relay and the gateway are other parties), within the
 * timeout whatever the other side does: one that runs over counts as failed (tried again), so no
 * attempt outlives its lease. If the other side took it after all, the repeat is the same message.
 */
async function attempt(m: Message, settings: DeliverySettings): Promise<Attempt> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const overtime = new Promise<Attempt>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          result: "retry",
          provider: m.channel === "email" ? settings.mailer.name : settings.sms.name,
          words: `no answer within ${settings.timeoutMs} ms`,
        }),
      settings.timeoutMs,
    );
  });
  try {
    return await Promise.race([send(m, settings), overtime]);
  } finally {
    clearTimeout(timer);
  }
}

async function send(m: Message, settings: DeliverySettings): Promise<Attempt> {
  if (m.channel === "email") {
    const { mailer } = settings;
    const outcome = await mailer.send({ id: m.id, to: m.recipient, toName: m.recipientName, subject: m.subject ?? "", text: m.body, html: m.html });
    return { ...outcome, provider: mailer.name };
  }
  const { sms } = settings;
  try {
    const { providerReference } = await sms.send(smsOf(m, settings));
    return { result: "sent", provider: sms.name, reference: providerReference, words: "accepted by the SMS gateway" };
  } catch (error) {
    return { result: error instanceof SmsRefused ? "failed" : "retry", provider: sms.name, words: String((error as Error).message ?? error).slice(0, 500) };
  }
}

/**
 * Write an attempt's outcome: the message's state, its log line in the provider's words and its
 * event, together — only while the lease is still this attempt's (same attempt number, still
 * sending): a lease that ran out was taken over, and the later attempt writes its own.
 */
async function recordAttempt(db: Database, m: Message, outcome: Attempt, settings: DeliverySettings, at: Date): Promise<boolean> {
  const lastTry = m.attempts > settings.retryWaitsMs.length;
  const giveUp = outcome.result === "retry" && lastTry;
  const status: MessageStatus = outcome.result === "retry" ? (giveUp ? "failed" : "queued") : outcome.result;
  const reason = status === "bounced" || status === "failed" ? (giveUp ? `${outcome.words} (after ${m.attempts} attempts)` : outcome.words) : null;
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(messages)
      .set({
        status,
        statusReason: reason,
        leaseUntil: null,
        nextAttemptAt: status === "queued" ? new Date(at.getTime() + settings.retryWaitsMs[m.attempts - 1]!) : at,
        provider: outcome.provider,
        ...("reference" in outcome ? { providerReference: outcome.reference, sentAt: at } : {}),
        ...(status === "delivered" ? { deliveredAt: at } : {}),
      })
      .where(and(eq(messages.id, m.id), eq(messages.status, "sending"), eq(messages.attempts, m.attempts)))
      .returning();
    if (!updated) return false;
    const logged = outcome.result === "retry" && !giveUp ? "retry" : status;
    await tx.insert(messageEvents).values({ id: newId(), messageId: m.id, status: logged, detail: `attempt ${m.attempts}: ${outcome.words}`, at });
    await announce(tx, updated, status, reason, at);
    return true;
  });
}

/** A message whose every attempt was cut off before its outcome was written (crashes): failed like after the last attempt. */
async function abandon(db: Database, m: Message, at: Date) {
  const reason = `no outcome recorded after ${m.attempts - 1} attempts`;
  await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(messages)
      .set({ status: "failed", statusReason: reason, leaseUntil: null, nextAttemptAt: at })
      .where(and(eq(messages.id, m.id), eq(messages.status, "sending"), eq(messages.attempts, m.attempts)))
      .returning();
    if (!updated) return;
    await tx.insert(messageEvents).values({ id: newId(), messageId: m.id, status: "failed", detail: reason, at });
    await announce(tx, updated, "failed", reason, at);
  });
}

async function deliverOne(db: Database, m: Message, settings: DeliverySettings, now: Date, started: number) {
  const at = () => new Date(now.getTime() + Math.round(performance.now() - started));
  if (m.attempts > settings.retryWaitsMs.length + 1) return abandon(db, m, at());
  const outcome = await attempt(m, settings);
  if (outcome.result === "retry")
    log.info("message attempt failed: tried again later", { messageId: m.id, channel: m.channel, attempt: m.attempts, error: outcome.words });
  const recorded = await recordAttempt(db, m, outcome, settings, at());
  // The sandbox's reports arrive through the same verifying path as a real gateway's.
  if (recorded && m.channel === "sms" && outcome.result === "sent")
    for (const report of settings.sms.immediateCallbacks?.(smsOf(m, settings), outcome.reference) ?? [])
      await receiveSmsReport(db, settings.sms, report.body, report.signature, at());
}

/**
 * One pass of the delivery job: lease up to a batch of due messages and deliver them, at most
 * `concurrency` at once. Returns how many it handled (a full batch: the job runs again at once).
 */
export async function deliverDueMessages(db: Database, settings: DeliverySettings, now: Date): Promise<number> {
  const leased = await leaseDue(db, settings, now);
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < leased.length) await deliverOne(db, leased[next++]!, settings, now, started);
  };
  await Promise.all(Array.from({ length: Math.min(settings.concurrency, leased.length) }, worker));
  return leased.length;
}
