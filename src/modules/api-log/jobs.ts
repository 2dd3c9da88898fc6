import type { Job } from "../../core/job";
import type { Database } from "../../db/client";
import { pruneApiRequests } from "./service";

/** How often the retention job runs in each process (it is idempotent: every instance may run it). */
const API_LOG_PRUNE_INTERVAL_MS = 5 * 60_000;
const BATCH = 5_000;

/**
 * API log retention: at most every API_LOG_PRUNE_INTERVAL_MS, delete each partner's requests beyond
 * its newest API_LOG_KEEP and older than API_LOG_MAX_AGE_MS (src/modules/api-log/service.ts). A full
 * batch runs again at once; the interval starts when a run found less than a batch to delete.
 */
export function apiLogJobs(db: Database, options: { intervalMs?: number; keep?: number; maxAgeMs?: number } = {}): Job[] {
  const intervalMs = options.intervalMs ?? API_LOG_PRUNE_INTERVAL_MS;
  let lastRun = Number.NEGATIVE_INFINITY;
  return [
    {
      name: "api log retention",
      async run(now) {
        if (now.getTime() - lastRun < intervalMs) return 0;
        const deleted = await pruneApiRequests(db, now, { keep: options.keep, maxAgeMs: options.maxAgeMs, batch: BATCH });
        if (deleted < BATCH) lastRun = now.getTime();
        return deleted;
      },
    },
  ];
}
