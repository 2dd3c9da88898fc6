import type { SignedCallback } from "../../core/signatures";

/** One text message to send: our id for it (the gateway's reports name its own id, kept as the message's reference), the phone, the text. */
export interface OutgoingSms {
  messageId: string;
  /** +234… */
  to: string;
  /** The sender id the recipient sees (SMS_SENDER_ID). */
  from: string;
  text: string;
}

/** What a delivery report says of a message, in our words and the gateway's. */
export type SmsReportOutcome = "delivered" | "bounced" | "failed";

/** A delivery report once its signature is verified: null where the body did not hold a value of the right kind. */
export interface SmsReport {
  /** The gateway's id of the message (what send answered). */
  providerReference: string | null;
  /** Null for a status we do not know, or one that settles nothing (e.g. "Sent", "Pending"). */
  outcome: SmsReportOutcome | null;
  /** The status as the gateway words it ("DND Active on Phone Number"). */
  words: string | null;
}

/** A message the gateway refused for good (a real gateway's 4xx answer: a bad number, a sender id it does not know): trying again changes nothing. */
export class SmsRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SmsRefused";
  }
}

/**
 * One SMS gateway (docs/messages.md), shaped like Termii: send answers the gateway's `message_id`
 * (the outcome follows as a delivery report), reports are signed callbacks, an HMAC-SHA512 of the
 * raw body with the secret, hex, in `signatureHeader`. Any error but SmsRefused is the network's or
 * the gateway's outage: the message is tried again.
 */
export interface SmsProvider {
  /** As it appears in the callback route (/messages/callbacks/<name>) and on the message. */
  name: string;
  signatureHeader: string;
  /** Termii: POST /api/sms/send { to, from, sms, type: "plain", channel: "generic", api_key }. */
  send(sms: OutgoingSms): Promise<{ providerReference: string }>;
  /** Over the bytes as they arrived. */
  verifySignature(rawBody: Uint8Array | string, signature: string | null): boolean;
  /** Reads a verified report's body; throws on a body that is not the gateway's JSON object. */
  readReport(rawBody: string): SmsReport;
  /** The sandbox only: the reports it delivers right after a message is sent (its scenario), in order. */
  immediateCallbacks?(sms: OutgoingSms, providerReference: string): SignedCallback[];
}
