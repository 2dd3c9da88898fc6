import { pageSeed } from "../../core/pagination";
import { command, type CommandContext } from "../../core/registry";
import { watTimestamp } from "../../core/time";
import {
  defaultSecret,
  defaultSecretInput,
  deleteEndpoint,
  deliveriesInput,
  endpointInput,
  listDeliveries,
  listEndpoints,
  registerEndpoint,
  registerInput,
  replayDelivery,
  replayInput,
  sendTestEvent,
  updateEndpoint,
  updateInput,
  urlRules,
  type DeliveryRecord,
  type WebhookAttempt,
  type WebhookEndpoint,
} from "./service";

/** An endpoint as every answer shows it; the secret only where it was just made. */
function wireEndpoint(e: WebhookEndpoint, now: Date) {
  return {
    endpointId: e.id,
    url: e.url,
    events: e.eventTypes,
    ...(e.description ? { description: e.description } : {}),
    enabled: e.enabled,
    ...(e.disabledReason ? { disabledReason: e.disabledReason } : {}),
    ...(e.failingSince ? { failingSince: watTimestamp(e.failingSince) } : {}),
    ...(e.previousSecretUntil && e.previousSecretUntil > now ? { previousSecretUntil: watTimestamp(e.previousSecretUntil) } : {}),
    tmstmp: watTimestamp(e.createdAt),
    updated: watTimestamp(e.updatedAt),
  };
}

function wireAttempt(a: WebhookAttempt) {
  return {
    number: a.number,
    url: a.url,
    tmstmp: watTimestamp(a.createdAt),
    request: { headers: JSON.parse(a.requestHeaders) as Record<string, string>, body: a.requestBody },
    ...(a.responseStatus !== null ? { response: { status: a.responseStatus, body: a.responseBody ?? "" } } : {}),
    latencyMs: a.latencyMs,
    ...(a.error ? { error: a.error } : {}),
  };
}

function wireDelivery(d: DeliveryRecord) {
  return {
    deliveryId: d.id,
    eventId: d.eventId,
    eventType: d.eventType,
    ...(d.endpointId ? { endpointId: d.endpointId } : {}),
    url: d.url,
    ...(d.replayOf ? { replayOf: d.replayOf } : {}),
    status: d.status,
    ...(d.status === "pending" && d.nextAttemptAt ? { nextAttemptAt: watTimestamp(d.nextAttemptAt) } : {}),
    ...(d.lastStatusCode !== null ? { lastStatus: d.lastStatusCode } : {}),
    ...(d.lastError ? { lastError: d.lastError } : {}),
    attempts: d.attemptLog.map(wireAttempt),
    tmstmp: watTimestamp(d.createdAt),
    updated: watTimestamp(d.updatedAt),
  };
}

const partnerOf = (ctx: CommandContext) => ctx.principal.partnerId;

export const webhookCommands = [
  command({
    grammar: "webhook register",
    pattern: /^webhook register$/,
    who: "partner",
    seed: registerInput,
    summary: "Register a webhook endpoint (URL, event types, description); the answer shows its whsec_ secret, once.",
    async handler(ctx, _params, seed) {
      const now = ctx.now();
      const endpoint = await registerEndpoint(ctx.db, partnerOf(ctx), seed, { rules: urlRules(ctx.config), now });
      return { ...wireEndpoint(endpoint, now), secret: endpoint.secret };
    },
  }),
  command({
    grammar: "webhook update",
    pattern: /^webhook update$/,
    who: "partner",
    seed: updateInput,
    summary: "Change an endpoint's URL, events, description or enabled state, or rotate its secret (both sign for 24 h).",
    async handler(ctx, _params, seed) {
      const now = ctx.now();
      const { endpoint, rotated } = await updateEndpoint(ctx.db, partnerOf(ctx), seed, { rules: urlRules(ctx.config), now });
      return { ...wireEndpoint(endpoint, now), ...(rotated ? { secret: endpoint.secret } : {}) };
    },
  }),
  command({
    grammar: "webhook delete",
    pattern: /^webhook delete$/,
    who: "partner",
    seed: endpointInput,
    summary: "Delete a webhook endpoint; its pending deliveries fail, its delivery log stays readable.",
    async handler(ctx, _params, seed) {
      const now = ctx.now();
      const { endpoint, failedDeliveries } = await deleteEndpoint(ctx.db, partnerOf(ctx), seed.endpointId, now);
      return { endpointId: endpoint.id, deleted: true, failedDeliveries, tmstmp: watTimestamp(now) };
    },
  }),
  command({
    grammar: "webhook list",
    pattern: /^webhook list$/,
    who: "partner",
    seed: pageSeed,
    summary: "List this partner's webhook endpoints (without secrets), newest first.",
    async handler(ctx, _params, seed) {
      const now = ctx.now();
      const page = await listEndpoints(ctx.db, partnerOf(ctx), seed);
      return { list: page.items.map((e) => wireEndpoint(e, now)), nextCursor: page.nextCursor };
    },
  }),
  command({
    grammar: "webhook deliveries",
    pattern: /^webhook deliveries$/,
    who: "partner",
    seed: deliveriesInput,
    summary: "The webhook delivery log, newest first, each delivery with every attempt (request, response, latency, error).",
    async handler(ctx, _params, seed) {
      const { limit, cursor, ...filters } = seed;
      const page = await listDeliveries(ctx.db, partnerOf(ctx), filters, { limit, cursor });
      return { list: page.items.map(wireDelivery), nextCursor: page.nextCursor };
    },
  }),
  command({
    grammar: "webhook replay",
    pattern: /^webhook replay$/,
    who: "partner",
    seed: replayInput,
    summary: "Deliver a delivery's event again, now, to the same destination with the same webhook-id.",
    handler: async (ctx, _params, seed) => wireDelivery(await replayDelivery(ctx.db, partnerOf(ctx), seed.deliveryId, ctx.now())),
  }),
  command({
    grammar: "webhook test",
    pattern: /^webhook test$/,
    who: "partner",
    seed: endpointInput,
    summary: "Send a webhook.test event to one endpoint; answers its delivery (follow it with webhook deliveries).",
    handler: async (ctx, _params, seed) => wireDelivery(await sendTestEvent(ctx.db, partnerOf(ctx), seed.endpointId, ctx.now())),
  }),
  command({
    grammar: "webhook secret",
    pattern: /^webhook secret$/,
    who: "partner",
    seed: defaultSecretInput,
    summary: "The default secret that signs addtnlFact.webHook deliveries; { rotate: true } replaces it (both sign for 24 h).",
    async handler(ctx, _params, seed) {
      const now = ctx.now();
      const secret = await defaultSecret(ctx.db, partnerOf(ctx), { rotate: !!seed.rotate, now });
      return {
        secret: secret.secret,
        ...(secret.previousSecretUntil && secret.previousSecretUntil > now ? { previousSecretUntil: watTimestamp(secret.previousSecretUntil) } : {}),
        tmstmp: watTimestamp(secret.createdAt),
        updated: watTimestamp(secret.updatedAt),
      };
    },
  }),
];
