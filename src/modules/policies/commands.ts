import { z } from "zod";
import { pageSeed } from "../../core/pagination";
import { command, type CommandContext } from "../../core/registry";
import { watTimestamp } from "../../core/time";
import { isoDate } from "../../core/validation";
import { findProduct, wirePremium } from "../../products";
import type { CertificateForm } from "../../products/types";
import { watMidnight } from "../../products/policy-helpers";
import { certificateFor, certificateUrl, renderCertificateFor, type CertificateDocument } from "../certificates/service";
import { issuePolicy, listPolicies, findPolicy, reviewPolicy, type PolicyAddress, type PolicyRecord } from "./service";
import { POLICY_STATUSES } from "./schema";

const POLICY_ADDRESS = String.raw`entt_(?<consumerParam>[^|\s]+)\|insr_(?<productCode>[a-z0-9]+-[a-z0-9]+-[0-9]+)-(?<reference>[^*\s]+)`;

const addressOf = (params: Record<string, string>): PolicyAddress => ({
  consumerParam: params.consumerParam!,
  productCode: params.productCode!,
  reference: params.reference!,
});

/**
 * What a partner sees of an approved policy (spec 2.6): its number, plus the certificate inline
 * (crtfct) when `inline`, and a hosted link (certUrl) for hosted-form products and in test mode.
 */
async function certificateFields(
  ctx: CommandContext,
  policy: PolicyRecord,
  inline: (form: CertificateForm) => boolean,
  document: () => Promise<CertificateDocument> = () => certificateFor(ctx.db, ctx.config, policy),
) {
  if (policy.status !== "a") return {};
  const product = findProduct(policy.productCode);
  const form = product.family.policy.certificate(product.type);
  const fields: Record<string, unknown> = { policyNo: policy.policyNo };
  if (form.delivery === "hosted" || policy.mode === "test") fields.certUrl = certificateUrl(ctx.config, policy);
  if (inline(form)) fields.crtfct = Buffer.from((await document()).content).toString("base64");
  if (fields.certUrl || fields.crtfct) fields.crtfctType = form.type;
  return fields;
}

/** A policy in list answers. */
function wirePolicy(policy: PolicyRecord, withPartner: boolean) {
  const product = findProduct(policy.productCode);
  return {
    id: policy.reference,
    consumerId: policy.consumerId.replaceAll("-", ""),
    ...(withPartner ? { partnerId: policy.partnerId } : {}),
    productCode: policy.productCode,
    status: policy.status,
    ...(policy.statusNote ? { statusNote: policy.statusNote } : {}),
    ...(policy.policyNo ? { policyNo: policy.policyNo } : {}),
    prmm: wirePremium(product.family, policy.premiumKobo),
    currency: "NGN",
    mode: policy.mode,
    tmstmp: watTimestamp(policy.createdAt),
    statusTmstmp: watTimestamp(policy.statusAt),
  };
}

const listSeed = pageSeed.extend({
  status: z.enum(POLICY_STATUSES).optional(),
  productCode: z.string().max(40).optional(),
  /** Created on or after this date (Nigerian local time). */
  from: isoDate.optional(),
  /** Created on or before this date (Nigerian local time). */
  to: isoDate.optional(),
});

async function listPage(ctx: CommandContext, seed: z.output<typeof listSeed>, everyPartner: boolean) {
  if (seed.productCode) findProduct(seed.productCode, "seed.productCode");
  const page = await listPolicies(
    ctx.db,
    everyPartner ? {} : { partnerId: ctx.principal.partnerId },
    {
      status: seed.status,
      productCode: seed.productCode,
      from: seed.from ? watMidnight(seed.from) : undefined,
      to: seed.to ? new Date(watMidnight(seed.to).getTime() + 86_400_000) : undefined,
    },
    seed,
  );
  return { list: page.items.map((p) => wirePolicy(p, everyPartner)), nextCursor: page.nextCursor };
}

const reviewSeed = z
  .strictObject({
    status: z.enum(["a", "d"]).default("a"),
    statusNote: z.string().trim().min(1).max(500).optional(),
  })
  .refine((s) => s.status === "a" || s.statusNote, { message: "is required to decline: say why in seed.statusNote", path: ["statusNote"] });

export const policyCommands = [
  command({
    grammar: "entt_<consumer_id>: insure",
    pattern: /^entt_(?<consumerParam>[^:\s|*]+)\s*:\s*insure$/,
    who: "partner",
    summary: "Issue a policy for a consumer (spec 2.5); the answer echoes the stored transaction reference.",
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
      return {
        id: policy.reference,
        status: policy.status,
        ...(policy.statusNote ? { statusNote: policy.statusNote } : {}),
        ...(await certificateFields(ctx, policy, () => certificate !== null, async () => certificate!)),
      };
    },
  }),
  command({
    grammar: "dump entt_<consumer_id>|insr_<product_code>-<tx_id>*STATUS",
    pattern: new RegExp(`^dump ${POLICY_ADDRESS}\\*STATUS$`),
    who: "partner",
    summary: "Status and certificate of a policy (spec 2.6).",
    async handler(ctx, params) {
      const policy = await findPolicy(ctx.db, ctx.principal.partnerId, addressOf(params));
      return {
        status: policy.status,
        ...(policy.statusNote ? { statusNote: policy.statusNote } : {}),
        ...(await certificateFields(ctx, policy, (form) => form.delivery === "inline")),
        tmstmp: watTimestamp(policy.statusAt),
      };
    },
  }),
  command({
    grammar: "appr entt_<consumer_id>|insr_<product_code>-<tx_id>",
    pattern: new RegExp(`^appr ${POLICY_ADDRESS}$`),
    who: "admin",
    seed: reviewSeed,
    summary: "Approve a pending policy, or decline it with seed { status: \"d\", statusNote } (administrator only).",
    async handler(ctx, params, seed) {
      const policy = await reviewPolicy(
        ctx.db,
        addressOf(params),
        { status: seed.status, note: seed.statusNote, by: `admin:${ctx.principal.partnerId}` },
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
    handler: (ctx, _params, seed) => listPage(ctx, seed, false),
  }),
  command({
    grammar: "dump entt_*ADMIN",
    pattern: /^dump entt_\*ADMIN$/,
    who: "admin",
    seed: listSeed,
    summary: "List every partner's transactions (administrator only).",
    handler: (ctx, _params, seed) => listPage(ctx, seed, true),
  }),
];
