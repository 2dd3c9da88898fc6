import { defineModule } from "../manifest";
import { walletCommands } from "./commands";
import { walletPortal } from "./portal";
import * as tables from "./schema";

/** The partner's prepaid wallet: top-ups, premiums debited, refunds. */
export const walletModule = defineModule({
  name: "wallet",
  commands: walletCommands,
  routes: walletPortal,
  tables,
  nav: [{ area: "portal", href: "/portal/wallet", label: "Wallet", key: "wallet", order: 60 }],
});
