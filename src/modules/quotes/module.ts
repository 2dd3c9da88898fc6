import { defineModule } from "../manifest";
import { quoteCommands } from "./commands";
import * as tables from "./schema";

/** Premium quotes (dump ipck_…*PRMM); the portal's quote-and-issue page is the policies module's. */
export const quotesModule = defineModule({
  name: "quotes",
  commands: quoteCommands,
  tables,
});
