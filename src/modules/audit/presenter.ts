import { z } from "zod";
import type { AuditRow } from "../../../views/admin/admin";
import { dateTime, day, naira, POLICY_STATUS_TEXT } from "../../../views/format";
import type { CsvValue } from "../../core/csv";
import { normaliseUuid } from "../../core/ids";
import { withDayFilter } from "../../core/pagination";
import { DAY_MS, watTimestamp } from "../../core/time";
import { parseWith, storableText } from "../../core/validation";
import { fieldLabel } from "../../portal/words";
import { allProductCodes, productName } from "../../products";
import { CANCELLATION_REASON_TEXT } from "../../products/cancellation";
import { watMidnight } from "../../products/policy-helpers";
import type { AuditFilters, AuditRecord } from "./service";

/** Each audited action in words (the stored names are for queries and exports). */
const ACTION_TEXT: Record<string, string> = {
  "account.finance_contact": "Finance contact set",
  "account.mode": "Account mode switched",
  "admin.claim_authority": "Administrator's authority over claims changed",
  "admin.deactivate": "Administrator deactivated",
  "admin.invite": "Administrator invited",
  "admin.invitation_resend": "Administrator's invitation sent again",
  "admin.reactivate": "Administrator reactivated",
  "claim.assess": "Claim assessed",
  "claim.payee": "Account to pay a claim into given",
  "claim.payee_confirm": "Claim's account confirmed as the insured's",
  "claim.payout_resend": "Claim payout sent again",
  "claim.recommend": "Claim decision recommended, waiting for a second administrator",
  "claim.recommendation_returned": "Claim recommendation sent back",
  "claim.respond": "Information sent for a claim",
  "claim.review": "Claim reviewed",
  "claim.submit": "Claim submitted",
  "claim.withdraw": "Claim withdrawn",
  "complaint.acknowledged": "Complaint acknowledged",
  "complaint.file": "Complaint filed",
  "complaint.in_progress": "Complaint taken in hand",
  "complaint.note": "Note added to a complaint",
  "complaint.resolved": "Complaint resolved",
  "complaint.withdrawn": "Complaint withdrawn",
  "commission.rate_remove": "Commission rate removed",
  "commission.rate_set": "Commission rate set",
  "consumer.preferences_change": "Consumer's contact preferences changed",
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
  "holiday.add": "Public holiday added",
  "holiday.remove": "Public holiday removed",
  "key.revoke": "API key revoked",
  "key.rotate": "API key rotated",
  "notice.branding_save": "Message branding changed",
  "notice.sender_change": "Who sends a message changed",
  "notice.template_reset": "Message template reset to the default",
  "notice.template_save": "Message template changed",
  "notice.test_send": "Test message sent",
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
  "user.invitation_accept": "Invitation accepted: password chosen",
  "user.invitation_resend": "Staff member's invitation sent again",
  "user.invite": "Staff member invited",
  "user.password_change": "Password changed",
  "user.password_reset": "Password reset with an e-mailed link",
  "user.reactivate": "Staff member reactivated",
  "user.reset_link": "Password reset link made on the command line",
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
  assessor: "Assessor",
  accountName: "Account name",
  accountNumber: "Account number",
  authority: "Authority over claims",
  bankCode: "Bank",
  decision: "Decision",
  grounds: "Why a second administrator",
  nameCheck: "Name check",
  recommendedBy: "Recommended by",
  rejectionReason: "Reason for the rejection",
  checked: "Ticked",
  unchecked: "Unticked",
  reserveKobo: "Reserve",
  claimedKobo: "Claimed",
  lateInterestKobo: "Late interest",
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
  premiumChangeKobo: "Premium change",
  fields: "Changed",
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
  if (key === "fields" && Array.isArray(value)) return value.map((field) => fieldLabel(String(field))).join(", ");
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
    .map(([key, value]) => `${DETAIL_LABEL[key] ?? fieldLabel(key)}: ${detailText(action, key, value)}`)
    .join(" · ");
}

/**
 * What an entry is about, read from its action's first word: the log's "About" filter and the
 * page each subject links to. The stored subject is that record's own key (a claim or plan number,
 * a funding's reference, a product code) or, for a policy, the partner's transaction reference.
 */
const SUBJECT_KINDS = {
  policy: { label: "Policy", prefixes: ["policy."] },
  claim: { label: "Claim", prefixes: ["claim."] },
  plan: { label: "Financing plan", prefixes: ["financing."] },
  funding: { label: "Wallet funding", prefixes: ["funding.", "wallet."] },
  partner: { label: "Partner", prefixes: ["partner.", "account."] },
  key: { label: "API key", prefixes: ["key."] },
  user: { label: "Staff member", prefixes: ["user."] },
  webhook: { label: "Webhook endpoint", prefixes: ["webhook."] },
  vehicle: { label: "Vehicle", prefixes: ["vehicle."] },
  commission: { label: "Commission rate", prefixes: ["commission."] },
  holiday: { label: "Public holiday", prefixes: ["holiday."] },
} as const satisfies Record<string, { label: string; prefixes: readonly string[] }>;
type SubjectKind = keyof typeof SUBJECT_KINDS;

const subjectKindOf = (action: string) =>
  (Object.keys(SUBJECT_KINDS) as SubjectKind[]).find((kind) => SUBJECT_KINDS[kind].prefixes.some((prefix) => action.startsWith(prefix)));

/** A policy as its audit rows name it (the partner's reference): its page and its number, from the policies module (ServiceFacts). */
export interface PolicyName {
  partnerId: string;
  reference: string;
  id: string;
  policyNo: string | null;
}
export const policyKey = (partnerId: string, reference: string) => `${partnerId}|${reference}`;

