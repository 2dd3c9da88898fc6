import { defineModule } from "../manifest";
import { partnerAdmin } from "./admin";
import { partnerCommands } from "./commands";
import { partnerPortal } from "./portal";
import * as tables from "./schema";

/** Partner accounts: keys and mode; the operator's partner administration. */
export const partnersModule = defineModule({
  name: "partners",
  commands: partnerCommands,
  routes: (deps) => partnerPortal(deps).use(partnerAdmin(deps)),
  tables,
  nav: [
    { area: "portal", href: "/portal/keys", label: "API keys", key: "keys", order: 90 },
    { area: "admin", href: "/admin/partners", label: "Partners", key: "partners", order: 40 },
  ],
});
