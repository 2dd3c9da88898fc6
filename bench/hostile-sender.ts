/**
 * The hostile clients of the benchmark's `hostile` scenario (bench/hostile.ts), each a process of its
 * own so that sending never slows the load generator that measures the partner's quotes. Runs until
 * SIGTERM, then prints what it got as one line of JSON (SenderTally).
 *
 *   bun bench/hostile-sender.ts fast <url> <first address> <body file> <senders> [<per second>]
 *     POSTs the body in <body file> back to back from <senders> clients at once, each one request at
 *     a time, each from an address of its own: as fast as the server takes them, or at most
 *     <per second> requests a second each (an attacker keeping under the per-address refusal limit).
 *   bun bench/hostile-sender.ts slow <url> <first address> <connections> <addresses>
 *     Holds <connections> connections open from <addresses> addresses, each sending the head of a
 *     POST / with Content-Length: 1000000 and then one byte a second; one the server closes is
 *     opened again at once.
 *
 * The addresses are named in X-Forwarded-For, which the scenario's server believes from loopback;
 * <first address> numbers the first of them, so that each phase's senders start with a clean record
 * at the refusal throttle.
 */
import { connect } from "node:net";
import { classifyCommandAnswer } from "./load";

export interface SenderTally {
  /** Answers by outcome (`55/400`, `http 413`, …); `cut off` when the server closed the connection first. */
  outcomes: Record<string, number>;
  /** Mean time from sending a request to its answer (or cut-off), ms. */
  meanMs: number;
}

/** The n-th hostile address (TEST-NET-3, TEST-NET-2, TEST-NET-1: never a real client). */
const address = (n: number) => `${["203.0.113", "198.51.100", "192.0.2"][Math.floor(n / 250) % 3]}.${(n % 250) + 1}`;

const outcomes: Record<string, number> = {};
let requests = 0;
let totalMs = 0;
const tally = (outcome: string, startedAt: number) => {
  totalMs += performance.now() - startedAt;
  requests++;
  outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
};

async function fast(url: string, body: Uint8Array<ArrayBuffer>, from: string, perSecond: number): Promise<never> {
  for (;;) {
    const started = performance.now();
    const next = started + 1000 / perSecond;
    let outcome: string;
    try {
      const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": from }, body });
      outcome = classifyCommandAnswer(response.status, await response.text());
    } catch {
      // Answering before the whole body arrived and closing is what a server bounding its work may do.
      outcome = "cut off";
    }
    tally(outcome, started);
    await Bun.sleep(Math.max(0, next - performance.now()));
  }
}

/** One trickling connection, opened again whenever the server ends it. */
function slow(url: string, from: string): void {
  const { hostname, port } = new URL(url);
  const started = performance.now();
  const socket = connect(Number(port), hostname);
  let answer = "";
  const timer = setInterval(() => socket.write("x"), 1000);
  socket.on("error", () => {});
  socket.on("data", (chunk) => {
    answer += chunk.toString("latin1");
  });
  socket.on("close", () => {
    clearInterval(timer);
    const status = /^HTTP\/1\.1 (\d+)/.exec(answer)?.[1];
    const body = answer.slice(answer.indexOf("\r\n\r\n") + 4);
    tally(status ? classifyCommandAnswer(Number(status), body) : "cut off", started);
    slow(url, from);
  });
  socket.write(`POST / HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\nX-Forwarded-For: ${from}\r\n\r\n{`);
}

if (import.meta.main) {
  const [mode, url, first, ...rest] = process.argv.slice(2);
  const from = (i: number) => address(Number(first) + i);
  process.once("SIGTERM", () => {
    const result: SenderTally = { outcomes, meanMs: requests ? Math.round(totalMs / requests) : 0 };
    process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
  });
  if (mode === "fast" && url && (rest.length === 2 || rest.length === 3)) {
    const body = await Bun.file(rest[0]!).bytes();
    const perSecond = rest[2] ? Number(rest[2]) : Number.POSITIVE_INFINITY;
    await Promise.all(Array.from({ length: Number(rest[1]) }, (_, i) => fast(url, body, from(i), perSecond)));
  } else if (mode === "slow" && url && rest.length === 2) {
    const [connections, addresses] = rest.map(Number) as [number, number];
    for (let i = 0; i < connections; i++) slow(url, from(i % addresses));
  } else
    throw new Error(
      "usage: bun bench/hostile-sender.ts fast <url> <first address> <body file> <senders> | slow <url> <first address> <connections> <addresses>",
    );
}
