/**
 * The webhook dispatcher: turns outbox events into deliveries (fan-out) and delivers them (Standard
 * Webhooks), at least once, with retries over about three days. Both jobs claim rows with
 * FOR UPDATE SKIP LOCKED, so any number of instances can run them together.
 */
import { and, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import type { Config } from "../../core/config";
import { newId } from "../../core/ids";
import { log } from "../../core/log";
import { watTimestamp } from "../../core/time";
import { storableText } from "../../core/validation";
import type { Database, Executor } from "../../db/client";
import { outboxEvents, recordEvent } from "../events";
import { webhookAttempts, webhookDefaultSecrets, webhookDeliveries, webhookEndpoints } from "./schema";
import { ensureDefaultSecret, failPendingDeliveries, newDelivery, type WebhookDelivery, type WebhookEndpoint } from "./service";
import { signatureHeader, signingSecrets } from "./signing";
import { checkUrlSyntax, isRefusal, pinnedRequest, type UrlRules, vetDestination } from "./ssrf";

/** Waits before the 2nd … 10th attempt (design.md), times WEBHOOK_RETRY_SCALE. */
export const RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000];
const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;
/** A receiver's Retry-After is honoured up to the longest step of the schedule. */
const MAX_RETRY_AFTER_MS = 86_400_000;
/** A lease outlasts the attempt's timeout by this much (the time to write the result). */
const LEASE_MARGIN_MS = 5_000;
const RESPONSE_SNIPPET_BYTES = 2048;
const USER_AGENT = "insurance-partner-service-webhooks/1.0";

export interface DeliverySettings extends UrlRules {
  timeoutMs: number;
  retryScale: number;
  disableAfterMs: number;
}

export const deliverySettings = (config: Config): DeliverySettings => ({
  allowPrivate: config.WEBHOOK_ALLOW_PRIVATE === "true",
  timeoutMs: config.WEBHOOK_TIMEOUT_MS,
  retryScale: config.WEBHOOK_RETRY_SCALE,
  disableAfterMs: config.WEBHOOK_DISABLE_AFTER_MS,
});

// --- Fan-out -----------------------------------------------------------------------------------

const wantsEvent = (endpoint: WebhookEndpoint, type: string) => endpoint.eventTypes.length === 0 || endpoint.eventTypes.includes(type);

/**
 * Claim undispatched outbox events and create their deliveries: one per enabled endpoint of the
 * event's partner whose filter matches, plus the event's one-off URL (addtnlFact.webHook), then
 * mark the events dispatched — one transaction, so an event is fanned out exactly once.
 */
export async function dispatchOutboxEvents(db: Database, now: Date, options: { batch?: number } = {}): Promise<number> {
  return db.transaction(async (tx) => {
    const events = await tx
      .select()
      .from(outboxEvents)
      .where(isNull(outboxEvents.dispatchedAt))
      .orderBy(outboxEvents.createdAt)
      .limit(options.batch ?? 100)
      .for("update", { skipLocked: true });
    if (!events.length) return 0;
    const partnerIds = [...new Set(events.map((e) => e.partnerId))];
    const endpoints = await tx
      .select()
      .from(webhookEndpoints)
      .where(and(inArray(webhookEndpoints.partnerId, partnerIds), eq(webhookEndpoints.enabled, true), isNull(webhookEndpoints.deletedAt)));
    const deliveries: WebhookDelivery[] = [];
    const delivery = (event: (typeof events)[number], endpointId: string | null, url: string): WebhookDelivery =>
      newDelivery({ partnerId: event.partnerId, eventId: event.id, endpointId, url, replayOf: null }, now);
    const withDefaultSecret = new Set<string>();
    for (const event of events) {
      const targets = endpoints.filter((e) => e.partnerId === event.partnerId && wantsEvent(e, event.type));
      for (const endpoint of targets) deliveries.push(delivery(event, endpoint.id, endpoint.url));
      // A one-off URL that is also a registered endpoint gets the event once, from the endpoint.
      if (event.targetUrl && !targets.some((e) => e.url === event.targetUrl)) {
        // Made before the first delivery that needs it, so the delivery job always finds one.
        if (!withDefaultSecret.has(event.partnerId)) await ensureDefaultSecret(tx, event.partnerId, now);
        withDefaultSecret.add(event.partnerId);
        deliveries.push(delivery(event, null, event.targetUrl));
      }
    }
    // The unique index on (event, url) makes a repeated fan-out of an event harmless.
    if (deliveries.length) await tx.insert(webhookDeliveries).values(deliveries).onConflictDoNothing();
    await tx
      .update(outboxEvents)
      .set({ dispatchedAt: now })
      .where(
        inArray(
          outboxEvents.id,
          events.map((e) => e.id),
        ),
      );
    return events.length;
  });
}

