import type { Config } from "../../core/config";
import type { Job } from "../../core/job";
import type { Database } from "../../db/client";
import { deliverDueWebhooks, deliverySettings, dispatchOutboxEvents } from "./dispatcher";

/** The background jobs of webhook delivery: outbox fan-out, then delivery with retries. */
export function webhookJobs(db: Database, config: Config): Job[] {
  const settings = deliverySettings(config);
  return [
    { name: "webhook fan-out", run: (now) => dispatchOutboxEvents(db, now) },
    { name: "webhook delivery", run: (now) => deliverDueWebhooks(db, settings, now) },
  ];
}
