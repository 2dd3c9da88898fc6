/**
 * The examples of the claims commands (CommandExample, src/http/registry.ts): the requests and answers
 * of /docs and /openapi.json, which test/reference.test.ts sends to the app. The refusals they show
 * are declared here too, and listed in their commands' errors.
 */
import { type CommandExample, type JsonObject, refusal } from "../../http/registry";

export const IN_THE_FUTURE = refusal(400, "seed.incidentDate must not be in the future: today is <date> in Nigeria; received <date>");
export const CANNOT_BECOME = refusal(
  409,
  "claim <claimNo> is <status>, <a final status: it|so it> cannot become <status><: from … it can only become …>",
  "the claim's status does not allow the change",
);

const bumper = {
  policy: "{{policy.id}}",
  incidentDate: "{{today}}",
  description: "Rear bumper damaged in a collision at Ikeja",
  amount: 85000,
  reference: "clm-ref-001",
};
/** The claim `claim` submits, as every answer shows it. */
const submitted = {
  claimNo: "{{claim.claimNo}}",
  reference: "clm-ref-001",
  policy: "{{policy.id}}",
  productCode: "vhcl-tprt-1111",
  mode: "test",
  incidentDate: "{{today}}",
  description: bumper.description,
  amount: 85000,
  settlementDue: "{{today+60}}",
  currency: "NGN",
  tmstmp: "{{claim.tmstmp}}",
};
const submittedStep = { status: "submitted", at: "{{claim.tmstmp}}" };

/** What a claim on third-party vehicle cover needs (the vehicle family's rule), none seen yet. */
const vehicleDocumentsNeeded = (checked: readonly string[] = []) =>
  [
    { key: "police_report", label: "A police report" },
    { key: "photos", label: "Photographs of the damage" },
    { key: "drivers_licence", label: "The driver's licence" },
    { key: "third_party_claim", label: "The third party's claim and their repair estimate" },
  ].map((d) => ({ ...d, checked: checked.includes(d.key) }));

/** The operator's whole checklist of such a claim: its documents, then the checks of every claim. */
const vehicleChecklist = (checked: readonly string[] = []) => [
  ...vehicleDocumentsNeeded(checked).map((d) => ({ ...d, kind: "document" })),
  ...[
    { key: "cover_confirmed", label: "The loss is covered by the policy's terms on the incident date" },
    { key: "identity_confirmed", label: "The claimant's identity is confirmed" },
  ].map((d) => ({ ...d, kind: "check", checked: checked.includes(d.key) })),
];

/** What the fraud rules flagged, as the operator's answers show it: the flags depend on every partner's claims. */
const claimSignals = { score: "{{number}}", needsSecondReviewer: "{{boolean}}", flags: "{{flags}}" };

/** A second claim, taken through a request for information and its answer, then assessed. */
const windscreen = {
  policy: "{{policy.id}}",
  incidentDate: "{{today}}",
  description: "Windscreen cracked by a stone on the Lagos-Ibadan expressway",
  amount: 60000,
  reference: "clm-ref-002",
};
const windscreenClaim = {
  claimNo: "{{claim-windscreen.claimNo}}",
  reference: "clm-ref-002",
  policy: "{{policy.id}}",
  productCode: "vhcl-tprt-1111",
  mode: "test",
  incidentDate: "{{today}}",
  description: windscreen.description,
  amount: 60000,
  settlementDue: "{{today+60}}",
  currency: "NGN",
  tmstmp: "{{claim-windscreen.tmstmp}}",
};
const QUESTION = "Send the police report and a photograph of the windscreen";

/** claim submit */
export const claimSubmitExamples: readonly CommandExample[] = [
  {
    name: "claim",
    title: "A claim on the vehicle policy, for an accident today",
    cmmnd: "claim submit",
    seed: bumper,
    answer: {
      claimNo: "{{claimNo}}",
      reference: "clm-ref-001",
      status: "submitted",
      policy: "{{policy.id}}",
      productCode: "vhcl-tprt-1111",
      mode: "test",
      amount: 85000,
      settlementDue: "{{today+60}}",
      currency: "NGN",
      tmstmp: "{{timestamp}}",
    },
  },
  {
    name: "claim-in-the-future",
    title: "An incident date after today",
    cmmnd: "claim submit",
    seed: { ...bumper, incidentDate: "{{today+1}}" },
    refusal: IN_THE_FUTURE,
  },
  {
    name: "claim-windscreen",
    title: "A second claim on the same policy",
    cmmnd: "claim submit",
    seed: windscreen,
    answer: {
      claimNo: "{{claimNo}}",
      reference: "clm-ref-002",
      status: "submitted",
      policy: "{{policy.id}}",
      productCode: "vhcl-tprt-1111",
      mode: "test",
      amount: 60000,
      settlementDue: "{{today+60}}",
      currency: "NGN",
      tmstmp: "{{timestamp}}",
    },
  },
];

