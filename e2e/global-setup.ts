import { startServer } from "./server";

/** Playwright's global setup: the server lives for the whole run; the teardown function stops it. */
export default async function globalSetup() {
  return startServer();
}
