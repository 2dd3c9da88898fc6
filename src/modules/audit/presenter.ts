import type { AuditRow } from "../../../views/admin/admin";
import { dateTime, naira, POLICY_STATUS_TEXT } from "../../../views/format";
import type { CsvValue } from "../../core/csv";
import { watTimestamp } from "../../core/time";
import { productName } from "../../products";
import { CANCELLATION_REASON_TEXT } from "../../products/cancellation";
import type { AuditRecord } from "./service";

/** Each audited action in words (the stored names are for queries and exports). */
const ACTION_TEXT: Record<string, string> = {
  "account.mode": "Account mode switched",
  "claim.review": "Claim reviewed",
  "claim.submit": "Claim submitted",
  "claim.withdraw": "Claim withdrawn",
  "commission.rate_remove": "Commission rate removed",
  "commission.rate_set": "Commission rate set",
  "financing.create": "Premium financed",
  "financing.record_installment": "Instalment recorded",
  "financing.run_lapse": "Unpaid plans lapsed",
  "funding.confirm": "Bank transfer confirmed",
  "funding.confirm_approved": "Bank transfer confirmation approved",
  "funding.confirm_rejected": "Bank transfer confirmation rejected",
  "funding.confirm_requested": "Bank transfer confirmed, waiting for a second approval",
  "funding.held_credit": "Held top-up credited",
  "funding.held_credit_approved": "Held top-up credit approved",
  "funding.held_credit_rejected": "Held top-up credit rejected",
  "funding.held_credit_requested": "Held top-up credit asked, waiting for a second approval",
  "funding.held_reject": "Held top-up rejected",
  "funding.start": "Live top-up requested",
  "key.revoke": "API key revoked",
  "key.rotate": "API key rotated",
  "partner.create": "Partner created",
  "partner.enrichment_off": "Vehicle checks switched off",
  "partner.enrichment_on": "Vehicle checks switched on",
  "partner.reinstate": "Partner reinstated",
  "partner.suspend": "Partner suspended",
  "policy.approve": "Policy approved",
  "policy.auto_renew": "Automatic renewal set",
  "policy.cancel": "Policy cancelled",
  "policy.endorse": "Policy changed",
  "policy.endorsement_approve": "Policy change approved",
  "policy.endorsement_decline": "Policy change declined",
  "policy.reinstate": "Policy reinstated",
  "policy.decline": "Policy declined",
  "policy.issue": "Policy issued",
  "user.deactivate": "Staff member deactivated",
  "user.invite": "Staff member invited",
  "user.password_change": "Password changed",
  "user.reactivate": "Staff member reactivated",
  "vehicle.check": "Vehicle checked",
  "vehicle.vin_decode": "VIN decoded",
  "wallet.topup": "Wallet topped up",
  "webhook.delete": "Webhook endpoint deleted",
  "webhook.register": "Webhook endpoint registered",
  "webhook.replay": "Webhook delivery replayed",
  "webhook.reveal_secret": "Webhook secret revealed",
  "webhook.rotate_secret": "Webhook secret rotated",
  "webhook.update": "Webhook endpoint changed",
};

/** The label of each detail an audit row keeps. */
const DETAIL_LABEL: Record<string, string> = {
  amountKobo: "Amount",
  approvedKobo: "Approved",
  asOf: "As of",
  bankReference: "Bank reference",
  balanceAfterKobo: "Balance after",
  claimedKobo: "Claimed",
  count: "Plans lapsed",
  decoded: "Decoded",
  documents: "Documents",
  effectiveDate: "Effective from",
  feeKobo: "Fee kept",
  gapFrom: "No cover from",
  gapTo: "No cover until",
  owedKobo: "Paid back",
  reason: "Reason",
  refundKobo: "Refund",
  refundTakenBackKobo: "Refund taken back",
  enabled: "Enabled",
  eventType: "Event",
  events: "Events",
  excessKobo: "Excess",
  financedKobo: "Financed",
  frequency: "Frequency",
  from: "From",
  fromCache: "From the cache",
  installments: "Instalments",
  label: "Key",
  mode: "Mode",
  note: "Note",
  outcome: "Outcome",
  outstandingAfterKobo: "Outstanding after",
  payableKobo: "Payable",
  plans: "Plan numbers",
  policy: "Policy",
  policyNo: "Policy number",
  productCode: "Product",
  provider: "Payment provider",
  receivedKobo: "Received",
  reference: "Reference",
  status: "Status",
  statusNote: "Note",
  to: "To",
};

/** A detail's value in words: kobo as naira, yes/no, lists, a policy's status letter. */
function detailText(action: string, key: string, value: unknown): string {
  if (key.endsWith("Kobo") && typeof value === "number") return naira(value);
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value)) return value.length ? value.join(", ") : "none";
  if (key === "productCode" && typeof value === "string") return productName(value);
  if (key === "status" && action.startsWith("policy.")) return POLICY_STATUS_TEXT[String(value)] ?? String(value);
  if (key === "status" && typeof value === "string") return value.replaceAll("_", " ");
  if (key === "reason" && typeof value === "string" && value in CANCELLATION_REASON_TEXT)
    return CANCELLATION_REASON_TEXT[value as keyof typeof CANCELLATION_REASON_TEXT].text;
  if ((key === "gapFrom" || key === "gapTo") && typeof value === "string") return dateTime(new Date(value));
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** "Amount: ₦100,000.00 · Balance after: ₦150,000.00"; details without a value are left out. */
export function auditDetailsText(action: string, details: Record<string, unknown>): string {
  return Object.entries(details)
    .filter(([, value]) => value !== null && value !== undefined && value !== "")
    .map(([key, value]) => `${DETAIL_LABEL[key] ?? key}: ${detailText(action, key, value)}`)
    .join(" · ");
}

/** An entry as the log shows it: the partner by name, the action and its details in words. */
export const auditRow =
  (partnerNames: Map<string, string>) =>
  (entry: AuditRecord): AuditRow => ({
    at: entry.at,
    actor: entry.actor,
    partnerName: entry.partnerId ? (partnerNames.get(entry.partnerId) ?? "") : "",
    action: ACTION_TEXT[entry.action] ?? entry.action,
    subject: entry.subject,
    details: auditDetailsText(entry.action, entry.details),
  });

export const AUDIT_CSV_COLUMNS = ["When (WAT)", "Who", "Account", "Action", "Subject", "Details"] as const;

export const auditCsvRow = (row: AuditRow): CsvValue[] => [watTimestamp(row.at), row.actor, row.partnerName, row.action, row.subject, row.details];
