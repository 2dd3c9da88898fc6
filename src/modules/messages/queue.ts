import { inArray, sql } from "drizzle-orm";
import { newId } from "../../core/ids";
import type { Executor } from "../../db/client";
import { type MessageChannel, messageEvents, messages } from "./schema";

/** A message to send: written in the caller's transaction, so it exists exactly when the change it announces does. */
export interface OutgoingMessage {
  partnerId: string;
  channel: MessageChannel;
  kind: string;
  /** An e-mail address or a phone number in +234… form. */
  recipient: string;
  recipientName?: string | null;
  consumerId?: string | null;
  about?: string | null;
  /** E-mail only. */
  subject?: string | null;
  body: string;
  html?: string | null;
  language?: string;
  /** The same key is queued once, however often it is asked for (e.g. "<event id>:email"). */
  dedupeKey: string;
  /** Kept but never sent, and why (the recipient opted out of reminders; the partner sends this one themselves). */
  suppressed?: string | null;
  /** Not before (e.g. a reminder's hour); now when absent. */
  notBefore?: Date;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+[1-9][0-9]{7,14}$/;

/** Whether a recipient can be written to on this channel (an e-mail address; a phone in international form). */
export const reachable = (channel: MessageChannel, recipient: string) => (channel === "email" ? EMAIL.test(recipient) : PHONE.test(recipient));

/**
 * Queue messages in the caller's transaction (the outbox of messages, docs/messages.md): the ones whose
 * dedupe key is already queued are left as they are. Returns the ids of the messages it wrote.
 */
export async function queueMessages(tx: Executor, outgoing: readonly OutgoingMessage[], now: Date): Promise<string[]> {
  const rows = outgoing.map((m) => ({
    id: newId(),
    partnerId: m.partnerId,
    channel: m.channel,
    kind: m.kind,
    recipient: m.channel === "email" ? m.recipient.trim().toLowerCase() : m.recipient.trim(),
    recipientName: m.recipientName ?? null,
    consumerId: m.consumerId ?? null,
    about: m.about ?? null,
    subject: m.subject ?? null,
    body: m.body,
    html: m.html ?? null,
    language: m.language ?? "en",
    dedupeKey: m.dedupeKey,
    status: m.suppressed ? ("suppressed" as const) : ("queued" as const),
    statusReason: m.suppressed ?? null,
    nextAttemptAt: m.notBefore ?? now,
    createdAt: now,
  }));
  for (const row of rows)
    if (!reachable(row.channel, row.recipient))
      throw new Error(`message ${row.kind}: ${row.recipient} is not a ${row.channel === "email" ? "e-mail address" : "phone number"}`);
  if (!rows.length) return [];
  const written = await tx
    .insert(messages)
    .values(rows)
    .onConflictDoNothing({ target: messages.dedupeKey })
    .returning({ id: messages.id, status: messages.status, statusReason: messages.statusReason });
  if (written.length)
    await tx.insert(messageEvents).values(written.map((m) => ({ id: newId(), messageId: m.id, status: m.status, detail: m.statusReason, at: now })));
  return written.map((m) => m.id);
}

/** Queue one message in the caller's transaction; its id, or null when its dedupe key was queued before. */
export const queueMessage = async (tx: Executor, message: OutgoingMessage, now: Date): Promise<string | null> =>
  (await queueMessages(tx, [message], now))[0] ?? null;

/** How many messages wait to be sent (the health of the outbox, for /metrics and the Messages page). */
export async function waitingMessages(db: Executor): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(messages)
    .where(inArray(messages.status, ["queued", "sending"]));
  return Number(row?.n ?? 0);
}
