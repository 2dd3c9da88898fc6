import { z } from "zod";
import { refuseBlankFields } from "../../core/blank";
import { watTimestamp } from "../../core/time";
import { BLANK_FIELD, wireTimestamp } from "../../http/answers";
import { type CommandContext, command, refusal } from "../../http/registry";
import { findProduct, wirePremium } from "../../products";
import { REFUND_BASES } from "../../products/cancellation";
import { keyActor } from "../audit";
import {
  addressOf,
  endorsementShape,
  normaliseReference,
  POLICY_ADDRESS,
  POLICY_UNKNOWN,
  policyStatus,
  statusNote,
  storedReference,
  wireEndorsement,
} from "../policies";
import { type CancellationOutcome, type CancellationRequest, cancelPolicy, quoteCancellation, storedCancellation, wireCancellation } from "./cancellation";
import type { Canceller } from "./changes";
import { type EndorsementOutcome, endorsePolicy, quoteEndorsement, storedEndorsement } from "./endorsements";
import {
  ALREADY_CANCELLED,
  autoRenewExamples,
  cancelExamples,
  DATE_PAST,
  endorseExamples,
  endorseQuoteExamples,
  FIELD_FIXED,
  NOT_CANCELLED,
  refundQuoteExamples,
  reinstateExamples,
  renewExamples,
} from "./examples";
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
const CLAIM_PENDING = refusal(
  409,
  "policy <tx_id> has claim <claimNo> still being decided (<status>): it can be cancelled once the claim is decided or withdrawn",
);
const DATE_AFTER_COVER = refusal(400, "seed.effectiveDate must be within the cover of policy <tx_id>, which ends on <date>; received <date>");
const REFERENCE_REUSED = refusal(
  409,
  "seed.id <reference> was already used to cancel policy <tx_id>, with another <fields>: a repeat must send the same cancellation",
);
const NOTE_REQUIRED = refusal(400, 'seed.note is required with reason "other": say why in seed.note');
const OPERATOR_REASON = refusal(403, "seed.reason misrepresentation is the insurer's finding: only the operator cancels for it");

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
    examples: endorseExamples,
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
    examples: endorseQuoteExamples,
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
    examples: cancelExamples,
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
    examples: reinstateExamples,
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
    examples: renewExamples,
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
    examples: autoRenewExamples,
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
    examples: refundQuoteExamples,
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
