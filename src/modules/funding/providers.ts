import type { Config } from "../../core/config";
import type { PaymentProvider } from "./provider";
import { sandboxProvider } from "./sandbox-provider";

const providers = new WeakMap<Config, PaymentProvider>();

/** The configured provider (PAYMENT_PROVIDER), one per configuration. */
export function paymentProvider(config: Config): PaymentProvider {
  let provider = providers.get(config);
  if (!provider) {
    provider = sandboxProvider(config.PAYMENT_PROVIDER_SECRET, config.FUNDING_EXPIRY_MINUTES);
    providers.set(config, provider);
  }
  return provider;
}
