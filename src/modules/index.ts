import { accountsModule } from "./accounts";
import { apiLogModule } from "./api-log";
import { auditModule } from "./audit";
import { certificatesModule } from "./certificates";
import { claimsModule } from "./claims";
import { commissionsModule } from "./commissions";
import { consumersModule } from "./consumers";
import { dashboardModule } from "./dashboard";
import { enrichmentModule } from "./enrichment";
import { eventsModule } from "./events";
import { routeEventsBy } from "./events/service";
import { financingModule } from "./financing";
import { fundingModule } from "./funding";
import { issuanceModule } from "./issuance";
import { lifecycleModule } from "./lifecycle";
import type { ModuleManifest } from "./manifest";
import { partnersModule } from "./partners";
import { policiesModule } from "./policies";
import { quotesModule } from "./quotes";
import { reportingModule } from "./reporting";
import { walletModule } from "./wallet";
import { webhooksModule } from "./webhooks";
import { hasWebhookEndpoint } from "./webhooks/destinations";

/**
 * Every module of the service. Adding one is its folder plus one line here: the command registry,
 * the portal, the worker, the navigation and drizzle-kit all read this list. The order is the
 * reference's order of commands.
 */
export const modules: readonly ModuleManifest[] = [
  consumersModule,
  quotesModule,
  partnersModule,
  policiesModule,
  issuanceModule,
  walletModule,
  fundingModule,
  commissionsModule,
  enrichmentModule,
  claimsModule,
  financingModule,
  reportingModule,
  lifecycleModule,
  webhooksModule,
  apiLogModule,
  auditModule,
  accountsModule,
  certificatesModule,
  eventsModule,
  dashboardModule,
];

// The outbox asks the webhooks module, which sits above it, whether a partner's events have anywhere to go.
routeEventsBy(hasWebhookEndpoint);
