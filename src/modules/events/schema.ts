import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { partnerOwned } from "../partners";

/**
 * The transactional outbox: every state change writes its event here in the same transaction,
 * so an event exists exactly when the change does. The webhook dispatcher delivers from it.
 */
export const outboxEvents = pgTable(
  "outbox_events",
  {
    ...partnerOwned({ referenced: false }),
    /** Dot-separated: policy.approved, policy.declined, wallet.credited … */
    type: text("type").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    /** A one-off endpoint for this event (addtnlFact.webHook), besides the partner's registered ones. */
    targetUrl: text("target_url"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    /** When the dispatcher turned the event into deliveries; null while it waits in the outbox. */
    dispatchedAt: timestamp("dispatched_at", { withTimezone: true }),
    /**
     * When the notices fan-out turned the event into messages to the insured (src/modules/notices); born
     * set when no template answers the event, so only the events still to notice wait.
     */
    noticedAt: timestamp("noticed_at", { withTimezone: true }),
  },
  (t) => [
    index("outbox_events_partner_created_idx").on(t.partnerId, t.createdAt),
    index("outbox_events_undispatched_idx").on(t.createdAt).where(sql`${t.dispatchedAt} is null`),
    index("outbox_events_unnoticed_idx").on(t.createdAt).where(sql`${t.noticedAt} is null`),
  ],
);
