/**
 * Webhook endpoints, the delivery log, replay and test events: the domain functions behind the
 * `webhook …` commands (and the portal). Delivery itself is the dispatcher's (dispatcher.ts).
 */

import { and, count, desc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Config } from "../../core/config";
import { CommandError } from "../../core/errors";
import { newId } from "../../core/ids";
import { encodeCursor, type Page } from "../../core/pagination";
import type { Database, Executor } from "../../db/client";
import { isUniqueViolation } from "../../db/errors";
import { afterCursor } from "../../db/keyset";
import { type AuditActor, recordAudit } from "../audit";
import { outboxEvents } from "../events";
import { announceEndpointEnabled, settleEndpointEnabled } from "./destinations";
import type { WebhookEventType } from "./event-types";
import type { registerInput, updateInput } from "./model";
import { type DeliveryStatus, webhookAttempts, webhookDefaultSecrets, webhookDeliveries, webhookEndpoints } from "./schema";
import { newSecret, ROTATION_OVERLAP_MS } from "./signing";
import { requirePublicUrl, type UrlRules } from "./ssrf";

export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./event-types";

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
export type WebhookAttempt = typeof webhookAttempts.$inferSelect;
export type DefaultSecret = typeof webhookDefaultSecrets.$inferSelect;

/** A delivery as the log shows it: with its event's type and every attempt, oldest first. */
export interface DeliveryRecord extends WebhookDelivery {
  eventType: string;
  attemptLog: WebhookAttempt[];
}

/** At most this many endpoints per partner (deleted ones do not count). */
const MAX_ENDPOINTS = 20;

export const urlRules = (config: Pick<Config, "WEBHOOK_ALLOW_PRIVATE">): UrlRules => ({ allowPrivate: config.WEBHOOK_ALLOW_PRIVATE === "true" });

// --- Endpoints ---------------------------------------------------------------------------------

const endpointNotFound = (endpointId: string) =>
  new CommandError(404, `no webhook endpoint ${endpointId} for this partner: see webhook list`, "seed.endpointId");

/** The partner's live (undeleted) endpoint, locked for the caller's transaction when `lock`. */
async function liveEndpoint(tx: Executor, partnerId: string, endpointId: string, lock = false): Promise<WebhookEndpoint> {
  const query = tx
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.partnerId, partnerId), isNull(webhookEndpoints.deletedAt)));
  const [endpoint] = lock ? await query.for("no key update") : await query;
  if (!endpoint) throw endpointNotFound(endpointId);
  return endpoint;
}

export async function findEndpoint(db: Executor, partnerId: string, endpointId: string): Promise<WebhookEndpoint> {
  return liveEndpoint(db, partnerId, endpointId);
}

/** The endpoint's signing secret, shown to a person: who looked is audited. */
export async function revealSecret(db: Executor, partnerId: string, endpointId: string, actor: AuditActor, now: Date): Promise<WebhookEndpoint> {
  const endpoint = await liveEndpoint(db, partnerId, endpointId);
  await recordAudit(db, actor, { action: "webhook.reveal_secret", subject: endpoint.url }, now);
  return endpoint;
}

async function urlTaken(db: Executor, partnerId: string, url: string): Promise<CommandError> {
  const [other] = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.partnerId, partnerId), eq(webhookEndpoints.url, url), isNull(webhookEndpoints.deletedAt)));
  return new CommandError(409, `seed.url is already registered as endpoint ${other?.id ?? "(another endpoint)"}: update that one instead`, "seed.url");
}

/** Fail the pending deliveries of an endpoint (deleted, disabled), in the caller's transaction. */
export async function failPendingDeliveries(tx: Executor, endpointId: string, reason: string, now: Date): Promise<number> {
  const failed = await tx
    .update(webhookDeliveries)
    .set({ status: "failed", nextAttemptAt: null, lastError: reason, updatedAt: now })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, "pending")))
    .returning({ id: webhookDeliveries.id });
  return failed.length;
}

