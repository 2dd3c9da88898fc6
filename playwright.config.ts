import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3107);

/** Browser tests against a real server (embedded in-memory database), in Debian's Chromium. */
export default defineConfig({
  testDir: "./e2e",
  outputDir: "test-results/e2e",
  timeout: 30_000,
  workers: 1,
  reporter: [["list"], ["json"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  webServer: {
    command: "./node_modules/.bin/bun src/main.ts",
    url: `http://127.0.0.1:${port}/healthz`,
    env: { PORT: String(port), DATA_DIR: "memory://", SEED_DEMO: "false", LOG_LEVEL: "warn" },
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
