import type { Config } from "../../core/config";
import type { Job } from "../../core/job";
import { log } from "../../core/log";
import type { Database } from "../../db/client";
import { checkFundings } from "./callbacks";
import { paymentProvider } from "./providers";

/**
 * The funding check: at most once per FUNDING_CHECK_INTERVAL_MS in each process, asks the provider
 * about pending fundings whose callback has not come within FUNDING_CHECK_AFTER_MS, and expires the
 * unpaid ones past their expiry. Each funding is settled under its row lock, so every instance may run it.
 */
export function fundingJobs(db: Database, config: Config): Job[] {
  let lastRun = Number.NEGATIVE_INFINITY;
  const provider = paymentProvider(config);
  return [
    {
      name: "funding check",
      async run(now) {
        if (now.getTime() - lastRun < config.FUNDING_CHECK_INTERVAL_MS) return 0;
        const changed = await checkFundings(db, provider, now, config.FUNDING_CHECK_AFTER_MS);
        lastRun = now.getTime();
        if (changed) log.info("fundings settled or expired by the check", { count: changed });
        return changed;
      },
    },
  ];
}
