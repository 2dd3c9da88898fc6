import { sql } from "drizzle-orm";
import { type AnyPgColumn, boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { outboxEvents } from "../events";
import { partnerOwned, partners } from "../partners";

/**
 * A partner's webhook endpoint (Standard Webhooks). The secret must be readable to sign with, so it
 * is stored as issued; during a rotation the previous one keeps signing until previousSecretUntil.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    ...partnerOwned(),
    url: text("url").notNull(),
    description: text("description"),
    /** Event types delivered here; empty: every type. */
    eventTypes: text("event_types").array().notNull(),
    enabled: boolean("enabled").notNull(),
    /** Why it was disabled by the service (persistent failure, 410 Gone); null when disabled by the partner or enabled. */
    disabledReason: text("disabled_reason"),
    secret: text("secret").notNull(),
    previousSecret: text("previous_secret"),
    previousSecretUntil: timestamp("previous_secret_until", { withTimezone: true }),
    /** Start of the current run of failed attempts; null after a success. */
    failingSince: timestamp("failing_since", { withTimezone: true }),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("webhook_endpoints_partner_created_idx").on(t.partnerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // One live endpoint per URL and partner: an event goes to a URL once (see the deliveries' unique index).
    uniqueIndex("webhook_endpoints_partner_url_idx").on(t.partnerId, t.url).where(sql`${t.deletedAt} is null`),
  ],
);

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event to one destination: a registered endpoint, or the one-off addtnlFact.webHook URL of
 * a policy (endpointId null, signed with the partner's default secret).
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    ...partnerOwned(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => outboxEvents.id),
    endpointId: uuid("endpoint_id").references(() => webhookEndpoints.id),
    url: text("url").notNull(),
    /** The delivery this one replays (webhook replay); null for the dispatcher's own. */
    replayOf: uuid("replay_of").references((): AnyPgColumn => webhookDeliveries.id),
    /** pending: to be (re)tried at nextAttemptAt; succeeded; failed: retries exhausted or the endpoint gone. */
    status: text("status", { enum: DELIVERY_STATUSES }).notNull(),
    attempts: integer("attempts").notNull(),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    // The fan-out creates one delivery per event and URL, so a re-run of it is harmless; replays are extra.
    uniqueIndex("webhook_deliveries_event_destination_idx").on(t.eventId, t.url).where(sql`${t.replayOf} is null`),
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_partner_created_idx").on(t.partnerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("webhook_deliveries_endpoint_created_idx").on(t.endpointId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

/** The delivery log: every attempt with what was sent and what came back. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: uuid("id").primaryKey(),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id),
    number: integer("number").notNull(),
    /** Where this attempt went (an endpoint's URL may change while its deliveries wait). */
    url: text("url").notNull(),
    requestHeaders: text("request_headers").notNull(),
    requestBody: text("request_body").notNull(),
    responseStatus: integer("response_status"),
    /** The first 2 KB of the response body. */
    responseBody: text("response_body"),
    error: text("error"),
    latencyMs: integer("latency_ms").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.number)],
);

/** The partner's default secret: signs one-off addtnlFact.webHook deliveries. */
export const webhookDefaultSecrets = pgTable("webhook_default_secrets", {
  partnerId: uuid("partner_id")
    .primaryKey()
    .references(() => partners.id),
  secret: text("secret").notNull(),
  /** During a rotation the previous secret keeps signing until previousSecretUntil. */
  previousSecret: text("previous_secret"),
  previousSecretUntil: timestamp("previous_secret_until", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
});
