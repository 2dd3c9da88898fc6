import { Elysia } from "elysia";
import { PolicyDetail, PolicyList, type PolicyRow, PolicyRows, PolicyStatusBlock, type PolicyView } from "../../../views/policies/policies";
import type { Config } from "../../config";
import { CommandError } from "../../core/errors";
import type { Database } from "../../db/client";
import type { AppDeps } from "../../http/context";
import { page } from "../../portal/page";
import { portalSession } from "../../portal/session";
import { allProductCodes, findProduct } from "../../products";
import { watMidnight } from "../../products/policy-helpers";
import { certificateFor, certificateUrl, verificationUrl } from "../certificates/service";
import { consumerName } from "../consumers/portal";
import { findConsumer, wireConsumerId } from "../consumers/service";
import { planNoOfPolicy } from "../financing/service";
import { POLICY_STATUSES } from "./schema";
import { findPolicyByReference, listPolicies, type PolicyFilters } from "./service";
import type { PolicyRecord } from "./types";

const PAGE_SIZE = 25;
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

/** Partner pages for policies: the filtered list, a detail that refreshes itself while pending, certificate downloads. */
export const policyPortal = (deps: AppDeps) => {
  const db = deps.database.db;
  const policyOf = async (partnerId: string, reference: string) => findPolicyByReference(db, partnerId, decodeURIComponent(reference));
  const hrefOf = (p: PolicyRecord) => `/portal/policies/${encodeURIComponent(p.reference)}`;
  const notFound = (set: { status?: unknown }) => {
    set.status = 404;
    return <p class="problem">No policy with this reference on your account.</p>;
  };
  return new Elysia({ name: "portal-policies" })
    .use(portalSession(deps))
    .get(
      "/portal/policies",
      async ({ viewer, csrf, request, query }) => {
        const { filters, values } = policyFilters(query);
        const list = await listPolicies(db, { partnerId: viewer.partnerId }, filters, { limit: PAGE_SIZE, cursor: query.cursor || undefined });
        const rows = await policyRows(db, list.items, hrefOf);
        const more = list.nextCursor ? `/portal/policies?${listQuery(values, list.nextCursor)}` : null;
        if (query.rows) return <PolicyRows rows={rows} more={more} />;
        return page(
          request,
          { title: "Policies", active: "policies", viewer, csrf },
          <PolicyList title="Policies" action="/portal/policies" rows={rows} more={more} filters={values} products={productOptions()} />,
        );
      },
      { portal: "partner" },
    )
    .get(
      "/portal/policies/:reference",
      async ({ viewer, csrf, request, params, set }) => {
        const policy = await policyOf(viewer.partnerId, params.reference);
        if (!policy) return page(request, { title: "Not found", active: "policies", viewer, csrf }, notFound(set));
        const view = await policyView(db, deps.config, policy, hrefOf(policy), `/portal/consumers/${wireConsumerId(policy.consumerId)}`);
        const query = `?policy=${encodeURIComponent(policy.reference)}`;
        // One plan per policy, ever: only an approved or pending policy with a premium and no plan yet can be financed.
        const financeable = (policy.status === "a" || policy.status === "p") && policy.premiumKobo > 0 && !(await planNoOfPolicy(db, policy.id));
        view.claimHref = policy.status === "a" ? `/portal/claims/new${query}` : undefined;
        view.financeHref = financeable ? `/portal/financing/new${query}` : undefined;
        return page(request, { title: `Policy ${policy.reference}`, active: "policies", viewer, csrf }, <PolicyDetail policy={view} />);
      },
      { portal: "partner" },
    )
    .get(
      "/portal/policies/:reference/status",
      async ({ viewer, params, set }) => {
        const policy = await policyOf(viewer.partnerId, params.reference);
        if (!policy) return notFound(set);
        return <PolicyStatusBlock policy={await policyView(db, deps.config, policy, hrefOf(policy), "")} />;
      },
      { portal: "partner" },
    )
    .get(
      "/portal/policies/:reference/certificate",
      async ({ viewer, params, set }) => {
        const policy = await policyOf(viewer.partnerId, params.reference);
        if (policy?.status !== "a") return notFound(set);
        return certificateDownload(db, deps.config, policy, set);
      },
      { portal: "partner" },
    );
};
