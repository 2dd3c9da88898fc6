import { CommandRegistry, notYet } from "./core/registry";
import { consumerCommands } from "./modules/consumers/commands";
import { enrichmentCommands } from "./modules/enrichment/commands";
import { partnerCommands } from "./modules/partners/commands";
import { policyCommands } from "./modules/policies/commands";
import { quoteCommands } from "./modules/quotes/commands";
import { walletCommands } from "./modules/wallet/commands";

/** Every command of spec 4.2, in one registry (the app router). Later capabilities answer 55/501 until delivered. */
export const commandRegistry = new CommandRegistry([
  ...consumerCommands,
  ...quoteCommands,
  ...partnerCommands,
  ...policyCommands,
  ...walletCommands,
  ...enrichmentCommands,
  notYet("claim submit", /^claim submit$/, "partner", "Submit a claim."),
  notYet("claim status", /^claim status$/, "partner", "Read a claim."),
  notYet("claim list", /^claim list$/, "partner", "List claims."),
  notYet("payment financeLoan", /^payment financeLoan$/, "partner", "Register a premium-financing plan."),
  notYet("payment recordInstallment", /^payment recordInstallment$/, "partner", "Record an installment payment."),
  notYet("payment runLapse", /^payment runLapse$/, "admin", "Lapse plans with missed installments (administrator only)."),
  notYet("webhook register", /^webhook register$/, "partner", "Register a webhook endpoint."),
  notYet("webhook update", /^webhook update$/, "partner", "Update a webhook endpoint."),
  notYet("webhook delete", /^webhook delete$/, "partner", "Delete a webhook endpoint."),
  notYet("webhook list", /^webhook list$/, "partner", "List webhook endpoints."),
]);
