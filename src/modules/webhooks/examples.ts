/**
 * The examples of the webhooks commands (CommandExample, src/http/registry.ts): the requests and answers
 * of /docs and /openapi.json, which test/reference.test.ts sends to the app. The refusals they show
 * are declared here too, and listed in their commands' errors.
 */
import { type CommandExample, refusal } from "../../http/registry";

export const ENDPOINT_UNKNOWN = refusal(404, "no webhook endpoint <endpointId> for this partner: see webhook list");
export const NOT_HTTP = refusal(400, "seed.url must be an http(s) URL<, not the scheme sent>");

const decisions = { url: "{{webhookUrl}}", events: ["policy.approved", "policy.declined"], description: "Policy decisions" };
const registered = {
  endpointId: "{{webhook.endpointId}}",
  url: "{{webhookUrl}}",
  events: decisions.events,
  description: decisions.description,
  enabled: true,
  tmstmp: "{{webhook.tmstmp}}",
};
const testDelivery = {
  deliveryId: "{{webhook-test.deliveryId}}",
  eventId: "{{webhook-test.eventId}}",
  eventType: "webhook.test",
  endpointId: "{{webhook.endpointId}}",
  url: "{{webhookUrl}}",
  status: "pending",
  nextAttemptAt: "{{webhook-test.tmstmp}}",
  attempts: [],
  tmstmp: "{{webhook-test.tmstmp}}",
  updated: "{{webhook-test.tmstmp}}",
};

/** webhook register */
export const webhookRegisterExamples: readonly CommandExample[] = [
  {
    name: "webhook",
    title: "An endpoint for policy decisions",
    cmmnd: "webhook register",
    seed: decisions,
    answer: { ...decisions, endpointId: "{{uuid}}", enabled: true, tmstmp: "{{timestamp}}", updated: "{{timestamp}}", secret: "{{secret}}" },
  },
  {
    name: "webhook-not-http",
    title: "A URL that is not http(s)",
    cmmnd: "webhook register",
    seed: { url: "ftp://files.example.ng/hooks" },
    refusal: NOT_HTTP,
  },
];

/** webhook update */
export const webhookUpdateExamples: readonly CommandExample[] = [
  {
    name: "webhook-rotate",
    title: "Rotate the endpoint's secret: the previous one signs for 24 more hours",
    cmmnd: "webhook update",
    seed: { endpointId: "{{webhook.endpointId}}", rotateSecret: true },
    answer: { ...registered, previousSecretUntil: "{{timestamp}}", updated: "{{timestamp}}", secret: "{{secret}}" },
  },
  {
    name: "webhook-unknown",
    title: "An endpoint id this partner does not have",
    cmmnd: "webhook update",
    seed: { endpointId: "0190a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b", enabled: false },
    refusal: ENDPOINT_UNKNOWN,
  },
];

/** webhook delete */
export const webhookDeleteExamples: readonly CommandExample[] = [
  {
    name: "webhook-delete",
    title: "Delete the endpoint while its test delivery is pending",
    cmmnd: "webhook delete",
    seed: { endpointId: "{{webhook.endpointId}}" },
    after: ["webhook-test"],
    answer: { endpointId: "{{webhook.endpointId}}", deleted: true, failedDeliveries: 1, tmstmp: "{{timestamp}}" },
  },
];

/** webhook list */
export const webhookListExamples: readonly CommandExample[] = [
  {
    name: "webhooks",
    title: "The endpoints registered",
    cmmnd: "webhook list",
    after: ["webhook"],
    answer: { list: [{ ...registered, updated: "{{webhook.updated}}" }], nextCursor: null },
  },
];

/** webhook deliveries */
export const webhookDeliveriesExamples: readonly CommandExample[] = [
  {
    name: "webhook-deliveries",
    title: "The deliveries of webhook.test events: here one, not yet attempted",
    cmmnd: "webhook deliveries",
    seed: { eventType: "webhook.test" },
    after: ["webhook-test"],
    answer: { list: [testDelivery], nextCursor: null },
  },
];

/** webhook replay */
export const webhookReplayExamples: readonly CommandExample[] = [
  {
    name: "webhook-replay",
    title: "Send the test event again",
    cmmnd: "webhook replay",
    seed: { deliveryId: "{{webhook-test.deliveryId}}" },
    answer: {
      ...testDelivery,
      deliveryId: "{{uuid}}",
      replayOf: "{{webhook-test.deliveryId}}",
      nextAttemptAt: "{{timestamp}}",
      tmstmp: "{{timestamp}}",
      updated: "{{timestamp}}",
    },
  },
];

/** webhook test */
export const webhookTestExamples: readonly CommandExample[] = [
  {
    name: "webhook-test",
    title: "A test event to the endpoint, due at once",
    cmmnd: "webhook test",
    seed: { endpointId: "{{webhook.endpointId}}" },
    answer: {
      ...testDelivery,
      deliveryId: "{{uuid}}",
      eventId: "{{uuid}}",
      nextAttemptAt: "{{timestamp}}",
      tmstmp: "{{timestamp}}",
      updated: "{{timestamp}}",
    },
  },
];

/** webhook secret */
export const webhookSecretExamples: readonly CommandExample[] = [
  {
    name: "webhook-secret",
    title: "The default secret, made on first request",
    cmmnd: "webhook secret",
    answer: { secret: "{{secret}}", tmstmp: "{{timestamp}}", updated: "{{timestamp}}" },
  },
];