/** `webhook register`: a new endpoint with a new secret (the answer is the only place the secret is shown). */
export async function registerEndpoint(
  db: Database,
  partnerId: string,
  input: z.output<typeof registerInput>,
  options: { rules: UrlRules; now: Date; actor?: AuditActor },
): Promise<WebhookEndpoint> {
  const url = (await requirePublicUrl(input.url, "seed.url", options.rules)).href;
  const [{ endpoints } = { endpoints: 0 }] = await db
    .select({ endpoints: count() })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.partnerId, partnerId), isNull(webhookEndpoints.deletedAt)));
  if (endpoints >= MAX_ENDPOINTS) throw new CommandError(409, `at most ${MAX_ENDPOINTS} webhook endpoints per partner: delete one with webhook delete first`);
  const endpoint: WebhookEndpoint = {
    id: newId(),
    partnerId,
    url,
    description: input.description ?? null,
    eventTypes: input.events ?? [],
    enabled: true,
    disabledReason: null,
    secret: newSecret(),
    previousSecret: null,
    previousSecretUntil: null,
    failingSince: null,
    deletedAt: null,
    createdAt: options.now,
    updatedAt: options.now,
  };
  let notice: string;
  try {
    notice = await db.transaction(async (tx) => {
      await tx.insert(webhookEndpoints).values(endpoint);
      if (options.actor) await recordAudit(tx, options.actor, { action: "webhook.register", subject: url }, options.now);
      return announceEndpointEnabled(tx, partnerId);
    });
  } catch (error) {
    if (isUniqueViolation(error, "webhook_endpoints_partner_url_idx")) throw await urlTaken(db, partnerId, url);
    throw error;
  }
  // Events from now on go through the fan-out, on every instance, before this answer.
  await settleEndpointEnabled(partnerId, notice);
  return endpoint;
}

/**
 * The endpoint registered under the request's URL, when it is this request's (its answer was lost):
 * the same events and description; null when there is none. Another endpoint at the URL is the
 * conflict `webhook register` refuses.
 */
export async function registeredEndpoint(db: Executor, partnerId: string, input: z.output<typeof registerInput>): Promise<WebhookEndpoint | null> {
  // Registration stores the URL as parsed; it got this far only with a URL that parses.
  const url = new URL(input.url).href;
  const [endpoint] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.partnerId, partnerId), eq(webhookEndpoints.url, url), isNull(webhookEndpoints.deletedAt)));
  if (!endpoint) return null;
  const sameEvents = JSON.stringify(endpoint.eventTypes) === JSON.stringify(input.events ?? []);
  if (!sameEvents || endpoint.description !== (input.description ?? null)) throw await urlTaken(db, partnerId, url);
  return endpoint;
}

/**
 * `webhook update`: change the URL, filter, description or state, or rotate the secret (the
 * previous one keeps signing for 24 hours). Disabling fails the endpoint's pending deliveries;
 * enabling clears a disabled reason and the failure run. A new URL takes the pending deliveries along.
 */