/** claim status */
export const claimStatusExamples: readonly CommandExample[] = [
  {
    name: "claim-status",
    title: "The claim just submitted",
    cmmnd: "claim status",
    seed: { claimNo: "{{claim.claimNo}}" },
    answer: {
      ...submitted,
      status: "submitted",
      updated: "{{claim.tmstmp}}",
      documents: [],
      documentsNeeded: vehicleDocumentsNeeded(),
      history: [submittedStep],
    },
  },
];

/** claim list */
export const claimListExamples: readonly CommandExample[] = [
  {
    name: "claims",
    title: "The submitted claims of one policy",
    cmmnd: "claim list",
    seed: { status: "submitted", policy: "{{policy.id}}" },
    after: ["claim"],
    answer: { list: [{ ...submitted, status: "submitted", updated: "{{claim.tmstmp}}" }], nextCursor: null },
  },
];

/** claim withdraw */
export const claimWithdrawExamples: readonly CommandExample[] = [
  {
    name: "claim-withdraw",
    title: "Withdraw the claim: the consumer settled privately",
    cmmnd: "claim withdraw",
    seed: { claimNo: "{{claim.claimNo}}", note: "Settled privately with the other driver" },
    answer: {
      ...submitted,
      status: "withdrawn",
      statusNote: "Settled privately with the other driver",
      updated: "{{timestamp}}",
      documents: [],
      documentsNeeded: vehicleDocumentsNeeded(),
      history: [submittedStep, { status: "withdrawn", note: "Settled privately with the other driver", at: "{{timestamp}}" }],
    },
  },
  {
    name: "claim-withdraw-again",
    title: "Withdraw it twice",
    cmmnd: "claim withdraw",
    seed: { claimNo: "{{claim.claimNo}}" },
    after: ["claim-withdraw"],
    refusal: CANNOT_BECOME,
  },
];

/** claim review */
export const claimReviewExamples: readonly CommandExample[] = [
  {
    name: "claim-review",
    title: "The operator takes the claim into review",
    cmmnd: "claim review",
    seed: { claimNo: "{{claim.claimNo}}", status: "in_review", note: "Assessor assigned" },
    answer: {
      partnerId: "{{partnerId}}",
      ...submitted,
      status: "in_review",
      statusNote: "Assessor assigned",
      updated: "{{timestamp}}",
      documents: [],
      documentsNeeded: vehicleDocumentsNeeded(),
      history: [submittedStep, { status: "in_review", note: "Assessor assigned", at: "{{timestamp}}" }],
      reserve: 85000,
      checklist: vehicleChecklist(),
      signals: claimSignals,
    },
  },
  {
    name: "claim-windscreen-in-review",
    title: "The operator takes the second claim into review",
    cmmnd: "claim review",
    seed: { claimNo: "{{claim-windscreen.claimNo}}", status: "in_review" },
    answer: {
      partnerId: "{{partnerId}}",
      ...windscreenClaim,
      status: "in_review",
      updated: "{{timestamp}}",
      documents: [],
      documentsNeeded: vehicleDocumentsNeeded(),
      history: [
        { status: "submitted", at: "{{claim-windscreen.tmstmp}}" },
        { status: "in_review", at: "{{timestamp}}" },
      ],
      reserve: 60000,
      checklist: vehicleChecklist(),
      signals: claimSignals,
    },
  },
  {
    name: "claim-info-requested",
    title: "The operator asks the partner for more information: the claim's clock stops",
    cmmnd: "claim review",
    seed: { claimNo: "{{claim-windscreen.claimNo}}", status: "info_requested", note: QUESTION },
    after: ["claim-windscreen-in-review"],
    answer: {
      partnerId: "{{partnerId}}",
      ...windscreenClaim,
      status: "info_requested",
      statusNote: QUESTION,
      updated: "{{timestamp}}",
      documents: [],
      documentsNeeded: vehicleDocumentsNeeded(),
      history: [
        { status: "submitted", at: "{{claim-windscreen.tmstmp}}" },
        { status: "in_review", at: "{{claim-windscreen-in-review.updated}}" },
        { status: "info_requested", note: QUESTION, at: "{{timestamp}}" },
      ],
      reserve: 60000,
      checklist: vehicleChecklist(),
      signals: claimSignals,
    },
  },
];