// --- Delivery ----------------------------------------------------------------------------------

interface LeasedDelivery {
  delivery: WebhookDelivery;
  event: typeof outboxEvents.$inferSelect;
  /** The secrets that sign it (current, and previous during a rotation). */
  secrets: string[];
}

/**
 * Claim due deliveries and lease them: their next attempt moves past the timeout and the attempt
 * number is taken, then the transaction commits, so no other instance attempts them meanwhile and
 * a crashed instance's deliveries come back when the lease runs out. Deliveries whose endpoint was
 * deleted or disabled in the meantime, or whose attempts ran out, fail here without an attempt.
 */
async function leaseDueDeliveries(db: Database, settings: DeliverySettings, now: Date, batch: number): Promise<{ leased: LeasedDelivery[]; handled: number }> {
  return db.transaction(async (tx) => {
    const d = webhookDeliveries;
    const due = await tx
      .select({ id: d.id })
      .from(d)
      .where(and(eq(d.status, "pending"), lte(d.nextAttemptAt, now)))
      .orderBy(d.nextAttemptAt)
      .limit(batch)
      .for("update", { skipLocked: true });
    if (!due.length) return { leased: [], handled: 0 };
    const claimed = await tx
      .update(d)
      .set({ attempts: sql`${d.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + settings.timeoutMs + LEASE_MARGIN_MS), updatedAt: now })
      .where(
        inArray(
          d.id,
          due.map((r) => r.id),
        ),
      )
      .returning();
    const events = await tx
      .select()
      .from(outboxEvents)
      .where(inArray(outboxEvents.id, [...new Set(claimed.map((c) => c.eventId))]));
    const endpointIds = [...new Set(claimed.flatMap((c) => (c.endpointId ? [c.endpointId] : [])))];
    const endpoints = endpointIds.length ? await tx.select().from(webhookEndpoints).where(inArray(webhookEndpoints.id, endpointIds)) : [];
    const oneOffPartners = [...new Set(claimed.filter((c) => !c.endpointId).map((c) => c.partnerId))];
    const defaults = oneOffPartners.length ? await tx.select().from(webhookDefaultSecrets).where(inArray(webhookDefaultSecrets.partnerId, oneOffPartners)) : [];

    const leased: LeasedDelivery[] = [];
    const gone: { id: string; reason: string }[] = [];
    for (const delivery of claimed) {
      const event = events.find((e) => e.id === delivery.eventId)!;
      // Every attempt so far was cut off before its outcome was written (crashes): give up like after ten failures.
      if (delivery.attempts > MAX_ATTEMPTS) gone.push({ id: delivery.id, reason: `no outcome recorded after ${MAX_ATTEMPTS} attempts` });
      else if (delivery.endpointId) {
        const endpoint = endpoints.find((e) => e.id === delivery.endpointId)!;
        if (endpoint.deletedAt || !endpoint.enabled) gone.push({ id: delivery.id, reason: endpoint.deletedAt ? "endpoint deleted" : "endpoint disabled" });
        else leased.push({ delivery, event, secrets: signingSecrets(endpoint, now) });
      } else {
        leased.push({ delivery, event, secrets: signingSecrets(defaults.find((s) => s.partnerId === delivery.partnerId)!, now) });
      }
    }
    for (const { id, reason } of gone) await tx.update(d).set({ status: "failed", nextAttemptAt: null, lastError: reason, updatedAt: now }).where(eq(d.id, id));
    return { leased, handled: claimed.length };
  });
}

/** What one attempt sent and got back. */
interface AttemptOutcome {
  url: string;
  headers: Record<string, string>;
  body: string;
  status: number | null;
  responseBody: string | null;
  error: string | null;
  latencyMs: number;
  retryAfterMs: number | null;
  /** The URL is refused by the SSRF guard: no request was sent and none will be. */
  refused: boolean;
}

/** The opening of the receiver's answer, as text the delivery log can hold whatever bytes it sent (a NUL included). */
async function readSnippet(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < RESPONSE_SNIPPET_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  await reader.cancel().catch(() => {});
  return storableText(new TextDecoder().decode(Buffer.concat(chunks).subarray(0, RESPONSE_SNIPPET_BYTES)));
}

/** Retry-After in seconds or as an HTTP date, in milliseconds from `now`; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - now;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : null;
}

/** The Standard Webhooks body: { type, timestamp, data }. */
const webhookBody = (event: LeasedDelivery["event"]) => JSON.stringify({ type: event.type, timestamp: event.createdAt.toISOString(), data: event.payload });

/** One POST, outside any transaction, bounded by the timeout from DNS to the response's first 2 KB. */
async function attempt({ delivery, event, secrets }: LeasedDelivery, settings: DeliverySettings): Promise<AttemptOutcome> {
  const body = webhookBody(event);
  // The real send time: receivers refuse a webhook-timestamp more than 5 minutes off their clock.
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    "content-type": "application/json",
    "user-agent": USER_AGENT,
    "webhook-id": event.id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signatureHeader(secrets, event.id, timestamp, body),
  };
  const outcome: AttemptOutcome = {
    url: delivery.url,
    headers,
    body,
    status: null,
    responseBody: null,
    error: null,
    latencyMs: 0,
    retryAfterMs: null,
    refused: false,
  };
  const field = delivery.endpointId ? "the endpoint's url" : "addtnlFact.webHook";
  const started = performance.now();
  const signal = AbortSignal.timeout(settings.timeoutMs);
  try {
    const url = checkUrlSyntax(delivery.url, field);
    const destination = isRefusal(url) ? url : await vetDestination(url, field, settings, signal);
    if (isRefusal(destination)) return { ...outcome, error: `not sent: ${destination.message}`, refused: destination.permanent };
    const { target, host, serverName } = pinnedRequest(destination);
    const response = await fetch(target, {
      method: "POST",
      headers: { ...headers, host },
      body,
      redirect: "manual",
      signal,
      ...(serverName ? { tls: { serverName } } : {}),
    });
    outcome.status = response.status;
    outcome.responseBody = await readSnippet(response);
    outcome.retryAfterMs = retryAfterMs(response.headers.get("retry-after"), Date.now());
    if (response.status >= 300 && response.status < 400)
      outcome.error = `redirect to ${response.headers.get("location") ?? "(no Location header)"} not followed`;
  } catch (error) {
    outcome.error = signal.aborted ? `timed out after ${settings.timeoutMs} ms` : (error as Error).message.slice(0, 500);
  } finally {
    outcome.latencyMs = Math.round(performance.now() - started);
  }
  return outcome;
}

const succeeded = (o: AttemptOutcome) => o.status !== null && o.status >= 200 && o.status < 300;

/**
 * Disable an endpoint the service gave up on: its pending deliveries fail and a
 * webhook.endpoint_disabled event goes to the partner's other endpoints.
 */
async function disableEndpoint(tx: Executor, endpoint: WebhookEndpoint, reason: string, at: Date) {
  const [disabled] = await tx
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: reason, updatedAt: at })
    .where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.enabled, true)))
    .returning();
  if (!disabled) return;
  await failPendingDeliveries(tx, endpoint.id, `endpoint disabled: ${reason}`, at);
  await recordEvent(
    tx,
    {
      partnerId: endpoint.partnerId,
      type: "webhook.endpoint_disabled",
      payload: {
        endpointId: endpoint.id,
        url: endpoint.url,
        reason,
        ...(endpoint.failingSince ? { failingSince: watTimestamp(endpoint.failingSince) } : {}),
        disabledAt: watTimestamp(at),
      },
    },
    at,
  );
}

/**
 * Write an attempt and what follows from it: success, a retry on the schedule (or later, when
 * Retry-After asks), or failure; the endpoint's failure run, and disabling on 410 Gone or after
 * WEBHOOK_DISABLE_AFTER_MS without a success. The endpoint row is locked first, as everything that
 * touches an endpoint's deliveries does, so two results for one endpoint never deadlock.
 */
async function recordOutcome(db: Database, { delivery }: LeasedDelivery, outcome: AttemptOutcome, settings: DeliverySettings, at: Date) {
  const number = delivery.attempts;
  const ok = succeeded(outcome);
  const gone = outcome.status === 410;
  const lastTry = number >= MAX_ATTEMPTS || gone || outcome.refused;
  const scheduled = (RETRY_SCHEDULE_MS[number - 1] ?? 0) * settings.retryScale;
  const wait = Math.max(scheduled, outcome.retryAfterMs ?? 0);
  const lastError = outcome.error ?? (ok ? null : `answered HTTP ${outcome.status}`);
  await db.transaction(async (tx) => {
    const [endpoint] = delivery.endpointId
      ? await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, delivery.endpointId)).for("no key update")
      : [];
    // A one-off URL's 410 fails its other deliveries: serialise those per URL, as the endpoint lock does for endpoints.
    if (!delivery.endpointId && gone) await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${delivery.url}))`);
    await tx.insert(webhookAttempts).values({
      id: newId(),
      deliveryId: delivery.id,
      number,
      url: outcome.url,
      requestHeaders: JSON.stringify(outcome.headers),
      requestBody: outcome.body,
      responseStatus: outcome.status,
      responseBody: outcome.responseBody,
      error: outcome.error,
      latencyMs: outcome.latencyMs,
      createdAt: at,
    });
    // Only while the lease is ours (same attempt number, still pending): a lease that ran out was taken over.
    await tx
      .update(webhookDeliveries)
      .set({
        status: ok ? "succeeded" : lastTry ? "failed" : "pending",
        nextAttemptAt: ok || lastTry ? null : new Date(at.getTime() + wait),
        lastStatusCode: outcome.status,
        lastError,
        updatedAt: at,
      })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.status, "pending"), eq(webhookDeliveries.attempts, number)));
    if (!endpoint) {
      if (gone) await failPendingOneOffs(tx, delivery, at);
      return;
    }
    if (endpoint.deletedAt || !endpoint.enabled) return;
    if (ok) {
      if (endpoint.failingSince) await tx.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, endpoint.id));
      return;
    }
    const failingSince = endpoint.failingSince ?? at;
    if (!endpoint.failingSince) await tx.update(webhookEndpoints).set({ failingSince }).where(eq(webhookEndpoints.id, endpoint.id));
    if (gone) await disableEndpoint(tx, { ...endpoint, failingSince }, `the endpoint answered 410 Gone on ${watTimestamp(at)}`, at);
    else if (at.getTime() - failingSince.getTime() >= settings.disableAfterMs) {
      const hours = Math.round((at.getTime() - failingSince.getTime()) / 3_600_000);
      await disableEndpoint(
        tx,
        { ...endpoint, failingSince },
        `no successful delivery since ${watTimestamp(failingSince)} (${hours} h); last error: ${lastError}`,
        at,
      );
    }
  });
}

