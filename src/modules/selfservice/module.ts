import { defineModule } from "../manifest";
import { selfServiceCommands } from "./commands";
import { selfServicePages } from "./pages";

/** The policyholder's own page behind a signed, expiring link (docs/self-service.md). */
export const selfServiceModule = defineModule({
  name: "selfservice",
  commands: selfServiceCommands,
  routes: (deps) => selfServicePages(deps),
});
