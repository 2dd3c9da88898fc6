import type { AppDeps } from "../../http/context";
import { providerCallbackRoute } from "../../http/provider-callbacks";
import { receiveSmsReport } from "./callbacks";
import { smsProvider } from "./sms-providers";

/** POST /messages/callbacks/<provider>: the SMS gateway's signed delivery reports (src/http/provider-callbacks.ts). */
export const smsCallbackRoute = (deps: AppDeps) =>
  providerCallbackRoute(deps, {
    name: "message-callbacks",
    path: "/messages/callbacks/:provider",
    providers: [smsProvider(deps.config)],
    receive: (provider, body, signature, now) => receiveSmsReport(deps.database.db, provider, body, signature, now),
  });
