import { defineModule } from "../manifest";
import { noticeOutboxEvents } from "./fanout";
import { noticesPortal } from "./portal";
import * as tables from "./schema";

/** Notices: the service's events told to the insured by e-mail and SMS, from each partner's templates and branding (docs/templates.md). */
export const noticesModule = defineModule({
  name: "notices",
  routes: noticesPortal,
  jobs: ({ db, config }) => [{ name: "notices fan-out", run: (now) => noticeOutboxEvents(db, config, now) }],
  tables,
  nav: [{ area: "portal", href: "/portal/message-settings", label: "Messages", key: "message-settings", order: 75 }],
});
