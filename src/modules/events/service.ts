import type { PgTable } from "drizzle-orm/pg-core";
import type { Executor } from "../../db/client";
import { columnPlaceholders, placeholderValues, preparedQuery } from "../../db/prepared";
import { newId } from "../../core/ids";
import { outboxEvents } from "./schema";

export interface DomainEvent {
  partnerId: string;
  type: string;
  payload: Record<string, unknown>;
  targetUrl?: string | null;
}

const outboxRow = (event: DomainEvent, now: Date) => ({ id: newId(), ...event, targetUrl: event.targetUrl ?? null, createdAt: now, dispatchedAt: null });

/** Write an event in the caller's transaction (the outbox): it exists exactly when the change does. */
export async function recordEvent(tx: Executor, event: DomainEvent, now: Date): Promise<void> {
  await tx.insert(outboxEvents).values(outboxRow(event, now));
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
    await query(db, { ...placeholderValues(table, row), ...placeholderValues(outboxEvents, outboxRow(event, now), "event.") });
  };
}
