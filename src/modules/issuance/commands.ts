import { z } from "zod";
import { watTimestamp } from "../../core/time";
import { BAD_CURSOR, BLANK_FIELD, currency, page, wireTimestamp } from "../../http/answers";
import { ADMIN_ONLY, type CommandContext, command, refusal } from "../../http/registry";
import { findProduct, wirePremium } from "../../products";
import type { CertificateForm } from "../../products/types";
import { keyActor } from "../audit";
import { type CertificateDocument, certificateFor, certificateUrl, renderCertificateFor } from "../certificates";
import type { PolicyRecord } from "../policies";
import {
  addressOf,
  createdWithin,
  endorsementShape,
  endorsementsOf,
  findPolicy,
  hasCertificate,
  insureSeedVariants,
  listPolicies,
  listSeed,
  POLICY_ADDRESS,
  POLICY_UNKNOWN,
  policyHeading,
  policyStatus,
  reviewSeed,
  statusNote,
  storedReference,
  wireEndorsement,
} from "../policies";
import {
  approveExamples,
  CONSUMER_UNKNOWN,
  insureExamples,
  NOT_PENDING,
  OTHER_MODE,
  policyListAdminExamples,
  policyListExamples,
  REFERENCE_INVALID,
  REFERENCE_TAKEN,
  statusExamples,
} from "./examples";
import { issuedPolicy, issuePolicy } from "./issuance";
import { reviewPolicy } from "./review";

/** Spec 2.6: the policy number once approved, and the certificate in the product's form (both kept once cancelled or expired; a lapsed policy keeps its number). */
const certificateShape = z.object({
  policyNo: z.string().optional().meta({ description: "Once approved, also when cancelled, expired or lapsed since: the policy number (TST-… in test mode)" }),
  certUrl: z.url().optional().meta({ description: "The hosted certificate (travel; every product in test mode)" }),
  crtfct: z.string().optional().meta({
    description:
      "The certificate itself, base64 (marine, credit life, loan guaranty, transit, health, property; in the insure answer of a live policy approved at once)",
  }),
  crtfctType: z.enum(["pdf", "docx", "jpg"]).optional().meta({ description: "The certificate's format, with crtfct or certUrl" }),
});

const listedPolicy = z.object({
  id: storedReference,
  consumerId: z.string().regex(/^[0-9a-f]{32}$/),
  productCode: z.string(),
  status: policyStatus,
  statusNote,
  policyNo: z.string().optional(),
  prmm: z.number().meta({ description: "The premium: whole naira, except credit life in kobo" }),
  currency,
  mode: z.enum(["test", "live"]),
  tmstmp: wireTimestamp.meta({ description: "When it was issued" }),
  statusTmstmp: wireTimestamp.meta({ description: "When its status last changed" }),
});

/** A policy in the administrator's list: every partner's, so each names its partner. */
const listedPolicyOfAnyPartner = listedPolicy.extend({ partnerId: z.uuid().meta({ description: "The partner the policy belongs to" }) });

/**
 * What a partner sees of a policy that was approved (spec 2.6): its number, plus the certificate
 * inline (crtfct) when `inline`, and a hosted link (certUrl) for hosted-form products and in test
 * mode. Cancelled and expired policies keep both (a cancelled one's certificate says so); a lapsed
 * one keeps its number, without a certificate that would show cover it no longer gives.
 */
async function certificateFields(
  ctx: CommandContext,
  policy: PolicyRecord,
  inline: (form: CertificateForm) => boolean,
  document: () => Promise<CertificateDocument> = () => certificateFor(ctx.db, ctx.config, policy),
) {
  // Numbered at approval: pending and declined policies have none, nor one that lapsed while pending.
  if (!policy.policyNo) return {};
  const fields: z.input<typeof certificateShape> = { policyNo: policy.policyNo };
  if (!hasCertificate(policy)) return fields;
  const product = findProduct(policy.productCode);
  const form = product.family.policy.certificate(product.type);
  if (form.delivery === "hosted" || policy.mode === "test") fields.certUrl = certificateUrl(ctx.config, policy);
  if (inline(form)) fields.crtfct = Buffer.from((await document()).content).toString("base64");
  if (fields.certUrl || fields.crtfct) fields.crtfctType = form.type;
  return fields;
}

