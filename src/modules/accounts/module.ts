import { defineModule } from "../manifest";
import { accountSettings } from "./account";
import { accountsPortal } from "./portal";
import { passwordResetPages } from "./reset";
import * as tables from "./schema";
import { teamPages } from "./team";

/** Portal sign-ins and password links, the owner's account settings and team of portal users, the operator's administrators, and the service's own secrets. */
export const accountsModule = defineModule({
  name: "accounts",
  routes: (deps) =>
    accountsPortal(deps).use(passwordResetPages(deps)).use(accountSettings(deps)).use(teamPages(deps, "partner")).use(teamPages(deps, "operator")),
  tables,
  nav: [
    { area: "portal", href: "/portal/team", label: "Team", key: "team", order: 110, shownTo: (viewer) => viewer.role === "owner" },
    { area: "portal", href: "/portal/account", label: "Account settings", key: "account", order: 115, shownTo: (viewer) => viewer.role === "owner" },
    { area: "admin", href: "/admin/administrators", label: "Administrators", key: "administrators", order: 45 },
  ],
});
