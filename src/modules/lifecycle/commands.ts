import { z } from "zod";
import { BLANK_FIELD, wireTimestamp } from "../../core/answers";
import { refuseBlankFields } from "../../core/blank";
import { type CommandContext, command, refusal } from "../../core/registry";
import { watTimestamp } from "../../core/time";
import { findProduct, wirePremium } from "../../products";
import { REFUND_BASES } from "../../products/cancellation";
import { keyActor } from "../audit/service";
import { normaliseReference } from "../policies/reference";
import { addressOf, endorsementShape, POLICY_ADDRESS, POLICY_UNKNOWN, policyStatus, statusNote, storedReference, wireEndorsement } from "../policies/wire";
import { type CancellationOutcome, type CancellationRequest, cancelPolicy, quoteCancellation, storedCancellation, wireCancellation } from "./cancellation";
import type { Canceller } from "./changes";
import { type EndorsementOutcome, endorsePolicy, quoteEndorsement, storedEndorsement } from "./endorsements";
import { autoRenewSeed, type CancelSeed, cancelSeed, endorsementQuoteSeed, endorseSeed, refundQuoteSeed, reinstateSeed, renewSeed } from "./model";
import { type ReinstatementOutcome, reinstatePolicy, storedReinstatement, wireReinstatement } from "./reinstatement";
import { type RenewalOutcome, renewPolicy, setAutoRenew, storedRenewal } from "./renewal";

const naira = z.number().meta({ description: "Naira (kobo as two decimals)" });
const refundFields = {
  effectiveDate: z.string().meta({ description: "The first day without cover (Nigerian date)" }),
  refund: naira.meta({ description: "Given back to the wallet (live policies; a test policy moves no money)" }),
  fee: naira.meta({ description: "The short-period fee kept" }),
  refundBasis: z.enum(REFUND_BASES).meta({ description: "Which part of the product's refund rule decided (docs/lifecycle.md)" }),
  refundExplanation: z.string().meta({ description: "The rule as it applied, in words" }),
};

const cancellationShape = z.object({
  id: z.string().meta({ description: "Your reference for the cancellation" }),
  reason: cancelSeed.shape.reason,
  note: z.string().optional(),
  ...refundFields,
});

const NOT_ACTIVE = refusal(409, "policy <tx_id> <is pending|was declined|has lapsed|has expired>: only an approved policy can be cancelled");
const ALREADY_CANCELLED = refusal(409, "policy <tx_id> is already cancelled (<statusNote>)", "another cancellation of a cancelled policy");
const CLAIM_PENDING = refusal(
  409,
  "policy <tx_id> has claim <claimNo> still being decided (<status>): it can be cancelled once the claim is decided or withdrawn",
);
const DATE_PAST = refusal(400, "seed.effectiveDate must be today (<today>) or later: a cancellation never reaches back; received <date>");
const DATE_AFTER_COVER = refusal(400, "seed.effectiveDate must be within the cover of policy <tx_id>, which ends on <date>; received <date>");
const REFERENCE_REUSED = refusal(
  409,
  "seed.id <reference> was already used to cancel policy <tx_id>, with another <fields>: a repeat must send the same cancellation",
);
const NOTE_REQUIRED = refusal(400, 'seed.note is required with reason "other": say why in seed.note');
const OPERATOR_REASON = refusal(403, "seed.reason misrepresentation is the insurer's finding: only the operator cancels for it");

const vehicleAddress = "entt_{{consumer.id}}|insr_vhcl-tprt-1111-{{policy.id}}";
const coolingOff = {
  refund: 15000,
  fee: 0,
  refundBasis: "cooling-off",
  refundExplanation: "All of the premium: cancelled within 14 days of issue, with no claim made",
};

const answerOf = ({ policy, cancellation }: CancellationOutcome) => ({
  id: policy.reference,
  status: policy.status,
  ...(policy.statusNote ? { statusNote: policy.statusNote } : {}),
  cancellation: wireCancellation(cancellation),
  tmstmp: watTimestamp(policy.statusAt),
});

const partnerCanceller = (ctx: CommandContext): Canceller => ({
  kind: "partner",
  partnerId: ctx.principal.partnerId,
  mode: ctx.principal.mode,
  actor: keyActor(ctx.principal),
});

const requestOf = (seed: CancelSeed): CancellationRequest => ({
  reference: normaliseReference(seed.id),
  reason: seed.reason,
  effectiveDate: seed.effectiveDate,
  note: seed.note,
});

