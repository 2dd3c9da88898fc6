import { defineModule } from "../manifest";
import { auditAdmin } from "./admin";
import * as tables from "./schema";

/** Who did what, and the operator's page to read it. */
export const auditModule = defineModule({
  name: "audit",
  routes: auditAdmin,
  tables,
  nav: [{ area: "admin", href: "/admin/audit", label: "Audit log", key: "audit", order: 60 }],
});
