/**
 * The event types the service records (docs/webhooks.md shows their payloads). An endpoint's
 * `events` filter may name only these; events of a type added later reach endpoints without a filter.
 */
export const WEBHOOK_EVENT_TYPES = [
  "policy.pending",
  "policy.approved",
  "policy.declined",
  "policy.lapsed",
  "policy.cancelled",
  "policy.reinstated",
  "policy.renewed",
  "policy.renewal_failed",
  "policy.expiring",
  "policy.expired",
  "policy.endorsed",
  "policy.endorsement_declined",
  "wallet.credited",
  "wallet.funding_held",
  "wallet.funding_failed",
  "wallet.funding_expired",
  "claim.submitted",
  "claim.updated",
  "claim.due_soon",
  "claim.overdue",
  "claim.voucher_issued",
  "claim.payout_failed",
  "claim.payout_reversed",
  "financing.plan_created",
  "financing.installment_recorded",
  "financing.completed",
  "financing.lapsed",
  "financing.cancelled",
  "message.sent",
  "message.delivered",
  "message.bounced",
  "message.failed",
  "webhook.endpoint_disabled",
  "webhook.test",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
