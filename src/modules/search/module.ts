import { defineModule } from "../manifest";
import { searchAdmin } from "./admin";
import { searchPortal } from "./portal";

/** One search box per surface: a policy, consumer, claim or plan by anything a person would type (issue 36). */
export const searchModule = defineModule({
  name: "search",
  routes: (deps) => searchPortal(deps).use(searchAdmin(deps)),
});
