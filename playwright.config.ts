import { defineConfig } from "@playwright/test";
import { E2E_INSTANCES, E2E_PORT } from "./e2e/server";

/**
 * Browser tests against the real server (embedded in-memory database), in Debian's Chromium; with
 * E2E_INSTANCES=2 and E2E_DATABASE_URL, against two instances on PostgreSQL behind a round-robin
 * proxy (e2e/server.ts), with their own output folder.
 */
export default defineConfig({
  testDir: "./e2e",
  outputDir: E2E_INSTANCES > 1 ? "test-results/e2e-instances" : "test-results/e2e",
  // axe-core takes about 10 s a page on a busy two-core machine, and the flows check several pages each.
  timeout: 180_000,
  workers: 1,
  reporter: [["list"], ["json"]],
  globalSetup: "./e2e/global-setup.ts",
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
});