/** A one-off URL that answered 410 Gone: its other waiting deliveries fail too. */
async function failPendingOneOffs(tx: Executor, delivery: WebhookDelivery, at: Date) {
  const d = webhookDeliveries;
  await tx
    .update(d)
    .set({ status: "failed", nextAttemptAt: null, lastError: `${delivery.url} answered 410 Gone`, updatedAt: at })
    .where(and(eq(d.partnerId, delivery.partnerId), isNull(d.endpointId), eq(d.url, delivery.url), eq(d.status, "pending")));
}

/**
 * The delivery job: lease a batch of due deliveries, attempt them concurrently, record each
 * outcome. Returns how many deliveries it handled.
 */
export async function deliverDueWebhooks(db: Database, settings: DeliverySettings, now: Date, options: { batch?: number } = {}): Promise<number> {
  const { leased, handled } = await leaseDueDeliveries(db, settings, now, options.batch ?? 20);
  const started = performance.now();
  const results = await Promise.allSettled(
    leased.map(async (item) => {
      const outcome = await attempt(item, settings);
      // Schedule from when the attempt ended, on the job's clock.
      await recordOutcome(db, item, outcome, settings, new Date(now.getTime() + Math.round(performance.now() - started)));
      if (!succeeded(outcome))
        // Also counted by /metrics (webhook delivery failures). No URL: a partner's may carry a token in its query.
        log.info("webhook attempt failed", {
          deliveryId: item.delivery.id,
          endpointId: item.delivery.endpointId,
          eventType: item.event.type,
          attempt: item.delivery.attempts,
          reason: outcome.refused ? "refused" : outcome.status === null ? "error" : "status",
          status: outcome.status,
          error: outcome.error,
        });
    }),
  );
  const failure = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failure) throw failure.reason;
  return handled;
}
