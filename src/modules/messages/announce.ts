import { compactUuid } from "../../core/ids";
import type { Executor } from "../../db/client";
import { recordEvent } from "../events";
import type { MessageStatus, messages } from "./schema";

type Message = typeof messages.$inferSelect;

/** A consumer's message announces each state it reaches to the partner (webhooks); staff's own mail (invitations, password resets) does not. */
const announced = (m: Message) => !m.kind.startsWith("staff.");

/**
 * Announce a message's new state (message.sent, .delivered, .bounced, .failed): what it is and
 * where it stands, never its text; the consumer by the id the partner knows (docs/webhooks.md).
 */
export async function announce(tx: Executor, m: Message, status: MessageStatus, reason: string | null, at: Date) {
  if (!announced(m) || !["sent", "delivered", "bounced", "failed"].includes(status)) return;
  await recordEvent(
    tx,
    {
      partnerId: m.partnerId,
      type: `message.${status}`,
      payload: { messageId: m.id, channel: m.channel, kind: m.kind, status, reason, consumerId: m.consumerId && compactUuid(m.consumerId) },
    },
    at,
  );
}
