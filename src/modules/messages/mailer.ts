import nodemailer from "nodemailer";
import type { Config } from "../../core/config";

/** An e-mail as the outbox holds it, with the id its Message-ID is made from. */
interface OutgoingEmail {
  id: string;
  to: string;
  toName: string | null;
  subject: string;
  text: string;
  html: string | null;
}

/**
 * What an attempt came to: the relay took it (sent), the embedded mailbox kept it (delivered), the
 * receiving side refused it for good (bounced: a 5xx answer), or it may go through later (retry: a
 * 4xx answer, a refused or dropped connection, a timeout). `words` are the server's own.
 */
type EmailOutcome = { result: "sent" | "delivered"; reference: string; words: string } | { result: "bounced" | "retry"; words: string };

export interface Mailer {
  /** smtp or embedded: the message's provider. */
  name: "smtp" | "embedded";
  send(email: OutgoingEmail): Promise<EmailOutcome>;
  close(): void;
}

/** The address part of MAIL_FROM (`"Name" <a@b>` or `a@b`). */
const addressOf = (from: string) => (from.match(/<([^>]+)>/)?.[1] ?? from).trim();

/**
 * The Message-ID of a message: the same for every attempt, so a resend after a crash (the relay took
 * it, the process stopped before writing so) is recognisable as the same message by the receiver.
 */
const messageIdOf = (id: string, from: string) => `<${id}@${addressOf(from).split("@")[1] || "localhost"}>`;

/** An SMTP error's words: the server's answer when it gave one, else what went wrong on the way. */
function wordsOf(error: { response?: unknown; message?: unknown; code?: unknown }): string {
  const said = typeof error.response === "string" && error.response.trim() ? error.response.trim() : String(error.message ?? error);
  return said.slice(0, 500);
}

/** Nodemailer's failure as an outcome: a 5xx reply is final; anything else (4xx, the connection, a timeout) is tried again. */
function outcomeOfError(error: unknown): EmailOutcome {
  const e = (error ?? {}) as { responseCode?: unknown; response?: unknown; message?: unknown };
  const code = typeof e.responseCode === "number" ? e.responseCode : null;
  return { result: code !== null && code >= 500 && code < 600 ? "bounced" : "retry", words: wordsOf(e) };
}

/** The embedded mailbox: the message is already in the database, so keeping it is all there is to do. */
const embeddedMailer = (from: string): Mailer => ({
  name: "embedded",
  send: async (email) => ({ result: "delivered", reference: messageIdOf(email.id, from), words: "kept in the embedded mailbox (no SMTP_URL set)" }),
  close() {},
});

/** SMTP through nodemailer's pool: a few connections kept open, each failure left to the outbox's own retries (no requeue inside the pool). */
function smtpMailer(config: Config): Mailer {
  const transport = nodemailer.createTransport({
    url: config.SMTP_URL,
    pool: true,
    maxConnections: Math.min(config.MESSAGE_CONCURRENCY, 10),
    maxRequeues: 0,
    connectionTimeout: config.MESSAGE_SEND_TIMEOUT_MS,
    greetingTimeout: config.MESSAGE_SEND_TIMEOUT_MS,
    socketTimeout: config.MESSAGE_SEND_TIMEOUT_MS,
  });
  const from = config.MAIL_FROM;
  return {
    name: "smtp",
    async send(email) {
      const messageId = messageIdOf(email.id, from);
      try {
        const info = await transport.sendMail({
          from,
          to: email.toName ? { name: email.toName, address: email.to } : email.to,
          subject: email.subject,
          text: email.text,
          ...(email.html ? { html: email.html } : {}),
          messageId,
        });
        return { result: "sent", reference: messageId, words: String(info.response ?? "accepted").slice(0, 500) };
      } catch (error) {
        return outcomeOfError(error);
      }
    },
    close: () => transport.close(),
  };
}

/** The mailer of this configuration: SMTP when SMTP_URL is set, the embedded mailbox otherwise. */
export const mailerFor = (config: Config): Mailer => (config.SMTP_URL ? smtpMailer(config) : embeddedMailer(config.MAIL_FROM));
