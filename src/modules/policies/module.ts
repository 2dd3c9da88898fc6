import { defineModule } from "../manifest";
import * as tables from "./schema";

/**
 * The policies table and what every module reads of a policy (its record, its address and
 * reference on the wire, its queries): the shared kernel below the modules that issue, change,
 * claim on, finance and bill policies (docs/architecture.md).
 */
export const policiesModule = defineModule({
  name: "policies",
  tables,
});
