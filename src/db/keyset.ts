import { and, lt, lte, or, type Placeholder, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { decodeCursor } from "../core/pagination";

/**
 * The rows after a keyset cursor in a newest-first list: `created <= at` bounds the index scan so
 * each page starts where the last ended (an OR of the two cases alone is only a filter, and a page
 * deep in a large list would scan every row before it); the rest breaks ties on the same instant by id.
 */
export function afterCursor(created: AnyPgColumn, id: AnyPgColumn, cursor: string): SQL {
  const { at, id: lastId } = decodeCursor(cursor);
  return afterPosition(created, id, at, lastId);
}

/** afterCursor for a prepared query: the cursor's instant and id as values or placeholders. */
export function afterPosition(created: AnyPgColumn, id: AnyPgColumn, at: Date | SQL, lastId: string | Placeholder): SQL {
  return and(lte(created, at), or(lt(created, at), lt(id, lastId)))!;
}
