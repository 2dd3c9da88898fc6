import type { Config } from "../../core/config";
import type { Job } from "../../core/job";
import { log } from "../../core/log";
import type { Database } from "../../db/client";
import { clockSettings } from "./clock";
import { announceDeadlines } from "./deadlines";
import { checkPayouts, payoutSettings } from "./payout";

/**
 * The claims clock: at most once per CLAIM_CLOCK_INTERVAL_MS in each process, announces deadlines
 * coming near or passed. The payout check: at most once per PAYOUT_CHECK_INTERVAL_MS, sends the
 * payouts still queued and asks the provider about those whose callback has not come.
 */
export function claimJobs(db: Database, config: Config): Job[] {
  let lastRun = Number.NEGATIVE_INFINITY;
  let lastCheck = Number.NEGATIVE_INFINITY;
  const settings = clockSettings(config);
  const payouts = payoutSettings(config);
  return [
    {
      name: "payout check",
      async run(now) {
        if (now.getTime() - lastCheck < config.PAYOUT_CHECK_INTERVAL_MS) return 0;
        const changed = await checkPayouts(db, payouts, now, config.PAYOUT_CHECK_AFTER_MS);
        lastCheck = now.getTime();
        if (changed) log.info("payouts sent or settled by the check", { count: changed });
        return changed;
      },
    },
    {
      name: "claims clock",
      async run(now) {
        if (now.getTime() - lastRun < config.CLAIM_CLOCK_INTERVAL_MS) return 0;
        const sent = await announceDeadlines(db, settings, now);
        // A full batch: look again at once for the rest.
        if (sent === 0) lastRun = now.getTime();
        return sent;
      },
    },
  ];
}
