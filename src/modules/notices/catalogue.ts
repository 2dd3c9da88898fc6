/**
 * What the service says to the insured, and on which event (docs/templates.md): one notice per thing
 * to say, its default templates (e-mail and SMS in English, the SMS in Nigerian Pidgin too) and the
 * variables its templates may use.
 */
import type { DomainEvent } from "../events";

/** An e-mail, an SMS in English, an SMS in Nigerian Pidgin: the templates a notice has. */
export const TEMPLATE_FORMS = ["email", "sms", "sms-pcm"] as const;
export type TemplateForm = (typeof TEMPLATE_FORMS)[number];
export const FORM_WORDS: Record<TemplateForm, string> = { email: "E-mail", sms: "SMS", "sms-pcm": "SMS in Pidgin" };

export interface DefaultTemplate {
  /** E-mail only. */
  subject?: string;
  body: string;
}

export interface Notice {
  key: string;
  label: string;
  /** What it is about, hence who receives it: the policy's consumer, or a complaint's complainant. */
  about: "policy" | "claim" | "complaint";
  /** A reminder: the consumer may turn reminders off (service messages always go). */
  reminder?: boolean;
  /** The variables its templates may use, besides the ones every notice has (COMMON_VARIABLES). */
  variables: readonly string[];
  defaults: Record<TemplateForm, DefaultTemplate>;
}

/** Every notice may say who it is to and from, and where to ask. */
const COMMON_VARIABLES = ["insuredName", "partnerName", "supportPhone", "supportEmail"] as const;

/** What each variable is, for the template editor's list (and the sample the preview fills in). */
export const VARIABLES: Record<string, { words: string; sample: string; link?: boolean }> = {
  insuredName: { words: "The insured's name", sample: "Adaeze Okafor" },
  partnerName: { words: "Your name as the insured knows it (Branding)", sample: "Example Insure" },
  supportPhone: { words: "Your support phone (Branding)", sample: "+2348001234567" },
  supportEmail: { words: "Your support e-mail (Branding)", sample: "help@example.ng" },
  policyNo: { words: "The policy number", sample: "POL-VHCL-2026-7G2K9QX4M1AB" },
  certificateLink: { words: "The link to the certificate", sample: "https://insure.example.ng/certificates/abc123", link: true },
  lastDay: { words: "The last day of cover", sample: "2026-12-31" },
  daysLeft: { words: "Days of cover left", sample: "7" },
  refund: { words: "The refund of a cancellation", sample: "₦9,801.37" },
  cancelledFrom: { words: "The day a cancellation took effect", sample: "2026-12-01" },
  reason: { words: "Why (the reason given)", sample: "the installment due on 2027-01-01 was not paid" },
  version: { words: "The certificate's new version", sample: "2" },
  claimNo: { words: "The claim number", sample: "CLM-2026-7K3M9Q2XAB" },
  amount: { words: "The amount claimed", sample: "₦150,000.00" },
  payable: { words: "The amount to be paid on a claim", sample: "₦108,000.00" },
  note: { words: "What was asked for or said", sample: "Send a photo of the police report" },
  complaintRef: { words: "The complaint's reference", sample: "CMP-2026-0042" },
  outcome: { words: "What was decided on a complaint", sample: "upheld in part" },
  redress: { words: "What is paid to put a complaint right", sample: "₦25,000.00" },
  installmentAmount: { words: "The installment to pay", sample: "₦10,000.00" },
  dueDate: { words: "The installment's due date", sample: "2027-01-01" },
  payBy: { words: "The last day to pay before the policy lapses", sample: "2027-01-08" },
};

const policy = ["policyNo"] as const;
const claim = ["claimNo", "policyNo"] as const;

const signOff = "{{partnerName}}";

