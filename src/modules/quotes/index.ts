import { defineModule } from "../manifest";
import { quoteCommands } from "./commands";
import { quotePortal } from "./portal";
import * as tables from "./schema";

/** Premium quotes (dump ipck_…*PRMM) and the portal's quote-and-issue page. */
export const quotesModule = defineModule({
  name: "quotes",
  commands: quoteCommands,
  routes: quotePortal,
  tables,
  nav: [{ area: "portal", href: "/portal/quote", label: "Quote & issue", key: "quote", order: 20 }],
});
