import { compactUuid } from "../../core/ids";
import type { Executor } from "../../db/client";
import { type DomainEvent, recordEvents } from "../events";
import type { MessageStatus, messages } from "./schema";

type Message = typeof messages.$inferSelect;

/** A consumer's message announces each state it reaches to the partner (webhooks); staff's own mail (invitations, password resets) does not. */
const announced = (m: Message) => !m.kind.startsWith("staff.");

/**
 * The event of a message's new state (message.sent, .delivered, .bounced, .failed), or null when it
 * announces none: what it is and where it stands, never its text; the consumer by the id the partner
 * knows (docs/webhooks.md).
 */
export function announcementOf(m: Message, status: MessageStatus, reason: string | null): DomainEvent | null {
  if (!announced(m) || !["sent", "delivered", "bounced", "failed"].includes(status)) return null;
  return {
    partnerId: m.partnerId,
    type: `message.${status}`,
    payload: { messageId: m.id, channel: m.channel, kind: m.kind, status, reason, consumerId: m.consumerId && compactUuid(m.consumerId) },
  };
}

/** Announce a message's new state in the caller's transaction. */
export async function announce(tx: Executor, m: Message, status: MessageStatus, reason: string | null, at: Date) {
  const event = announcementOf(m, status, reason);
  if (event) await recordEvents(tx, [event], at);
}
