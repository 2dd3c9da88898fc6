import { defineModule } from "../manifest";
import { smsCallbackRoute } from "./callback-routes";
import { messageJobs } from "./jobs";
import { messagePages } from "./pages";
import * as tables from "./schema";

/** Messages: the outbox of e-mail and SMS the service sends, their delivery and its log (docs/messages.md). */
export const messagesModule = defineModule({
  name: "messages",
  jobs: ({ db, config }) => messageJobs(db, config),
  routes: (deps) => messagePages(deps).use(smsCallbackRoute(deps)),
  tables,
  nav: [
    { area: "portal", href: "/portal/messages", label: "Messages", key: "messages", order: 75 },
    { area: "admin", href: "/admin/messages", label: "Messages", key: "messages", order: 75 },
  ],
});