/** claim respond */
export const claimRespondExamples: readonly CommandExample[] = [
  {
    name: "claim-respond",
    title: "The partner sends what was asked for: the claim is back in review",
    cmmnd: "claim respond",
    seed: {
      claimNo: "{{claim-windscreen.claimNo}}",
      note: "The police report and the photograph are attached",
      documents: [{ name: "police-report.pdf", content: "JVBERi0xLjQKMSAwIG9iajw8Pj5lbmRvYmoKdHJhaWxlcjw8Pj4KJSVFT0YK" }],
    },
    after: ["claim-info-requested"],
    answer: {
      ...windscreenClaim,
      status: "in_review",
      statusNote: "The police report and the photograph are attached",
      updated: "{{timestamp}}",
      documents: [{ name: "police-report.pdf", type: "pdf", size: 45 }],
      documentsNeeded: vehicleDocumentsNeeded(),
      history: [
        { status: "submitted", at: "{{claim-windscreen.tmstmp}}" },
        { status: "in_review", at: "{{claim-windscreen-in-review.updated}}" },
        { status: "info_requested", note: QUESTION, at: "{{claim-info-requested.updated}}" },
        { status: "in_review", note: "The police report and the photograph are attached", at: "{{timestamp}}" },
      ],
    },
  },
];

/** claim assess */
export const claimAssessExamples: readonly CommandExample[] = [
  {
    name: "claim-assess",
    title: "The operator assigns an assessor, lowers the reserve after the repair quote, and ticks what was received",
    cmmnd: "claim assess",
    seed: {
      claimNo: "{{claim-windscreen.claimNo}}",
      assessor: "{{adminEmail}}",
      reserve: 45000,
      reserveReason: "Windscreen replacement quoted at 45,000 naira",
      check: ["police_report", "photos"],
    },
    after: ["claim-respond"],
    answer: {
      partnerId: "{{partnerId}}",
      ...windscreenClaim,
      status: "in_review",
      statusNote: "The police report and the photograph are attached",
      updated: "{{timestamp}}",
      documents: [{ name: "police-report.pdf", type: "pdf", size: 45 }],
      documentsNeeded: vehicleDocumentsNeeded(["police_report", "photos"]),
      history: [
        { status: "submitted", at: "{{claim-windscreen.tmstmp}}" },
        { status: "in_review", at: "{{claim-windscreen-in-review.updated}}" },
        { status: "info_requested", note: QUESTION, at: "{{claim-info-requested.updated}}" },
        { status: "in_review", note: "The police report and the photograph are attached", at: "{{claim-respond.updated}}" },
      ],
      assessor: "{{adminEmail}}",
      reserve: 45000,
      checklist: vehicleChecklist(["police_report", "photos"]),
      signals: claimSignals,
    },
  },
];

/** The windscreen claim, assessed, as it stands when its account is given: in review, the repair quoted. */
const windscreenAssessed = {
  ...windscreenClaim,
  status: "in_review",
  statusNote: "The police report and the photograph are attached",
  documents: [{ name: "police-report.pdf", type: "pdf", size: 45 }],
  documentsNeeded: vehicleDocumentsNeeded(["police_report", "photos"]),
};
const windscreenHistory: JsonObject[] = [
  { status: "submitted", at: "{{claim-windscreen.tmstmp}}" },
  { status: "in_review", at: "{{claim-windscreen-in-review.updated}}" },
  { status: "info_requested", note: QUESTION, at: "{{claim-info-requested.updated}}" },
  { status: "in_review", note: "The police report and the photograph are attached", at: "{{claim-respond.updated}}" },
];
/** A claim's answer without its status note: the status it came with has passed. */
const withoutNote = ({ statusNote: _note, ...rest }: JsonObject) => rest;
/** The insured's account at GTBank, as the bank's name enquiry finds it (the sandbox: the insured's name, as banks print it). */
const payee = { bankCode: "058", bank: "Guaranty Trust Bank (GTBank)", accountNumber: "0123456780", accountName: "ADAEZE OKAFOR", nameCheck: "matched" };
const voucher = {
  version: 1,
  approvedAmount: 45000,
  excess: 0,
  payable: 45000,
  bankCode: "058",
  bank: "Guaranty Trust Bank (GTBank)",
  accountNumber: "0123456780",
  accountName: "ADAEZE OKAFOR",
  issued: "{{claim-approve.updated}}",
};

