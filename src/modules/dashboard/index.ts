import { defineModule } from "../manifest";
import { dashboardAdmin } from "./admin";
import { dashboardJobs } from "./compaction";
import * as tables from "./schema";

/** The dashboards' charts: premiums, policies, claims ratio and wallet over time, for partners and the operator. */
export const dashboardModule = defineModule({
  name: "dashboard",
  routes: (deps) => dashboardAdmin(deps),
  jobs: ({ db }) => dashboardJobs(db),
  tables,
  nav: [{ area: "admin", href: "/admin/dashboard", label: "Dashboard", key: "dashboard", order: 5 }],
});
