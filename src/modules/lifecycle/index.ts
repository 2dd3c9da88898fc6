import { defineModule } from "../manifest";
import { lifecycleCommands } from "./commands";
import { lifecycleJobs } from "./jobs";
import * as tables from "./schema";

/** After issuance (docs/lifecycle.md): cancellation with refunds, and expiry at the end of cover. */
export const lifecycleModule = defineModule({
  name: "lifecycle",
  commands: lifecycleCommands,
  jobs: ({ db, config }) => lifecycleJobs(db, config),
  tables,
});
