import { defineModule } from "../manifest";
import * as tables from "./schema";

/** Commissions on live premiums and the partner's monthly statement. */
export const commissionsModule = defineModule({
  name: "commissions",
  tables,
});
