import { z } from "zod";
import { toNaira as naira } from "../../core/money";
import { watTimestamp } from "../../core/time";
import { BLANK_FIELD, currency, naira as nairaField, page, UNKNOWN_FIELD, wireDate, wireTimestamp } from "../../http/answers";
import { ADMIN_ONLY, command, refusal } from "../../http/registry";
import { keyActor } from "../audit";
import { assessClaim } from "./assessment";
import { clockSettings } from "./clock";
import {
  CANNOT_BECOME,
  claimAssessExamples,
  claimListExamples,
  claimRespondExamples,
  claimReviewExamples,
  claimStatusExamples,
  claimSubmitExamples,
  claimWithdrawExamples,
  IN_THE_FUTURE,
} from "./examples";
import {
  approvedKoboOf,
  assessmentChangeOf,
  assessSeed,
  claimRequestFrom,
  DOCUMENT_TYPES,
  documentsFrom,
  listSeed,
  parseClaimSeed,
  respondSeed,
  reviewSeed,
  statusSeed,
  submitSeed,
  withdrawSeed,
} from "./model";
import { checklistOf } from "./rules";
import { CLAIM_STATUSES } from "./schema";
import {
  type ClaimDetail,
  type ClaimRecord,
  claimAmounts,
  claimDeadlines,
  claimDetail,
  claimHeading,
  earlierClaim,
  listClaims,
  refundTakenBack,
  respondToClaim,
  reviewClaim,
  submitClaim,
  withdrawClaim,
} from "./service";

const claimStatus = z.enum(CLAIM_STATUSES);
const claimNumber = z.string().meta({ description: "The claim number (CLM-<year>-<10 characters>)" });
const policyReference = z.string().meta({ description: "The policy's transaction reference" });
const mode = z.enum(["test", "live"]).meta({ description: "The mode of the policy, and so of the claim" });

const listedClaim = z.object({
  claimNo: claimNumber,
  reference: z.string().optional().meta({ description: "Your reference, when the claim was submitted with one" }),
  policy: policyReference,
  productCode: z.string(),
  mode,
  status: claimStatus,
  statusNote: z.string().optional(),
  incidentDate: wireDate,
  description: z.string(),
  amount: nairaField("Amount claimed, naira"),
  approvedAmount: nairaField("Once approved: the amount accepted").optional(),
  excess: nairaField("Once approved: the product's excess (phone cover: 10 %)").optional(),
  payable: nairaField("Once approved: approvedAmount less excess").optional(),
  lateInterest: nairaField('Once paid after settlementDue: the interest paid for the delay (docs/claims.md, "The clock")').optional(),
  settlementDue: wireDate.meta({ description: "The last day (Nigerian) to settle the claim: 60 days from its notification, plus any pause" }),
  voucherDue: wireDate.optional().meta({ description: "Once approved: the last day to issue the discharge voucher (5 working days)" }),
  currency,
  tmstmp: wireTimestamp,
  updated: wireTimestamp,
});

const claimDetailAnswer = listedClaim.extend({
  documents: z.array(z.object({ name: z.string(), type: z.enum(["pdf", "jpg", "png", "webp"]), size: z.int().meta({ description: "Bytes" }) })),
  documentsNeeded: z
    .array(z.object({ key: z.string(), label: z.string(), checked: z.boolean().meta({ description: "The assessor has seen it" }) }))
    .meta({ description: 'The documents the claim\'s product needs (docs/claims.md, "Assessment")' }),
  history: z.array(z.object({ status: claimStatus, note: z.string().optional(), at: wireTimestamp })),
});

/** The operator's answers add what the assessment keeps: the partner, the assessor, the reserve and the whole checklist. */
const operatorClaimAnswer = claimDetailAnswer.extend({
  partnerId: z.uuid(),
  assessor: z.string().optional().meta({ description: "The administrator assessing the claim, once assigned" }),
  reserve: nairaField("The expected cost of the claim: the amount claimed at first, as the assessor keeps it"),
  checklist: z.array(z.object({ key: z.string(), label: z.string(), kind: z.enum(["document", "check"]), checked: z.boolean() })),
});

