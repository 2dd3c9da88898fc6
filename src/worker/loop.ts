import type { Job } from "../core/job";
import { log } from "../core/log";
import { isConnectionError } from "../db/errors";

/** A failing job waits 2, 4, 8 … intervals before its next try, at most a minute. */
const MAX_BACKOFF_MS = 60_000;
/**
 * A job that lost its database connection tries again after this (at most): the pool reconnects on
 * its own, so the work can go on as soon as the database answers, not a minute later.
 */
const CONNECTION_RETRY_MS = 1_000;

/**
 * The background loop: each job runs in a loop of its own (a slow webhook receiver must not hold
 * up underwriting), doing its due work, then sleeping `intervalMs`. Jobs claim rows with
 * FOR UPDATE SKIP LOCKED, so several instances may run them at once. stop() waits for every
 * current pass to finish (graceful shutdown).
 */
export function startWorker(jobs: Job[], intervalMs: number): { stop(): Promise<void> } {
  let running = true;
  const wakers = new Set<() => void>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        wakers.delete(wake);
        resolve();
      };
      wakers.add(wake);
      setTimeout(wake, ms);
    });
  const loops = jobs.map(async (job) => {
    let failures = 0;
    // Failures in a row for want of a connection: logged once per outage, not once per retry.
    let connectionFailures = 0;
    while (running) {
      let wait = intervalMs;
      try {
        while (running && (await job.run(new Date())) > 0) {}
        if (connectionFailures) log.info("background job reaches the database again", { job: job.name, retries: connectionFailures });
        failures = connectionFailures = 0;
      } catch (error) {
        if (isConnectionError(error)) {
          if (!connectionFailures++) log.warn("background job lost its database connection: retrying", { job: job.name, error });
          wait = Math.min(intervalMs, CONNECTION_RETRY_MS);
        } else {
          failures++;
          log.error("background job failed", { job: job.name, failures, error });
          wait = Math.min(MAX_BACKOFF_MS, intervalMs * 2 ** failures);
        }
      }
      await sleep(wait);
    }
  });
  return {
    async stop() {
      running = false;
      for (const wake of [...wakers]) wake();
      await Promise.all(loops);
    },
  };
}
