/**
 * @partner-insurance/client — a typed client of the insurance partner command service.
 *
 *   const client = new PartnerClient({ baseUrl, partnerId, keyId, key });
 *   const { id: consumerId } = await client.registerConsumer({ class: "h", … });
 *   const { prmm } = await client.quote("vhcl-tprt-1111", { insrncDrtn: "1y" });
 *   const policy = await client.insure(consumerId, { ctgry: "vhcl", type: "tprt", pckg: "1111", id: crypto.randomUUID(), … });
 *   const decided = await client.waitForDecision(consumerId, "vhcl-tprt-1111", policy.id);
 */
export { PartnerClient, DecisionTimeout, FINAL_STATUSES, paginate, storedReference } from "./client.js";
export type { Certificate, CallOptions, ClientOptions, Credentials, Fetch, RetryEvent, RetryPolicy, WaitOptions } from "./client.js";
export { commands, isSafeToRepeat } from "./commands.js";
export { AtCapacity, CommandRefused, NetworkError, PartnerClientError, RateLimited, RequestTimeout, UnexpectedAnswer, WebhookVerificationError, fieldNamedIn } from "./errors.js";
export { POLLING_GUIDANCE, jittered, pollIntervalFor } from "./polling.js";
export type { PollInterval } from "./polling.js";
export { secretBytes, signWebhook, verifyWebhook } from "./webhooks.js";
export type { VerifyOptions, WebhookEvent, WebhookHeaders } from "./webhooks.js";
export type * from "./types.js";
