/**
 * The browser tests' mailbox: an SMTP server in the runner's process that the app sends to
 * (SMTP_URL), keeping each e-mail it receives as one JSON line in test-results/e2e-mail.jsonl, so a
 * spec opens a link from a received e-mail as a person would.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

const MAILBOX = "test-results/e2e-mail.jsonl";
/** Next to the app (E2E_PORT) and the verification service (E2E_PORT + 1). */
export const mailboxPort = (appPort: number) => appPort + 2;

interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

/** Start the mailbox (emptied first); resolves with its stop function. */
export async function startMailbox(port: number): Promise<() => Promise<void>> {
  mkdirSync("test-results", { recursive: true });
  writeFileSync(MAILBOX, "");
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
          appendFileSync(MAILBOX, `${JSON.stringify({ to, subject: mail.subject ?? "", text: mail.text ?? "" } satisfies ReceivedMail)}\n`);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

/** The e-mails received for an address so far, oldest first. */
export function mailsTo(email: string): ReceivedMail[] {
  if (!existsSync(MAILBOX)) return [];
  return readFileSync(MAILBOX, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ReceivedMail)
    .filter((mail) => mail.to.includes(email.toLowerCase()));
}
