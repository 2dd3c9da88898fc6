import { createHash } from "node:crypto";
import { hmacSha512, type SignedCallback, signatureMatches } from "../../core/signatures";
import { clip, storableText } from "../../core/validation";
import { type OutgoingSms, type SmsProvider, SmsRefused, type SmsReport, type SmsReportOutcome } from "./sms-provider";

/**
 * What the sandbox gateway does with a message, chosen by the phone number's last digit
 * (docs/messages.md lists them); any other digit is delivered.
 */
export const SMS_SANDBOX_SCENARIOS = [
  { ending: "1", scenario: "failed", summary: 'the report says "Message Failed": the message fails' },
  { ending: "2", scenario: "dnd", summary: 'the report says "DND Active on Phone Number" (do-not-disturb): the message bounces' },
  { ending: "3", scenario: "outage", summary: "the gateway does not answer: every attempt is tried again, and the message fails after the last" },
  { ending: "4", scenario: "no_report", summary: "sent, and no report ever comes: the message stays sent" },
  { ending: "5", scenario: "rejected", summary: 'the report says "Rejected": the message bounces' },
  { ending: "6", scenario: "expired", summary: 'the report says "Expired" (the phone stayed off): the message fails' },
] as const;

type Scenario = (typeof SMS_SANDBOX_SCENARIOS)[number]["scenario"] | "delivered";

const scenarioOf = (phone: string): Scenario => SMS_SANDBOX_SCENARIOS.find((s) => phone.endsWith(s.ending))?.scenario ?? "delivered";

/** The report each scenario ends with, in Termii's words. */
const REPORT_WORDS: Partial<Record<Scenario, string>> = {
  delivered: "Delivered",
  failed: "Message Failed",
  dnd: "DND Active on Phone Number",
  rejected: "Rejected",
  expired: "Expired",
};

/** Termii's delivery statuses, as what each settles; the others ("Sent", "Pending", "Accepted") settle nothing. */
const OUTCOMES: Record<string, SmsReportOutcome> = {
  delivered: "delivered",
  "dnd active on phone number": "bounced",
  rejected: "bounced",
  "message failed": "failed",
  expired: "failed",
};

/** Termii's longest text: six concatenated parts of 153 characters. */
const MAX_TEXT = 918;
const MESSAGE_ID = /^[0-9]{10,40}$/;

/** The gateway's id of a message, from ours alone: every process, and every repeat, names the same message. */
const messageIdOf = (ours: string) =>
  BigInt(`0x${createHash("sha256").update(`sms:${ours}`).digest("hex").slice(0, 15)}`)
    .toString()
    .padStart(19, "3");

function own(node: unknown, key: string): unknown {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return undefined;
  return Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
}

/**
 * The built-in SMS gateway: behaves like Termii without a network — a message id per message
 * (the same for a repeat of the same message), and signed delivery reports in Termii's shape.
 * Its state is its inputs (the phone's scenario, the message's id), so every process agrees.
 */
export function sandboxSmsProvider(secret: string): SmsProvider {
  const report = (sms: OutgoingSms, providerReference: string, status: string): SignedCallback => {
    const body = JSON.stringify({
      type: "outbound",
      id: providerReference,
      message_id: providerReference,
      receiver: sms.to.replace(/^\+/, ""),
      sender: sms.from,
      message: sms.text,
      sent_at: new Date().toISOString().replace("T", " ").slice(0, 19),
      cost: "1",
      status,
      channel: "generic",
    });
    return { body, signature: hmacSha512(secret, body) };
  };
  return {
    name: "sandbox",
    signatureHeader: "x-termii-signature",
    async send(sms) {
      if (!/^\+[1-9][0-9]{7,14}$/.test(sms.to)) throw new SmsRefused(`Invalid phone number: ${sms.to}`);
      if (!sms.text.trim() || sms.text.length > MAX_TEXT) throw new SmsRefused(`An SMS is 1 to ${MAX_TEXT} characters`);
      if (scenarioOf(sms.to) === "outage") throw new Error("the SMS gateway did not answer (503 Service Unavailable)");
      return { providerReference: messageIdOf(sms.messageId) };
    },
    verifySignature: (rawBody, signature) => signatureMatches(secret, rawBody, signature),
    readReport(rawBody): SmsReport {
      const parsed: unknown = JSON.parse(rawBody);
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not the gateway's JSON: the body is not an object");
      const id = own(parsed, "message_id");
      const status = own(parsed, "status");
      const words = typeof status === "string" && status.trim() ? clip(storableText(status.trim()).replace(/\p{Cc}+/gu, " "), 200) : null;
      return {
        providerReference: typeof id === "string" && MESSAGE_ID.test(id) ? id : null,
        outcome: words ? (OUTCOMES[words.toLowerCase()] ?? null) : null,
        words,
      };
    },
    immediateCallbacks(sms, providerReference) {
      const words = REPORT_WORDS[scenarioOf(sms.to)];
      return words ? [report(sms, providerReference, words)] : [];
    },
  };
}
