import { defineModule } from "../manifest";
import { reportingAdmin } from "./admin";

/** Insurer bordereaux: each insurer's monthly premium and claims reports for the operator, as CSV and XLSX (docs/reporting.md). */
export const reportingModule = defineModule({
  name: "reporting",
  routes: (deps) => reportingAdmin(deps),
  nav: [{ area: "admin", href: "/admin/reports", label: "Insurer bordereaux", key: "reports", order: 57 }],
});
