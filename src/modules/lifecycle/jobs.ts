import type { Config } from "../../config";
import type { Job } from "../../core/job";
import { log } from "../../core/log";
import type { Database } from "../../db/client";
import { expireEndedPolicies } from "./service";

/**
 * The expiry run: policies whose cover ended become `e`. Cover ends at any minute (goods in
 * transit end on arrival), so this runs with the loop, at most once per EXPIRY_INTERVAL_MS; a run
 * with nothing due is one indexed query. Idempotent, so every instance may run it.
 */
export function lifecycleJobs(db: Database, config: Config): Job[] {
  let lastRun = Number.NEGATIVE_INFINITY;
  return [
    {
      name: "policy expiry",
      async run(now) {
        if (now.getTime() - lastRun < config.EXPIRY_INTERVAL_MS) return 0;
        const expired = await expireEndedPolicies(db, now);
        lastRun = now.getTime();
        if (expired) log.info("policies expired", { count: expired });
        return expired;
      },
    },
  ];
}
