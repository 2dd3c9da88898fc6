import { defineModule } from "../manifest";
import { lifecycleCommands } from "./commands";
import { lifecycleJobs } from "./jobs";
import { lifecyclePortal } from "./portal";
import * as tables from "./schema";

/** After issuance (docs/lifecycle.md): cancellation with refunds, and expiry at the end of cover. */
export const lifecycleModule = defineModule({
  name: "lifecycle",
  commands: lifecycleCommands,
  routes: (deps) => lifecyclePortal(deps),
  jobs: ({ db, config }) => lifecycleJobs(db, config),
  tables,
});
