import { defineModule } from "../manifest";
import { accountsPortal } from "./portal";
import * as tables from "./schema";
import { teamPages } from "./team";

/** Portal sign-ins, the owner's team of portal users, the operator's administrators, and the service's own secrets. */
export const accountsModule = defineModule({
  name: "accounts",
  routes: (deps) => accountsPortal(deps).use(teamPages(deps, "partner")).use(teamPages(deps, "operator")),
  tables,
  nav: [
    { area: "portal", href: "/portal/team", label: "Team", key: "team", order: 110, shownTo: (viewer) => viewer.role === "owner" },
    { area: "admin", href: "/admin/administrators", label: "Administrators", key: "administrators", order: 45 },
  ],
});
