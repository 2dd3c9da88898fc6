import type { Config } from "../../core/config";
import type { Job } from "../../core/job";
import type { Database } from "../../db/client";
import { clockSettings } from "./clock";
import { announceDeadlines } from "./deadlines";

/** The claims clock: at most once per CLAIM_CLOCK_INTERVAL_MS in each process, announces deadlines coming near or passed. */
export function claimJobs(db: Database, config: Config): Job[] {
  let lastRun = Number.NEGATIVE_INFINITY;
  const settings = clockSettings(config);
  return [
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