/** The answer of insure: the stored reference, the status and, once approved, the certificate fields. */
async function issuedAnswer(ctx: CommandContext, policy: PolicyRecord, inline: () => boolean, document?: () => Promise<CertificateDocument>) {
  return {
    id: policy.reference,
    status: policy.status,
    ...(policy.statusNote ? { statusNote: policy.statusNote } : {}),
    ...(await certificateFields(ctx, policy, inline, document)),
  };
}

/** STATUS of a changed policy: its certificate version and its changes (none: the spec's answer as it is). */
async function versionHistory(db: CommandContext["db"], policy: PolicyRecord) {
  if (!policy.endorsed) return {};
  const changes = await endorsementsOf(db, policy.id);
  return changes.length ? { version: policy.version, endorsements: changes.map(wireEndorsement) } : {};
}

/** A policy in list answers. */
function wirePolicy(policy: PolicyRecord) {
  const product = findProduct(policy.productCode);
  return {
    ...policyHeading(policy),
    prmm: wirePremium(product.family, policy.premiumKobo),
    currency: "NGN" as const,
    mode: policy.mode,
    tmstmp: watTimestamp(policy.createdAt),
    statusTmstmp: watTimestamp(policy.statusAt),
  };
}

async function listPage(ctx: CommandContext, seed: z.output<typeof listSeed>, everyPartner: boolean) {
  if (seed.productCode) findProduct(seed.productCode, "seed.productCode");
  const page = await listPolicies(
    ctx.db,
    everyPartner ? {} : { partnerId: ctx.principal.partnerId },
    {
      status: seed.status,
      productCode: seed.productCode,
      ...createdWithin(seed.from, seed.to),
    },
    seed,
  );
  return { items: page.items, nextCursor: page.nextCursor };
}

/** This partner's page of policies. */
async function partnerPage(ctx: CommandContext, seed: z.output<typeof listSeed>) {
  const { items, nextCursor } = await listPage(ctx, seed, false);
  return { list: items.map(wirePolicy), nextCursor };
}

/** The administrator's page: every partner's policies, each with its partnerId after its ids. */
async function everyPartnerPage(ctx: CommandContext, seed: z.output<typeof listSeed>) {
  const { items, nextCursor } = await listPage(ctx, seed, true);
  return {
    list: items.map((p) => {
      const { id, consumerId, ...rest } = wirePolicy(p);
      return { id, consumerId, partnerId: p.partnerId, ...rest };
    }),
    nextCursor,
  };
}

