import { defineConfig } from "@playwright/test";
import { E2E_PORT } from "./e2e/server";

/** Browser tests against the real server (embedded in-memory database), in Debian's Chromium. */
export default defineConfig({
  testDir: "./e2e",
  outputDir: "test-results/e2e",
  timeout: 60_000,
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
