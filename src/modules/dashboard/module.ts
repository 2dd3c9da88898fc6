import { defineModule } from "../manifest";
import { dashboardAdmin } from "./admin";
import { dashboardJobs } from "./compaction";
import { dashboardPortal } from "./portal";
import * as tables from "./schema";

/** The dashboards' charts: premiums, policies, claims ratio and wallet over time, for partners and the operator. */
export const dashboardModule = defineModule({
  name: "dashboard",
  routes: (deps) => dashboardPortal(deps).use(dashboardAdmin(deps)),
  jobs: ({ db }) => dashboardJobs(db),
  tables,
  nav: [
    { area: "portal", href: "/portal", label: "Dashboard", key: "dashboard", order: 0 },
    { area: "admin", href: "/admin/dashboard", label: "Dashboard", key: "dashboard", order: 5 },
  ],
});
