import type { PgTable } from "drizzle-orm/pg-core";
import { newId } from "../../core/ids";
import type { Executor } from "../../db/client";
import { columnPlaceholders, placeholderValues, preparedQuery } from "../../db/prepared";
import { hasWebhookEndpoint } from "../webhooks/destinations";
import { outboxEvents } from "./schema";

export interface DomainEvent {
  partnerId: string;
  type: string;
  payload: Record<string, unknown>;
  targetUrl?: string | null;
}

/** An outbox row; an event with nowhere to go (no one-off URL, no enabled endpoint) is born dispatched. */
export async function outboxRow(db: Executor, event: DomainEvent, now: Date) {
  const goesSomewhere = !!event.targetUrl || (await hasWebhookEndpoint(db, event.partnerId));
  return { id: newId(), ...event, targetUrl: event.targetUrl ?? null, createdAt: now, dispatchedAt: goesSomewhere ? null : now };
}

/** Write an event in the caller's transaction (the outbox): it exists exactly when the change does. */
export async function recordEvent(tx: Executor, event: DomainEvent, now: Date): Promise<void> {
  await tx.insert(outboxEvents).values(await outboxRow(tx, event, now));
}

/**
 * An INSERT of one `table` row together with its event, in a single prepared statement (a
 * data-modifying CTE): as atomic as a transaction without its BEGIN and COMMIT round trips, for
 * hot paths that write one row. The row must give every column (null rather than absent).
 */
export function insertWithEvent<T extends PgTable>(name: string, table: T) {
  const query = preparedQuery(name, (db, statement) => {
    const change = db.$with("change").as(db.insert(table).values(columnPlaceholders(table)));
    return db.with(change).insert(outboxEvents).values(columnPlaceholders(outboxEvents, "event.")).prepare(statement);
  });
  return async (db: Executor, row: T["$inferSelect"], event: DomainEvent, now: Date): Promise<void> => {
    await query(db, { ...placeholderValues(table, row), ...placeholderValues(outboxEvents, await outboxRow(db, event, now), "event.") });
  };
}
