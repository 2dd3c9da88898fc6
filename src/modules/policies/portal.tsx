import { Elysia } from "elysia";
import { PolicyDetail, PolicyList, PolicyRows, PolicyStatusBlock } from "../../../views/policies/policies";
import type { AppDeps } from "../../http/context";
import { csvDownload, csvOrRefusal } from "../../portal/export";
import { exportHref, notFound } from "../../portal/kit";
import { page } from "../../portal/page";
import { portalSession } from "../../portal/session";
import { watToday } from "../../products/policy-helpers";
import { policyFilters, policyFilterValues } from "./model";
import { certificateDownload, POLICY_CSV_COLUMNS, partnerPolicyView, policyCsvRows, policyListPage, policyRows, policyView, productOptions } from "./presenter";
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
      async ({ viewer, csrf, request, query, set }) => {
        const list = await policyListPage(db, { partnerId: viewer.partnerId }, query, "/portal/policies", (items) => policyRows(db, items, hrefOf));
        if (list.problem) set.status = 400;
        if (query.rows) return <PolicyRows rows={list.rows} more={list.more} />;
        return page(
          request,
          { title: "Policies", active: "policies", viewer, csrf },
          <PolicyList
            title="Policies"
            action="/portal/policies"
            rows={list.rows}
            more={list.more}
            filters={list.values}
            problem={list.problem}
            products={productOptions()}
            exportHref={exportHref("/portal/policies.csv", list.values)}
          />,
        );
      },
      { portal: "partner" },
    )
    .get(
      "/portal/policies.csv",
      ({ viewer, query, set }) =>
        csvOrRefusal(set, () => {
          const filters = policyFilters(policyFilterValues(query));
          return csvDownload({
            filename: `policies-${watToday(new Date())}`,
            columns: POLICY_CSV_COLUMNS,
            page: (limit, cursor) => listPolicies(db, { partnerId: viewer.partnerId }, filters, { limit, cursor }),
            rows: (items) => policyCsvRows(db, items),
          });
        }),
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