/** The policies an entry names: what the page looks up (in one query) to link them. */
export const policiesNamed = (entries: readonly AuditRecord[]) =>
  entries.flatMap((entry) => (entry.partnerId && subjectKindOf(entry.action) === "policy" ? [{ partnerId: entry.partnerId, reference: entry.subject }] : []));

const at = (path: string, ...keys: string[]) => path + keys.map((key) => `/${encodeURIComponent(key)}`).join("");

/** The subject in words, linked to its record's page on the operator's side when it has one. */
function subjectOf(entry: AuditRecord, policies: Map<string, PolicyName>): AuditRow["subject"] {
  const { subject, details } = entry;
  switch (subjectKindOf(entry.action)) {
    case "policy": {
      const policy = entry.partnerId ? policies.get(policyKey(entry.partnerId, subject)) : undefined;
      return policy ? { text: policy.policyNo ?? subject, href: at("/admin/policies", policy.id) } : { text: subject, href: null };
    }
    case "claim":
      return { text: subject, href: at("/admin/claims", subject) };
    case "plan":
      // The lapse run's subject is its day; the others a plan number.
      return entry.action === "financing.run_lapse"
        ? { text: `Run of ${day(subject)}`, href: "/admin/financing" }
        : { text: subject, href: at("/admin/financing", subject) };
    case "funding":
      return {
        text: subject,
        href: `/admin/fundings?${new URLSearchParams({ show: "all", ...(entry.partnerId ? { partner: entry.partnerId } : {}), reference: subject })}`,
      };
    case "partner":
      return { text: entry.action === "account.mode" ? `${subject === "live" ? "Live" : "Test"} mode` : subject, href: "/admin/partners" };
    case "key":
      return { text: typeof details.label === "string" ? `API key ${details.label}` : "API key", href: "/admin/partners" };
    case "commission":
      return { text: allProductCodes().includes(subject) ? productName(subject) : subject, href: at("/admin/commissions", subject) };
    case "holiday":
      return { text: day(subject), href: "/admin/holidays" };
    default:
      return { text: subject, href: null };
  }
}

/** An entry as the log shows it: the partner by name, the action, its subject and its details in words. */
export const auditRow =
  (partnerNames: Map<string, string>, policies: Map<string, PolicyName> = new Map()) =>
  (entry: AuditRecord): AuditRow => {
    const kind = subjectKindOf(entry.action);
    return {
      at: entry.at,
      actor: entry.actor,
      partnerName: entry.partnerId ? (partnerNames.get(entry.partnerId) ?? "") : "",
      action: ACTION_TEXT[entry.action] ?? entry.action,
      about: kind ? SUBJECT_KINDS[kind].label : "",
      subject: subjectOf(entry, policies),
      details: auditDetailsText(entry.action, entry.details),
    };
  };

export const AUDIT_CSV_COLUMNS = ["When (WAT)", "Who", "Account", "Action", "About", "Subject", "Details"] as const;

export const auditCsvRow = (row: AuditRow): CsvValue[] => [
  watTimestamp(row.at),
  row.actor,
  row.partnerName,
  row.action,
  row.about,
  row.subject.text,
  row.details,
];

// ---- The filters ----

/** The filters as typed (the query's names): shown again in the form, carried by "Show more" and the CSV link. */
export interface AuditFilterValues {
  partner?: string;
  actor?: string;
  action?: string;
  about?: string;
  from?: string;
  to?: string;
}

/** The longest "who" kept: an e-mail address or a key's name fits. */
const ACTOR_MAX = 200;

/** The query's filters as typed: a choice the selects never offer is dropped; the dates are kept, to be shown with their refusal. */
export function auditFilterValues(query: Record<string, string | undefined>): AuditFilterValues {
  const values: AuditFilterValues = {};
  const partner = normaliseUuid(query.partner);
  if (partner) values.partner = partner;
  // A NUL can be neither stored nor searched for: it becomes U+FFFD, which matches nothing.
  const actor = query.actor && storableText(query.actor.trim().slice(0, ACTOR_MAX));
  if (actor) values.actor = actor;
  if (query.action && query.action in ACTION_TEXT) values.action = query.action;
  if (query.about && query.about in SUBJECT_KINDS) values.about = query.about;
  if (query.from?.trim()) values.from = query.from.trim();
  if (query.to?.trim()) values.to = query.to.trim();
  return values;
}

/** The days, checked as every list's are (a refusal names `from` or `to`). */
const daysSeed = withDayFilter(z.object({}));

/** What the values select; a day the lists refuse is refused here in their words (400, beside its input). */
export function auditFiltersOf(query: Record<string, string | undefined>): AuditFilters {
  const values = auditFilterValues(query);
  const days = parseWith(daysSeed, { from: values.from, to: values.to });
  return {
    partnerId: values.partner,
    actor: values.actor,
    action: values.action,
    actionPrefixes: values.about ? SUBJECT_KINDS[values.about as SubjectKind].prefixes : undefined,
    // Nigerian days, both included.
    from: days.from ? watMidnight(days.from) : undefined,
    to: days.to ? new Date(watMidnight(days.to).getTime() + DAY_MS) : undefined,
  };
}

/** The "What" filter's choices: every action in words, alphabetically. */
export const ACTION_CHOICES = Object.entries(ACTION_TEXT)
  .map(([value, label]) => ({ value, label }))
  .sort((a, b) => a.label.localeCompare(b.label));

/** The "About" filter's choices. */
export const SUBJECT_CHOICES = Object.entries(SUBJECT_KINDS).map(([value, kind]) => ({ value, label: kind.label }));
