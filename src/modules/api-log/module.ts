import { defineModule } from "../manifest";
import { apiLogJobs } from "./jobs";
import { apiLogPortal } from "./portal";
import * as tables from "./schema";

/** Every command a partner sent and what it was answered, with retention. */
export const apiLogModule = defineModule({
  name: "api-log",
  routes: (deps, { commandGrammars }) => apiLogPortal(deps, commandGrammars),
  jobs: ({ db }) => apiLogJobs(db),
  tables,
  nav: [{ area: "portal", href: "/portal/api-log", label: "API log", key: "api-log", order: 100 }],
});
