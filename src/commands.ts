import { CommandRegistry, notYet } from "./core/registry";
import { consumerCommands } from "./modules/consumers/commands";
import { partnerCommands } from "./modules/partners/commands";
import { quoteCommands } from "./modules/quotes/commands";

const POLICY_REF = String.raw`entt_(?<consumerId>[^|\s]+)\|insr_(?<productCode>[a-z0-9]+-[a-z0-9]+-[0-9]+)-(?<txId>[^*\s]+)`;

/** Every command of spec 4.2, in one registry (the app router). Later capabilities answer 55/501 until delivered. */
export const commandRegistry = new CommandRegistry([
  ...consumerCommands,
  ...quoteCommands,
  ...partnerCommands,
  notYet("entt_<consumer_id>: insure", /^entt_(?<consumerId>[^:\s|*]+)\s*:\s*insure$/, "partner", "Issue a policy for a consumer (spec 2.5)."),
  notYet("dump entt_<consumer_id>|insr_<product_code>-<tx_id>*STATUS", new RegExp(`^dump ${POLICY_REF}\\*STATUS$`), "partner", "Status and certificate of a policy (spec 2.6)."),
  notYet("appr entt_<consumer_id>|insr_<product_code>-<tx_id>", new RegExp(`^appr ${POLICY_REF}$`), "admin", "Approve a pending policy (administrator only)."),
  notYet("dump entt_*", /^dump entt_\*$/, "partner", "List this partner's transactions."),
  notYet("dump entt_*ADMIN", /^dump entt_\*ADMIN$/, "admin", "List every partner's transactions (administrator only)."),
  notYet("enrch niid_vehicle", /^enrch niid_vehicle$/, "partner", "Vehicle-registry insurance check.", true),
  notYet("enrch vin_vehicle", /^enrch vin_vehicle$/, "partner", "VIN decode.", true),
  notYet("claim submit", /^claim submit$/, "partner", "Submit a claim."),
  notYet("claim status", /^claim status$/, "partner", "Read a claim."),
  notYet("claim list", /^claim list$/, "partner", "List claims."),
  notYet("payment financeLoan", /^payment financeLoan$/, "partner", "Register a premium-financing plan."),
  notYet("payment recordInstallment", /^payment recordInstallment$/, "partner", "Record an installment payment."),
  notYet("payment runLapse", /^payment runLapse$/, "admin", "Lapse plans with missed installments (administrator only)."),
  notYet("wallet topup", /^wallet topup$/, "partner", "Top up the prepaid wallet."),
  notYet("webhook register", /^webhook register$/, "partner", "Register a webhook endpoint."),
  notYet("webhook update", /^webhook update$/, "partner", "Update a webhook endpoint."),
  notYet("webhook delete", /^webhook delete$/, "partner", "Delete a webhook endpoint."),
  notYet("webhook list", /^webhook list$/, "partner", "List webhook endpoints."),
]);
