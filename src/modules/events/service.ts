import { newId } from "../../core/ids";
import type { Executor } from "../../db/client";
import { insertCommitted } from "../../db/group-commit";
import { outboxEvents } from "./schema";

export interface DomainEvent {
  partnerId: string;
  type: string;
  payload: Record<string, unknown>;
  targetUrl?: string | null;
}

/** Whether a partner's events have a standing destination (an enabled webhook endpoint). */
type Destinations = (db: Executor, partnerId: string) => Promise<boolean>;

/**
 * The webhooks module answers, wired by the assembly (src/modules/index.ts), since the outbox sits
 * below the module that delivers it. Unwired, every event waits for the fan-out: always right, a
 * write per event slower.
 */
let destinations: Destinations = async () => true;
export const routeEventsBy = (check: Destinations) => {
  destinations = check;
};

/** Whether an event is told to the insured (a template answers it: the notices module). */
type Noticed = (event: DomainEvent) => boolean;

/** The notices module answers, wired by the assembly as routeEventsBy is. Unwired, no event waits for it. */
let noticed: Noticed = () => false;
export const noticeEventsBy = (check: Noticed) => {
  noticed = check;
};

/**
 * An outbox row; an event with nowhere to go (no one-off URL, no enabled endpoint) is born dispatched,
 * and one no template answers is born noticed.
 */
export async function outboxRow(db: Executor, event: DomainEvent, now: Date) {
  const goesSomewhere = !!event.targetUrl || (await destinations(db, event.partnerId));
  return {
    id: newId(),
    ...event,
    targetUrl: event.targetUrl ?? null,
    createdAt: now,
    dispatchedAt: goesSomewhere ? null : now,
    noticedAt: noticed(event) ? null : now,
  };
}

/**
 * Write events in the caller's transaction (the outbox), in one statement: they exist exactly when
 * the change does. As one JSON parameter (insertCommitted, which inside a transaction simply writes):
 * drizzle's INSERT builder cost more CPU for an underwriting pass's twenty events than their rows.
 */
export async function recordEvents(tx: Executor, events: readonly DomainEvent[], now: Date): Promise<void> {
  if (!events.length) return;
  const rows = [];
  for (const event of events) rows.push({ table: outboxEvents, row: await outboxRow(tx, event, now) });
  await insertCommitted(tx, rows);
}

/** Write an event in the caller's transaction (the outbox): it exists exactly when the change does. */
export const recordEvent = (tx: Executor, event: DomainEvent, now: Date): Promise<void> => recordEvents(tx, [event], now);
