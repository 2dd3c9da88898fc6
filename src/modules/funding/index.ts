import { defineModule } from "../manifest";
import { fundingJobs } from "./jobs";
import { fundingAdmin, fundingCallbackRoute } from "./routes";
import * as tables from "./schema";

/** Live wallet funding: top-ups credited when the payment provider confirms them (docs/funding.md). */
export const fundingModule = defineModule({
  name: "funding",
  routes: (deps) => fundingCallbackRoute(deps).use(fundingAdmin(deps)),
  jobs: ({ db, config }) => fundingJobs(db, config),
  tables,
  nav: [{ area: "admin", href: "/admin/fundings", label: "Fundings", key: "fundings", order: 55 }],
});