const reinstatementShape = z.object({
  id: z.string().meta({ description: "Your reference for the reinstatement" }),
  paid: naira.meta({
    description: "Paid: a cancelled policy's refund, back from the wallet (live policies); a lapsed one's missed installments, recorded on its plan",
  }),
  gap: z
    .object({ from: wireTimestamp, to: wireTimestamp })
    .optional()
    .meta({ description: "The time without cover, when the cancellation had taken effect: claims for incidents in it are refused" }),
});
const NOT_CANCELLED = refusal(409, "policy <tx_id> is not cancelled or lapsed: only a cancelled or lapsed policy can be reinstated");
const WINDOW_CLOSED = refusal(409, "policy <tx_id> <was cancelled from|lapsed on> <date>: it could be reinstated for 30 days, until <date>");

const reinstatedAnswer = ({ policy, reinstatement }: ReinstatementOutcome) => ({
  id: policy.reference,
  status: policy.status,
  ...(policy.statusNote ? { statusNote: policy.statusNote } : {}),
  reinstatement: wireReinstatement(reinstatement),
  tmstmp: watTimestamp(policy.statusAt),
});

const renewedAnswer = ({ renewed, renewal }: RenewalOutcome) => ({
  id: renewal.reference,
  renews: renewed.reference,
  status: renewal.status,
  ...(renewal.statusNote ? { statusNote: renewal.statusNote } : {}),
  ...(renewal.policyNo ? { policyNo: renewal.policyNo } : {}),
  prmm: wirePremium(findProduct(renewal.productCode).family, renewal.premiumKobo),
  coverStart: watTimestamp(renewal.coverStart),
  coverEnd: watTimestamp(renewal.coverEnd),
});

const NOT_IN_FORCE = refusal(409, "policy <tx_id> <is pending|was declined|has lapsed|was cancelled|has expired>: only an approved policy is changed");
const NO_CHANGES = refusal(409, "policy <tx_id> (<product>) takes no mid-term changes: cancel it and issue a new policy with the new details");
const FIELD_FIXED = refusal(400, "seed.addtnlFact.<field> cannot be changed on <product>: what can be is <fields>");
const ENDORSEMENT_REFUSALS = [
  POLICY_UNKNOWN,
  NOT_IN_FORCE,
  NO_CHANGES,
  refusal(409, "policy <tx_id>'s cover started on <date>: it can be changed only before then", "travel: before departure"),
  refusal(409, "policy <tx_id> has a change waiting for an administrator (<reference>): one change at a time"),
  FIELD_FIXED,
  refusal(400, "seed.addtnlFact.<field> is already <value>: send only what changes"),
  refusal(400, "seed.addtnlFact.<field> <rule>", "a new value breaks the product's rule, as at issuance"),
  refusal(409, "the insurer declines this change: <reason>"),
  refusal(
    409,
    "policy <tx_id> is paid through financing plan <planNo>: a change of its premium waits until the plan is paid off (this change would cost <amount> naira)",
  ),
  BLANK_FIELD,
];

const endorsedAnswer = ({ policy, endorsement }: EndorsementOutcome) => ({
  id: policy.reference,
  status: policy.status,
  version: policy.version,
  endorsement: wireEndorsement(endorsement),
  tmstmp: watTimestamp(endorsement.createdAt),
});

const endorsementRequest = (seed: { id: string; addtnlFact: Record<string, unknown> }) => {
  refuseBlankFields(seed.addtnlFact, "seed.addtnlFact");
  return { reference: normaliseReference(seed.id), addtnlFact: seed.addtnlFact };
};