export const NOTICES: readonly Notice[] = [
  {
    key: "policy.issued",
    label: "Policy issued",
    about: "policy",
    variables: [...policy, "certificateLink", "lastDay"],
    defaults: {
      email: {
        subject: "Your policy {{policyNo}} is ready",
        body: `Dear {{insuredName}},\n\nYour policy {{policyNo}} is in force until {{lastDay}}.\n\nYour certificate: {{certificateLink}}\n\n${signOff}`,
      },
      sms: { body: "{{partnerName}}: your policy {{policyNo}} is active. Certificate: {{certificateLink}}" },
      "sms-pcm": { body: "{{partnerName}}: your policy {{policyNo}} don start. See your certificate: {{certificateLink}}" },
    },
  },
  {
    key: "policy.expiring",
    label: "Renewal reminder (30, 7 and 1 days before)",
    about: "policy",
    reminder: true,
    variables: [...policy, "lastDay", "daysLeft"],
    defaults: {
      email: {
        subject: "Your policy {{policyNo}} ends in {{daysLeft}} days",
        body: `Dear {{insuredName}},\n\nYour policy {{policyNo}} covers you until {{lastDay}}: {{daysLeft}} days from now. Renew it to stay covered.\n\n${signOff}`,
      },
      sms: { body: "{{partnerName}}: your policy {{policyNo}} ends on {{lastDay}} ({{daysLeft}} days). Renew to stay covered." },
      "sms-pcm": { body: "{{partnerName}}: your policy {{policyNo}} go end for {{lastDay}} ({{daysLeft}} days). Renew am make cover no stop." },
    },
  },
  {
    key: "policy.renewed",
    label: "Policy renewed",
    about: "policy",
    variables: policy,
    defaults: {
      email: {
        subject: "Your policy {{policyNo}} is renewed",
        body: `Dear {{insuredName}},\n\nYour policy {{policyNo}} is renewed: your cover continues.\n\n${signOff}`,
      },
      sms: { body: "{{partnerName}}: your policy {{policyNo}} is renewed. Your cover continues." },
      "sms-pcm": { body: "{{partnerName}}: we don renew your policy {{policyNo}}. Your cover dey continue." },
    },
  },
  {
    key: "policy.expired",
    label: "Policy expired",
    about: "policy",
    variables: policy,
    defaults: {
      email: {
        subject: "Your policy {{policyNo}} has ended",
        body: `Dear {{insuredName}},\n\nYour policy {{policyNo}} has ended: you are no longer covered.\n\n${signOff}`,
      },
      sms: { body: "{{partnerName}}: your policy {{policyNo}} has ended. You are no longer covered." },
      "sms-pcm": { body: "{{partnerName}}: your policy {{policyNo}} don end. Cover no dey again." },
    },
  },
  {
    key: "policy.cancelled",
    label: "Policy cancelled",
    about: "policy",
    variables: [...policy, "refund", "cancelledFrom"],
    defaults: {
      email: {
        subject: "Your policy {{policyNo}} is cancelled",
        body: `Dear {{insuredName}},\n\nYour policy {{policyNo}} is cancelled from {{cancelledFrom}}. Your refund: {{refund}}.\n\n${signOff}`,
      },
      sms: { body: "{{partnerName}}: your policy {{policyNo}} is cancelled from {{cancelledFrom}}. Refund: {{refund}}." },
      "sms-pcm": { body: "{{partnerName}}: we don cancel your policy {{policyNo}} from {{cancelledFrom}}. Your refund na {{refund}}." },
    },
  },
  {
    key: "policy.endorsed",
    label: "Policy changed",
    about: "policy",
    variables: [...policy, "version", "certificateLink"],
    defaults: {
      email: {
        subject: "Your policy {{policyNo}} is changed",
        body: `Dear {{insuredName}},\n\nThe change to your policy {{policyNo}} is in force. Your new certificate (version {{version}}): {{certificateLink}}\n\n${signOff}`,
      },
      sms: { body: "{{partnerName}}: the change to your policy {{policyNo}} is in force. Certificate: {{certificateLink}}" },
      "sms-pcm": { body: "{{partnerName}}: the change for your policy {{policyNo}} don work. Certificate: {{certificateLink}}" },
    },
  },
  {
    key: "policy.lapsed",
    label: "Policy lapsed",
    about: "policy",
    variables: [...policy, "reason"],
    defaults: {
      email: {
        subject: "Your policy {{policyNo}} has lapsed",
        body: `Dear {{insuredName}},\n\nYour policy {{policyNo}} has lapsed: {{reason}}.\n\n${signOff}`,
      },
      sms: { body: "{{partnerName}}: your policy {{policyNo}} has lapsed: {{reason}}." },
      "sms-pcm": { body: "{{partnerName}}: your policy {{policyNo}} don lapse: {{reason}}." },
    },
  },
  {
    key: "financing.installment_due",
    label: "Installment due (3 days before)",
    about: "policy",
    reminder: true,
    variables: [...policy, "installmentAmount", "dueDate"],
    defaults: {
      email: {
        subject: "Your installment for policy {{policyNo}} is due on {{dueDate}}",
        body: `Dear {{insuredName}},\n\nYour installment of {{installmentAmount}} for policy {{policyNo}} is due on {{dueDate}}.\n\n${signOff}`,
      },
      sms: { body: "{{partnerName}}: your installment of {{installmentAmount}} for policy {{policyNo}} is due on {{dueDate}}." },
      "sms-pcm": { body: "{{partnerName}}: your installment of {{installmentAmount}} for policy {{policyNo}} go due for {{dueDate}}." },
    },
  },
  {
    key: "financing.installment_missed",
    label: "Installment missed",
    about: "policy",
    variables: [...policy, "installmentAmount", "dueDate", "payBy"],
    defaults: {
      email: {
        subject: "Your installment for policy {{policyNo}} was not paid",
        body: `Dear {{insuredName}},\n\nYour installment of {{installmentAmount}} for policy {{policyNo}}, due on {{dueDate}}, was not paid. Pay it by {{payBy}} to keep your cover.\n\n${signOff}`,
      },
      sms: {
        body: "{{partnerName}}: your installment of {{installmentAmount}} for policy {{policyNo}} (due {{dueDate}}) was not paid. Pay by {{payBy}} to keep your cover.",
      },
      "sms-pcm": {
        body: "{{partnerName}}: you never pay your installment of {{installmentAmount}} for policy {{policyNo}} (due {{dueDate}}). Pay before {{payBy}} make cover no stop.",
      },
    },
  },
  {
    key: "financing.lapse_warning",
    label: "Lapse warning (the last day to pay)",
    about: "policy",
    variables: [...policy, "installmentAmount", "payBy"],
    defaults: {
      email: {
        subject: "Your policy {{policyNo}} lapses after {{payBy}}",
        body: `Dear {{insuredName}},\n\nYour installment of {{installmentAmount}} for policy {{policyNo}} is still unpaid. Unless it is paid by {{payBy}}, your policy lapses and you lose your cover.\n\n${signOff}`,
      },
      sms: { body: "{{partnerName}}: pay {{installmentAmount}} by {{payBy}} or your policy {{policyNo}} lapses." },
      "sms-pcm": { body: "{{partnerName}}: pay {{installmentAmount}} before {{payBy}} finish, or your policy {{policyNo}} go lapse." },
    },
  },
  {
    key: "claim.received",
    label: "Claim received",
    about: "claim",
    variables: [...claim, "amount"],
    defaults: {
      email: {
        subject: "We received your claim {{claimNo}}",
        body: `Dear {{insuredName}},\n\nWe received your claim {{claimNo}} of {{amount}} on policy {{policyNo}}. We will tell you when it is decided.\n\n${signOff}`,
      },
      sms: { body: "{{partnerName}}: we received your claim {{claimNo}} ({{amount}}). We will update you." },
      "sms-pcm": { body: "{{partnerName}}: we don collect your claim {{claimNo}} ({{amount}}). We go update you." },
    },
  },
  {
    key: "claim.info_requested",
    label: "Claim: more information needed",
    about: "claim",
    variables: [...claim, "note"],
    defaults: {
      email: {
        subject: "Your claim {{claimNo}}: we need more information",
        body: `Dear {{insuredName}},\n\nTo decide your claim {{claimNo}} we need: {{note}}\n\n${signOff}`,
      },
      sms: { body: "{{partnerName}}: for your claim {{claimNo}} we need: {{note}}" },
      "sms-pcm": { body: "{{partnerName}}: for your claim {{claimNo}} we need: {{note}}" },
    },
  },
  {
    key: "claim.approved",
    label: "Claim approved",
    about: "claim",
    variables: [...claim, "payable"],
    defaults: {
      email: {
        subject: "Your claim {{claimNo}} is approved",
        body: `Dear {{insuredName}},\n\nYour claim {{claimNo}} is approved: {{payable}} will be paid.\n\n${signOff}`,
      },
      sms: { body: "{{partnerName}}: your claim {{claimNo}} is approved: {{payable}} will be paid." },
      "sms-pcm": { body: "{{partnerName}}: we don approve your claim {{claimNo}}: we go pay {{payable}}." },
    },
  },
  {
    key: "claim.voucher_issued",
    label: "Claim: discharge voucher ready",
    about: "claim",
    variables: [...claim, "payable"],
    defaults: {
      email: {
        subject: "Your claim {{claimNo}}: the discharge voucher is ready",
        body: `Dear {{insuredName}},\n\nThe discharge voucher of your claim {{claimNo}} ({{payable}}) is ready for you to accept.\n\n${signOff}`,
      },
      sms: { body: "{{partnerName}}: the discharge voucher of your claim {{claimNo}} ({{payable}}) is ready to accept." },
      "sms-pcm": { body: "{{partnerName}}: the discharge voucher for your claim {{claimNo}} ({{payable}}) don ready. Accept am." },
    },
  },
  {
    key: "claim.paid",
    label: "Claim paid",
    about: "claim",
    variables: [...claim, "payable"],
    defaults: {
      email: { subject: "Your claim {{claimNo}} is paid", body: `Dear {{insuredName}},\n\nYour claim {{claimNo}} is paid: {{payable}}.\n\n${signOff}` },
      sms: { body: "{{partnerName}}: your claim {{claimNo}} is paid: {{payable}}." },
      "sms-pcm": { body: "{{partnerName}}: we don pay your claim {{claimNo}}: {{payable}}." },
    },
  },
  {
    key: "complaint.received",
    label: "Complaint received",
    about: "complaint",
    variables: ["complaintRef"],
    defaults: {
      email: {
        subject: "We received your complaint {{complaintRef}}",
        body: `Dear {{insuredName}},\n\nWe received your complaint {{complaintRef}} and will answer it.\n\n${signOff}`,
      },
      sms: { body: "{{partnerName}}: we received your complaint {{complaintRef}}. We will answer it." },
      "sms-pcm": { body: "{{partnerName}}: we don collect your complaint {{complaintRef}}. We go answer am." },
    },
  },
  {
    key: "complaint.resolved",
    label: "Complaint resolved",
    about: "complaint",
    variables: ["complaintRef", "outcome", "redress"],
    defaults: {
      email: {
        subject: "Your complaint {{complaintRef}} is resolved",
        body: `Dear {{insuredName}},\n\nWe have looked into your complaint {{complaintRef}}: it is {{outcome}}. What we pay to put it right: {{redress}}. Our letter explaining the decision is yours on request.\n\n${signOff}`,
      },
      sms: { body: "{{partnerName}}: your complaint {{complaintRef}} is resolved: {{outcome}}." },
      "sms-pcm": { body: "{{partnerName}}: we don settle your complaint {{complaintRef}}: {{outcome}}." },
    },
  },
];

