import type { Config } from "../../core/config";
import type { Job } from "../../core/job";
import type { Database } from "../../db/client";
import { watToday } from "../../products/policy-helpers";
import { noticeOutboxEvents } from "./fanout";
import { remindInstallments } from "./installments";

/**
 * The notices' background jobs: the outbox fan-out, and the installments' reminders by date — like
 * the financing lapse beside them at most once per LAPSE_INTERVAL_MS in each process (idempotent, so
 * every instance may run them).
 */
export function noticeJobs(db: Database, config: Config): Job[] {
  let lastRun = Number.NEGATIVE_INFINITY;
  return [
    { name: "notices fan-out", run: (now) => noticeOutboxEvents(db, config, now) },
    {
      name: "notices installment reminders",
      async run(now) {
        if (now.getTime() - lastRun < config.LAPSE_INTERVAL_MS) return 0;
        const queued = await remindInstallments(db, config, watToday(now), now);
        lastRun = now.getTime();
        return queued;
      },
    },
  ];
}
