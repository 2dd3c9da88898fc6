import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { partnerOwned } from "../partners";

export const MESSAGE_CHANNELS = ["email", "sms"] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

/**
 * Where a message stands (docs/messages.md): queued (waiting for its next attempt), sending (an
 * attempt holds its lease), sent (the relay or gateway took it), delivered (the gateway's report,
 * or the embedded mailbox kept it), bounced (refused for good by the receiving side), failed (every
 * attempt used, or refused by the provider), suppressed (not sent: the recipient opted out of this
 * kind, or the partner sends it themselves).
 */
export const MESSAGE_STATUSES = ["queued", "sending", "sent", "delivered", "bounced", "failed", "suppressed"] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * The outbox of messages: every e-mail and SMS the service sends, written in the transaction of the
 * change it announces, delivered by the background loop with retries (delivery.ts). A message's
 * `dedupeKey` makes queueing it idempotent: the same key is queued once, whoever asks how often.
 */
export const messages = pgTable(
  "messages",
  {
    ...partnerOwned(),
    channel: text("channel", { enum: MESSAGE_CHANNELS }).notNull(),
    /** What it says, as a template key: policy.issued, claim.approved, staff.invitation, staff.password_reset … */
    kind: text("kind").notNull(),
    /** The recipient: an e-mail address (lower-cased) or a phone number (+234…). */
    recipient: text("recipient").notNull(),
    /** The recipient's name, when known (the To: header's display name). */
    recipientName: text("recipient_name"),
    /** The consumer it is for, when it is for one (their page lists it, their preferences apply). */
    consumerId: uuid("consumer_id"),
    /** What it is about, for its page's link: "policy:<id>", "claim:<id>", "complaint:<id>", "user:<id>". */
    about: text("about"),
    /** E-mail only: the subject line. */
    subject: text("subject"),
    /** The plain text (an SMS's whole text; an e-mail's text part). */
    body: text("body").notNull(),
    /** E-mail only: the HTML part. */
    html: text("html"),
    /** The language it was written in: en, pcm (Nigerian Pidgin). */
    language: text("language").notNull().default("en"),
    /** Unique: the same key is queued once (e.g. "<event id>:email"). */
    dedupeKey: text("dedupe_key").notNull(),
    status: text("status", { enum: MESSAGE_STATUSES }).notNull().default("queued"),
    /** Why it was suppressed, failed or bounced, in the provider's words where it gave them. */
    statusReason: text("status_reason"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull(),
    /** While an attempt runs: until when it holds the message (another worker takes it after). */
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    /** Which provider took it (smtp, embedded, the SMS gateway's name) and its id for it (Message-ID, the gateway's message id). */
    provider: text("provider"),
    providerReference: text("provider_reference"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("messages_dedupe_idx").on(t.dedupeKey),
    // The delivery job's queue: only what still waits.
    index("messages_due_idx").on(t.nextAttemptAt).where(sql`${t.status} in ('queued', 'sending')`),
    index("messages_partner_created_idx").on(t.partnerId, t.createdAt.desc()),
    index("messages_created_idx").on(t.createdAt.desc()),
    index("messages_consumer_idx").on(t.consumerId, t.createdAt.desc()).where(sql`${t.consumerId} is not null`),
    index("messages_provider_reference_idx").on(t.provider, t.providerReference).where(sql`${t.providerReference} is not null`),
  ],
);

/** A message's delivery log: every attempt and every report, in the provider's words. */
export const messageEvents = pgTable(
  "message_events",
  {
    id: uuid("id").primaryKey(),
    messageId: uuid("message_id")
      .notNull()
      .references(() => messages.id),
    /** queued, sent, delivered, bounced, failed, suppressed, retry (an attempt that will be tried again), report (a gateway's report that settled nothing). */
    status: text("status").notNull(),
    detail: text("detail"),
    at: timestamp("at", { withTimezone: true }).notNull(),
  },
  (t) => [index("message_events_message_idx").on(t.messageId, t.at)],
);
