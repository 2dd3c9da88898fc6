import { z } from "zod";
import { BLANK_FIELD, currency, naira as nairaField, page, UNKNOWN_FIELD, wireDate, wireTimestamp } from "../../core/answers";
import { toNaira as naira } from "../../core/money";
import { ADMIN_ONLY, command, refusal } from "../../core/registry";
import { watTimestamp } from "../../core/time";
import { keyActor } from "../audit/service";
import { approvedKoboOf, claimRequestFrom, DOCUMENT_TYPES, listSeed, parseClaimSeed, reviewSeed, statusSeed, submitSeed, withdrawSeed } from "./model";
import { CLAIM_STATUSES } from "./schema";
import {
  type ClaimDetail,
  type ClaimRecord,
  claimAmounts,
  claimDetail,
  claimHeading,
  earlierClaim,
  listClaims,
  refundTakenBack,
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
  currency,
  tmstmp: wireTimestamp,
  updated: wireTimestamp,
});

const claimDetailAnswer = listedClaim.extend({
  documents: z.array(z.object({ name: z.string(), type: z.enum(["pdf", "jpg", "png", "webp"]), size: z.int().meta({ description: "Bytes" }) })),
  history: z.array(z.object({ status: claimStatus, note: z.string().optional(), at: wireTimestamp })),
});

/** A claim in list answers: everything but its documents and history. */
function wireClaim(claim: ClaimRecord) {
  return {
    ...claimHeading(claim),
    incidentDate: claim.incidentDate,
    description: claim.description,
    ...claimAmounts(claim),
    currency: "NGN" as const,
    tmstmp: watTimestamp(claim.createdAt),
    updated: watTimestamp(claim.updatedAt),
  };
}

/** The whole claim (`claim status`, and the answers of withdraw and review). Who made each change stays inside. */
const wireClaimDetail = (claim: ClaimDetail) => ({
  ...wireClaim(claim),
  documents: claim.documents.map((d) => ({ name: d.name, type: DOCUMENT_TYPES[d.mime], size: d.sizeBytes })),
  history: claim.history.map((step) => ({ status: step.status, ...(step.note ? { note: step.note } : {}), at: watTimestamp(new Date(step.at)) })),
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
  currency: "NGN" as const,
  tmstmp: watTimestamp(claim.createdAt),
});

// ─── The reference: refusals and examples ───────────────────────────────────────────────────

const IN_THE_FUTURE = refusal(400, "seed.incidentDate must not be in the future: today is <date> in Nigeria; received <date>");
const CANNOT_BECOME = refusal(
  409,
  "claim <claimNo> is <status>, <a final status: it|so it> cannot become <status><: from … it can only become …>",
  "the claim's status does not allow the change",
);
const UNKNOWN_CLAIM = refusal(404, "no claim <claimNo> among this partner's claims");

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
  currency: "NGN",
  tmstmp: "{{claim.tmstmp}}",
};
const submittedStep = { status: "submitted", at: "{{claim.tmstmp}}" };

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
    examples: [
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
    ],
    async handler(ctx, _params, raw) {
      const request = claimRequestFrom(parseClaimSeed(submitSeed, raw), ctx.config.MAX_DOCUMENT_BYTES);
      const { claim } = await submitClaim(ctx.db, { partnerId: ctx.principal.partnerId, mode: ctx.principal.mode, request, now: ctx.now() });
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
    examples: [
      {
        name: "claim-status",
        title: "The claim just submitted",
        cmmnd: "claim status",
        seed: { claimNo: "{{claim.claimNo}}" },
        answer: { ...submitted, status: "submitted", updated: "{{claim.tmstmp}}", documents: [], history: [submittedStep] },
      },
    ],
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
    examples: [
      {
        name: "claims",
        title: "The submitted claims of one policy",
        cmmnd: "claim list",
        seed: { status: "submitted", policy: "{{policy.id}}" },
        after: ["claim"],
        answer: { list: [{ ...submitted, status: "submitted", updated: "{{claim.tmstmp}}" }], nextCursor: null },
      },
    ],
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
    examples: [
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
    ],
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
    summary: "Move a claim of any partner: in_review, approved (with approvedAmount), rejected (with a note), paid (administrator only).",
    documentedSeed: reviewSeed,
    answer: claimDetailAnswer.extend({
      partnerId: z.uuid(),
      refundTakenBack: nairaField(
        "An approval of a claim on a cancelled policy: the cancellation's refund it took back from the partner's wallet (the cover was used)",
      ).optional(),
    }),
    errors: [
      refusal(404, "no claim <claimNo>"),
      CANNOT_BECOME,
      refusal(400, "seed.note is required to reject: say why in seed.note"),
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
    examples: [
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
    ],
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
      });
      return { partnerId: claim.partnerId, ...wireClaimDetail(claim), ...refundTakenBack(claim) };
    },
  }),
];
