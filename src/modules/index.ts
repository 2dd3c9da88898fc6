import { accountsModule } from "./accounts/module";
import { apiLogModule } from "./api-log/module";
import { auditModule } from "./audit/module";
import { calendarModule } from "./calendar/module";
import { certificatesModule } from "./certificates/module";
import { claimsModule } from "./claims/module";
import { commissionsModule } from "./commissions/module";
import { complaintsModule } from "./complaints/module";
import { consumersModule } from "./consumers/module";
import { dashboardModule } from "./dashboard/module";
import { enrichmentModule } from "./enrichment/module";
import { noticeEventsBy, routeEventsBy } from "./events";
import { eventsModule } from "./events/module";
import { financingModule } from "./financing/module";
import { fundingModule } from "./funding/module";
import { issuanceModule } from "./issuance/module";
import { lifecycleModule } from "./lifecycle/module";
import type { ModuleManifest } from "./manifest";
import { messagesModule } from "./messages/module";
import { noticeFor } from "./notices";
import { noticesModule } from "./notices/module";
import { partnersModule } from "./partners/module";
import { policiesModule } from "./policies/module";
import { quotesModule } from "./quotes/module";
import { reportingModule } from "./reporting/module";
import { searchModule } from "./search/module";
import { selfServiceModule } from "./selfservice/module";
import { signalsModule } from "./signals/module";
import { walletModule } from "./wallet/module";
import { hasWebhookEndpoint } from "./webhooks";
import { webhooksModule } from "./webhooks/module";

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
  complaintsModule,
  signalsModule,
  financingModule,
  reportingModule,
  lifecycleModule,
  webhooksModule,
  messagesModule,
  apiLogModule,
  auditModule,
  accountsModule,
  certificatesModule,
  eventsModule,
  dashboardModule,
  searchModule,
  calendarModule,
  noticesModule,
  selfServiceModule,
];

// The outbox asks the webhooks module, which sits above it, whether a partner's events have anywhere to go.
routeEventsBy(hasWebhookEndpoint);
// The outbox asks the notices module, which sits above it, whether an event is told to the insured.
noticeEventsBy((event) => noticeFor(event) !== undefined);
