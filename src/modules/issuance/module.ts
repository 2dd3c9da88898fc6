import { configuredRegistry } from "../enrichment";
import { defineModule } from "../manifest";
import { policyAdmin } from "./admin";
import { policyCommands } from "./commands";
import { policyPortal, quotePortal } from "./portal";
import { underwriteDuePolicies } from "./underwriting";

/**
 * Issuance (the portal's quote & issue too), status and lists, the operator's approvals, and
 * underwriting of live policies by the insurer. The policies table and its queries are the
 * policies module's, below every module that reads a policy.
 */
export const issuanceModule = defineModule({
  name: "issuance",
  commands: policyCommands,
  routes: (deps, facts) => quotePortal(deps).use(policyPortal(deps, facts)).use(policyAdmin(deps, facts)),
  jobs: ({ db, config, gateway }) => {
    const registry = configuredRegistry(config);
    return [{ name: "underwriting", run: (now) => underwriteDuePolicies(db, gateway, now, { registry }) }];
  },
  nav: [
    { area: "portal", href: "/portal/quote", label: "Quote & issue", key: "quote", order: 20 },
    { area: "portal", href: "/portal/policies", label: "Policies", key: "policies", order: 30 },
    { area: "admin", href: "/admin", label: "Approvals", key: "approvals", order: 0 },
    { area: "admin", href: "/admin/policies", label: "Transactions", key: "policies", order: 10 },
  ],
});
