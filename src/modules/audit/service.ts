import { and, desc, eq, gte, ilike, like, lt, or, type SQL, sql } from "drizzle-orm";
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

/** What the log's filters select: one account, who (part of the e-mail or key name), what (an action, or the actions about one kind of subject), days. */
export interface AuditFilters {
  partnerId?: string;
  /** Part of how the actor is shown, in any case. */
  actor?: string;
  action?: string;
  /** Actions starting with one of these ("policy."): the entries about one kind of subject. */
  actionPrefixes?: readonly string[];
  /** From this instant, included. */
  from?: Date;
  /** Before this instant. */
  to?: Date;
}

/** `%` and `_` typed in a search are letters, not wildcards. */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function conditionsOf(filters: AuditFilters): SQL[] {
  const conditions: SQL[] = [];
  if (filters.partnerId) conditions.push(eq(auditLog.partnerId, filters.partnerId));
  if (filters.actor) conditions.push(ilike(auditLog.actor, `%${literal(filters.actor)}%`));
  if (filters.action) conditions.push(eq(auditLog.action, filters.action));
  if (filters.actionPrefixes?.length) conditions.push(or(...filters.actionPrefixes.map((prefix) => like(auditLog.action, `${literal(prefix)}%`)))!);
  if (filters.from) conditions.push(gte(auditLog.at, filters.from));
  if (filters.to) conditions.push(lt(auditLog.at, filters.to));
  return conditions;
}

/** Newest first, what the filters select. */
export async function listAudit(db: Database, filters: AuditFilters, page: { limit: number; cursor?: string }): Promise<Page<AuditRecord>> {
  const conditions = conditionsOf(filters);
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

/**
 * How many entries the filters select, counted up to `cap` (a log of millions is not counted to the
 * last row for every page: past the cap the page says "more than").
 */
export async function countAudit(db: Database, filters: AuditFilters, cap: number): Promise<number> {
  const selected = db
    .select({ one: sql`1` })
    .from(auditLog)
    .where(and(...conditionsOf(filters)))
    .limit(cap + 1)
    .as("selected");
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(selected);
  return row?.n ?? 0;
}

/** Who did `action` on `subject` of a partner at exactly `at` (an audit row is written with its change's instant), by `partnerId|subject|at`. */
export async function actorsAt(db: Database, action: string, marks: readonly { partnerId: string; subject: string; at: Date }[]): Promise<Map<string, string>> {
  if (marks.length === 0) return new Map();
  const rows = await db
    .select({ partnerId: auditLog.partnerId, subject: auditLog.subject, at: auditLog.at, actor: auditLog.actor })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, action),
        or(...marks.map((mark) => and(eq(auditLog.partnerId, mark.partnerId), eq(auditLog.at, mark.at), eq(auditLog.subject, mark.subject)))),
      ),
    );
  return new Map(rows.map((row) => [actorKey(row.partnerId ?? "", row.subject, row.at), row.actor]));
}

export const actorKey = (partnerId: string, subject: string, at: Date) => `${partnerId}|${subject}|${at.toISOString()}`;
