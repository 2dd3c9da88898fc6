/**
 * The examples of the lifecycle commands (CommandExample, src/http/registry.ts): the requests and answers
 * of /docs and /openapi.json, which test/reference.test.ts sends to the app. The refusals they show
 * are declared here too, and listed in their commands' errors.
 */
import { type CommandExample, refusal } from "../../http/registry";

export const ALREADY_CANCELLED = refusal(409, "policy <tx_id> is already cancelled (<statusNote>)", "another cancellation of a cancelled policy");
export const DATE_PAST = refusal(400, "seed.effectiveDate must be today (<today>) or later: a cancellation never reaches back; received <date>");

const vehicleAddress = "entt_{{consumer.id}}|insr_vhcl-tprt-1111-{{policy.id}}";
const coolingOff = {
  refund: 15000,
  fee: 0,
  refundBasis: "cooling-off",
  refundExplanation: "All of the premium: cancelled within 14 days of issue, with no claim made",
};

export const NOT_CANCELLED = refusal(409, "policy <tx_id> is not cancelled or lapsed: only a cancelled or lapsed policy can be reinstated");
export const FIELD_FIXED = refusal(400, "seed.addtnlFact.<field> cannot be changed on <product>: what can be is <fields>");

/** ndrs entt_<consumer_id>|insr_<product_code>-<tx_id> */
export const endorseExamples: readonly CommandExample[] = [
  {
    name: "endorse",
    title: "The insured vehicle was re-registered: a new plate on the policy, certificate version 2, the premium unchanged",
    cmmnd: `ndrs ${vehicleAddress}`,
    seed: { id: "NDRS2026000001", addtnlFact: { rgstrtId: "LND456XY" } },
    after: ["policy"],
    answer: {
      id: "{{policy.id}}",
      status: "a",
      version: 2,
      endorsement: {
        id: "NDRS2026000001",
        status: "applied",
        version: 2,
        changes: [{ field: "rgstrtId", from: "ABC123DE", to: "LND456XY" }],
        premiumChange: 0,
        explanation: "The premium does not change",
        tmstmp: "{{timestamp}}",
      },
      tmstmp: "{{timestamp}}",
    },
  },
  {
    name: "endorse-travel",
    title: "The trip moves two days later, before departure: the cover moves with it",
    cmmnd: "ndrs entt_{{consumer.id}}|insr_ltix-stnd-1111-{{policy-travel.id}}",
    seed: { id: "NDRS2026000002", addtnlFact: { departureDate: "{{today+12}}", returnDate: "{{today+17}}" } },
    after: ["policy-travel"],
    answer: {
      id: "{{policy-travel.id}}",
      status: "a",
      version: 2,
      endorsement: {
        id: "NDRS2026000002",
        status: "applied",
        version: 2,
        changes: [
          { field: "departureDate", from: "{{today+10}}", to: "{{today+12}}" },
          { field: "returnDate", from: "{{today+15}}", to: "{{today+17}}" },
        ],
        premiumChange: 0,
        explanation: "The premium does not change",
        tmstmp: "{{timestamp}}",
      },
      tmstmp: "{{timestamp}}",
    },
  },
  {
    name: "endorse-fixed",
    title: "A field the product does not let change (the vehicle's make)",
    cmmnd: `ndrs ${vehicleAddress}`,
    seed: { id: "NDRS2026000003", addtnlFact: { brand: "Honda" } },
    after: ["policy"],
    refusal: FIELD_FIXED,
  },
];

/** dump entt_<consumer_id>|insr_<product_code>-<tx_id>*ENDORSE */
export const endorseQuoteExamples: readonly CommandExample[] = [
  {
    name: "endorse-quote",
    title: "What a new plate on the vehicle policy would cost",
    cmmnd: `dump ${vehicleAddress}*ENDORSE`,
    seed: { addtnlFact: { rgstrtId: "LND456XY" } },
    after: ["policy"],
    answer: {
      id: "{{policy.id}}",
      status: "a",
      changes: [{ field: "rgstrtId", from: "ABC123DE", to: "LND456XY" }],
      premiumChange: 0,
      explanation: "The premium does not change",
      reviewed: false,
    },
  },
];