export async function updateEndpoint(
  db: Database,
  partnerId: string,
  input: z.output<typeof updateInput>,
  options: { rules: UrlRules; now: Date; actor?: AuditActor },
): Promise<{ endpoint: WebhookEndpoint; rotated: boolean }> {
  const { now, actor } = options;
  const url = input.url === undefined ? undefined : (await requirePublicUrl(input.url, "seed.url", options.rules)).href;
  try {
    const { notice, ...result } = await db.transaction(async (tx) => {
      const current = await liveEndpoint(tx, partnerId, input.endpointId, true);
      const changes: Partial<WebhookEndpoint> = { updatedAt: now };
      if (url !== undefined && url !== current.url) changes.url = url;
      if (input.events !== undefined) changes.eventTypes = input.events;
      if (input.description !== undefined) changes.description = input.description;
      if (input.enabled === true && !current.enabled) Object.assign(changes, { enabled: true, disabledReason: null, failingSince: null });
      if (input.enabled === false && current.enabled) Object.assign(changes, { enabled: false, disabledReason: null });
      if (input.rotateSecret)
        Object.assign(changes, { secret: newSecret(), previousSecret: current.secret, previousSecretUntil: new Date(now.getTime() + ROTATION_OVERLAP_MS) });
      const [endpoint] = await tx.update(webhookEndpoints).set(changes).where(eq(webhookEndpoints.id, current.id)).returning();
      if (changes.enabled === false) await failPendingDeliveries(tx, current.id, "endpoint disabled by the partner", now);
      if (changes.url) await movePendingDeliveries(tx, current.id, changes.url, now);
      if (actor) await auditUpdate(tx, actor, input, endpoint!, now);
      const notice = changes.enabled === true ? await announceEndpointEnabled(tx, partnerId) : null;
      return { endpoint: endpoint!, rotated: !!input.rotateSecret, notice };
    });
    if (notice) await settleEndpointEnabled(partnerId, notice);
    return result;
  } catch (error) {
    if (url && isUniqueViolation(error, "webhook_endpoints_partner_url_idx")) throw await urlTaken(db, partnerId, url);
    throw error;
  }
}

/** A settings change and a secret rotation are audited apart (the portal makes them with different buttons). */
async function auditUpdate(tx: Executor, actor: AuditActor, input: z.output<typeof updateInput>, endpoint: WebhookEndpoint, now: Date) {
  const { endpointId: _id, rotateSecret, ...settings } = input;
  if (Object.values(settings).some((value) => value !== undefined)) {
    const details = { enabled: endpoint.enabled, events: endpoint.eventTypes };
    await recordAudit(tx, actor, { action: "webhook.update", subject: endpoint.url, details }, now);
  }
  if (rotateSecret) await recordAudit(tx, actor, { action: "webhook.rotate_secret", subject: endpoint.url }, now);
}

/**
 * Send an endpoint's waiting deliveries to its new URL. One whose event already has a delivery to
 * that URL (the policy's own webHook, say) is failed as superseded: an event goes to a URL once.
 */
async function movePendingDeliveries(tx: Executor, endpointId: string, url: string, now: Date) {
  const d = webhookDeliveries;
  const alreadyThere = sql`exists (select 1 from ${webhookDeliveries} as other
    where other.event_id = ${d.eventId} and other.url = ${url} and other.replay_of is null)`;
  const pending = and(eq(d.endpointId, endpointId), eq(d.status, "pending"));
  await tx
    .update(d)
    .set({ status: "failed", nextAttemptAt: null, lastError: `superseded: the event already has a delivery to ${url}`, updatedAt: now })
    .where(and(pending, isNull(d.replayOf), alreadyThere));
  await tx.update(d).set({ url, updatedAt: now }).where(pending);
}

/** `webhook delete`: a soft delete (the delivery log stays readable); its pending deliveries fail. */
export async function deleteEndpoint(
  db: Database,
  partnerId: string,
  endpointId: string,
  now: Date,
  actor?: AuditActor,
): Promise<{ endpoint: WebhookEndpoint; failedDeliveries: number }> {
  return db.transaction(async (tx) => {
    const current = await liveEndpoint(tx, partnerId, endpointId, true);
    const [endpoint] = await tx
      .update(webhookEndpoints)
      .set({ deletedAt: now, enabled: false, updatedAt: now })
      .where(eq(webhookEndpoints.id, current.id))
      .returning();
    const failedDeliveries = await failPendingDeliveries(tx, current.id, "endpoint deleted", now);
    if (actor) await recordAudit(tx, actor, { action: "webhook.delete", subject: endpoint!.url }, now);
    return { endpoint: endpoint!, failedDeliveries };
  });
}

function pageOf<T extends { createdAt: Date; id: string }>(rows: T[], limit: number): Page<T> {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null };
}

