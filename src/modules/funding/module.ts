import { defineModule } from "../manifest";
import { fundingCommands } from "./commands";
import { fundingJobs } from "./jobs";
import { walletPortal } from "./portal";
import { fundingAdmin, fundingCallbackRoute } from "./routes";
import * as tables from "./schema";

/**
 * Wallet funding (docs/funding.md): `wallet topup`, the partner's wallet page with its top-up form,
 * live top-ups credited when the payment provider confirms them, the operator's fundings desk.
 */
export const fundingModule = defineModule({
  name: "funding",
  commands: fundingCommands,
  routes: (deps) => walletPortal(deps).use(fundingCallbackRoute(deps)).use(fundingAdmin(deps)),
  jobs: ({ db, config }) => fundingJobs(db, config),
  tables,
  nav: [
    { area: "portal", href: "/portal/wallet", label: "Wallet", key: "wallet", order: 60 },
    { area: "admin", href: "/admin/fundings", label: "Fundings", key: "fundings", order: 55 },
  ],
});
