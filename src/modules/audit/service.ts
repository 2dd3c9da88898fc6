import { and, desc, eq, type SQL } from "drizzle-orm";
import { newId } from "../../core/ids";
import { encodeCursor, type Page } from "../../core/pagination";
import type { Principal } from "../../core/principal";
import type { Database, Executor } from "../../db/client";
import type { TableRow } from "../../db/guarded";
import { afterCursor } from "../../db/keyset";
import { auditLog } from "./schema";

/** Who acted: a signed-in person (a portal viewer), or a partner's API key. */
export type AuditActor = { userId: string; email: string; partnerId: string } | { label: string; partnerId: string };

/** The JSON surface's actor: the calling key, named as its audit rows name it. */
export const keyActor = (principal: Pick<Principal, "keyLabel" | "partnerId">): AuditActor => ({
  label: `API key ${principal.keyLabel}`,
  partnerId: principal.partnerId,
});

export interface AuditEntry {
  action: string;
  subject: string;
  /** The partner whose data changed; defaults to the actor's own account. */
  partnerId?: string | null;
  details?: Record<string, unknown>;
}

/** Record who did what, in the caller's transaction when there is one. */
export async function recordAudit(db: Executor, actor: AuditActor, entry: AuditEntry, now: Date): Promise<void> {
  await db.insert(auditLog).values(auditRow(actor, entry, now));
}

/** What an actor's audited change writes in a guarded statement of its own (src/db/guarded.ts): its audit row, or nothing without an actor. */
export function auditRows(actor: AuditActor | undefined, entry: AuditEntry, now: Date): TableRow[] {
  return actor ? [{ table: auditLog, row: auditRow(actor, entry, now) }] : [];
}

function auditRow(actor: AuditActor, entry: AuditEntry, now: Date): AuditRecord {
  const person = "userId" in actor;
  return {
    id: newId(),
    at: now,
    actorUserId: person ? actor.userId : null,
    actor: person ? actor.email : actor.label,
    partnerId: entry.partnerId === undefined ? actor.partnerId : entry.partnerId,
    action: entry.action,
    subject: entry.subject,
    details: entry.details ?? {},
  };
}

export type AuditRecord = typeof auditLog.$inferSelect;

/** Newest first; `partnerId` limits it to one account's entries. */
export async function listAudit(
  db: Database,
  filters: { partnerId?: string; action?: string },
  page: { limit: number; cursor?: string },
): Promise<Page<AuditRecord>> {
  const conditions: SQL[] = [];
  if (filters.partnerId) conditions.push(eq(auditLog.partnerId, filters.partnerId));
  if (filters.action) conditions.push(eq(auditLog.action, filters.action));
  if (page.cursor) {
    conditions.push(afterCursor(auditLog.at, auditLog.id, page.cursor));
  }
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(page.limit + 1);
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > page.limit && last ? encodeCursor(last.at, last.id) : null };
}
