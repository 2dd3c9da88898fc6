import { expect, test } from "bun:test";
import { startWorker } from "../src/worker/loop";

const PASS_MS = 60;

/** When each pass of a job with three passes' work began, with the service busy or not. */
async function passStarts(busy: boolean): Promise<number[]> {
  const starts: number[] = [];
  const worker = startWorker(
    [
      {
        name: "backlog",
        async run() {
          starts.push(performance.now());
          await Bun.sleep(PASS_MS);
          return starts.length <= 3 ? 1 : 0;
        },
      },
    ],
    60_000,
    () => busy,
  );
  while (starts.length < 4) await Bun.sleep(10);
  await worker.stop();
  return starts;
}

const gaps = (starts: number[]) => starts.slice(1).map((at, i) => at - starts[i]!);

test("while requests are answered, a job with more to do rests twice as long as its pass took before the next", async () => {
  // A pass and its rest: at least three passes' time from one start to the next (a timer fires a little early at most).
  for (const gap of gaps(await passStarts(true))) expect(gap).toBeGreaterThanOrEqual(3 * PASS_MS - 5);
});

test("idle, a job with more to do goes on at once", async () => {
  for (const gap of gaps(await passStarts(false))) expect(gap).toBeLessThan(3 * PASS_MS - 5);
});

test("stopped during a pass, the loop ends with the pass instead of sleeping its interval first", async () => {
  let passes = 0;
  const worker = startWorker(
    [
      {
        name: "one pass",
        async run() {
          passes++;
          await Bun.sleep(PASS_MS);
          return 0;
        },
      },
    ],
    60_000,
  );
  while (!passes) await Bun.sleep(5);
  const stopping = performance.now();
  await worker.stop();
  expect(performance.now() - stopping).toBeLessThan(10_000);
});
