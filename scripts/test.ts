/**
 * The README's test command: the whole suite on PGlite and, side by side, on PostgreSQL when a database
 * URL is given, then the Playwright specs when a Chromium is found — once against one app on an
 * embedded database, and, when a database URL is given, again against two app instances on a
 * fresh PostgreSQL database behind a round-robin proxy (e2e/server.ts). Under CI=true a missing
 * database or browser fails the run instead of skipping. Ends with "N passed, N failed".
 */
import { existsSync, readFileSync, rmSync } from "node:fs";

const ci = process.env.CI === "true";
const postgresUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const extraArgs = process.argv.slice(2);

let passed = 0;
let failed = 0;
const problems: string[] = [];

/**
 * Runs a command; its output goes straight through, or, with `buffered`, is printed in one piece
 * once it ends (two suites running side by side stay readable).
 */
async function run(label: string, cmd: string[], env: Record<string, string | undefined>, buffered = false): Promise<string> {
  const heading = `\n=== ${label}: ${cmd.join(" ")}`;
  if (!buffered) console.log(heading);
  const child = Bun.spawn(cmd, { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  let output = "";
  const pump = async (stream: ReadableStream<Uint8Array>, sink: NodeJS.WriteStream) => {
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      const text = decoder.decode(chunk.value, { stream: true });
      output += text;
      if (!buffered) sink.write(text);
    }
  };
  await Promise.all([pump(child.stdout, process.stdout), pump(child.stderr, process.stderr), child.exited]);
  if (buffered) console.log(`${heading}\n${output}`);
  if (child.exitCode !== 0) problems.push(`${label} exited with ${child.exitCode}`);
  return output;
}

function countBun(label: string, output: string) {
  const pass = Number(/^\s*(\d+) pass$/m.exec(output)?.[1] ?? NaN);
  const fail = Number(/^\s*(\d+) fail$/m.exec(output)?.[1] ?? NaN);
  if (Number.isNaN(pass) || Number.isNaN(fail)) {
    problems.push(`${label}: no test summary found`);
    return;
  }
  if (pass === 0) problems.push(`${label}: no test ran`);
  passed += pass;
  failed += fail;
  // Named again at the very end: a CI log is often read from its tail.
  const names = new Set(output.split("\n").filter((line) => line.startsWith("(fail) ")));
  for (const name of names) problems.push(`${label}: ${name}`);
}

const bunTest = [process.execPath, "test", ...extraArgs];

/** The browser specs run a second time against two instances (below). */
const ACROSS_INSTANCES = ["e2e/portal.spec.ts", "e2e/portal-flows.spec.ts", "e2e/confirmations.spec.ts", "e2e/funding.spec.ts", "e2e/operator.spec.ts"];

// The two engines' suites run side by side (two cores; the PGlite suite is one busy process, the
// PostgreSQL one mostly waits on the server), each printed whole when it ends.
const suites = [
  run("unit and integration tests on PGlite", bunTest, { TEST_ENGINE: "pglite", DATABASE_URL: undefined }, !!postgresUrl).then((output) =>
    countBun("PGlite", output),
  ),
];
if (postgresUrl) {
  suites.push(
    run("unit and integration tests on PostgreSQL", bunTest, { TEST_ENGINE: "postgres", TEST_DATABASE_URL: postgresUrl }, true).then((output) =>
      countBun("PostgreSQL", output),
    ),
  );
} else if (ci) {
  problems.push("CI=true but no TEST_DATABASE_URL or DATABASE_URL: the PostgreSQL run is required in CI");
} else {
  console.log("\n!!! SKIPPED the PostgreSQL run: set TEST_DATABASE_URL (or DATABASE_URL) to include it.");
}
await Promise.all(suites);

if (extraArgs.length) {
  // A filtered run (npm test -- <filter>) is for the bun suite only.
} else if (existsSync(chromium)) {
  async function playwright(label: string, report: string, env: Record<string, string | undefined>, args: string[] = []) {
    rmSync(report, { force: true });
    await run(label, ["npx", "playwright", "test", ...args], { CHROMIUM_PATH: chromium, PLAYWRIGHT_JSON_OUTPUT_NAME: report, ...env });
    if (existsSync(report)) {
      const stats = JSON.parse(readFileSync(report, "utf8")).stats as { expected: number; unexpected: number; flaky: number };
      passed += stats.expected + stats.flaky;
      failed += stats.unexpected;
    } else problems.push(`${label}: Playwright wrote no report`);
  }
  await playwright("browser tests (Playwright)", "test-results/e2e.json", { E2E_INSTANCES: undefined });
  if (postgresUrl) {
    // Against two instances, the specs whose flows cross them: sign-in and sessions, forms and their
    // confirmation steps posted to the other process, caches a change on one must clear on the other
    // (keys, suspension), callbacks and polling (docs/reliability.md, "The browser suite against two
    // instances"). What a page looks like — accessibility, phone width, words, lists, charts — does not
    // depend on how many instances serve it, and ran once above.
    await playwright(
      "browser tests against two instances on PostgreSQL (Playwright)",
      "test-results/e2e-instances.json",
      { E2E_INSTANCES: "2", E2E_DATABASE_URL: postgresUrl },
      [...ACROSS_INSTANCES, "--grep-invert", "is accessible|\\(phone\\)|fits? a phone|on a phone"],
    );
  } else if (ci) {
    problems.push("CI=true but no TEST_DATABASE_URL or DATABASE_URL: the browser tests against two instances are required in CI");
  } else {
    console.log("\n!!! SKIPPED the browser tests against two instances: set TEST_DATABASE_URL (or DATABASE_URL) to include them.");
  }
} else if (ci) {
  problems.push(`CI=true but no Chromium at ${chromium}: install it (apt-get install -y chromium)`);
} else {
  console.log(`\n!!! SKIPPED the browser tests: no Chromium at ${chromium} (apt-get install -y chromium, or set CHROMIUM_PATH).`);
}

for (const p of problems) console.log(`!!! ${p}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 || problems.length > 0 ? 1 : 0);