const byKey = new Map(NOTICES.map((n) => [n.key, n]));
export const noticeOf = (key: string): Notice | undefined => byKey.get(key);

/** The variables a notice's templates may use. */
export const variablesOf = (notice: Notice): readonly string[] => [...COMMON_VARIABLES, ...notice.variables];

/** The events told by their own type's notice, and the notice each is told with. */
const EVENT_NOTICES: Record<string, string> = {
  "policy.approved": "policy.issued",
  "policy.expiring": "policy.expiring",
  "policy.renewed": "policy.renewed",
  "policy.expired": "policy.expired",
  "policy.cancelled": "policy.cancelled",
  "policy.endorsed": "policy.endorsed",
  "policy.lapsed": "policy.lapsed",
  "claim.submitted": "claim.received",
  "claim.voucher_issued": "claim.voucher_issued",
  "complaint.received": "complaint.received",
  "complaint.resolved": "complaint.resolved",
};

/** claim.updated is told by the claim's new status. */
const CLAIM_STATUS_NOTICES: Record<string, string> = { info_requested: "claim.info_requested", approved: "claim.approved", paid: "claim.paid" };

/** Which notice an event is told with, if any (financing.lapsed is told by the policy.lapsed beside it). */
export function noticeFor(event: Pick<DomainEvent, "type" | "payload">): Notice | undefined {
  const key = event.type === "claim.updated" ? CLAIM_STATUS_NOTICES[String(event.payload.status)] : EVENT_NOTICES[event.type];
  return key ? byKey.get(key) : undefined;
}