/** A claim in list answers: everything but its documents and history. */
function wireClaim(claim: ClaimRecord) {
  return {
    ...claimHeading(claim),
    incidentDate: claim.incidentDate,
    description: claim.description,
    ...claimAmounts(claim),
    ...claimDeadlines(claim),
    currency: "NGN" as const,
    tmstmp: watTimestamp(claim.createdAt),
    updated: watTimestamp(claim.updatedAt),
  };
}

/** The whole claim (`claim status`, and the answers of withdraw and review). Who made each change stays inside. */
const wireClaimDetail = (claim: ClaimDetail) => ({
  ...wireClaim(claim),
  documents: claim.documents.map((d) => ({ name: d.name, type: DOCUMENT_TYPES[d.mime], size: d.sizeBytes })),
  documentsNeeded: checklistOf(claim.productCode).documents.map((d) => ({ ...d, checked: claim.checked.includes(d.key) })),
  history: claim.history.map((step) => ({ status: step.status, ...(step.note ? { note: step.note } : {}), at: watTimestamp(new Date(step.at)) })),
});

/** The operator's whole claim: the partner's view, the partner, and the assessment. */
const operatorClaimDetail = (claim: ClaimDetail) => {
  const { documents, checks } = checklistOf(claim.productCode);
  const item = (kind: "document" | "check") => (d: { key: string; label: string }) => ({ ...d, kind, checked: claim.checked.includes(d.key) });
  return {
    partnerId: claim.partnerId,
    ...wireClaimDetail(claim),
    ...(claim.assessor ? { assessor: claim.assessor } : {}),
    reserve: naira(claim.reserveKobo),
    checklist: [...documents.map(item("document")), ...checks.map(item("check"))],
  };
};

/** The answer of `claim submit` (and of its repeat). */
const submittedAnswer = (claim: ClaimRecord) => ({
  claimNo: claim.claimNo,
  ...(claim.reference ? { reference: claim.reference } : {}),
  status: claim.status,
  policy: claim.policy,
  productCode: claim.productCode,
  mode: claim.mode,
  amount: naira(claim.claimedKobo),
  settlementDue: claim.settlementDueOn,
  currency: "NGN" as const,
  tmstmp: watTimestamp(claim.createdAt),
});

// ─── The reference: refusals no example shows (examples.ts has the examples and the refusals they show) ───

const UNKNOWN_CLAIM = refusal(404, "no claim <claimNo> among this partner's claims");

