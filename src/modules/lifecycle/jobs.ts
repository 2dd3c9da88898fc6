import type { Config } from "../../core/config";
import type { Job } from "../../core/job";
import { log } from "../../core/log";
import type { Database } from "../../db/client";
import { expireEndedPolicies, remindExpiringPolicies } from "./expiry";
import { renewOptedInPolicies } from "./renewal";

/**
 * The lifecycle run: policies whose cover ended become `e`, renewable ones nearing their end are
 * reminded (30, 7 and 1 days before), and opted-in ones are renewed in their last week. Cover ends at any minute (goods in
 * transit end on arrival), so this runs with the loop, at most once per EXPIRY_INTERVAL_MS; a run
 * with nothing due is one indexed query. Idempotent, so every instance may run it.
 */
export function lifecycleJobs(db: Database, config: Config): Job[] {
  let lastRun = Number.NEGATIVE_INFINITY;
  return [
    {
      name: "policy expiry, reminders and automatic renewal",
      async run(now) {
        if (now.getTime() - lastRun < config.EXPIRY_INTERVAL_MS) return 0;
        const expired = await expireEndedPolicies(db, now);
        const reminded = await remindExpiringPolicies(db, now);
        const { renewed, failed } = await renewOptedInPolicies(db, now, config.INSURER_DELAY_MS);
        lastRun = now.getTime();
        if (expired || reminded || renewed || failed) log.info("policy lifecycle run", { expired, reminded, renewed, failed });
        return expired + reminded + renewed + failed;
      },
    },
  ];
}
