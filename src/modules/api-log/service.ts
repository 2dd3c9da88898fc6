import { and, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import { encodeCursor, type Page } from "../../core/pagination";
import type { Database, Executor } from "../../db/client";
import { afterCursor } from "../../db/keyset";
import type { ApiLogRow } from "./entry";
import { apiRequests } from "./schema";

export type ApiRequestRecord = typeof apiRequests.$inferSelect;

/** Retention: each partner keeps its newest API_LOG_KEEP requests, none older than API_LOG_MAX_AGE_MS. */
export const API_LOG_KEEP = 1_000;
export const API_LOG_MAX_AGE_MS = 7 * 86_400_000;

const RECORD_COLUMNS =
  "id uuid, partner_id uuid, request_id text, command text, command_text text, key_id uuid, key_label text, mode text, outcome smallint, " +
  "status smallint, duration_ms real, request text, request_length integer, response text, response_length integer, created_at timestamptz";
const COLUMN_NAMES = RECORD_COLUMNS.split(", ")
  .map((column) => column.split(" ")[0])
  .join(", ");

/**
 * Write a batch in one statement whatever its size: the rows travel as one JSON parameter, so the
 * statement's text never changes and is prepared once per connection (a multi-row VALUES would be a
 * new statement for every batch size).
 */
export async function insertApiRequests(db: Executor, rows: readonly ApiLogRow[]): Promise<void> {
  if (!rows.length) return;
  const records = sql`json_to_recordset(${JSON.stringify(rows)}::json) as r(${sql.raw(RECORD_COLUMNS)})`;
  await db.execute(sql`insert into api_requests (${sql.raw(COLUMN_NAMES)}) select ${sql.raw(COLUMN_NAMES)} from ${records}`);
}

export interface ApiLogFilters {
  /** The registry's command name, or null for requests whose command matched none. */
  command?: string | null;
  /** exctnFdbck.id. */
  outcome?: number;
}

/** A partner's requests, newest first, keyset-paginated on (created time, id). */
export async function listApiRequests(
  db: Database,
  partnerId: string,
  filters: ApiLogFilters,
  page: { limit: number; cursor?: string },
): Promise<Page<ApiRequestRecord>> {
  const conditions: SQL[] = [eq(apiRequests.partnerId, partnerId)];
  if (filters.command === null) conditions.push(isNull(apiRequests.command));
  else if (filters.command !== undefined) conditions.push(eq(apiRequests.command, filters.command));
  if (filters.outcome !== undefined) conditions.push(eq(apiRequests.outcome, filters.outcome));
  if (page.cursor) {
    conditions.push(afterCursor(apiRequests.createdAt, apiRequests.id, page.cursor));
  }
  const rows = await db
    .select()
    .from(apiRequests)
    .where(and(...conditions))
    .orderBy(desc(apiRequests.createdAt), desc(apiRequests.id))
    .limit(page.limit + 1);
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > page.limit && last ? encodeCursor(last.createdAt, last.id) : null };
}

/**
 * Retention: delete, for every partner, the requests beyond its newest `keep` and those older than
 * `maxAgeMs`, at most `batch` rows a call (the job calls again while a batch comes back full). Each
 * partner's part reads its own index range, newest first.
 */
export async function pruneApiRequests(db: Database, now: Date, options: { keep?: number; maxAgeMs?: number; batch?: number } = {}): Promise<number> {
  const keep = options.keep ?? API_LOG_KEEP;
  const batch = options.batch ?? 5_000;
  const cutoff = new Date(now.getTime() - (options.maxAgeMs ?? API_LOG_MAX_AGE_MS)).toISOString();
  const deleted = await db
    .delete(apiRequests)
    .where(
      sql`${apiRequests.id} in (
        select old.id from partners p cross join lateral (
          (select id from api_requests where partner_id = p.id and created_at < ${cutoff}::timestamptz limit ${batch})
          union
          (select id from api_requests where partner_id = p.id order by created_at desc, id desc offset ${keep} limit ${batch})
        ) old
        limit ${batch}
      )`,
    )
    .returning({ id: apiRequests.id });
  return deleted.length;
}