/** claim payee */
export const claimPayeeExamples: readonly CommandExample[] = [
  {
    name: "claim-payee",
    title: "The account to pay the windscreen claim into: the bank's name for it matches the insured's",
    cmmnd: "claim payee",
    seed: { claimNo: "{{claim-windscreen.claimNo}}", bankCode: "058", accountNumber: "0123456780" },
    after: ["claim-assess"],
    answer: { ...windscreenAssessed, updated: "{{timestamp}}", history: windscreenHistory, payee },
  },
];

/** claim voucher */
export const claimVoucherExamples: readonly CommandExample[] = [
  {
    name: "claim-voucher",
    title: "The discharge voucher the approval issued, to show the claimant",
    cmmnd: "claim voucher",
    seed: { claimNo: "{{claim-windscreen.claimNo}}" },
    after: ["claim-approve"],
    answer: { claimNo: "{{claim-windscreen.claimNo}}", ...voucher, status: "issued", voucherDocument: "{{base64}}", voucherType: "pdf" },
  },
];

/** claim accept */
export const claimAcceptExamples: readonly CommandExample[] = [
  {
    name: "claim-accept",
    title: "The claimant accepts the voucher: the payout follows, and the claim is paid once the bank confirms it (at once in the sandbox)",
    cmmnd: "claim accept",
    seed: { claimNo: "{{claim-windscreen.claimNo}}", version: 1 },
    after: ["claim-voucher"],
    answer: {
      ...withoutNote(windscreenAssessed),
      status: "paid",

      approvedAmount: 45000,
      excess: 0,
      payable: 45000,
      voucherDue: "{{claim-approve.voucherDue}}",
      updated: "{{timestamp}}",
      history: [
        ...windscreenHistory,
        { status: "approved", note: "Windscreen replacement as quoted", at: "{{claim-approve.updated}}" },
        { status: "paid", at: "{{timestamp}}" },
      ],
      payee,
      voucher: { ...voucher, status: "accepted", accepted: "{{timestamp}}", channel: "api" },
      payout: {
        status: "success",
        amount: 45000,
        reference: "{{transferReference}}",
        voucherVersion: 1,
        queued: "{{timestamp}}",
        settled: "{{timestamp}}",
      },
    },
  },
];

/** A claim above an assessor's authority (which an API key has): rejecting it waits for a second administrator. */
const theft = {
  policy: "{{policy.id}}",
  incidentDate: "{{today}}",
  description: "The car was stolen from the owner's compound overnight",
  amount: 3500000,
  reference: "clm-ref-003",
};
/** A small claim rejected at once, with its letter. */
const mirror = {
  policy: "{{policy.id}}",
  incidentDate: "{{today}}",
  description: "The insured's own side mirror broken while reversing",
  amount: 40000,
  reference: "clm-ref-004",
};
const NOT_COVERED = "Third-party cover pays for damage to others, not to the insured's own car";
const submittedAnswer = (reference: string, amount: number) => ({
  claimNo: "{{claimNo}}",
  reference,
  status: "submitted",
  policy: "{{policy.id}}",
  productCode: "vhcl-tprt-1111",
  mode: "test",
  amount,
  settlementDue: "{{today+60}}",
  currency: "NGN",
  tmstmp: "{{timestamp}}",
});
/** A claim of these examples as the operator's answers show it, in review since `reviewed`. */
const inReview = (name: string, claim: typeof theft, reviewed: string) => ({
  partnerId: "{{partnerId}}",
  claimNo: `{{${name}.claimNo}}`,
  reference: claim.reference,
  policy: "{{policy.id}}",
  productCode: "vhcl-tprt-1111",
  mode: "test",
  incidentDate: "{{today}}",
  description: claim.description,
  amount: claim.amount,
  settlementDue: "{{today+60}}",
  currency: "NGN",
  tmstmp: `{{${name}.tmstmp}}`,
  documents: [],
  documentsNeeded: vehicleDocumentsNeeded(),
  reserve: claim.amount,
  checklist: vehicleChecklist(),
  signals: claimSignals,
  history: [
    { status: "submitted", at: `{{${name}.tmstmp}}` },
    { status: "in_review", at: reviewed },
  ],
});

/** The claims the decisions below are about. */
export const claimDecisionSubmitExamples: readonly CommandExample[] = [
  {
    name: "claim-theft",
    title: "A third claim: the insured's own car stolen",
    cmmnd: "claim submit",
    seed: theft,
    answer: submittedAnswer("clm-ref-003", 3500000),
  },
  {
    name: "claim-mirror",
    title: "A fourth claim: the insured's own side mirror",
    cmmnd: "claim submit",
    seed: mirror,
    answer: submittedAnswer("clm-ref-004", 40000),
  },
];

