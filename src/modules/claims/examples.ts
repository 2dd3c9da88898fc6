/**
 * The examples of the claims commands (CommandExample, src/http/registry.ts): the requests and answers
 * of /docs and /openapi.json, which test/reference.test.ts sends to the app. The refusals they show
 * are declared here too, and listed in their commands' errors.
 */
import { type CommandExample, refusal } from "../../http/registry";

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
    },
  },
];
