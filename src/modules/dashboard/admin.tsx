import { Elysia } from "elysia";
import { AdminDashboard } from "../../../views/charts/dashboard-charts";
import type { AppDeps } from "../../http/context";
import { page } from "../../portal/page";
import { portalSession } from "../../portal/session";
import { dashboardCharts } from "./presenter";

/** The operator's dashboard: every partner's live policies, premiums and claims in charts. */
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
    );
};
