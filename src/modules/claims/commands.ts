import { z } from "zod";
import { CommandError } from "../../core/errors";
import { toNaira as naira } from "../../core/money";
import { watTimestamp } from "../../core/time";
import type { Executor } from "../../db/client";
import { BLANK_FIELD, currency, naira as nairaField, page, UNKNOWN_FIELD, wireDate, wireTimestamp } from "../../http/answers";
import { ADMIN_ONLY, command, refusal } from "../../http/registry";
import { keyActor } from "../audit";
import { payoutProvider } from "../payouts";
import { claimSignals, signalSettings, signalsAnswer, wireSignals } from "../signals";
import { assessClaim } from "./assessment";
import { clockSettings } from "./clock";
import type { ClaimDecision } from "./decision-records";
import { decisionSettings, reviewClaim } from "./decisions";
import {
  CANNOT_BECOME,
  claimAcceptExamples,
  claimAssessExamples,
  claimDecisionExamples,
  claimDecisionSubmitExamples,
  claimLetterExamples,
  claimListExamples,
  claimPayeeExamples,
  claimRespondExamples,
  claimReviewExamples,
  claimStatusExamples,
  claimSubmitExamples,
  claimVoucherExamples,
  claimWithdrawExamples,
  IN_THE_FUTURE,
} from "./examples";
import {
  acceptSeed,
  approvedKoboOf,
  assessmentChangeOf,
  assessSeed,
  claimRequestFrom,
  DOCUMENT_TYPES,
  documentsFrom,
  listSeed,
  parseClaimSeed,
  payeeSeed,
  respondSeed,
  reviewSeed,
  statusSeed,
  submitSeed,
  voucherSeed,
  withdrawSeed,
} from "./model";
import { setPayee, wirePayee } from "./payee";
import { acceptAndPay, payoutSettings, wirePayout } from "./payout";
import { rejectionLetter } from "./rejection-letter";
import { REJECTION_REASON_KEYS } from "./rejections";
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
  submitClaim,
  withdrawClaim,
} from "./service";
import { voucherDocument, wireVoucher } from "./voucher";

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
  rejectionReason: z
    .enum(REJECTION_REASON_KEYS)
    .optional()
    .meta({ description: 'Once rejected: why, from the documented list (docs/claims.md, "Rejections"); statusNote has it in words' }),
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

const payeeAnswer = z
  .object({
    bankCode: z.string(),
    bank: z.string().meta({ description: "The bank's name" }),
    accountNumber: z.string(),
    accountName: z.string().meta({ description: "The name the bank holds for the account (its name enquiry)" }),
    nameCheck: z.enum(["matched", "mismatch", "confirmed"]).meta({
      description: "How the account's name compares with the insured's: within the tolerance, not (an administrator must confirm it), or confirmed by one",
    }),
  })
  .meta({ description: 'The account the claim is paid into (claim payee; docs/claims.md, "Payee")' });

const voucherAnswer = z
  .object({
    version: z.int(),
    status: z.enum(["issued", "accepted", "superseded"]),
    approvedAmount: nairaField("The amount approved"),
    excess: nairaField("The excess kept back"),
    payable: nairaField("What is paid (with any interest for a late settlement added to the payment)"),
    bankCode: z.string(),
    bank: z.string(),
    accountNumber: z.string(),
    accountName: z.string(),
    issued: wireTimestamp,
    accepted: wireTimestamp.optional(),
    channel: z.enum(["api", "portal", "self_service"]).optional().meta({ description: "Where the acceptance came from" }),
  })
  .meta({ description: 'The discharge voucher in force (docs/claims.md, "Discharge voucher")' });

const payoutAnswer = z
  .object({
    status: z.enum(["queued", "pending", "success", "failed", "reversed"]),
    amount: nairaField("What is sent: payable plus any late interest"),
    lateInterest: nairaField("The interest for a settlement after settlementDue, included in amount").optional(),
    reference: z.string().meta({ description: "The transfer's reference at the payout provider" }),
    reason: z.string().optional().meta({ description: "Why it failed or was reversed, as the bank said" }),
    voucherVersion: z.int(),
    queued: wireTimestamp,
    settled: wireTimestamp.optional(),
  })
  .meta({ description: 'The latest transfer of the settlement to the payee (docs/claims.md, "Payout")' });

