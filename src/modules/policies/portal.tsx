import { Elysia } from "elysia";
import { PolicyDetail, PolicyList, PolicyRows, PolicyStatusBlock } from "../../../views/policies/policies";
import type { AppDeps } from "../../http/context";
import { page } from "../../portal/page";
import { portalSession } from "../../portal/session";
import { wireConsumerId } from "../consumers/service";
import { planNoOfPolicy } from "../financing/service";
import { certificateDownload, listQuery, policyFilters, policyRows, policyView, productOptions } from "./presenter";
import { findPolicyByReference, listPolicies } from "./service";
import type { PolicyRecord } from "./types";

const PAGE_SIZE = 25;

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
