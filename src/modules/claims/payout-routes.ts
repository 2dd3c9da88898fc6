import type { AppDeps } from "../../http/context";
import { providerCallbackRoute } from "../../http/provider-callbacks";
import { type PayoutProvider, payoutProvider } from "../payouts";
import { receivePayoutCallback } from "./payout";

/** POST /payouts/callbacks/<provider>: the payout provider's signed callbacks (src/http/provider-callbacks.ts), of either mode's provider. */
export const payoutCallbackRoute = (deps: AppDeps) => {
  const providers = new Map<string, PayoutProvider>();
  for (const mode of ["test", "live"] as const) {
    const provider = payoutProvider(deps.config, mode);
    providers.set(provider.name, provider);
  }
  return providerCallbackRoute(deps, {
    name: "payout-callbacks",
    path: "/payouts/callbacks/:provider",
    providers: [...providers.values()],
    receive: (provider, body, signature, now) => receivePayoutCallback(deps.database.db, provider, body, signature, now),
  });
};
