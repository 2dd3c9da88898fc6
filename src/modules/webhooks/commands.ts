import { z } from "zod";
import { pageSeed } from "../../core/pagination";
import { watTimestamp } from "../../core/time";
import { BAD_CURSOR, page, UNKNOWN_FIELD, wireTimestamp } from "../../http/answers";
import { type CommandContext, command, refusal } from "../../http/registry";
import { keyActor } from "../audit";
import {
  ENDPOINT_UNKNOWN,
  NOT_HTTP,
  webhookDeleteExamples,
  webhookDeliveriesExamples,
  webhookListExamples,
  webhookRegisterExamples,
  webhookReplayExamples,
  webhookSecretExamples,
  webhookTestExamples,
  webhookUpdateExamples,
} from "./examples";
import { defaultSecretInput, deliveriesInput, endpointInput, registerInput, replayInput, updateInput } from "./model";
import { DELIVERY_STATUSES } from "./schema";
import {
  type DeliveryRecord,
  defaultSecret,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  registerEndpoint,
  registeredEndpoint,
  replayDelivery,
  sendTestEvent,
  updateEndpoint,
  urlRules,
  WEBHOOK_EVENT_TYPES,
  type WebhookAttempt,
  type WebhookEndpoint,
  type WebhookEventType,
} from "./service";

const eventType = z.enum(WEBHOOK_EVENT_TYPES);
const secret = z.string().meta({ description: "The whsec_ signing secret: shown only here; verify deliveries with it" });

const endpointAnswer = z.object({
  endpointId: z.uuid(),
  url: z.string(),
  events: z.array(eventType).meta({ description: "The event types delivered; empty: every type" }),
  description: z.string().optional(),
  enabled: z.boolean(),
  disabledReason: z.string().optional(),
  failingSince: wireTimestamp.optional().meta({ description: "Deliveries have failed since then (the endpoint is disabled after five days of it)" }),
  previousSecretUntil: wireTimestamp.optional().meta({ description: "After a rotation: the previous secret also signs until then" }),
  tmstmp: wireTimestamp,
  updated: wireTimestamp,
});

const deliveryAnswer = z.object({
  deliveryId: z.uuid(),
  eventId: z.uuid().meta({ description: "Also the webhook-id header, the same for a replay" }),
  eventType,
  endpointId: z.uuid().optional().meta({ description: "Absent for a policy's one-off addtnlFact.webHook" }),
  url: z.string(),
  replayOf: z.uuid().optional(),
  status: z.enum(DELIVERY_STATUSES),
  nextAttemptAt: wireTimestamp.optional(),
  lastStatus: z.int().optional().meta({ description: "HTTP status of the last attempt" }),
  lastError: z.string().optional(),
  attempts: z.array(
    z.object({
      number: z.int(),
      url: z.string(),
      tmstmp: wireTimestamp,
      request: z.object({ headers: z.record(z.string(), z.string()), body: z.string() }),
      response: z.object({ status: z.int(), body: z.string().meta({ description: "The first 2 KB" }) }).optional(),
      latencyMs: z.number(),
      error: z.string().optional(),
    }),
  ),
  tmstmp: wireTimestamp,
  updated: wireTimestamp,
});

