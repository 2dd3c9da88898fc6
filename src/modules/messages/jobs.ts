import type { Config } from "../../core/config";
import type { Job } from "../../core/job";
import type { Database } from "../../db/client";
import { deliverDueMessages, deliverySettings } from "./delivery";
import { mailerFor } from "./mailer";
import { smsProvider } from "./sms-providers";

/** The delivery of the outbox of messages: every worker pass, the due messages (docs/messages.md). */
export function messageJobs(db: Database, config: Config): Job[] {
  const settings = deliverySettings(config, mailerFor(config), smsProvider(config));
  return [{ name: "message delivery", run: (now) => deliverDueMessages(db, settings, now) }];
}
