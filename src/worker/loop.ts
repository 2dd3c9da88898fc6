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
 * While requests are being answered, a job with more to do rests this many times as long as its
 * last pass took before the next one: a backlog then takes at most a third of the job's time, and
 * requests come first. In a burst of live issuances, the insurer's decisions of the seconds before
 * took about a quarter of the requests' throughput (docs/performance.md). Idle, it goes on at once.
 */
const REST_PER_PASS_WHILE_BUSY = 2;

/**
 * The background loop: each job runs in a loop of its own (a slow webhook receiver must not hold
 * up underwriting), doing its due work, then sleeping `intervalMs`. Jobs claim rows with
 * FOR UPDATE SKIP LOCKED, so several instances may run them at once. `busy` says whether requests
 * are being answered (REST_PER_PASS_WHILE_BUSY). stop() waits for every current pass to finish
 * (graceful shutdown).
 */
export function startWorker(jobs: Job[], intervalMs: number, busy: () => boolean = () => false): { stop(): Promise<void> } {
  let running = true;
  const wakers = new Set<() => void>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      // Stopped during a pass: no sleep after it.
      if (!running) return resolve();
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
        for (;;) {
          const started = performance.now();
          if (!running || (await job.run(new Date())) <= 0) break;
          if (busy()) await sleep((performance.now() - started) * REST_PER_PASS_WHILE_BUSY);
        }
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
