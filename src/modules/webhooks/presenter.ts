import type { DeliveryView, EndpointRow } from "../../../views/webhooks/webhooks";
import type { CsvValue } from "../../core/csv";
import { watTimestamp } from "../../core/time";
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

export const DELIVERY_CSV_COLUMNS = [
  "Created (WAT)",
  "Event",
  "URL",
  "Status",
  "Attempts",
  "Last answer (HTTP status)",
  "Last error",
  "Last latency (ms)",
  "Next attempt (WAT)",
] as const;

export function deliveryCsvRow(d: DeliveryRecord): CsvValue[] {
  const last = d.attemptLog.at(-1);
  return [
    watTimestamp(d.createdAt),
    d.eventType,
    d.url,
    d.status,
    d.attemptLog.length,
    last?.responseStatus,
    last?.error,
    last?.latencyMs,
    d.status === "pending" && d.nextAttemptAt ? watTimestamp(d.nextAttemptAt) : null,
  ];
}