/** An endpoint as every answer shows it; the secret only where it was just made. */
function wireEndpoint(e: WebhookEndpoint, now: Date) {
  return {
    endpointId: e.id,
    url: e.url,
    // Stored as registerInput validated them.
    events: e.eventTypes as WebhookEventType[],
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
    eventType: d.eventType as WebhookEventType,
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

// ─── The reference: refusals no example shows (examples.ts has the examples and the refusals they show) ───

const PRIVATE_URL = refusal(400, "seed.url must not point to a private or loopback address (<why>)", "SSRF protection");

export const webhookCommands = [
  command({
    grammar: "webhook register",
    pattern: /^webhook register$/,
    who: "partner",
    seed: registerInput,
    summary: "Register a webhook endpoint (URL, event types, description); the answer shows its whsec_ secret, once.",
    answer: endpointAnswer.extend({ secret }),
    errors: [
      NOT_HTTP,
      PRIVATE_URL,
      refusal(409, "seed.url is already registered as endpoint <endpointId>: update that one instead"),
      refusal(409, "at most 20 webhook endpoints per partner: delete one with webhook delete first"),
      UNKNOWN_FIELD,
    ],
    examples: webhookRegisterExamples,
    async handler(ctx, _params, seed) {
      const now = ctx.now();
      const endpoint = await registerEndpoint(ctx.db, partnerOf(ctx), seed, { rules: urlRules(ctx.config), now, actor: keyActor(ctx.principal) });
      return { ...wireEndpoint(endpoint, now), secret: endpoint.secret };
    },
    async recover(ctx, _params, seed) {
      const endpoint = await registeredEndpoint(ctx.db, partnerOf(ctx), seed);
      // The secret is shown once: this is that once, since the partner never had the first answer.
      return endpoint && { ...wireEndpoint(endpoint, ctx.now()), secret: endpoint.secret };
    },
  }),
  command({
    grammar: "webhook update",
    pattern: /^webhook update$/,
    who: "partner",
    seed: updateInput,
    summary: "Change an endpoint's URL, events, description or enabled state, or rotate its secret (both sign for 24 h).",
    answer: endpointAnswer.extend({ secret: secret.optional() }),
    errors: [ENDPOINT_UNKNOWN, NOT_HTTP, PRIVATE_URL],
    examples: webhookUpdateExamples,
    async handler(ctx, _params, seed) {
      const now = ctx.now();
      const { endpoint, rotated } = await updateEndpoint(ctx.db, partnerOf(ctx), seed, { rules: urlRules(ctx.config), now, actor: keyActor(ctx.principal) });
      return { ...wireEndpoint(endpoint, now), ...(rotated ? { secret: endpoint.secret } : {}) };
    },
  }),
  command({
    grammar: "webhook delete",
    pattern: /^webhook delete$/,
    who: "partner",
    seed: endpointInput,
    summary: "Delete a webhook endpoint; its pending deliveries fail, its delivery log stays readable.",
    answer: z.object({
      endpointId: z.uuid(),
      deleted: z.literal(true),
      failedDeliveries: z.int().meta({ description: "Pending deliveries that will not be sent" }),
      tmstmp: wireTimestamp,
    }),
    errors: [ENDPOINT_UNKNOWN],
    examples: webhookDeleteExamples,
    async handler(ctx, _params, seed) {
      const now = ctx.now();
      const { endpoint, failedDeliveries } = await deleteEndpoint(ctx.db, partnerOf(ctx), seed.endpointId, now, keyActor(ctx.principal));
      return { endpointId: endpoint.id, deleted: true as const, failedDeliveries, tmstmp: watTimestamp(now) };
    },
  }),
  command({
    grammar: "webhook list",
    pattern: /^webhook list$/,
    who: "partner",
    seed: pageSeed,
    summary: "List this partner's webhook endpoints (without secrets), newest first.",
    answer: page(endpointAnswer),
    errors: [BAD_CURSOR],
    examples: webhookListExamples,
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
    answer: page(deliveryAnswer),
    errors: [BAD_CURSOR],
    examples: webhookDeliveriesExamples,
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
    answer: deliveryAnswer,
    errors: [
      refusal(404, "no webhook delivery <deliveryId> for this partner: see webhook deliveries"),
      refusal(409, "endpoint <endpointId> is disabled: enable it with webhook update (enabled: true) before replaying"),
      refusal(409, "delivery <deliveryId> went to endpoint <endpointId>, which was deleted"),
    ],
    examples: webhookReplayExamples,
    handler: async (ctx, _params, seed) => wireDelivery(await replayDelivery(ctx.db, partnerOf(ctx), seed.deliveryId, ctx.now(), keyActor(ctx.principal))),
  }),
  command({
    grammar: "webhook test",
    pattern: /^webhook test$/,
    who: "partner",
    seed: endpointInput,
    summary: "Send a webhook.test event to one endpoint; answers its delivery (follow it with webhook deliveries).",
    answer: deliveryAnswer,
    errors: [ENDPOINT_UNKNOWN, refusal(409, "endpoint <endpointId> is disabled: enable it with webhook update (enabled: true) first")],
    examples: webhookTestExamples,
    handler: async (ctx, _params, seed) => wireDelivery(await sendTestEvent(ctx.db, partnerOf(ctx), seed.endpointId, ctx.now())),
  }),
  command({
    grammar: "webhook secret",
    pattern: /^webhook secret$/,
    who: "partner",
    seed: defaultSecretInput,
    summary: "The default secret that signs addtnlFact.webHook deliveries; { rotate: true } replaces it (both sign for 24 h).",
    answer: z.object({ secret, previousSecretUntil: wireTimestamp.optional(), tmstmp: wireTimestamp, updated: wireTimestamp }),
    errors: [UNKNOWN_FIELD],
    examples: webhookSecretExamples,
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
