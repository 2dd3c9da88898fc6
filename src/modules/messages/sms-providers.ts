import type { Config } from "../../core/config";
import { sandboxSmsProvider } from "./sandbox-sms";
import type { SmsProvider } from "./sms-provider";

const providers = new WeakMap<Config, SmsProvider>();

/** The SMS gateway of this configuration (SMS_PROVIDER): "sandbox" is the only one built in; a real one (Termii over HTTPS) joins the switch. */
export function smsProvider(config: Config): SmsProvider {
  let provider = providers.get(config);
  if (!provider) {
    switch (config.SMS_PROVIDER) {
      case "sandbox":
        provider = sandboxSmsProvider(config.SMS_PROVIDER_SECRET);
    }
    providers.set(config, provider);
  }
  return provider;
}
