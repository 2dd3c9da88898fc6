import type { DeliveryView, EndpointRow } from "../../../views/webhooks/webhooks";
import type { DeliveryRecord, WebhookEndpoint } from "./service";

export const endpointRow = (e: WebhookEndpoint): EndpointRow => ({
  id: e.id,
  url: e.url,
  description: e.description,
  events: e.eventTypes,
  enabled: e.enabled,
  disabledReason: e.disabledReason,
  failingSince: e.failingSince,
  createdAt: e.createdAt,
});

/** A pending delivery shows when it is next tried; a settled one does not. */
export const deliveryView = (d: DeliveryRecord): DeliveryView => ({
  id: d.id,
  eventType: d.eventType,
  url: d.url,
  status: d.status,
  nextAttemptAt: d.status === "pending" ? d.nextAttemptAt : null,
  createdAt: d.createdAt,
  attempts: d.attemptLog.map((a) => ({
    number: a.number,
    at: a.createdAt,
    url: a.url,
    requestHeaders: a.requestHeaders,
    requestBody: a.requestBody,
    responseStatus: a.responseStatus,
    responseBody: a.responseBody,
    error: a.error,
    latencyMs: a.latencyMs,
  })),
});

/** The settings form filled with the endpoint's current values. */
export const endpointValues = (e: WebhookEndpoint) => ({ url: e.url, description: e.description ?? "", enabled: e.enabled ? "on" : "" });