/** claim review: decisions (an approval issuing the voucher, a rejection, a recommendation above the key's authority) */
export const claimDecisionExamples: readonly CommandExample[] = [
  {
    name: "claim-approve",
    title: "The operator approves the windscreen claim at the quoted repair: its account is known, so the discharge voucher is issued",
    cmmnd: "claim review",
    seed: { claimNo: "{{claim-windscreen.claimNo}}", status: "approved", approvedAmount: 45000, note: "Windscreen replacement as quoted" },
    after: ["claim-payee"],
    answer: {
      partnerId: "{{partnerId}}",
      ...windscreenAssessed,
      status: "approved",
      statusNote: "Windscreen replacement as quoted",
      approvedAmount: 45000,
      excess: 0,
      payable: 45000,
      voucherDue: "{{workingDay}}",
      updated: "{{timestamp}}",
      history: [...windscreenHistory, { status: "approved", note: "Windscreen replacement as quoted", at: "{{timestamp}}" }],
      payee,
      voucher: { ...voucher, status: "issued", issued: "{{timestamp}}" },
      assessor: "{{adminEmail}}",
      reserve: 45000,
      checklist: vehicleChecklist(["police_report", "photos"]),
      signals: claimSignals,
    },
  },
  {
    name: "claim-theft-in-review",
    title: "The operator takes the theft claim into review",
    cmmnd: "claim review",
    seed: { claimNo: "{{claim-theft.claimNo}}", status: "in_review" },
    answer: { ...inReview("claim-theft", theft, "{{timestamp}}"), status: "in_review", updated: "{{timestamp}}" },
  },
  {
    name: "claim-theft-recommended",
    title: "Rejecting 3,500,000 naira is above an assessor's authority (an API key's): it waits for a second administrator, the claim stays in review",
    cmmnd: "claim review",
    seed: { claimNo: "{{claim-theft.claimNo}}", status: "rejected", rejectionReason: "not_covered", note: NOT_COVERED },
    after: ["claim-theft-in-review"],
    answer: {
      ...inReview("claim-theft", theft, "{{claim-theft-in-review.updated}}"),
      status: "in_review",
      updated: "{{claim-theft-in-review.updated}}",
      recommendation: {
        decision: "rejected",
        amount: 3500000,
        rejectionReason: "not_covered",
        note: NOT_COVERED,
        recommendedBy: "admin:{{adminPartnerId}}",
        grounds: ["authority"],
        tmstmp: "{{timestamp}}",
      },
    },
  },
  {
    name: "claim-mirror-in-review",
    title: "The operator takes the mirror claim into review",
    cmmnd: "claim review",
    seed: { claimNo: "{{claim-mirror.claimNo}}", status: "in_review" },
    answer: { ...inReview("claim-mirror", mirror, "{{timestamp}}"), status: "in_review", updated: "{{timestamp}}" },
  },
  {
    name: "claim-mirror-rejected",
    title: "The operator rejects the mirror claim, with the reason from the documented list: the partner can fetch its letter",
    cmmnd: "claim review",
    seed: { claimNo: "{{claim-mirror.claimNo}}", status: "rejected", rejectionReason: "not_covered", note: NOT_COVERED },
    after: ["claim-mirror-in-review"],
    answer: {
      ...inReview("claim-mirror", mirror, "{{claim-mirror-in-review.updated}}"),
      status: "rejected",
      statusNote: `The loss is not covered by the terms of the policy: ${NOT_COVERED}`,
      rejectionReason: "not_covered",
      updated: "{{timestamp}}",
      reserve: 0,
      history: [
        { status: "submitted", at: "{{claim-mirror.tmstmp}}" },
        { status: "in_review", at: "{{claim-mirror-in-review.updated}}" },
        { status: "rejected", note: NOT_COVERED, at: "{{timestamp}}" },
      ],
    },
  },
];

/** claim letter */
export const claimLetterExamples: readonly CommandExample[] = [
  {
    name: "claim-letter",
    title: "The letter of the rejected claim, for the claimant",
    cmmnd: "claim letter",
    seed: { claimNo: "{{claim-mirror.claimNo}}" },
    after: ["claim-mirror-rejected"],
    answer: { claimNo: "{{claim-mirror.claimNo}}", letter: "rejection", letterDocument: "{{base64}}", letterType: "pdf" },
  },
];
