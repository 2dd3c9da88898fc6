/** A background job of the worker loop (src/worker/loop.ts); modules declare theirs in their manifest. */
export interface Job {
  name: string;
  /** Do one batch of due work; returns how many items it handled (any → run again at once). */
  run(now: Date): Promise<number>;
}
