import { Elysia } from "elysia";
import { PolicyDetail, PolicyList, PolicyRows, PolicyStatusBlock } from "../../../views/policies/policies";
import type { AppDeps } from "../../http/context";
import { csvDownload } from "../../portal/export";
import { exportHref, moreHref, notFound, PAGE_SIZE } from "../../portal/kit";
import { page } from "../../portal/page";
import { portalSession } from "../../portal/session";
import { watToday } from "../../products/policy-helpers";
import { policyFilters } from "./model";
import { certificateDownload, POLICY_CSV_COLUMNS, partnerPolicyView, policyCsvRows, policyRows, policyView, productOptions } from "./presenter";
import { findPolicyByReference, hasCertificate, listPolicies } from "./service";
import type { PolicyRecord } from "./types";

const NOT_YOURS = "No policy with this reference on your account.";

/** Partner pages for policies: the filtered list, a detail that refreshes itself while pending, certificate downloads. */
export const policyPortal = (deps: AppDeps) => {
  const db = deps.database.db;
  const policyOf = async (partnerId: string, reference: string) => findPolicyByReference(db, partnerId, decodeURIComponent(reference));
  const hrefOf = (p: PolicyRecord) => `/portal/policies/${encodeURIComponent(p.reference)}`;
  return new Elysia({ name: "portal-policies" })
    .use(portalSession(deps))
    .get(
      "/portal/policies",
      async ({ viewer, csrf, request, query }) => {
        const { filters, values } = policyFilters(query);
        const list = await listPolicies(db, { partnerId: viewer.partnerId }, filters, { limit: PAGE_SIZE, cursor: query.cursor || undefined });
        const rows = await policyRows(db, list.items, hrefOf);
        const more = moreHref("/portal/policies", values, list.nextCursor);
        if (query.rows) return <PolicyRows rows={rows} more={more} />;
        return page(
          request,
          { title: "Policies", active: "policies", viewer, csrf },
          <PolicyList
            title="Policies"
            action="/portal/policies"
            rows={rows}
            more={more}
            filters={values}
            products={productOptions()}
            exportHref={exportHref("/portal/policies.csv", values)}
          />,
        );
      },
      { portal: "partner" },
    )
    .get(
      "/portal/policies.csv",
      ({ viewer, query }) => {
        const { filters } = policyFilters(query);
        return csvDownload({
          filename: `policies-${watToday(new Date())}`,
          columns: POLICY_CSV_COLUMNS,
          page: (limit, cursor) => listPolicies(db, { partnerId: viewer.partnerId }, filters, { limit, cursor }),
          rows: (items) => policyCsvRows(db, items),
        });
      },
      { portal: "partner" },
    )
    .get(
      "/portal/policies/:reference",
      async ({ viewer, csrf, request, params, set }) => {
        const policy = await policyOf(viewer.partnerId, params.reference);
        if (!policy) return page(request, { title: "Not found", active: "policies", viewer, csrf }, notFound(set, NOT_YOURS));
        const view = await partnerPolicyView(db, deps.config, policy, hrefOf(policy));
        return page(request, { title: `Policy ${policy.reference}`, active: "policies", viewer, csrf }, <PolicyDetail policy={view} />);
      },
      { portal: "partner" },
    )
    .get(
      "/portal/policies/:reference/status",
      async ({ viewer, params, set }) => {
        const policy = await policyOf(viewer.partnerId, params.reference);
        if (!policy) return notFound(set, NOT_YOURS);
        return <PolicyStatusBlock policy={await policyView(db, deps.config, policy, hrefOf(policy), "")} />;
      },
      { portal: "partner" },
    )
    .get(
      "/portal/policies/:reference/certificate",
      async ({ viewer, params, set }) => {
        const policy = await policyOf(viewer.partnerId, params.reference);
        if (!policy || !hasCertificate(policy)) return notFound(set, NOT_YOURS);
        return certificateDownload(db, deps.config, policy, set);
      },
      { portal: "partner" },
    );
};
