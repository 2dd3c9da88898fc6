/** The outbox as the Messages pages read it: a filtered list, newest first, and one message with its delivery log. */
import { and, asc, desc, eq, type SQL } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { normaliseUuid } from "../../core/ids";
import { encodeCursor, type Page } from "../../core/pagination";
import type { Executor } from "../../db/client";
import { afterCursor } from "../../db/keyset";
import { MESSAGE_CHANNELS, MESSAGE_STATUSES, type MessageChannel, type MessageStatus, messageEvents, messages } from "./schema";

export type MessageRecord = typeof messages.$inferSelect;
export type MessageEvent = typeof messageEvents.$inferSelect;

export interface MessageFilters {
  channel?: MessageChannel;
  status?: MessageStatus;
  /** The whole address or phone number (an e-mail's case does not matter). */
  recipient?: string;
}

/** Whose messages: one partner's, or every partner's (the operator). */
export type MessageScope = { partnerId?: string };

/** The list's filters from a query; a value outside its list is refused, naming the field. */
export function messageFiltersOf(query: Record<string, string | undefined>): MessageFilters {
  const channel = query.channel?.trim() || undefined;
  const status = query.status?.trim() || undefined;
  const recipient = query.recipient?.trim() || undefined;
  if (channel && !MESSAGE_CHANNELS.includes(channel as MessageChannel)) throw new CommandError(400, "channel must be e-mail or SMS", "channel");
  if (status && !MESSAGE_STATUSES.includes(status as MessageStatus)) throw new CommandError(400, "status must be one of the listed statuses", "status");
  if (recipient && recipient.length > 254) throw new CommandError(400, "recipient is an e-mail address or a phone number, at most 254 characters", "recipient");
  return {
    ...(channel ? { channel: channel as MessageChannel } : {}),
    ...(status ? { status: status as MessageStatus } : {}),
    ...(recipient ? { recipient: recipient.includes("@") ? recipient.toLowerCase() : recipient } : {}),
  };
}

/** Messages newest first, keyset-paginated. */
export async function listMessages(
  db: Executor,
  scope: MessageScope,
  filters: MessageFilters,
  page: { limit: number; cursor?: string },
): Promise<Page<MessageRecord>> {
  const conditions: SQL[] = [];
  if (scope.partnerId) conditions.push(eq(messages.partnerId, scope.partnerId));
  if (filters.channel) conditions.push(eq(messages.channel, filters.channel));
  if (filters.status) conditions.push(eq(messages.status, filters.status));
  if (filters.recipient) conditions.push(eq(messages.recipient, filters.recipient));
  if (page.cursor) conditions.push(afterCursor(messages.createdAt, messages.id, page.cursor));
  const rows = await db
    .select()
    .from(messages)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(page.limit + 1);
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > page.limit && last ? encodeCursor(last.createdAt, last.id) : null };
}

/** A message of the scope, with its delivery log in order; null when there is none (or it is another partner's). */
export async function messageDetail(db: Executor, scope: MessageScope, rawId: string): Promise<{ message: MessageRecord; log: MessageEvent[] } | null> {
  const id = normaliseUuid(rawId);
  if (!id) return null;
  const [message] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.id, id), ...(scope.partnerId ? [eq(messages.partnerId, scope.partnerId)] : [])));
  if (!message) return null;
  const log = await db.select().from(messageEvents).where(eq(messageEvents.messageId, id)).orderBy(asc(messageEvents.at), asc(messageEvents.id));
  return { message, log };
}
