import { E2E_INSTANCES, startServer } from "./server";

/**
 * Playwright's global setup: the server (or, with E2E_INSTANCES=2 and E2E_DATABASE_URL, several
 * instances behind a round-robin proxy) lives for the whole run; the teardown function stops it.
 */
export default async function globalSetup() {
  if (E2E_INSTANCES > 1) console.log(`e2e: running the specs against ${E2E_INSTANCES} instances`);
  return startServer();
}
