import { log } from "../core/log";
import type { Database } from "../db/client";
import { simulatedInsurer, underwriteDuePolicies, type InsurerGateway } from "../modules/policies/service";

export interface Job {
  name: string;
  /** Do one batch of due work; returns how many items it handled (a full batch → run again at once). */
  run(now: Date): Promise<number>;
}

export const underwritingJob = (db: Database, gateway: InsurerGateway = simulatedInsurer): Job => ({
  name: "underwriting",
  run: (now) => underwriteDuePolicies(db, gateway, now),
});

/**
 * The background loop: runs every job, then sleeps `intervalMs`. Jobs claim rows with
 * FOR UPDATE SKIP LOCKED, so several instances may run it at once. stop() waits for the
 * current pass to finish (graceful shutdown).
 */
export function startWorker(jobs: Job[], intervalMs: number): { stop(): Promise<void> } {
  let running = true;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (running) {
      for (const job of jobs) {
        try {
          while (running && (await job.run(new Date())) > 0) {}
        } catch (error) {
          log.error("background job failed", { job: job.name, error });
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