/** `webhook list`: the partner's endpoints, newest first. */
export async function listEndpoints(db: Database, partnerId: string, page: { limit: number; cursor?: string }): Promise<Page<WebhookEndpoint>> {
  const e = webhookEndpoints;
  const rows = await db
    .select()
    .from(e)
    .where(and(eq(e.partnerId, partnerId), isNull(e.deletedAt), ...(page.cursor ? [afterCursor(e.createdAt, e.id, page.cursor)] : [])))
    .orderBy(desc(e.createdAt), desc(e.id))
    .limit(page.limit + 1);
  return pageOf(rows, page.limit);
}

// --- The delivery log, replay, test events ----------------------------------------------------

export interface DeliveryFilters {
  endpointId?: string;
  eventType?: WebhookEventType;
  status?: DeliveryStatus;
}

async function withAttempts(db: Executor, rows: { delivery: WebhookDelivery; eventType: string }[]): Promise<DeliveryRecord[]> {
  const ids = rows.map((r) => r.delivery.id);
  const attempts = ids.length
    ? await db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids)).orderBy(webhookAttempts.deliveryId, webhookAttempts.number)
    : [];
  return rows.map(({ delivery, eventType }) => ({ ...delivery, eventType, attemptLog: attempts.filter((a) => a.deliveryId === delivery.id) }));
}

/** `webhook deliveries`: the delivery log, newest first, each delivery with every attempt. */
export async function listDeliveries(
  db: Database,
  partnerId: string,
  filters: DeliveryFilters,
  page: { limit: number; cursor?: string },
): Promise<Page<DeliveryRecord>> {
  const d = webhookDeliveries;
  const conditions: SQL[] = [eq(d.partnerId, partnerId), ...(page.cursor ? [afterCursor(d.createdAt, d.id, page.cursor)] : [])];
  if (filters.endpointId) {
    // Deleted endpoints' logs stay readable; another partner's endpoint is not found.
    const [own] = await db
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, filters.endpointId), eq(webhookEndpoints.partnerId, partnerId)));
    if (!own) throw endpointNotFound(filters.endpointId);
    conditions.push(eq(d.endpointId, filters.endpointId));
  }
  if (filters.eventType) conditions.push(eq(outboxEvents.type, filters.eventType));
  if (filters.status) conditions.push(eq(d.status, filters.status));
  const rows = await db
    .select({ delivery: d, eventType: outboxEvents.type })
    .from(d)
    .innerJoin(outboxEvents, eq(outboxEvents.id, d.eventId))
    .where(and(...conditions))
    .orderBy(desc(d.createdAt), desc(d.id))
    .limit(page.limit + 1);
  const { items, nextCursor } = pageOf(
    rows.map((r) => ({ ...r, createdAt: r.delivery.createdAt, id: r.delivery.id })),
    page.limit,
  );
  return { items: await withAttempts(db, items), nextCursor };
}

async function findDelivery(db: Executor, partnerId: string, deliveryId: string): Promise<DeliveryRecord> {
  const rows = await db
    .select({ delivery: webhookDeliveries, eventType: outboxEvents.type })
    .from(webhookDeliveries)
    .innerJoin(outboxEvents, eq(outboxEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.partnerId, partnerId)));
  if (!rows.length) throw new CommandError(404, `no webhook delivery ${deliveryId} for this partner: see webhook deliveries`, "seed.deliveryId");
  return (await withAttempts(db, rows))[0]!;
}

/** A delivery due now, not yet attempted. */
export const newDelivery = (fields: Pick<WebhookDelivery, "partnerId" | "eventId" | "endpointId" | "url" | "replayOf">, now: Date): WebhookDelivery => ({
  id: newId(),
  ...fields,
  status: "pending",
  attempts: 0,
  nextAttemptAt: now,
  lastStatusCode: null,
  lastError: null,
  createdAt: now,
  updatedAt: now,
});

/**
 * `webhook replay`: a fresh delivery of the same event to the same destination, due now, with the
 * same webhook-id (the event id) so the receiver can recognise it. An endpoint's delivery goes to
 * the endpoint's current URL and secret; the endpoint must still exist and be enabled.
 */
