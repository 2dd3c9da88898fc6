import { defineModule } from "../manifest";
import { accountsPortal } from "./portal";
import * as tables from "./schema";

/** Portal sign-ins, the owner's team of portal users, and the service's own secrets. */
export const accountsModule = defineModule({
  name: "accounts",
  routes: (deps) => accountsPortal(deps),
  tables,
  nav: [{ area: "portal", href: "/portal/team", label: "Team", key: "team", order: 110, shownTo: (viewer) => viewer.role === "owner" }],
});
