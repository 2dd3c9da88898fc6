import { defineModule } from "../manifest";
import * as tables from "./schema";

/** Fraud signals on claims: keyed hashes of identifiers, the rules' flags (the claims module flags and shows them). */
export const signalsModule = defineModule({
  name: "signals",
  tables,
});
