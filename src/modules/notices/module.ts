import { defineModule } from "../manifest";
import { noticeJobs } from "./jobs";
import { noticesPortal } from "./portal";
import * as tables from "./schema";

/** Notices: the service's events told to the insured by e-mail and SMS, from each partner's templates and branding (docs/templates.md). */
export const noticesModule = defineModule({
  name: "notices",
  routes: noticesPortal,
  jobs: ({ db, config }) => noticeJobs(db, config),
  tables,
  nav: [{ area: "portal", href: "/portal/message-settings", label: "Message templates", key: "message-settings", order: 76 }],
});
