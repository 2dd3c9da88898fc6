import { defineModule } from "../manifest";
import { financingAdmin } from "./admin";
import { financingCommands } from "./commands";
import { financingJobs } from "./jobs";
import { financingPortal } from "./portal";
import * as tables from "./schema";

/** Premium financing: instalment plans, payments, and the lapse of unpaid plans. */
export const financingModule = defineModule({
  name: "financing",
  commands: financingCommands,
  routes: (deps) => financingPortal(deps).use(financingAdmin(deps)),
  jobs: ({ db, config }) => financingJobs(db, config),
  tables,
  nav: [
    { area: "portal", href: "/portal/financing", label: "Financing", key: "financing", order: 50 },
    { area: "admin", href: "/admin/financing", label: "Financing", key: "financing", order: 50 },
  ],
});
