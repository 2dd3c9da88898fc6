/**
 * @partner-insurance/client — a typed client of the insurance partner command service.
 *
 *   const client = new PartnerClient({ baseUrl, partnerId, keyId, key });
 *   const { id: consumerId } = await client.registerConsumer({ class: "h", … });
 *   const { prmm } = await client.quote("vhcl-tprt-1111", { insrncDrtn: "1y" });
 *   const policy = await client.insure(consumerId, { ctgry: "vhcl", type: "tprt", pckg: "1111", id: crypto.randomUUID(), … });
 *   const decided = await client.waitForDecision(consumerId, "vhcl-tprt-1111", policy.id);
 */

export type { CallOptions, Certificate, ClientOptions, Credentials, Fetch, RetryEvent, RetryPolicy, WaitOptions } from "./client.js";
export { DecisionTimeout, FINAL_STATUSES, PartnerClient, paginate, storedReference } from "./client.js";
export { commands, isSafeToRepeat } from "./commands.js";
export {
  AtCapacity,
  CommandRefused,
  fieldNamedIn,
  NetworkError,
  PartnerClientError,
  RateLimited,
  RequestTimeout,
  UnexpectedAnswer,
  WebhookVerificationError,
} from "./errors.js";
export type { PollInterval } from "./polling.js";
export { jittered, POLLING_GUIDANCE, pollIntervalFor } from "./polling.js";
export type * from "./types.js";
export type { VerifyOptions, WebhookEvent, WebhookHeaders } from "./webhooks.js";
export { secretBytes, signWebhook, verifyWebhook } from "./webhooks.js";