const claimDetailAnswer = listedClaim.extend({
  documents: z.array(z.object({ name: z.string(), type: z.enum(["pdf", "jpg", "png", "webp"]), size: z.int().meta({ description: "Bytes" }) })),
  documentsNeeded: z
    .array(z.object({ key: z.string(), label: z.string(), checked: z.boolean().meta({ description: "The assessor has seen it" }) }))
    .meta({ description: 'The documents the claim\'s product needs (docs/claims.md, "Assessment")' }),
  history: z.array(z.object({ status: claimStatus, note: z.string().optional(), at: wireTimestamp })),
  payee: payeeAnswer.optional(),
  voucher: voucherAnswer.optional(),
  payout: payoutAnswer.optional(),
});

/** The operator's answers add what the assessment keeps: the partner, the assessor, the reserve and the whole checklist. */
const operatorClaimAnswer = claimDetailAnswer.extend({
  partnerId: z.uuid(),
  assessor: z.string().optional().meta({ description: "The administrator assessing the claim, once assigned" }),
  reserve: nairaField("The expected cost of the claim: the amount claimed at first, as the assessor keeps it"),
  checklist: z.array(z.object({ key: z.string(), label: z.string(), kind: z.enum(["document", "check"]), checked: z.boolean() })),
  recommendation: z
    .object({
      decision: z.enum(["approved", "rejected"]),
      approvedAmount: nairaField("An approval's amount accepted").optional(),
      amount: nairaField("What the authority is measured on: what the approval makes payable, or the amount a rejection refuses"),
      rejectionReason: z.enum(REJECTION_REASON_KEYS).optional(),
      note: z.string().optional(),
      recommendedBy: z.string(),
      grounds: z
        .array(z.enum(["authority", "signals"]))
        .meta({ description: "Why a second administrator must confirm: above the recommender's authority, or a claim the fraud signals flag" }),
      tmstmp: wireTimestamp,
    })
    .optional()
    .meta({
      description:
        'A decision waiting for a second administrator\'s confirmation in the portal (docs/claims.md, "Authority"); the claim keeps its status until then',
    }),
  signals: signalsAnswer,
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
  ...optional("payee", wirePayee(claim)),
  ...optional("voucher", claim.voucher && wireVoucher(claim.voucher)),
  ...optional("payout", claim.payout && wirePayout(claim.payout)),
});

/** A field that is there only when it has a value. */
const optional = <K extends string, V>(key: K, value: V | null | undefined) => (value == null ? {} : ({ [key]: value } as Record<K, V>));

/** The operator's whole claim: the partner's view, the partner, the assessment and the fraud signals (never the partner's). */
const operatorClaimDetail = async (db: Executor, claim: ClaimDetail) => {
  const { documents, checks } = checklistOf(claim.productCode);
  const item = (kind: "document" | "check") => (d: { key: string; label: string }) => ({ ...d, kind, checked: claim.checked.includes(d.key) });
  return {
    partnerId: claim.partnerId,
    ...wireClaimDetail(claim),
    ...(claim.assessor ? { assessor: claim.assessor } : {}),
    reserve: naira(claim.reserveKobo),
    checklist: [...documents.map(item("document")), ...checks.map(item("check"))],
    ...(claim.awaiting ? { recommendation: wireRecommendation(claim.awaiting) } : {}),
    signals: wireSignals(await claimSignals(db, claim.id)),
  };
};

