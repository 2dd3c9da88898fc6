/**
 * The delivery of the outbox (docs/messages.md): a pass leases the messages that are due, sends
 * them a few at once, and writes each outcome with its log line and its event in one transaction.
 * Leasing takes the rows FOR UPDATE SKIP LOCKED, so instances share the queue and never send one
 * message at the same time; a process that dies mid-attempt leaves its messages leased, and they
 * are taken again when the lease runs out (at least once: the Message-ID says it is the same one).
 */
import { and, inArray, lte, sql } from "drizzle-orm";
import type { Config } from "../../core/config";
import { newId } from "../../core/ids";
import { log } from "../../core/log";
import type { Database } from "../../db/client";
import { resultRows } from "../../db/results";
import { recordEvents } from "../events";
import { announcementOf } from "./announce";
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

/** What an attempt (or giving up without one) writes: the message's new state, its log line, and when. */
interface Outcome {
  m: Message;
  status: MessageStatus;
  reason: string | null;
  /** The log line's status: the message's, or `retry`. */
  logged: string;
  detail: string;
  nextAttemptAt: Date;
  provider: string | null;
  reference: string | null;
  at: Date;
}

/** An attempt's outcome: a retry on the schedule, `failed` after the last attempt, or what the provider answered. */
function outcomeOf(m: Message, attempted: Attempt, settings: DeliverySettings, at: Date): Outcome {
  const giveUp = attempted.result === "retry" && m.attempts > settings.retryWaitsMs.length;
  const status: MessageStatus = attempted.result === "retry" ? (giveUp ? "failed" : "queued") : attempted.result;
  return {
    m,
    status,
    reason: status === "bounced" || status === "failed" ? (giveUp ? `${attempted.words} (after ${m.attempts} attempts)` : attempted.words) : null,
    logged: attempted.result === "retry" && !giveUp ? "retry" : status,
    detail: `attempt ${m.attempts}: ${attempted.words}`,
    nextAttemptAt: status === "queued" ? new Date(at.getTime() + settings.retryWaitsMs[m.attempts - 1]!) : at,
    provider: attempted.provider,
    reference: "reference" in attempted ? attempted.reference : null,
    at,
  };
}

/** A message whose every attempt was cut off before its outcome was written (crashes): failed like after the last attempt, without another. */
function abandoned(m: Message, at: Date): Outcome {
  const reason = `no outcome recorded after ${m.attempts - 1} attempts`;
  return { m, status: "failed", reason, logged: "failed", detail: reason, nextAttemptAt: at, provider: m.provider, reference: null, at };
}

/**
 * Write outcomes, each with its message's state, its log line in the provider's words and its event,
 * in one transaction — and each only while the lease is still that attempt's (same attempt number,
 * still sending): a lease that ran out was taken over, and the later attempt writes its own. One
 * statement for all the messages, one for their log lines, one for their events. Returns the
 * outcomes written.
 */
async function recordOutcomes(db: Database, outcomes: Outcome[]): Promise<Outcome[]> {
  const rows = outcomes.map((o) => ({
    id: o.m.id,
    attempts: o.m.attempts,
    status: o.status,
    reason: o.reason,
    next: o.nextAttemptAt.toISOString(),
    provider: o.provider,
    reference: o.reference,
    sent: o.reference ? o.at.toISOString() : null,
    delivered: o.status === "delivered" ? o.at.toISOString() : null,
  }));
  return db.transaction(async (tx) => {
    const written = new Set(
      resultRows<{ id: string }>(
        await tx.execute(sql`update ${messages} m set
            status = v.status, status_reason = v.reason, lease_until = null, next_attempt_at = v.next, provider = v.provider,
            provider_reference = coalesce(v.reference, m.provider_reference), sent_at = coalesce(v.sent, m.sent_at),
            delivered_at = coalesce(v.delivered, m.delivered_at)
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id uuid, attempts int, status text, reason text, next timestamptz,
            provider text, reference text, sent timestamptz, delivered timestamptz)
          where m.id = v.id and m.status = 'sending' and m.attempts = v.attempts
          returning m.id`),
      ).map((r) => r.id),
    );
    const recorded = outcomes.filter((o) => written.has(o.m.id));
    if (!recorded.length) return [];
    await tx.insert(messageEvents).values(recorded.map((o) => ({ id: newId(), messageId: o.m.id, status: o.logged, detail: o.detail, at: o.at })));
    const events = recorded.flatMap((o) => announcementOf(o.m, o.status, o.reason) ?? []);
    await recordEvents(tx, events, recorded.at(-1)!.at);
    return recorded;
  });
}

/**
 * Outcomes written as they come, in groups: while one group is being written, the outcomes that
 * finish meanwhile wait and are written together next — one transaction for many messages when the
 * database is the slower side, one per message when it keeps up.
 */
function outcomeWriter(db: Database, settings: DeliverySettings) {
  let waiting: Outcome[] = [];
  let writing: Promise<void> | null = null;
  let failure: unknown = null;
  const writeAll = async () => {
    try {
      while (waiting.length) {
        const group = waiting;
        waiting = [];
        // The sandbox's reports arrive through the same verifying path as a real gateway's.
        for (const o of await recordOutcomes(db, group))
          if (o.m.channel === "sms" && o.status === "sent" && o.reference)
            for (const report of settings.sms.immediateCallbacks?.(smsOf(o.m, settings), o.reference) ?? [])
              await receiveSmsReport(db, settings.sms, report.body, report.signature, o.at);
      }
    } catch (error) {
      failure = error;
    } finally {
      writing = null;
    }
  };
  return {
    add(outcome: Outcome) {
      waiting.push(outcome);
      writing ??= writeAll();
    },
    /** Every outcome added is written (or the first failure thrown). */
    async finished() {
      while (writing) await writing;
      if (failure) throw failure;
    },
  };
}

/**
 * One pass of the delivery job: lease up to a batch of due messages and deliver them, at most
 * `concurrency` at once, their outcomes written as they come. Returns how many it handled (a full
 * batch: the job runs again at once).
 */
export async function deliverDueMessages(db: Database, settings: DeliverySettings, now: Date): Promise<number> {
  const leased = await leaseDue(db, settings, now);
  const started = performance.now();
  const at = () => new Date(now.getTime() + Math.round(performance.now() - started));
  const writer = outcomeWriter(db, settings);
  let next = 0;
  const worker = async () => {
    while (next < leased.length) {
      const m = leased[next++]!;
      if (m.attempts > settings.retryWaitsMs.length + 1) {
        writer.add(abandoned(m, at()));
        continue;
      }
      const attempted = await attempt(m, settings);
      if (attempted.result === "retry")
        log.info("message attempt failed: tried again later", { messageId: m.id, channel: m.channel, attempt: m.attempts, error: attempted.words });
      writer.add(outcomeOf(m, attempted, settings, at()));
    }
  };
  await Promise.all(Array.from({ length: Math.min(settings.concurrency, leased.length) }, worker));
  await writer.finished();
  return leased.length;
}
