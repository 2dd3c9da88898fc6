/**
 * The examples of the issuance commands (CommandExample, src/http/registry.ts): the requests and answers
 * of /docs and /openapi.json, which test/reference.test.ts sends to the app. The refusals they show
 * are declared here too, and listed in their commands' errors.
 */
import { ADMIN_ONLY, type CommandExample, refusal } from "../../http/registry";
import { POLICY_UNKNOWN } from "../policies";

export const REFERENCE_TAKEN = refusal(
  409,
  "seed.id is already in use: <tx_id> identifies an earlier policy of this partner",
  "the transaction reference was used before (spec 2.5)",
);
export const REFERENCE_INVALID = refusal(400, "seed.id is invalid: use a UUID (hyphenated, or 32 hexadecimal characters) or at most 32 letters and digits");
export const CONSUMER_UNKNOWN = refusal(409, "consumer not found: <consumer_id> was not returned by prfl entity under these credentials", "spec 4.3 rule 1");
export const OTHER_MODE = refusal(
  403,
  "policy <tx_id> was issued in <mode> mode: it is approved or declined with a <mode> key, and this key runs in <mode> mode",
  "the operator's test key on a live policy, or its live key on a test one",
);
export const NOT_PENDING = refusal(409, "policy <tx_id> is <already approved|already declined|lapsed>: only pending policies can be reviewed");

const VEHICLE_REFERENCE = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
const vehiclePolicy = {
  ctgry: "vhcl",
  type: "tprt",
  pckg: "1111",
  id: VEHICLE_REFERENCE,
  insrncDrtn: "1y",
  addtnlFact: { brand: "Toyota", model: "Corolla", year: "2018", chsssId: "2T1BURHE0JC074316", engineId: "2ZR1234567", rgstrtId: "ABC123DE" },
};
const listedVehiclePolicy = {
  id: VEHICLE_REFERENCE,
  consumerId: "{{consumer.id}}",
  productCode: "vhcl-tprt-1111",
  status: "a",
  policyNo: "{{policy.policyNo}}",
  prmm: 15000,
  currency: "NGN",
  mode: "test",
  tmstmp: "{{timestamp}}",
  statusTmstmp: "{{timestamp}}",
};
const approvedInTestMode = { status: "a", policyNo: "{{policyNo}}", certUrl: "{{certUrl}}", crtfctType: "pdf" };
const CREDIT_LIFE_REFERENCE = "LOAN2026000123";
const creditLifeAddress = `entt_{{consumer.id}}|insr_crlt-psnl-1111-${CREDIT_LIFE_REFERENCE}`;