export async function replayDelivery(db: Database, partnerId: string, deliveryId: string, now: Date, actor?: AuditActor): Promise<DeliveryRecord> {
  const original = await findDelivery(db, partnerId, deliveryId);
  let url = original.url;
  if (original.endpointId) {
    const [endpoint] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, original.endpointId));
    if (!endpoint || endpoint.deletedAt)
      throw new CommandError(409, `delivery ${deliveryId} went to endpoint ${original.endpointId}, which was deleted`, "seed.deliveryId");
    if (!endpoint.enabled)
      throw new CommandError(409, `endpoint ${endpoint.id} is disabled: enable it with webhook update (enabled: true) before replaying`, "seed.deliveryId");
    url = endpoint.url;
  }
  const replay = newDelivery({ partnerId, eventId: original.eventId, endpointId: original.endpointId, url, replayOf: original.id }, now);
  await db.transaction(async (tx) => {
    await tx.insert(webhookDeliveries).values(replay);
    if (actor) await recordAudit(tx, actor, { action: "webhook.replay", subject: url, details: { eventType: original.eventType } }, now);
  });
  return { ...replay, eventType: original.eventType, attemptLog: [] };
}

/** `webhook test`: a webhook.test event for this endpoint alone, delivered now; returns its delivery. */
export async function sendTestEvent(db: Database, partnerId: string, endpointId: string, now: Date): Promise<DeliveryRecord> {
  return db.transaction(async (tx) => {
    const endpoint = await liveEndpoint(tx, partnerId, endpointId);
    if (!endpoint.enabled)
      throw new CommandError(409, `endpoint ${endpoint.id} is disabled: enable it with webhook update (enabled: true) first`, "seed.endpointId");
    // Dispatched already: the fan-out must not send it to the partner's other endpoints.
    const event = {
      id: newId(),
      partnerId,
      type: "webhook.test",
      payload: { endpointId: endpoint.id, message: "A test event sent with webhook test." },
      targetUrl: null,
      createdAt: now,
      dispatchedAt: now,
    };
    await tx.insert(outboxEvents).values(event);
    const delivery = newDelivery({ partnerId, eventId: event.id, endpointId: endpoint.id, url: endpoint.url, replayOf: null }, now);
    await tx.insert(webhookDeliveries).values(delivery);
    return { ...delivery, eventType: event.type, attemptLog: [] };
  });
}

// --- The partner's default secret (signs addtnlFact.webHook deliveries) ----------------------

/** The partner's default secret, created on first need (by the dispatcher or `webhook secret`). */
export async function ensureDefaultSecret(tx: Executor, partnerId: string, now: Date): Promise<DefaultSecret> {
  await tx
    .insert(webhookDefaultSecrets)
    .values({ partnerId, secret: newSecret(), previousSecret: null, previousSecretUntil: null, createdAt: now, updatedAt: now })
    .onConflictDoNothing();
  const [secret] = await tx.select().from(webhookDefaultSecrets).where(eq(webhookDefaultSecrets.partnerId, partnerId));
  return secret!;
}

/**
 * `webhook secret`: the default secret that signs one-off addtnlFact.webHook deliveries; `rotate`
 * replaces it (the previous one keeps signing for 24 hours).
 */
export async function defaultSecret(db: Database, partnerId: string, options: { rotate: boolean; now: Date }): Promise<DefaultSecret> {
  return db.transaction(async (tx) => {
    const created = await ensureDefaultSecret(tx, partnerId, options.now);
    if (!options.rotate) return created;
    // Locked: two rotations at once must not both keep the same previous secret.
    const [current] = await tx.select().from(webhookDefaultSecrets).where(eq(webhookDefaultSecrets.partnerId, partnerId)).for("update");
    const [rotated] = await tx
      .update(webhookDefaultSecrets)
      .set({
        secret: newSecret(),
        previousSecret: current!.secret,
        previousSecretUntil: new Date(options.now.getTime() + ROTATION_OVERLAP_MS),
        updatedAt: options.now,
      })
      .where(eq(webhookDefaultSecrets.partnerId, partnerId))
      .returning();
    return rotated!;
  });
}
