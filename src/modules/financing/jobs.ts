import type { Config } from "../../core/config";
import type { Job } from "../../core/job";
import { log } from "../../core/log";
import type { Database } from "../../db/client";
import { watToday } from "../../products/policy-helpers";
import { runLapse } from "./lapse";

/**
 * The scheduled payment runLapse. The lapse rule is by date, so "daily" only needs a run soon after
 * each midnight (WAT); this one runs at most once per LAPSE_INTERVAL_MS (an hour by default) in each
 * process, which catches up after downtime and costs one indexed query when nothing is due. Runs
 * are idempotent, so every instance may run it.
 */
export function financingJobs(db: Database, config: Config): Job[] {
  let lastRun = Number.NEGATIVE_INFINITY;
  return [
    {
      name: "financing lapse",
      async run(now) {
        if (now.getTime() - lastRun < config.LAPSE_INTERVAL_MS) return 0;
        const lapsed = await runLapse(db, watToday(now), now);
        // Only a run that finished counts: a failed one is retried with the loop's backoff.
        lastRun = now.getTime();
        if (lapsed.length) log.info("financing plans lapsed", { count: lapsed.length, plans: lapsed.map((p) => p.planNo) });
        return lapsed.length;
      },
    },
  ];
}