/** A decision waiting for a second administrator, as the operator's answers show it. */
const wireRecommendation = (d: ClaimDecision) => ({
  decision: d.decision,
  ...(d.approvedKobo === null ? {} : { approvedAmount: naira(d.approvedKobo) }),
  amount: naira(d.amountKobo),
  ...(d.rejectionReason ? { rejectionReason: d.rejectionReason } : {}),
  ...(d.note ? { note: d.note } : {}),
  recommendedBy: d.recommendedBy,
  grounds: d.grounds,
  tmstmp: watTimestamp(d.createdAt),
});

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
    examples: [...claimSubmitExamples, ...claimDecisionSubmitExamples],
    async handler(ctx, _params, raw) {
      const request = claimRequestFrom(parseClaimSeed(submitSeed, raw), ctx.config.MAX_DOCUMENT_BYTES);
      const { claim } = await submitClaim(ctx.db, {
        partnerId: ctx.principal.partnerId,
        mode: ctx.principal.mode,
        request,
        now: ctx.now(),
        clock: clockSettings(ctx.config),
        signals: await signalSettings(ctx.db, ctx.config),
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
      "Move a claim of any partner: in_review, info_requested (with the question in note), approved (with approvedAmount), rejected (with rejectionReason); above the key's authority (an assessor's) or on a flagged claim, an approval or rejection waits as a recommendation for a second administrator (administrator only).",
    documentedSeed: reviewSeed,
    answer: operatorClaimAnswer.extend({
      refundTakenBack: nairaField(
        "An approval of a claim on a cancelled policy: the cancellation's refund it took back from the partner's wallet (the cover was used)",
      ).optional(),
    }),
    errors: [
      refusal(404, "no claim <claimNo>"),
      CANNOT_BECOME,
      refusal(400, 'seed.rejectionReason is required to reject: one of <reasons> (docs/claims.md, "Rejections")'),
      refusal(400, 'seed.note is required with rejectionReason "other": say why in seed.note'),
      refusal(400, 'seed.rejectionReason is only for rejecting: send it with status "rejected", not "<status>"'),
      refusal(
        409,
        "claim <claimNo> has a recommendation of <approving|rejecting> <amount> waiting for a second administrator: it must be confirmed or sent back first",
      ),
      refusal(
        409,
        'claim <claimNo> cannot be marked paid: a claim is paid when the payout\'s provider says the money arrived, after the claimant accepts the discharge voucher (docs/claims.md, "Payout")',
      ),
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
    examples: [...claimReviewExamples, ...claimDecisionExamples],
    async handler(ctx, _params, raw) {
      const seed = parseClaimSeed(reviewSeed, raw);
      const claim = await reviewClaim(ctx.db, {
        claimNo: seed.claimNo,
        status: seed.status,
        note: seed.note,
        approvedKobo: approvedKoboOf(seed),
        rejectionReason: seed.rejectionReason,
        by: `admin:${ctx.principal.partnerId}`,
        actor: keyActor(ctx.principal),
        mode: ctx.principal.mode,
        now: ctx.now(),
        settings: decisionSettings(ctx.config),
      });
      return { ...(await operatorClaimDetail(ctx.db, claim)), ...refundTakenBack(claim) };
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
        signals: await signalSettings(ctx.db, ctx.config),
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
      return operatorClaimDetail(ctx.db, claim);
    },
  }),
  command({
    grammar: "claim payee",
    pattern: /^claim payee$/,
    who: "partner",
    summary:
      "Give the account to pay a claim into (a bank's code and the ten-digit account number): the bank's name for it is looked up and compared with the insured's; an approved claim's discharge voucher names it.",
    documentedSeed: payeeSeed,
    answer: claimDetailAnswer,
    errors: [
      UNKNOWN_CLAIM,
      refusal(400, "seed.bankCode <code> is not a bank code we know: docs/payouts.md lists them (e.g. 058 for GTBank)"),
      refusal(400, "seed.accountNumber <number> at <bank>: the bank found no such account (<reason>)"),
      refusal(409, "claim <claimNo> is <status>: the account to pay it into can no longer change"),
      refusal(409, "claim <claimNo> has a payout <made|on its way> to its account: the account can no longer change"),
      refusal(403, "policy <tx_id> was issued in <mode> mode: its claims are handled with a <mode> key, and this key runs in <mode> mode"),
    ],
    examples: claimPayeeExamples,
    async handler(ctx, _params, raw) {
      const seed = parseClaimSeed(payeeSeed, raw);
      const claim = await setPayee(ctx.db, {
        partnerId: ctx.principal.partnerId,
        mode: ctx.principal.mode,
        claimNo: seed.claimNo,
        account: { bankCode: seed.bankCode, accountNumber: seed.accountNumber },
        provider: (mode) => payoutProvider(ctx.config, mode),
        letters: decisionSettings(ctx.config).letters,
        signals: await signalSettings(ctx.db, ctx.config),
        now: ctx.now(),
      });
      return wireClaimDetail(claim);
    },
  }),
  command({
    grammar: "claim voucher",
    pattern: /^claim voucher$/,
    who: "partner",
    summary: "The discharge voucher of an approved claim (the version in force, or an earlier one), with its PDF.",
    documentedSeed: voucherSeed,
    answer: voucherAnswer.extend({
      claimNo: claimNumber,
      voucherDocument: z.string().meta({ description: "The voucher, base64" }),
      voucherType: z.literal("pdf"),
    }),
    errors: [UNKNOWN_CLAIM, refusal(404, "claim <claimNo> has no discharge voucher<| version <n>>")],
    examples: claimVoucherExamples,
    async handler(ctx, _params, raw) {
      const seed = parseClaimSeed(voucherSeed, raw);
      const claim = await claimDetail(ctx.db, { partnerId: ctx.principal.partnerId }, seed.claimNo);
      const voucher = await voucherDocument(ctx.db, claim.id, seed.version);
      if (!voucher)
        throw new CommandError(404, `claim ${claim.claimNo} has no discharge voucher${seed.version ? ` version ${seed.version}` : ""}`, "seed.version");
      return {
        claimNo: claim.claimNo,
        ...wireVoucher(voucher),
        voucherDocument: Buffer.from(voucher.content).toString("base64"),
        voucherType: "pdf" as const,
      };
    },
  }),
  command({
    grammar: "claim accept",
    pattern: /^claim accept$/,
    who: "partner",
    summary:
      "Record the claimant's acceptance of the discharge voucher in force (its version): the payout to the voucher's account follows at once. A repeat changes nothing.",
    documentedSeed: acceptSeed,
    answer: claimDetailAnswer,
    errors: [
      UNKNOWN_CLAIM,
      refusal(
        409,
        "claim <claimNo> has no discharge voucher yet: it is issued once the account to pay into is given (claim payee) and its name matches the insured's or an administrator confirms it",
      ),
      refusal(409, "claim <claimNo> is <status>: only an approved claim has a discharge voucher to accept"),
      refusal(409, "seed.version <n> of the voucher of claim <claimNo> was replaced by version <m> (the account to pay into changed): accept version <m>"),
      refusal(403, "policy <tx_id> was issued in <mode> mode: its claims are handled with a <mode> key, and this key runs in <mode> mode"),
    ],
    examples: claimAcceptExamples,
    async handler(ctx, _params, raw) {
      const seed = parseClaimSeed(acceptSeed, raw);
      const scope = { partnerId: ctx.principal.partnerId };
      await acceptAndPay(ctx.db, payoutSettings(ctx.config), {
        ...scope,
        mode: ctx.principal.mode,
        claimNo: seed.claimNo,
        version: seed.version,
        channel: "api",
        by: `API key ${ctx.principal.keyLabel}`,
        now: ctx.now(),
      });
      return wireClaimDetail(await claimDetail(ctx.db, scope, seed.claimNo));
    },
  }),
  command({
    grammar: "claim letter",
    pattern: /^claim letter$/,
    who: "partner",
    summary: "The letter of a rejected claim (the reason, the particulars, what the claimant may do next), as a PDF.",
    documentedSeed: statusSeed,
    answer: z.object({
      claimNo: claimNumber,
      letter: z.literal("rejection"),
      letterDocument: z.string().meta({ description: "The letter, base64" }),
      letterType: z.literal("pdf"),
    }),
    errors: [UNKNOWN_CLAIM, refusal(404, "claim <claimNo> is <status>: only a rejected claim has a rejection letter")],
    examples: claimLetterExamples,
    async handler(ctx, _params, raw) {
      const seed = parseClaimSeed(statusSeed, raw);
      const claim = await claimDetail(ctx.db, { partnerId: ctx.principal.partnerId }, seed.claimNo);
      const letter = await rejectionLetter(ctx.db, claim, ctx.config.INSURER_NAME);
      return { claimNo: claim.claimNo, letter: "rejection" as const, letterDocument: Buffer.from(letter).toString("base64"), letterType: "pdf" as const };
    },
  }),
];
