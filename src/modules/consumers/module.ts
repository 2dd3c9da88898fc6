import { defineModule } from "../manifest";
import { consumerAdmin } from "./admin";
import { consumerCommands } from "./commands";
import { consumerPortal } from "./portal";
import * as tables from "./schema";

/** The people and businesses partners insure (prfl entity). */
export const consumersModule = defineModule({
  name: "consumers",
  commands: consumerCommands,
  routes: (deps, facts) => consumerPortal(deps, facts).use(consumerAdmin(deps, facts)),
  tables,
  nav: [
    { area: "portal", href: "/portal/consumers", label: "Consumers", key: "consumers", order: 10 },
    { area: "admin", href: "/admin/consumers", label: "Consumers", key: "consumers", order: 20 },
  ],
});
