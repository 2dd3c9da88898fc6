import { log } from "./log";

/**
 * The lifecycle every server process of ours shares: a stray rejection or exception is logged and
 * the process keeps serving (one bad hook must not take every request down with it), and SIGTERM or
 * SIGINT runs `shutdown` once.
 */
export function serveUntilSignalled(shutdown: (signal: string) => Promise<void>): void {
  process.on("unhandledRejection", (error) => log.error("unhandled rejection", { error }));
  process.on("uncaughtException", (error) => log.error("uncaught exception", { error }));
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info("shutting down", { signal });
    void shutdown(signal);
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}
