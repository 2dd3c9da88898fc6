/** The messages suites' helpers: queue a message for a partner, run delivery passes until nothing is due, read a message, its log and its events. */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Config } from "../../src/core/config";
import type { Database } from "../../src/db/client";
import { outboxEvents } from "../../src/modules/events";
import { messageEvents, messages, type OutgoingMessage, queueMessage } from "../../src/modules/messages";
import { type DeliverySettings, deliverDueMessages, deliverySettings } from "../../src/modules/messages/delivery";
import { mailerFor } from "../../src/modules/messages/mailer";
import { smsProvider } from "../../src/modules/messages/sms-providers";

/** Delivery as one instance runs it: its own mailer (its own SMTP connections) on the configuration's relay or the embedded mailbox. */
export const instance = (config: Config): DeliverySettings => deliverySettings(config, mailerFor(config), smsProvider(config));

let counter = 0;

/** An e-mail (or, with channel "sms", a text) of the partner's, queued now; its id. */
export async function queue(db: Database, partnerId: string, message: Partial<OutgoingMessage> = {}, now = new Date()): Promise<string> {
  counter += 1;
  const sms = message.channel === "sms";
  const id = await db.transaction((tx) =>
    queueMessage(
      tx,
      {
        partnerId,
        channel: "email",
        kind: "policy.issued",
        recipient: sms ? "+2348030000000" : `holder-${counter}-${crypto.randomUUID().slice(0, 8)}@customers.example`,
        body: "Dear customer,\n\nYour policy POL-1 is in force.\n",
        ...(sms ? {} : { subject: "Your policy is ready", html: "<p>Dear customer,</p><p>Your policy <strong>POL-1</strong> is in force.</p>" }),
        dedupeKey: `test:${crypto.randomUUID()}`,
        ...message,
      },
      now,
    ),
  );
  return id!;
}

/** Delivery passes at `now` until one finds nothing due; how many messages they handled. */
export async function deliverAll(db: Database, settings: DeliverySettings, now = new Date()): Promise<number> {
  let handled = 0;
  for (let n = await deliverDueMessages(db, settings, now); n > 0; n = await deliverDueMessages(db, settings, now)) handled += n;
  return handled;
}

export async function messageOf(db: Database, id: string) {
  const [m] = await db.select().from(messages).where(eq(messages.id, id));
  return m!;
}

/** A message's log: [status, detail] in order. */
export async function logOf(db: Database, id: string) {
  const lines = await db.select().from(messageEvents).where(eq(messageEvents.messageId, id)).orderBy(asc(messageEvents.at), asc(messageEvents.id));
  return lines.map((l) => [l.status, l.detail ?? ""] as const);
}

/** The message.* events of a message, oldest first. */
export async function eventsOf(db: Database, partnerId: string, messageId: string) {
  const rows = await db
    .select()
    .from(outboxEvents)
    .where(and(eq(outboxEvents.partnerId, partnerId), sql`${outboxEvents.type} like 'message.%'`, sql`${outboxEvents.payload}->>'messageId' = ${messageId}`))
    .orderBy(asc(outboxEvents.createdAt), asc(outboxEvents.id));
  return rows.map((r) => ({ type: r.type, payload: r.payload }));
}
