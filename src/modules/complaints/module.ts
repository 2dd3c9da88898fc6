import { defineModule } from "../manifest";
import { complaintAdmin } from "./admin";
import { complaintCommands } from "./commands";
import { complaintPortal } from "./portal";
import { complaintsReportAdmin } from "./report-admin";
import * as tables from "./schema";

/** Complaints: filed by partners for their customers, handled on the operator's desk, reported to the regulator (docs/complaints.md). */
export const complaintsModule = defineModule({
  name: "complaints",
  commands: complaintCommands,
  routes: (deps) => complaintPortal(deps).use(complaintAdmin(deps)).use(complaintsReportAdmin(deps)),
  tables,
  nav: [
    { area: "portal", href: "/portal/complaints", label: "Complaints", key: "complaints", order: 45 },
    { area: "admin", href: "/admin/complaints", label: "Complaints", key: "complaints", order: 32 },
    { area: "admin", href: "/admin/reports/complaints", label: "Complaints report", key: "complaints-report", order: 59 },
  ],
});
