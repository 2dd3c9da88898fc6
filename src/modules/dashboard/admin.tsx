import { Elysia } from "elysia";
import { PartnerPage } from "../../../views/admin/partner";
import { AdminDashboard } from "../../../views/charts/dashboard-charts";
import { normaliseUuid } from "../../core/ids";
import type { AppDeps } from "../../http/context";
import { notFound } from "../../portal/kit";
import { page } from "../../portal/page";
import { portalSession } from "../../portal/session";
import { partnerPage } from "./partner";
import { dashboardCharts } from "./presenter";

/** The operator's dashboards: every partner's live policies, premiums and claims in charts, and one partner's page. */
export const dashboardAdmin = (deps: AppDeps) => {
  const db = deps.database.db;
  return new Elysia({ name: "admin-dashboard" })
    .use(portalSession(deps))
    .get(
      "/admin/dashboard",
      async ({ viewer, csrf, request }) =>
        page(
          request,
          { title: "Dashboard", active: "dashboard", viewer, csrf },
          <AdminDashboard charts={await dashboardCharts(db, { mode: "live" }, new Date())} />,
        ),
      { portal: "admin" },
    )
    .get(
      "/admin/partners/:id",
      async ({ viewer, csrf, request, params, set }) => {
        const partnerId = normaliseUuid(params.id);
        const props = partnerId ? await partnerPage(db, partnerId, new Date()) : null;
        if (!props) return page(request, { title: "Not found", active: "partners", viewer, csrf }, notFound(set, "No such partner."));
        return page(request, { title: props.partner.name, active: "partners", viewer, csrf }, <PartnerPage {...props} csrf={csrf} />);
      },
      { portal: "admin" },
    );
};
