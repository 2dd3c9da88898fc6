import { defineModule } from "../manifest";
import * as tables from "./schema";

/** Live wallet funding: top-ups credited when the payment provider confirms them. */
export const fundingModule = defineModule({
  name: "funding",
  tables,
});
