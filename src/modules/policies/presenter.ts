import type { PolicyRow, PolicyView } from "../../../views/policies/policies";
import type { Config } from "../../config";
import { CommandError } from "../../core/errors";
import type { Database } from "../../db/client";
import { allProductCodes, findProduct } from "../../products";
import { watMidnight } from "../../products/policy-helpers";
import { certificateFor, certificateUrl, verificationUrl } from "../certificates/service";
import { consumerName } from "../consumers/presenter";
import { findConsumer } from "../consumers/service";
import { POLICY_STATUSES } from "./schema";
import type { PolicyFilters } from "./service";
import type { PolicyRecord } from "./types";

const DATE = /^\d{4}-\d\d-\d\d$/;

export const productName = (code: string) => {
  const product = findProduct(code);
  return `${product.family.name}: ${product.productType.name}`;
};

export const productOptions = () => allProductCodes().map((code) => ({ value: code, label: `${productName(code)} (${code})` }));

/** The list filters from a query string; anything malformed is dropped rather than refused (it is a filter). */
export function policyFilters(query: Record<string, string | undefined>): { filters: PolicyFilters; values: Record<string, string> } {
  const values: Record<string, string> = {};
  const filters: PolicyFilters = {};
  if (query.status && (POLICY_STATUSES as readonly string[]).includes(query.status))
    filters.status = values.status = query.status as PolicyFilters["status"] & string;
  if (query.product && allProductCodes().includes(query.product)) filters.productCode = values.product = query.product;
  if (query.from && DATE.test(query.from)) {
    values.from = query.from;
    filters.from = watMidnight(query.from);
  }
  if (query.to && DATE.test(query.to)) {
    values.to = query.to;
    filters.to = new Date(watMidnight(query.to).getTime() + 86_400_000);
  }
  return { filters, values };
}

export const listQuery = (values: Record<string, string>, cursor: string) => new URLSearchParams({ ...values, rows: "1", cursor }).toString();

/** List rows with the consumer's name (cached lookups), linking to `href(policy)`. */
export async function policyRows(db: Database, policies: PolicyRecord[], href: (p: PolicyRecord) => string): Promise<PolicyRow[]> {
  return Promise.all(
    policies.map(async (p) => {
      const consumer = await findConsumer(db, p.partnerId, p.consumerId);
      return {
        reference: p.reference,
        productName: productName(p.productCode),
        consumerName: consumer ? consumerName(consumer.profile) : "—",
        status: p.status,
        premiumKobo: p.premiumKobo,
        mode: p.mode,
        createdAt: p.createdAt,
        href: href(p),
      };
    }),
  );
}

/** Everything a policy page shows, with links for this viewer (`base` is the page's own path). */
export async function policyView(db: Database, config: Config, policy: PolicyRecord, base: string, consumerHref: string): Promise<PolicyView> {
  const consumer = await findConsumer(db, policy.partnerId, policy.consumerId);
  const product = findProduct(policy.productCode);
  const hosted = policy.status === "a" && (policy.mode === "test" || product.family.policy.certificate(product.type).delivery === "hosted");
  return {
    reference: policy.reference,
    productName: productName(policy.productCode),
    productCode: policy.productCode,
    consumerName: consumer ? consumerName(consumer.profile) : "—",
    consumerHref,
    status: policy.status,
    statusNote: policy.statusNote,
    policyNo: policy.policyNo,
    premiumKobo: policy.premiumKobo,
    mode: policy.mode,
    coverStart: policy.coverStart,
    coverEnd: policy.coverEnd,
    createdAt: policy.createdAt,
    statusAt: policy.statusAt,
    printed: policy.printed,
    certificateHref: policy.status === "a" ? `${base}/certificate` : null,
    hostedHref: hosted ? certificateUrl(config, policy) : null,
    verifyHref: policy.policyNo ? verificationUrl(config, policy.policyNo) : null,
    statusHref: `${base}/status`,
  };
}

/** The certificate of an approved policy as a download. */
export async function certificateDownload(db: Database, config: Config, policy: PolicyRecord, set: { headers: Record<string, unknown>; status?: unknown }) {
  if (policy.status !== "a") throw new CommandError(404, "this policy has no certificate: it is not approved");
  const document = await certificateFor(db, config, policy);
  set.headers["content-type"] = document.mime;
  set.headers["content-disposition"] = `attachment; filename="${policy.policyNo}.${document.type}"`;
  return new Response(Buffer.from(document.content));
}
