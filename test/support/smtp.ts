/**
 * An in-process SMTP server for the tests, the e2e server and the benchmark (smtp-server, with
 * mailparser reading what arrives): it listens on a free port, keeps every message it accepted,
 * parsed (headers, text, HTML), and can be told to refuse or cut off what comes next — a 4xx or 5xx
 * answer to the recipient, or the connection dropped — as a real relay sometimes does.
 */
import type { Socket } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

interface ReceivedMail {
  /** The envelope's recipients, lower-cased. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string | null;
  messageId: string | null;
  headers: ParsedMail["headers"];
  /** The To: header as it was written (display name and address). */
  toHeader: string;
  receivedAt: Date;
}

/** What to do with the next messages: answer their recipient with `code` (4xx: try later; 5xx: refused), or drop the connection. */
type Trouble = { answer: number; message?: string } | { drop: true };

export interface TestSmtpServer {
  port: number;
  /** smtp://127.0.0.1:<port> (with a user and password: the server takes any). */
  url: string;
  /** Every message accepted, in order. */
  mails: ReceivedMail[];
  mailsTo(address: string): ReceivedMail[];
  /** The first message to `address` that arrives (or has arrived), within `timeoutMs`. */
  waitFor(address: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** Make trouble for the next `times` messages (to `to` only, when given). */
  trouble(trouble: Trouble, options?: { times?: number; to?: string }): void;
  /** No more trouble. */
  calm(): void;
  stop(): Promise<void>;
}

/** Start on `port` (a free one by default: a test of an outage starts a new server on the port of the one it stopped). */
export async function startSmtpServer(options: { port?: number } = {}): Promise<TestSmtpServer> {
  const mails: ReceivedMail[] = [];
  const waiting: { address: string; resolve: (mail: ReceivedMail) => void }[] = [];
  const troubles: { trouble: Trouble; times: number; to?: string }[] = [];
  const sockets = new Map<number, Socket>();

  /** The trouble that applies to a recipient, counted down. */
  const troubleFor = (address: string): Trouble | null => {
    const found = troubles.find((t) => t.times > 0 && (!t.to || t.to === address));
    if (!found) return null;
    found.times -= 1;
    return found.trouble;
  };

  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
    onRcptTo(address, session, callback) {
      const trouble = troubleFor(address.address.toLowerCase());
      if (!trouble) return callback();
      if ("drop" in trouble) {
        sockets.get(session.remotePort)?.destroy();
        return;
      }
      const error = Object.assign(new Error(trouble.message ?? (trouble.answer >= 500 ? "5.1.1 No such user here" : "4.7.0 Try again later")), {
        responseCode: trouble.answer,
      });
      callback(error);
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          const mail: ReceivedMail = {
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: parsed.html || null,
            messageId: parsed.messageId ?? null,
            headers: parsed.headers,
            toHeader: String(parsed.headerLines.find((h) => h.key === "to")?.line.replace(/^to:\s*/i, "") ?? ""),
            receivedAt: new Date(),
          };
          mails.push(mail);
          for (const w of [...waiting])
            if (mail.to.includes(w.address)) {
              waiting.splice(waiting.indexOf(w), 1);
              w.resolve(mail);
            }
          callback();
        },
        (error) => callback(error),
      );
    },
  });
  server.server.on("connection", (socket: Socket) => {
    const port = socket.remotePort!;
    sockets.set(port, socket);
    socket.once("close", () => sockets.delete(port));
  });
  // Connections a test dropped end in errors the server only reports.
  server.on("error", () => {});
  const port = await new Promise<number>((resolve) => {
    const listening = server.listen(options.port ?? 0, "127.0.0.1", () => resolve((listening.address() as { port: number }).port));
  });

  const mailsTo = (address: string) => mails.filter((m) => m.to.includes(address.toLowerCase()));
  return {
    port,
    url: `smtp://tester:secret@127.0.0.1:${port}`,
    mails,
    mailsTo,
    waitFor(address, timeoutMs = 10_000) {
      const wanted = address.toLowerCase();
      const arrived = mailsTo(wanted)[0];
      if (arrived) return Promise.resolve(arrived);
      return new Promise((resolve, reject) => {
        const entry = { address: wanted, resolve };
        waiting.push(entry);
        setTimeout(() => {
          const at = waiting.indexOf(entry);
          if (at < 0) return;
          waiting.splice(at, 1);
          reject(new Error(`no mail to ${address} within ${timeoutMs} ms`));
        }, timeoutMs).unref?.();
      });
    },
    trouble(trouble, options = {}) {
      troubles.push({ trouble, times: options.times ?? 1, ...(options.to ? { to: options.to.toLowerCase() } : {}) });
    },
    calm() {
      troubles.length = 0;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets.values()) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
