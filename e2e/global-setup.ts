import { mailboxPort, startMailbox } from "./mailbox";
import { E2E_INSTANCES, E2E_PORT, startServer } from "./server";

/**
 * Playwright's global setup: the server (or, with E2E_INSTANCES=2 and E2E_DATABASE_URL, several
 * instances behind a round-robin proxy) lives for the whole run, and so does the mailbox the app
 * sends its e-mail to (e2e/mailbox.ts); the teardown function stops both.
 */
export default async function globalSetup() {
  if (E2E_INSTANCES > 1) console.log(`e2e: running the specs against ${E2E_INSTANCES} instances`);
  const stopMailbox = await startMailbox(mailboxPort(E2E_PORT));
  const stopServer = await startServer().catch(async (error) => {
    await stopMailbox();
    throw error;
  });
  return async () => {
    await stopServer();
    await stopMailbox();
  };
}
