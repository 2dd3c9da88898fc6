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
];

/** claim status */
export const claimStatusExamples: readonly CommandExample[] = [
  {
    name: "claim-status",
    title: "The claim just submitted",
    cmmnd: "claim status",
    seed: { claimNo: "{{claim.claimNo}}" },
    answer: { ...submitted, status: "submitted", updated: "{{claim.tmstmp}}", documents: [], history: [submittedStep] },
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
      history: [submittedStep, { status: "in_review", note: "Assessor assigned", at: "{{timestamp}}" }],
    },
  },
];
