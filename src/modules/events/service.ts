import type { Executor } from "../../db/client";
import { newId } from "../../core/ids";
import { outboxEvents } from "./schema";

export interface DomainEvent {
  partnerId: string;
  type: string;
  payload: Record<string, unknown>;
  targetUrl?: string | null;
}

/** Write an event in the caller's transaction (the outbox): it exists exactly when the change does. */
export async function recordEvent(tx: Executor, event: DomainEvent, now: Date): Promise<void> {
  await tx.insert(outboxEvents).values({ id: newId(), ...event, targetUrl: event.targetUrl ?? null, createdAt: now });
}
