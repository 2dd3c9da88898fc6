import { defineModule } from "../manifest";
import { claimAdmin } from "./admin";
import { claimCommands } from "./commands";
import { claimJobs } from "./jobs";
import { payoutCallbackRoute } from "./payout-routes";
import { payoutsAdmin } from "./payouts-admin";
import { claimPortal } from "./portal";
import * as tables from "./schema";

/** Claims: submitted by partners, adjudicated by the operator. */
export const claimsModule = defineModule({
  name: "claims",
  commands: claimCommands,
  jobs: ({ db, config }) => claimJobs(db, config),
  routes: (deps) => claimPortal(deps).use(claimAdmin(deps)).use(payoutsAdmin(deps)).use(payoutCallbackRoute(deps)),
  tables,
  nav: [
    { area: "portal", href: "/portal/claims", label: "Claims", key: "claims", order: 40 },
    { area: "admin", href: "/admin/claims", label: "Claims", key: "claims", order: 30 },
    { area: "admin", href: "/admin/payouts", label: "Claim payouts", key: "payouts", order: 31 },
  ],
});