// Seeds are parsed in the handlers, not by the registry: blank fields must be refused (406) before validation.
export const claimCommands = [
  command({
    grammar: "claim submit",
    pattern: /^claim submit$/,
    who: "partner",
    summary: "Submit a claim on an active policy (by its transaction reference); a repeat with the same reference returns the first claim.",
    documentedSeed: submitSeed,
    answer: listedClaim.pick({
      claimNo: true,
      reference: true,
      status: true,
      policy: true,
      productCode: true,
      mode: true,
      amount: true,
      settlementDue: true,
      currency: true,
      tmstmp: true,
    }),
    errors: [
      refusal(
        409,
        "policy <tx_id> <is pending (status p)|was declined (status d)|has lapsed (status l)>: claims can be submitted only on an active policy (status a)",
      ),
      refusal(
        409,
        "policy <tx_id> was cancelled from <date> within its cooling-off, all of its premium refunded: it counts as never bought and takes no claim, for any incident",
      ),
      refusal(
        400,
        "seed.incidentDate must be within the cover of policy <tx_id>, <date> to <date>; received <date>, <before the cover started|after the cover ended|after the policy was cancelled>",
      ),
      IN_THE_FUTURE,
      refusal(400, "seed.amount must be at most <amount> naira, <basis> of policy <tx_id>; received <amount>"),
      refusal(404, "seed.policy: no policy <tx_id> among this partner's transactions"),
      refusal(403, "policy <tx_id> was issued in <mode> mode: its claims are handled with a <mode> key, and this key runs in <mode> mode"),
      refusal(409, "seed.reference <reference> was already used for claim <claimNo>, which has another <fields>: a repeat must send the same claim"),
      refusal(413, "seed.documents has <n> entries: a claim takes at most 10 documents"),
      BLANK_FIELD,
      UNKNOWN_FIELD,
    ],
    examples: claimSubmitExamples,
    async handler(ctx, _params, raw) {
      const request = claimRequestFrom(parseClaimSeed(submitSeed, raw), ctx.config.MAX_DOCUMENT_BYTES);
      const { claim } = await submitClaim(ctx.db, {
        partnerId: ctx.principal.partnerId,
        mode: ctx.principal.mode,
        request,
        now: ctx.now(),
        clock: clockSettings(ctx.config),
      });
      return submittedAnswer(claim);
    },
    async recover(ctx, _params, raw) {
      const request = claimRequestFrom(parseClaimSeed(submitSeed, raw), ctx.config.MAX_DOCUMENT_BYTES);
      // Without a reference a claim cannot be told from another: its outcome stays unknown.
      if (!request.reference) return undefined;
      const claim = await earlierClaim(ctx.db, ctx.principal.partnerId, request);
      return claim && submittedAnswer(claim);
    },
  }),
  command({
    grammar: "claim status",
    pattern: /^claim status$/,
    who: "partner",
    summary: "A claim of this partner with its documents and history.",
    documentedSeed: statusSeed,
    answer: claimDetailAnswer,
    errors: [UNKNOWN_CLAIM, refusal(400, "seed.claimNo must be a claim number as claim submit returned it, e.g. CLM-2026-7K3M9Q2XAB")],
    examples: claimStatusExamples,
    async handler(ctx, _params, raw) {
      const seed = parseClaimSeed(statusSeed, raw);
      return wireClaimDetail(await claimDetail(ctx.db, { partnerId: ctx.principal.partnerId }, seed.claimNo));
    },
  }),
  command({
    grammar: "claim list",
    pattern: /^claim list$/,
    who: "partner",
    summary: "List this partner's claims, newest first (filters: status, policy, from, to; cursor pagination).",
    documentedSeed: listSeed,
    answer: page(listedClaim),
    errors: [refusal(400, "seed.to must not be before seed.from")],
    examples: claimListExamples,
    async handler(ctx, _params, raw) {
      const { limit, cursor, ...filters } = parseClaimSeed(listSeed, raw);
      const page = await listClaims(ctx.db, { partnerId: ctx.principal.partnerId }, filters, { limit, cursor });
      return { list: page.items.map(wireClaim), nextCursor: page.nextCursor };
    },
  }),
  command({
    grammar: "claim withdraw",
    pattern: /^claim withdraw$/,
    who: "partner",
    summary: "Withdraw a claim that is submitted or in review.",
    documentedSeed: withdrawSeed,
    answer: claimDetailAnswer,
    errors: [UNKNOWN_CLAIM, CANNOT_BECOME],
    examples: claimWithdrawExamples,
    async handler(ctx, _params, raw) {
      const seed = parseClaimSeed(withdrawSeed, raw);
      const claim = await withdrawClaim(ctx.db, {
        partnerId: ctx.principal.partnerId,
        mode: ctx.principal.mode,
        claimNo: seed.claimNo,
        note: seed.note,
        now: ctx.now(),
      });
      return wireClaimDetail(claim);
    },
  }),
  command({
    grammar: "claim review",
    pattern: /^claim review$/,
    who: "admin",
    summary:
      "Move a claim of any partner: in_review, info_requested (with the question in note), approved (with approvedAmount), rejected (with a note), paid (administrator only).",
    documentedSeed: reviewSeed,
    answer: operatorClaimAnswer.extend({
      refundTakenBack: nairaField(
        "An approval of a claim on a cancelled policy: the cancellation's refund it took back from the partner's wallet (the cover was used)",
      ).optional(),
    }),
    errors: [
      refusal(404, "no claim <claimNo>"),
      CANNOT_BECOME,
      refusal(400, "seed.note is required to reject: say why in seed.note"),
      refusal(400, "seed.note is required to ask for information: say what the partner must send in seed.note"),
      refusal(400, 'seed.approvedAmount is only for approving: send it with status "approved", not "<status>"'),
      refusal(
        402,
        "approving claim <claimNo> takes back the refund of <amount> naira that policy <tx_id> received when it was cancelled, and the partner's wallet holds <balance> naira: approve it once the partner has topped up",
        "live policies",
      ),
      refusal(
        403,
        "policy <tx_id> was issued in <mode> mode: its claims are handled with a <mode> key, and this key runs in <mode> mode",
        "the operator's test key on a live claim, or its live key on a test one",
      ),
      ADMIN_ONLY,
    ],
    examples: claimReviewExamples,
    async handler(ctx, _params, raw) {
      const seed = parseClaimSeed(reviewSeed, raw);
      const claim = await reviewClaim(ctx.db, {
        claimNo: seed.claimNo,
        status: seed.status,
        note: seed.note,
        approvedKobo: approvedKoboOf(seed),
        by: `admin:${ctx.principal.partnerId}`,
        actor: keyActor(ctx.principal),
        mode: ctx.principal.mode,
        now: ctx.now(),
        clock: clockSettings(ctx.config),
      });
      return { ...operatorClaimDetail(claim), ...refundTakenBack(claim) };
    },
  }),
  command({
    grammar: "claim respond",
    pattern: /^claim respond$/,
    who: "partner",
    summary: "Answer the operator's request for information on a claim (note, documents): the claim goes back into review, its clock runs again.",
    documentedSeed: respondSeed,
    answer: claimDetailAnswer,
    errors: [
      UNKNOWN_CLAIM,
      CANNOT_BECOME,
      refusal(413, "seed.documents has <n> entries and claim <claimNo> holds <m>: a claim holds at most 30 documents in all"),
      refusal(403, "policy <tx_id> was issued in <mode> mode: its claims are handled with a <mode> key, and this key runs in <mode> mode"),
    ],
    examples: claimRespondExamples,
    async handler(ctx, _params, raw) {
      const seed = parseClaimSeed(respondSeed, raw);
      const claim = await respondToClaim(ctx.db, {
        partnerId: ctx.principal.partnerId,
        mode: ctx.principal.mode,
        claimNo: seed.claimNo,
        note: seed.note,
        documents: documentsFrom(seed.documents, ctx.config.MAX_DOCUMENT_BYTES),
        now: ctx.now(),
      });
      return wireClaimDetail(claim);
    },
  }),
  command({
    grammar: "claim assess",
    pattern: /^claim assess$/,
    who: "admin",
    summary: "Assess an open claim of any partner: assign the assessor, keep the reserve with a reason, tick or untick the checklist (administrator only).",
    documentedSeed: assessSeed,
    answer: operatorClaimAnswer,
    errors: [
      refusal(404, "no claim <claimNo>"),
      refusal(409, "claim <claimNo> is <status>: its assessment closed with the decision"),
      refusal(400, "seed.assessor <email> is not an active administrator of the operator"),
      refusal(400, "seed.reserve must be at most the amount claimed, <amount> naira; received <amount>"),
      refusal(400, "seed.<check|uncheck>: <items> <is|are> not on the checklist of claim <claimNo>, which has <items>"),
      ADMIN_ONLY,
    ],
    examples: claimAssessExamples,
    async handler(ctx, _params, raw) {
      const seed = parseClaimSeed(assessSeed, raw);
      const claim = await assessClaim(ctx.db, {
        claimNo: seed.claimNo,
        change: assessmentChangeOf(seed),
        by: `admin:${ctx.principal.partnerId}`,
        actor: keyActor(ctx.principal),
        now: ctx.now(),
      });
      return operatorClaimDetail(claim);
    },
  }),
];