export const policyCommands = [
  command({
    grammar: "entt_<consumer_id>: insure",
    pattern: /^entt_(?<consumerParam>[^:\s|*]+)\s*:\s*insure$/,
    who: "partner",
    summary: "Issue a policy for a consumer (spec 2.5); the answer echoes the stored transaction reference.",
    seedVariants: insureSeedVariants,
    answer: z.object({ id: storedReference, status: policyStatus, statusNote, ...certificateShape.shape }),
    errors: [
      REFERENCE_INVALID,
      REFERENCE_TAKEN,
      CONSUMER_UNKNOWN,
      refusal(
        400,
        "consumer <consumer_id> lacks <fields>, required for <product_code>: add them with prfl entity (same eMail)",
        "spec 2.3 requirements per product",
      ),
      refusal(400, "product specified not supported: <reason>"),
      refusal(400, "seed.addtnlFact.<field> <rule>", "a product field breaks its rule"),
      refusal(402, "insufficient wallet balance: the premium is <premium> naira and the balance is <balance> naira; top up with wallet topup", "live mode"),
      refusal(406, 'medical test clearance required: a loanAmount of 1000000000 kobo or more needs medicalTestClearance "true"', "credit life (spec 7)"),
      refusal(400, "missing next of kin: seed.addtnlFact lacks <fields>; nokName, nokRelationship and nokPhone are all required", "travel (spec 7)"),
      BLANK_FIELD,
    ],
    examples: insureExamples,
    async handler(ctx, params, seed) {
      // A live policy approved at once carries its certificate now (spec 3: "certificate issued
      // immediately"; 4.3: the status step may then be skipped), whatever the product's status form.
      // It is rendered before and stored in the issuing transaction: nothing that can fail follows
      // the commit, so a 55 here always means nothing was stored.
      const { policy, certificate } = await issuePolicy(ctx.db, {
        partnerId: ctx.principal.partnerId,
        mode: ctx.principal.mode,
        consumerParam: params.consumerParam!,
        seed,
        now: ctx.now(),
        insurerDelayMs: ctx.config.INSURER_DELAY_MS,
        certificate: (issued) => renderCertificateFor(ctx.db, ctx.config, issued),
      });
      return issuedAnswer(
        ctx,
        policy,
        () => certificate !== null,
        async () => certificate!,
      );
    },
    async recover(ctx, params, seed) {
      const policy = await issuedPolicy(ctx.db, { partnerId: ctx.principal.partnerId, mode: ctx.principal.mode, consumerParam: params.consumerParam!, seed });
      // The stored certificate, inline as at issuance when the policy was a live one approved at once.
      return policy && issuedAnswer(ctx, policy, () => policy.mode === "live" && policy.decidedBy === "automatic approval");
    },
  }),
  command({
    grammar: "dump entt_<consumer_id>|insr_<product_code>-<tx_id>*STATUS",
    pattern: new RegExp(`^dump ${POLICY_ADDRESS}\\*STATUS$`),
    who: "partner",
    summary: "Status and certificate of a policy (spec 2.6).",
    answer: z.object({
      status: policyStatus,
      statusNote,
      ...certificateShape.shape,
      tmstmp: wireTimestamp.meta({ description: "When the status last changed" }),
      version: z.int().optional().meta({ description: "The certificate's version, once the policy was changed (ndrs): issuance is 1" }),
      endorsements: z.array(endorsementShape).optional().meta({ description: "The policy's changes, oldest first, when it has any" }),
    }),
    errors: [POLICY_UNKNOWN],
    examples: statusExamples,
    async handler(ctx, params) {
      const policy = await findPolicy(ctx.db, ctx.principal.partnerId, addressOf(params));
      return {
        status: policy.status,
        ...(policy.statusNote ? { statusNote: policy.statusNote } : {}),
        ...(await certificateFields(ctx, policy, (form) => form.delivery === "inline")),
        tmstmp: watTimestamp(policy.statusAt),
        ...(await versionHistory(ctx.db, policy)),
      };
    },
  }),
  command({
    grammar: "appr entt_<consumer_id>|insr_<product_code>-<tx_id>",
    pattern: new RegExp(`^appr ${POLICY_ADDRESS}$`),
    who: "admin",
    seed: reviewSeed,
    summary: 'Approve a pending policy, or decline it with seed { status: "d", statusNote } (administrator only).',
    answer: z.object({ id: storedReference, status: policyStatus, statusNote, policyNo: z.string().optional(), tmstmp: wireTimestamp }),
    errors: [POLICY_UNKNOWN, OTHER_MODE, NOT_PENDING, refusal(400, "seed.statusNote is required to decline: say why in seed.statusNote"), ADMIN_ONLY],
    examples: approveExamples,
    async handler(ctx, params, seed) {
      const policy = await reviewPolicy(
        ctx.db,
        keyActor(ctx.principal),
        addressOf(params),
        { status: seed.status, note: seed.statusNote, noteField: "seed.statusNote", by: `admin:${ctx.principal.partnerId}`, mode: ctx.principal.mode },
        ctx.now(),
      );
      return {
        id: policy.reference,
        status: policy.status,
        ...(policy.statusNote ? { statusNote: policy.statusNote } : {}),
        ...(policy.policyNo ? { policyNo: policy.policyNo } : {}),
        tmstmp: watTimestamp(policy.statusAt),
      };
    },
  }),
  command({
    grammar: "dump entt_*",
    pattern: /^dump entt_\*$/,
    who: "partner",
    seed: listSeed,
    summary: "List this partner's transactions (filters: status, productCode, from, to; cursor pagination).",
    answer: page(listedPolicy),
    errors: [refusal(400, "product specified not supported: <reason>", "seed.productCode names no product"), BAD_CURSOR],
    examples: policyListExamples,
    handler: (ctx, _params, seed) => partnerPage(ctx, seed),
  }),
  command({
    grammar: "dump entt_*ADMIN",
    pattern: /^dump entt_\*ADMIN$/,
    who: "admin",
    seed: listSeed,
    summary: "List every partner's transactions (administrator only).",
    answer: page(listedPolicyOfAnyPartner),
    errors: [BAD_CURSOR, ADMIN_ONLY],
    examples: policyListAdminExamples,
    handler: (ctx, _params, seed) => everyPartnerPage(ctx, seed),
  }),
];