/** entt_<consumer_id>: insure */
export const insureExamples: readonly CommandExample[] = [
  {
    name: "policy",
    title: "Vehicle third-party in test mode: approved at once, with a specimen certificate",
    cmmnd: "entt_{{consumer.id}}: insure",
    seed: vehiclePolicy,
    after: ["quote"],
    answer: { id: VEHICLE_REFERENCE, ...approvedInTestMode },
  },
  {
    name: "policy-travel",
    title: "Travel as quoted (a week in Germany), departing in ten days",
    cmmnd: "entt_{{consumer.id}}: insure",
    seed: {
      ctgry: "ltix",
      type: "stnd",
      pckg: "1111",
      id: "3b241101-e2bb-4255-8caf-4136c566a962",
      insrncDrtn: "7d",
      addtnlFact: {
        planType: "individual",
        destination: "Germany",
        departureDate: "{{today+10}}",
        returnDate: "{{today+15}}",
        passportNo: "A12345678",
        occupation: "Engineer",
        nokName: "Chukwuma Okafor",
        nokRelationship: "Brother",
        nokPhone: "+2348030000001",
      },
    },
    after: ["quote-travel"],
    answer: { id: "3b241101-e2bb-4255-8caf-4136c566a962", ...approvedInTestMode },
  },
  {
    name: "policy-credit-life",
    title: "Credit life with a live key: paid from the wallet, pending until an administrator decides",
    cmmnd: "entt_{{consumer.id}}: insure",
    key: "live",
    seed: {
      ctgry: "crlt",
      type: "psnl",
      pckg: "1111",
      id: CREDIT_LIFE_REFERENCE,
      addtnlFact: { loanAmount: 50000000, loanTenure: 12, disbursementDate: "{{today}}", loanStartDate: "{{today}}", loanEndDate: "{{today+365}}" },
    },
    after: ["topup"],
    answer: { id: CREDIT_LIFE_REFERENCE, status: "p" },
  },
  {
    name: "policy-marine-export",
    title: "Marine export with a live key: approved at once, the certificate (DOCX) in the answer",
    cmmnd: "entt_{{consumer-exporter.id}}: insure",
    key: "live",
    seed: {
      ctgry: "mexx",
      type: "stnd",
      pckg: "1111",
      id: "c0a80121-7ac0-4e1c-9f3b-2d5e8f6a1b22",
      insrncDrtn: "3m",
      addtnlFact: {
        items: [
          { description: "Cashew nuts", quantity: 100, value: 3000000 },
          { description: "Sesame seeds", quantity: 50, value: 2000000 },
        ],
        goodsValue: 5000000,
        goodsDscrptn: "Agricultural produce",
        voyage: [{ origin: "Lagos" }, { destination: "Rotterdam" }],
        proformaInvoice: "PI-2026-0042",
        proformaDate: "{{today}}",
      },
    },
    after: ["topup"],
    answer: { id: "c0a80121-7ac0-4e1c-9f3b-2d5e8f6a1b22", status: "a", policyNo: "{{policyNo}}", crtfct: "{{base64}}", crtfctType: "docx" },
  },
  {
    name: "policy-all-risks",
    title: "All risk cover for a month (test mode): a laptop, camera and phones",
    cmmnd: "entt_{{consumer.id}}: insure",
    seed: {
      ctgry: "allr",
      type: "stnd",
      pckg: "1111",
      id: "e5f6a7b8-9c0d-4e1f-8a2b-3c4d5e6f7a8b",
      insrncDrtn: "1m",
      addtnlFact: { sumInsured: 1000000, description: "Laptop, camera and two phones" },
    },
    answer: { id: "e5f6a7b8-9c0d-4e1f-8a2b-3c4d5e6f7a8b", ...approvedInTestMode },
  },
  {
    name: "policy-again",
    title: "The same transaction reference twice",
    cmmnd: "entt_{{consumer.id}}: insure",
    seed: vehiclePolicy,
    after: ["policy"],
    refusal: REFERENCE_TAKEN,
  },
  {
    name: "policy-unknown-consumer",
    title: "A consumer id this partner never registered",
    cmmnd: "entt_0f8fad5bd9cb469fa16570867728950e: insure",
    seed: vehiclePolicy,
    refusal: CONSUMER_UNKNOWN,
  },
  {
    name: "policy-bad-reference",
    title: "A transaction reference with a hyphen but not a UUID",
    cmmnd: "entt_{{consumer.id}}: insure",
    seed: { ...vehiclePolicy, id: "order-2026-0042" },
    refusal: REFERENCE_INVALID,
  },
];

