import type { Config } from "../config";
import { log } from "../core/log";
import type { Database } from "../db/client";
import { publishApprovedVehicles } from "../modules/enrichment/publication";
import { configuredRegistry } from "../modules/enrichment/registry";
import { simulatedInsurer, underwriteDuePolicies, type InsurerGateway } from "../modules/policies/service";

export interface Job {
  name: string;
  /** Do one batch of due work; returns how many items it handled (any → run again at once). */
  run(now: Date): Promise<number>;
}

/** The background jobs of this service, as configured. */
export function serviceJobs(db: Database, config: Config, gateway: InsurerGateway = simulatedInsurer): Job[] {
  const registry = configuredRegistry(config);
  const jobs: Job[] = [{ name: "underwriting", run: (now) => underwriteDuePolicies(db, gateway, now, { registry }) }];
  if (registry) jobs.push({ name: "registry publication", run: (now) => publishApprovedVehicles(db, registry, config.INSURER_NAME, now) });
  return jobs;
}

/** A failing job waits 2, 4, 8 … intervals before its next try, at most a minute. */
const MAX_BACKOFF_MS = 60_000;

/**
 * The background loop: runs every job, then sleeps `intervalMs`. Jobs claim rows with
 * FOR UPDATE SKIP LOCKED, so several instances may run it at once. stop() waits for the
 * current pass to finish (graceful shutdown).
 */
export function startWorker(jobs: Job[], intervalMs: number): { stop(): Promise<void> } {
  let running = true;
  let wake: (() => void) | undefined;
  const failures = new Map<Job, { count: number; retryAt: number }>();
  const loop = (async () => {
    while (running) {
      for (const job of jobs) {
        const failing = failures.get(job);
        if (failing && Date.now() < failing.retryAt) continue;
        try {
          while (running && (await job.run(new Date())) > 0) {}
          failures.delete(job);
        } catch (error) {
          const count = (failing?.count ?? 0) + 1;
          failures.set(job, { count, retryAt: Date.now() + Math.min(MAX_BACKOFF_MS, intervalMs * 2 ** count) });
          log.error("background job failed", { job: job.name, failures: count, error });
        }
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, intervalMs);
      });
    }
  })();
  return {
    async stop() {
      running = false;
      wake?.();
      await loop;
    },
  };
}
