/**
 * The hostile client of the benchmark's `hostile` scenario (bench/hostile.ts): POSTs the body in
 * <body file> to <url> back to back, one request at a time, as fast as the server takes them, until
 * SIGTERM; then prints what it got as one line of JSON (SenderTally). A process of its own, so
 * writing 8 MB bodies never slows the load generator that measures the partner's quotes.
 *
 * Usage: bun bench/hostile-sender.ts <url> <body file>
 */
import { classifyCommandAnswer } from "./load";

/** The hostile client's own address, as the benchmark's trusted proxy (loopback) reports it. */
const HOSTILE_ADDRESS = "203.0.113.7";

export interface SenderTally {
  /** Answers by outcome (`55/400`, `http 413`, …); `cut off` when the server closed the connection first. */
  outcomes: Record<string, number>;
  /** Mean time from sending a request to its answer (or cut-off), ms. */
  meanMs: number;
}

if (import.meta.main) {
  const [url, bodyFile] = process.argv.slice(2);
  if (!url || !bodyFile) throw new Error("usage: bun bench/hostile-sender.ts <url> <body file>");
  const body = await Bun.file(bodyFile).bytes();
  const outcomes: Record<string, number> = {};
  let requests = 0;
  let totalMs = 0;
  process.once("SIGTERM", () => {
    const tally: SenderTally = { outcomes, meanMs: requests ? Math.round(totalMs / requests) : 0 };
    process.stdout.write(`${JSON.stringify(tally)}\n`, () => process.exit(0));
  });
  for (;;) {
    const started = performance.now();
    let outcome: string;
    try {
      const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": HOSTILE_ADDRESS }, body });
      outcome = classifyCommandAnswer(response.status, await response.text());
    } catch {
      // Answering before the whole body arrived and closing is what a server bounding its work may do.
      outcome = "cut off";
    }
    totalMs += performance.now() - started;
    requests++;
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  }
}