export const lifecycleCommands = [
  command({
    grammar: "ndrs entt_<consumer_id>|insr_<product_code>-<tx_id>",
    pattern: new RegExp(`^ndrs ${POLICY_ADDRESS}$`),
    who: "partner",
    seed: endorseSeed,
    summary:
      "Change an approved policy's facts mid-term (an endorsement: a new plate, a replacement device, a traveller's passport or dates, a loan amount; " +
      "each product's list in docs/lifecycle.md), checked as at issuance, the premium difference for the cover still to run charged or given back; " +
      "applied at once as a new certificate version (policy.endorsed), or pending where the product has live changes reviewed.",
    answer: z.object({
      id: storedReference,
      status: policyStatus,
      version: z.int().meta({ description: "The policy's certificate version now" }),
      endorsement: endorsementShape,
      tmstmp: wireTimestamp,
    }),
    errors: [
      ...ENDORSEMENT_REFUSALS,
      refusal(409, "seed.id <reference> was already used to change policy <tx_id>: a repeat must send the same change"),
      refusal(402, "insufficient wallet balance: the premium is <amount> naira and the balance is <balance> naira; top up with wallet topup", "live policies"),
    ],
    examples: [
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
    ],
    async handler(ctx, params, seed) {
      return endorsedAnswer(await endorsePolicy(ctx.db, partnerCanceller(ctx), { address: addressOf(params) }, endorsementRequest(seed), ctx.now()));
    },
    async recover(ctx, params, seed) {
      const stored = await storedEndorsement(ctx.db, partnerCanceller(ctx), { address: addressOf(params) }, endorsementRequest(seed));
      return stored && endorsedAnswer(stored);
    },
  }),
  command({
    grammar: "dump entt_<consumer_id>|insr_<product_code>-<tx_id>*ENDORSE",
    pattern: new RegExp(`^dump ${POLICY_ADDRESS}\\*ENDORSE$`),
    who: "partner",
    seed: endorsementQuoteSeed,
    summary:
      "What a change of an approved policy's facts would do now (changes nothing): the changes as ndrs would store them, the premium difference, and whether it is reviewed.",
    answer: z.object({
      id: storedReference,
      status: policyStatus,
      changes: endorsementShape.shape.changes,
      premiumChange: endorsementShape.shape.premiumChange,
      explanation: endorsementShape.shape.explanation,
      reviewed: z.boolean().meta({ description: "true: an administrator decides the change (live policies of products whose changes are reviewed)" }),
    }),
    errors: ENDORSEMENT_REFUSALS,
    examples: [
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
    ],
    async handler(ctx, params, seed) {
      refuseBlankFields(seed.addtnlFact, "seed.addtnlFact");
      const { policy, assessment } = await quoteEndorsement(ctx.db, partnerCanceller(ctx), { address: addressOf(params) }, seed.addtnlFact, ctx.now());
      return {
        id: policy.reference,
        status: policy.status,
        changes: assessment.changes,
        premiumChange: assessment.premium.changeKobo / 100,
        explanation: assessment.premium.explanation,
        reviewed: assessment.reviewed,
      };
    },
  }),
  command({
    grammar: "cncl entt_<consumer_id>|insr_<product_code>-<tx_id>",
    pattern: new RegExp(`^cncl ${POLICY_ADDRESS}$`),
    who: "partner",
    seed: cancelSeed,
    summary:
      "Cancel an approved policy from a date (today or later within the cover): status c, the product's refund to the wallet, " +
      "a financing plan closed, the policy.cancelled event (docs/lifecycle.md). A repeat with the same seed.id returns the first answer.",
    answer: z.object({ id: storedReference, status: policyStatus, statusNote, cancellation: cancellationShape, tmstmp: wireTimestamp }),
    errors: [POLICY_UNKNOWN, NOT_ACTIVE, ALREADY_CANCELLED, CLAIM_PENDING, DATE_PAST, DATE_AFTER_COVER, REFERENCE_REUSED, NOTE_REQUIRED, OPERATOR_REASON],
    examples: [
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
    ],
    async handler(ctx, params, seed) {
      return answerOf(await cancelPolicy(ctx.db, partnerCanceller(ctx), { address: addressOf(params) }, requestOf(seed), ctx.now()));
    },
    async recover(ctx, params, seed) {
      const stored = await storedCancellation(ctx.db, partnerCanceller(ctx), { address: addressOf(params) }, requestOf(seed));
      return stored && answerOf(stored);
    },
  }),
  command({
    grammar: "rinst entt_<consumer_id>|insr_<product_code>-<tx_id>",
    pattern: new RegExp(`^rinst ${POLICY_ADDRESS}$`),
    who: "partner",
    seed: reinstateSeed,
    summary:
      "Put a cancelled policy back in force within 30 days of the cancellation taking effect (the refund is paid back from the wallet), or a lapsed " +
      "one within 30 days of the lapse (its missed installments are recorded as paid on its plan, which runs again): the cover runs to its " +
      "original end, and the time without cover stays a gap in cover (docs/lifecycle.md).",
    answer: z.object({ id: storedReference, status: policyStatus, statusNote, reinstatement: reinstatementShape, tmstmp: wireTimestamp }),
    errors: [
      POLICY_UNKNOWN,
      NOT_CANCELLED,
      WINDOW_CLOSED,
      refusal(409, "policy <tx_id> lapsed before it was approved: issue a new policy instead"),
      refusal(402, "insufficient wallet balance: the premium is <amount> naira and the balance is <balance> naira; top up with wallet topup", "live policies"),
    ],
    examples: [
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
    ],
    async handler(ctx, params, seed) {
      return reinstatedAnswer(await reinstatePolicy(ctx.db, partnerCanceller(ctx), { address: addressOf(params) }, normaliseReference(seed.id), ctx.now()));
    },
    async recover(ctx, params, seed) {
      const stored = await storedReinstatement(ctx.db, partnerCanceller(ctx), { address: addressOf(params) }, normaliseReference(seed.id));
      return stored && reinstatedAnswer(stored);
    },
  }),
  command({
    grammar: "rnew entt_<consumer_id>|insr_<product_code>-<tx_id>",
    pattern: new RegExp(`^rnew ${POLICY_ADDRESS}$`),
    who: "partner",
    seed: renewSeed,
    summary:
      "Renew an approved policy in its last 60 days (vehicle, device, health, property): a new policy under seed.id, linked to it, its cover " +
      "continuing from the day after, priced by today's rules and decided and paid as insure; STATUS of the new reference follows it (docs/lifecycle.md).",
    answer: z.object({
      id: storedReference.meta({ description: "The new policy's transaction reference" }),
      renews: storedReference.meta({ description: "The policy it renews" }),
      status: policyStatus,
      statusNote,
      policyNo: z.string().optional(),
      prmm: z.number().meta({ description: "The new premium (whole naira)" }),
      coverStart: wireTimestamp,
      coverEnd: wireTimestamp,
    }),
    errors: [
      POLICY_UNKNOWN,
      refusal(409, "policy <tx_id> can be renewed from <date>, 60 days before its cover ends on <date>"),
      refusal(409, "policy <tx_id> covers one trip or loan: it is not renewed; issue a new policy instead"),
      refusal(409, "policy <tx_id> is already renewed"),
      refusal(402, "insufficient wallet balance: the premium is <premium> naira and the balance is <balance> naira; top up with wallet topup", "live policies"),
    ],
    examples: [
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
    ],
    async handler(ctx, params, seed) {
      return renewedAnswer(
        await renewPolicy(ctx.db, partnerCanceller(ctx), { address: addressOf(params) }, normaliseReference(seed.id), ctx.now(), ctx.config.INSURER_DELAY_MS),
      );
    },
    async recover(ctx, params, seed) {
      const stored = await storedRenewal(ctx.db, partnerCanceller(ctx), { address: addressOf(params) }, normaliseReference(seed.id));
      return stored && renewedAnswer(stored);
    },
  }),
  command({
    grammar: "rnew entt_<consumer_id>|insr_<product_code>-<tx_id>*AUTO",
    pattern: new RegExp(`^rnew ${POLICY_ADDRESS}\\*AUTO$`),
    who: "partner",
    seed: autoRenewSeed,
    summary:
      "Opt a policy in to (or out of) automatic renewal: a week before its cover ends it is renewed as rnew would, paid from the wallet; " +
      "policy.renewal_failed says when it cannot be (docs/lifecycle.md).",
    answer: z.object({ id: storedReference, autoRenew: z.boolean() }),
    errors: [POLICY_UNKNOWN, refusal(409, "policy <tx_id> covers one trip or loan: it is not renewed; issue a new policy instead")],
    examples: [
      {
        name: "auto-renew",
        title: "Renew the vehicle policy automatically when its year ends",
        cmmnd: `rnew ${vehicleAddress}*AUTO`,
        seed: { enabled: true },
        answer: { id: "{{policy.id}}", autoRenew: true },
      },
    ],
    async handler(ctx, params, seed) {
      const policy = await setAutoRenew(ctx.db, partnerCanceller(ctx), { address: addressOf(params) }, seed.enabled, ctx.now());
      return { id: policy.reference, autoRenew: policy.autoRenew };
    },
  }),
  command({
    grammar: "dump entt_<consumer_id>|insr_<product_code>-<tx_id>*REFUND",
    pattern: new RegExp(`^dump ${POLICY_ADDRESS}\\*REFUND$`),
    who: "partner",
    seed: refundQuoteSeed,
    summary: "What cancelling an approved policy from a date would give back now (changes nothing): the figures cncl would store.",
    answer: z.object({ id: storedReference, status: policyStatus, ...refundFields }),
    errors: [POLICY_UNKNOWN, NOT_ACTIVE, CLAIM_PENDING, DATE_PAST, DATE_AFTER_COVER],
    examples: [
      {
        name: "refund-quote",
        title: "The refund of the vehicle policy if cancelled in 30 days",
        cmmnd: `dump ${vehicleAddress}*REFUND`,
        seed: { effectiveDate: "{{today+30}}" },
        answer: { id: "{{policy.id}}", status: "a", effectiveDate: "{{today+30}}", ...coolingOff },
      },
    ],
    async handler(ctx, params, seed) {
      const { policy, terms } = await quoteCancellation(ctx.db, partnerCanceller(ctx), { address: addressOf(params) }, seed.effectiveDate, ctx.now());
      return {
        id: policy.reference,
        status: policy.status,
        effectiveDate: terms.effectiveDate,
        refund: terms.refund.refundKobo / 100,
        fee: terms.refund.feeKobo / 100,
        refundBasis: terms.refund.basis,
        refundExplanation: terms.refund.explanation,
      };
    },
  }),
];
