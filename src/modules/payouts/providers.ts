import type { Config } from "../../core/config";
import type { Mode } from "../../core/principal";
import type { PayoutProvider } from "./provider";
import { sandboxPayoutProvider } from "./sandbox-provider";

const sandboxes = new WeakMap<Config, PayoutProvider>();

/** The sandbox of this configuration, one per configuration (its memory of used references lives in it). */
function sandboxOf(config: Config): PayoutProvider {
  let provider = sandboxes.get(config);
  if (!provider) {
    provider = sandboxPayoutProvider(config.PAYOUT_PROVIDER_SECRET);
    sandboxes.set(config, provider);
  }
  return provider;
}

/**
 * The provider a claim of this mode is paid through: a test-mode claim always through the sandbox,
 * whatever is configured, so no test claim can move real money; a live claim through the configured
 * one (PAYOUT_PROVIDER). "sandbox" is the only one built in; a real provider joins the switch, and
 * the sandbox of test mode then needs a secret of its own.
 */
export function payoutProvider(config: Config, mode: Mode): PayoutProvider {
  if (mode === "test") return sandboxOf(config);
  switch (config.PAYOUT_PROVIDER) {
    case "sandbox":
      return sandboxOf(config);
  }
}
