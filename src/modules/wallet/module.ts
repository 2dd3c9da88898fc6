import { defineModule } from "../manifest";
import * as tables from "./schema";

/**
 * The partner's prepaid wallet: its balance and ledger, debited by premiums and credited by refunds
 * and top-ups. Its page and `wallet topup` belong to the funding module, which tops it up.
 */
export const walletModule = defineModule({
  name: "wallet",
  tables,
});
