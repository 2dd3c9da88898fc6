import { CommandRegistry } from "./core/registry";
import { claimCommands } from "./modules/claims/commands";
import { consumerCommands } from "./modules/consumers/commands";
import { enrichmentCommands } from "./modules/enrichment/commands";
import { financingCommands } from "./modules/financing/commands";
import { partnerCommands } from "./modules/partners/commands";
import { policyCommands } from "./modules/policies/commands";
import { quoteCommands } from "./modules/quotes/commands";
import { walletCommands } from "./modules/wallet/commands";
import { webhookCommands } from "./modules/webhooks/commands";

/** Every command of spec 4.2 (and the documented extensions), in one registry: the app router. */
export const commandRegistry = new CommandRegistry([
  ...consumerCommands,
  ...quoteCommands,
  ...partnerCommands,
  ...policyCommands,
  ...walletCommands,
  ...enrichmentCommands,
  ...claimCommands,
  ...financingCommands,
  ...webhookCommands,
]);