/** dump entt_<consumer_id>|insr_<product_code>-<tx_id>*STATUS */
export const statusExamples: readonly CommandExample[] = [
  {
    name: "status",
    title: "The vehicle policy issued in test mode",
    cmmnd: `dump entt_{{consumer.id}}|insr_vhcl-tprt-1111-{{policy.id}}*STATUS`,
    answer: { status: "a", policyNo: "{{policy.policyNo}}", certUrl: "{{policy.certUrl}}", crtfctType: "pdf", tmstmp: "{{timestamp}}" },
  },
  {
    name: "status-cancelled",
    title: "The vehicle policy once cancelled: its number and certificate stay (the certificate now says it is cancelled)",
    cmmnd: `dump entt_{{consumer.id}}|insr_vhcl-tprt-1111-{{policy.id}}*STATUS`,
    after: ["cancel"],
    answer: {
      status: "c",
      statusNote: "Cancelled from {{today}}: the insured asked to cancel",
      policyNo: "{{policy.policyNo}}",
      certUrl: "{{policy.certUrl}}",
      crtfctType: "pdf",
      tmstmp: "{{timestamp}}",
    },
  },
  {
    name: "status-pending",
    title: "The credit life policy while it waits for an administrator",
    cmmnd: `dump ${creditLifeAddress}*STATUS`,
    key: "live",
    after: ["policy-credit-life"],
    answer: { status: "p", tmstmp: "{{timestamp}}" },
  },
  {
    name: "status-unknown",
    title: "A transaction reference this partner never used",
    cmmnd: "dump entt_{{consumer.id}}|insr_vhcl-tprt-1111-5f0c8a7e9b2d4c6aa1e3f5b7d9c1e3a5*STATUS",
    refusal: POLICY_UNKNOWN,
  },
];

/** appr entt_<consumer_id>|insr_<product_code>-<tx_id> */
export const approveExamples: readonly CommandExample[] = [
  {
    name: "approve",
    title: "Approve the pending credit life policy (with the operator's live key: the policy is live)",
    cmmnd: `appr ${creditLifeAddress}`,
    key: "live",
    after: ["policy-credit-life"],
    answer: { id: CREDIT_LIFE_REFERENCE, status: "a", policyNo: "{{policyNo}}", tmstmp: "{{timestamp}}" },
  },
  {
    name: "decline",
    title: "Decline it instead, saying why (a live premium is refunded)",
    cmmnd: `appr ${creditLifeAddress}`,
    key: "live",
    seed: { status: "d", statusNote: "Borrower outside the insurable age band" },
    after: ["policy-credit-life"],
    answer: { id: CREDIT_LIFE_REFERENCE, status: "d", statusNote: "Borrower outside the insurable age band", tmstmp: "{{timestamp}}" },
  },
  { name: "approve-again", title: "Approve it twice", cmmnd: `appr ${creditLifeAddress}`, key: "live", after: ["approve"], refusal: NOT_PENDING },
  {
    name: "approve-other-mode",
    title: "The operator's test key on the live policy",
    cmmnd: `appr ${creditLifeAddress}`,
    after: ["policy-credit-life"],
    refusal: OTHER_MODE,
  },
  {
    name: "approve-as-partner",
    title: "A partner trying to approve its own policy",
    cmmnd: `appr ${creditLifeAddress}`,
    as: "partner",
    after: ["policy-credit-life"],
    refusal: ADMIN_ONLY,
  },
];

/** dump entt_* */
export const policyListExamples: readonly CommandExample[] = [
  {
    name: "policies",
    title: "The policies issued so far",
    cmmnd: "dump entt_*",
    seed: { limit: 20 },
    after: ["policy"],
    answer: { list: [listedVehiclePolicy], nextCursor: null },
  },
];

/** dump entt_*ADMIN */
export const policyListAdminExamples: readonly CommandExample[] = [
  {
    name: "policies-admin",
    title: "The newest approved travel policy of any partner, with a cursor to the next",
    cmmnd: "dump entt_*ADMIN",
    // Filtered, so that what other partners do meanwhile (on a shared database) does not come first.
    seed: { limit: 1, productCode: "ltix-stnd-1111", status: "a" },
    after: ["policy", "policy-travel"],
    answer: {
      list: [
        {
          id: "{{policy-travel.id}}",
          consumerId: "{{consumer.id}}",
          partnerId: "{{partnerId}}",
          productCode: "ltix-stnd-1111",
          status: "a",
          policyNo: "{{policy-travel.policyNo}}",
          prmm: 5072,
          currency: "NGN",
          mode: "test",
          tmstmp: "{{timestamp}}",
          statusTmstmp: "{{timestamp}}",
        },
      ],
      nextCursor: "{{cursor}}",
    },
  },
];