/** cncl entt_<consumer_id>|insr_<product_code>-<tx_id> */
export const cancelExamples: readonly CommandExample[] = [
  {
    name: "cancel",
    title: "Cancel the vehicle policy today, at the insured's request: within 14 days and with no claim, all of the premium comes back",
    cmmnd: `cncl ${vehicleAddress}`,
    seed: { id: "8a3c2f10-5b7d-4e21-9c4a-0d6e8f1a2b3c", reason: "insured_request" },
    answer: {
      id: "{{policy.id}}",
      status: "c",
      statusNote: "Cancelled from {{today}}: the insured asked to cancel",
      cancellation: { id: "8a3c2f10-5b7d-4e21-9c4a-0d6e8f1a2b3c", reason: "insured_request", effectiveDate: "{{today}}", ...coolingOff },
      tmstmp: "{{timestamp}}",
    },
  },
  {
    name: "cancel-later",
    title: "Cancel it from a later day within the cover, saying why",
    cmmnd: `cncl ${vehicleAddress}`,
    seed: { id: "CNCL2026000042", reason: "item_sold", effectiveDate: "{{today+30}}", note: "Car sold to a dealer" },
    answer: {
      id: "{{policy.id}}",
      status: "c",
      statusNote: "Cancelled from {{today+30}}: the insured vehicle, device, goods or property was sold or replaced (Car sold to a dealer)",
      cancellation: { id: "CNCL2026000042", reason: "item_sold", note: "Car sold to a dealer", effectiveDate: "{{today+30}}", ...coolingOff },
      tmstmp: "{{timestamp}}",
    },
  },
  {
    name: "cancel-again",
    title: "A second cancellation of the cancelled policy (another seed.id)",
    cmmnd: `cncl ${vehicleAddress}`,
    seed: { id: "9b4d3e21-6c8e-4f32-8d5b-1e7f9a2b3c4d", reason: "duplicate" },
    after: ["cancel"],
    refusal: ALREADY_CANCELLED,
  },
  {
    name: "cancel-past",
    title: "A cancellation that reaches back",
    cmmnd: `cncl ${vehicleAddress}`,
    seed: { id: "CNCL2026000043", reason: "insured_request", effectiveDate: "{{today-1}}" },
    refusal: DATE_PAST,
  },
];

/** rinst entt_<consumer_id>|insr_<product_code>-<tx_id> */
export const reinstateExamples: readonly CommandExample[] = [
  {
    name: "reinstate",
    title: "Undo the cancellation of the vehicle policy before it takes effect: no gap in cover",
    cmmnd: `rinst ${vehicleAddress}`,
    seed: { id: "RINST2026000007" },
    after: ["cancel-later"],
    answer: {
      id: "{{policy.id}}",
      status: "a",
      statusNote: "Reinstated on {{today}}, before the cancellation took effect",
      reinstatement: { id: "RINST2026000007", paid: 0 },
      tmstmp: "{{timestamp}}",
    },
  },
  {
    name: "reinstate-active",
    title: "A policy that was never cancelled",
    cmmnd: `rinst ${vehicleAddress}`,
    seed: { id: "RINST2026000008" },
    after: ["policy"],
    refusal: NOT_CANCELLED,
  },
];

/** rnew entt_<consumer_id>|insr_<product_code>-<tx_id> */
export const renewExamples: readonly CommandExample[] = [
  {
    name: "renew",
    title: "Renew the month of all risk cover (in its last 60 days from the start): the new policy continues from the day after",
    cmmnd: "rnew entt_{{consumer.id}}|insr_allr-stnd-1111-{{policy-all-risks.id}}",
    seed: { id: "RNEW2026000001" },
    answer: {
      id: "RNEW2026000001",
      renews: "{{policy-all-risks.id}}",
      status: "a",
      policyNo: "{{policyNo}}",
      prmm: 5000,
      coverStart: "{{timestamp}}",
      coverEnd: "{{timestamp}}",
    },
  },
  {
    name: "renew-early",
    title: "Renewing the year-long vehicle policy on its first day: too early",
    cmmnd: `rnew ${vehicleAddress}`,
    seed: { id: "4d2e8f60-1a3b-4c5d-8e9f-0a1b2c3d4e5f" },
    after: ["policy"],
    refusal: refusal(409, "policy <tx_id> can be renewed from <date>, 60 days before its cover ends on <date>"),
  },
];

/** rnew entt_<consumer_id>|insr_<product_code>-<tx_id>*AUTO */
export const autoRenewExamples: readonly CommandExample[] = [
  {
    name: "auto-renew",
    title: "Renew the vehicle policy automatically when its year ends",
    cmmnd: `rnew ${vehicleAddress}*AUTO`,
    seed: { enabled: true },
    answer: { id: "{{policy.id}}", autoRenew: true },
  },
];

/** dump entt_<consumer_id>|insr_<product_code>-<tx_id>*REFUND */
export const refundQuoteExamples: readonly CommandExample[] = [
  {
    name: "refund-quote",
    title: "The refund of the vehicle policy if cancelled in 30 days",
    cmmnd: `dump ${vehicleAddress}*REFUND`,
    seed: { effectiveDate: "{{today+30}}" },
    answer: { id: "{{policy.id}}", status: "a", effectiveDate: "{{today+30}}", ...coolingOff },
  },
];
