import { command } from "../../core/registry";
import { watTimestamp } from "../../core/time";
import { claimRequestFrom, listSeed, parseClaimSeed, reviewSeed, statusSeed, submitSeed, withdrawSeed } from "./seeds";
import { claimDetail, listClaims, reviewClaim, submitClaim, withdrawClaim, type ClaimDetail, type ClaimRecord } from "./service";

const naira = (kobo: number) => kobo / 100;

/** Document types as the wire names them, like crtfctType. */
const DOCUMENT_TYPES = { "application/pdf": "pdf", "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp" } as const;

/** A claim in list answers: everything but its documents and history. */
function wireClaim(claim: ClaimRecord) {
  return {
    claimNo: claim.claimNo,
    ...(claim.reference ? { reference: claim.reference } : {}),
    policy: claim.policy,
    productCode: claim.productCode,
    mode: claim.mode,
    status: claim.status,
    ...(claim.statusNote ? { statusNote: claim.statusNote } : {}),
    incidentDate: claim.incidentDate,
    description: claim.description,
    amount: naira(claim.claimedKobo),
    ...(claim.approvedKobo === null
      ? {}
      : { approvedAmount: naira(claim.approvedKobo), excess: naira(claim.excessKobo ?? 0), payable: naira(claim.payableKobo ?? 0) }),
    currency: "NGN",
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

// Seeds are parsed in the handlers, not by the registry: blank fields must be refused (406) before validation.
export const claimCommands = [
  command({
    grammar: "claim submit",
    pattern: /^claim submit$/,
    who: "partner",
    summary: "Submit a claim on an active policy (by its transaction reference); a repeat with the same reference returns the first claim.",
    async handler(ctx, _params, raw) {
      const request = claimRequestFrom(parseClaimSeed(submitSeed, raw), ctx.config.MAX_DOCUMENT_BYTES);
      const { claim } = await submitClaim(ctx.db, { partnerId: ctx.principal.partnerId, mode: ctx.principal.mode, request, now: ctx.now() });
      return {
        claimNo: claim.claimNo,
        ...(claim.reference ? { reference: claim.reference } : {}),
        status: claim.status,
        policy: claim.policy,
        productCode: claim.productCode,
        mode: claim.mode,
        amount: naira(claim.claimedKobo),
        currency: "NGN",
        tmstmp: watTimestamp(claim.createdAt),
      };
    },
  }),
  command({
    grammar: "claim status",
    pattern: /^claim status$/,
    who: "partner",
    summary: "A claim of this partner with its documents and history.",
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
    async handler(ctx, _params, raw) {
      const seed = parseClaimSeed(withdrawSeed, raw);
      const claim = await withdrawClaim(ctx.db, { partnerId: ctx.principal.partnerId, mode: ctx.principal.mode, claimNo: seed.claimNo, note: seed.note, now: ctx.now() });
      return wireClaimDetail(claim);
    },
  }),
  command({
    grammar: "claim review",
    pattern: /^claim review$/,
    who: "admin",
    summary: "Move a claim of any partner: in_review, approved (with approvedAmount), rejected (with a note), paid (administrator only).",
    async handler(ctx, _params, raw) {
      const seed = parseClaimSeed(reviewSeed, raw);
      const claim = await reviewClaim(ctx.db, {
        claimNo: seed.claimNo,
        status: seed.status,
        note: seed.note,
        approvedKobo: seed.approvedAmount === undefined ? undefined : Math.round(seed.approvedAmount * 100),
        by: `admin:${ctx.principal.partnerId}`,
        now: ctx.now(),
      });
      return { partnerId: claim.partnerId, ...wireClaimDetail(claim) };
    },
  }),
];
