import { defineModule } from "../manifest";
import { reportingAdmin } from "./admin";
import { regulatorAdmin } from "./regulator-admin";

/**
 * Insurer bordereaux: each insurer's monthly premium and claims reports for the operator; and the
 * regulator's view of claims (ageing, settlement times, rejections). Both as CSV and XLSX (docs/reporting.md).
 */
export const reportingModule = defineModule({
  name: "reporting",
  routes: (deps) => reportingAdmin(deps).use(regulatorAdmin(deps)),
  nav: [
    { area: "admin", href: "/admin/reports", label: "Insurer bordereaux", key: "reports", order: 57 },
    { area: "admin", href: "/admin/reports/regulator", label: "Claims for the regulator", key: "regulator", order: 58 },
  ],
});
