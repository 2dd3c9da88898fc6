import { defineModule } from "../manifest";
import { webhookCommands } from "./commands";
import { webhookJobs } from "./jobs";
import { webhookPortal } from "./portal";
import * as tables from "./schema";

/** Webhook endpoints and the signed delivery of outbox events. */
export const webhooksModule = defineModule({
  name: "webhooks",
  commands: webhookCommands,
  routes: webhookPortal,
  jobs: ({ db, config }) => webhookJobs(db, config),
  tables,
  nav: [{ area: "portal", href: "/portal/webhooks", label: "Webhooks", key: "webhooks", order: 70 }],
});
