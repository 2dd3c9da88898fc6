/** The outbox in the words of the Messages pages: statuses, channels, what a message is about, its log lines. */
import type { MessageRow, MessageView } from "../../../views/messages/messages";
import type { CsvValue } from "../../core/csv";
import { watTimestamp } from "../../core/time";
import type { MessageEvent, MessageRecord } from "./records";
import type { MessageStatus } from "./schema";

const STATUS_WORDS: Record<MessageStatus, { tone: "ok" | "wait" | "bad" | "info"; text: string }> = {
  queued: { tone: "wait", text: "Waiting to be sent" },
  sending: { tone: "wait", text: "Being sent" },
  sent: { tone: "info", text: "Sent" },
  delivered: { tone: "ok", text: "Delivered" },
  bounced: { tone: "bad", text: "Bounced" },
  failed: { tone: "bad", text: "Failed" },
  suppressed: { tone: "info", text: "Not sent" },
};

/** The status filter's choices. */
export const STATUS_CHOICES = Object.fromEntries(Object.entries(STATUS_WORDS).map(([status, words]) => [status, words.text]));

const CHANNEL_WORDS = { email: "E-mail", sms: "SMS" } as const;

/** A template key in words: "policy.issued" → "Policy issued". */
const kindWords = (kind: string) => {
  const words = kind.replace(/[._]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const aboutOf = (m: MessageRecord) => m.subject ?? kindWords(m.kind);

/** What a line of the delivery log says happened. */
function logWords(status: string, m: MessageRecord): string {
  switch (status) {
    case "queued":
      return "Queued to be sent";
    case "retry":
      return "Not sent this time: it will be tried again";
    case "sent":
      return m.channel === "email" ? "Handed to the mail relay" : "Accepted by the SMS gateway";
    case "delivered":
      return m.provider === "embedded" ? "Kept in the embedded mailbox" : "Delivered to the phone";
    case "bounced":
      return "Bounced: the receiving side refused it";
    case "failed":
      return "Failed: no more attempts";
    case "suppressed":
      return "Not sent";
    default:
      return "Report from the SMS gateway";
  }
}

export const messageRow = (m: MessageRecord, href: string, partnerName?: string): MessageRow => ({
  href,
  createdAt: m.createdAt,
  channel: CHANNEL_WORDS[m.channel],
  recipient: m.recipient,
  about: aboutOf(m),
  status: STATUS_WORDS[m.status],
  reason: m.statusReason,
  ...(partnerName === undefined ? {} : { partnerName }),
});

export function messageView(m: MessageRecord, log: MessageEvent[], links: { back: string; html: string }, partnerName?: string): MessageView {
  const to = m.recipientName ? `${m.recipientName} (${m.recipient})` : m.recipient;
  return {
    backHref: links.back,
    title: m.channel === "email" ? `E-mail to ${m.recipient}` : `SMS to ${m.recipient}`,
    details: [
      ["To", to],
      ...(m.subject ? [["Subject", m.subject] as [string, string]] : []),
      ["What it is", kindWords(m.kind)],
      ...(partnerName === undefined ? [] : [["Partner", partnerName] as [string, string]]),
      ["Queued", watTimestamp(m.createdAt)],
      ["Attempts", String(m.attempts)],
      ...(m.provider
        ? [
            [
              "Sent through",
              m.provider === "smtp" ? "The SMTP relay" : m.provider === "embedded" ? "The embedded mailbox" : `The SMS gateway (${m.provider})`,
            ] as [string, string],
          ]
        : []),
      ...(m.providerReference ? [[m.channel === "email" ? "Message-ID" : "Gateway's message id", m.providerReference] as [string, string]] : []),
    ],
    status: STATUS_WORDS[m.status],
    reason: m.statusReason,
    text: m.body,
    htmlHref: m.html ? links.html : null,
    log: log.map((line) => ({ at: line.at, what: logWords(line.status, m), detail: line.detail })),
  };
}

export const MESSAGE_CSV_COLUMNS = ["Queued (WAT)", "Channel", "To", "About", "Status", "Reason", "Attempts", "Sent (WAT)", "Delivered (WAT)"];

export const messageCsvRow = (m: MessageRecord): CsvValue[] => [
  watTimestamp(m.createdAt),
  CHANNEL_WORDS[m.channel],
  m.recipient,
  aboutOf(m),
  STATUS_WORDS[m.status].text,
  m.statusReason,
  m.attempts,
  m.sentAt ? watTimestamp(m.sentAt) : null,
  m.deliveredAt ? watTimestamp(m.deliveredAt) : null,
];
