/**
 * The browser tests' server: the real app (`bun src/main.ts`) on a throw-away embedded database,
 * with the demo partner and operator admin it prints on first start. Their credentials are kept in
 * test-results/e2e-accounts.json for the specs; the verification service runs beside it with a
 * short latency, webhooks may reach this machine, and the simulated insurer answers within a second.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3107);
const ACCOUNTS = "test-results/e2e-accounts.json";

export interface Account {
  partnerId: string;
  name: string;
  keys: Record<"test" | "live" | "legacy", { id: string; key: string }>;
  portal: { email: string; password: string };
}

export interface Accounts {
  demoPartner: Account;
  operatorAdmin: Account;
}

export const accounts = (): Accounts => JSON.parse(readFileSync(ACCOUNTS, "utf8"));

/** Start the server and wait for its first-start credentials; resolves with a stop function. */
export async function startServer(): Promise<() => Promise<void>> {
  const child: ChildProcess = spawn("./node_modules/.bin/bun", ["src/main.ts"], {
    env: {
      ...process.env,
      PORT: String(E2E_PORT),
      NIID_PORT: String(E2E_PORT + 1),
      DATA_DIR: "memory://",
      SEED_DEMO: "true",
      LOG_LEVEL: "warn",
      NIID_LATENCY_MIN_MS: "300",
      NIID_LATENCY_MAX_MS: "600",
      INSURER_DELAY_MS: "500",
      WORKER_INTERVAL_MS: "200",
      WEBHOOK_ALLOW_PRIVATE: "true",
      WEBHOOK_RETRY_SCALE: "0.01",
      VIN_DATABASE: "./data/vpic.lite.db",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const start = output.indexOf('{\n  "demoPartner"');
    if (start >= 0) {
      const block = output.slice(start, output.indexOf("\n}\n", start) + 2);
      try {
        const parsed = JSON.parse(block) as Accounts;
        mkdirSync("test-results", { recursive: true });
        writeFileSync(ACCOUNTS, JSON.stringify(parsed));
        break;
      } catch {
        // the block is still arriving
      }
    }
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`the server printed no credentials within 60 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  for (;;) {
    const up = await fetch(`http://127.0.0.1:${E2E_PORT}/healthz`).then((r) => r.ok).catch(() => false);
    if (up) break;
    if (Date.now() > deadline) throw new Error("the server did not answer /healthz");
    await new Promise((r) => setTimeout(r, 100));
  }
  return async () => {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  };
}
