import { getTableColumns, type SQL, sql } from "drizzle-orm";
import { type PgColumn, type PgTable, PgTransaction } from "drizzle-orm/pg-core";
import { getOrMake } from "../core/maps";
import type { Executor } from "./client";

interface Runnable<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}

/**
 * A hot-path query built once per database handle (drizzle's `.prepare(name)` with
 * `sql.placeholder`s) rather than on every call: drizzle spends more CPU building a query than
 * PostgreSQL spends running a prepared one (docs/performance.md). Inside a transaction the query
 * is built on the transaction, as any other query would be.
 */
export function preparedQuery<R>(name: string, build: (db: Executor, name: string) => Runnable<R>) {
  const byDatabase = new WeakMap<object, Runnable<R>>();
  return (db: Executor, values: Record<string, unknown>): Promise<R> => {
    if (db instanceof PgTransaction) return build(db, name).execute(values);
    return getOrMake(byDatabase, db, () => build(db, name)).execute(values);
  };
}

/**
 * A query whose WHERE depends on which values are given (a list's optional filters): built and
 * prepared once per combination — its shape, the names of the values present — each value a
 * placeholder named as its key. A handful of shapes serve every request of a list, where building
 * the query anew cost a list more CPU than PostgreSQL spent answering it.
 */
export function preparedByShape<R>(name: string, build: (db: Executor, present: ReadonlySet<string>, name: string) => Runnable<R>) {
  const byShape = new Map<string, (db: Executor, values: Record<string, unknown>) => Promise<R>>();
  return (db: Executor, values: Record<string, unknown>): Promise<R> => {
    const given = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
    const shape = Object.keys(given).sort().join(",");
    const query = getOrMake(byShape, shape, () => preparedQuery(`${name}(${shape})`, (db, statement) => build(db, new Set(Object.keys(given)), statement)));
    return query(db, given);
  };
}

/**
 * A placeholder for every column of `table`, named `<prefix><column key>`: the values of a prepared
 * INSERT. They are plain SQL placeholders; placeholderValues encodes the values for the driver.
 */
export function columnPlaceholders<T extends PgTable>(table: T, prefix = ""): Record<keyof T["$inferInsert"], SQL> {
  const keys = Object.keys(getTableColumns(table));
  return Object.fromEntries(keys.map((key) => [key, sql`${sql.placeholder(`${prefix}${key}`)}`])) as Record<keyof T["$inferInsert"], SQL>;
}

const columnsOf = new WeakMap<PgTable, [string, PgColumn][]>();

/** The columns of `table` by their keys in the row, looked up once per table. */
export const tableColumns = (table: PgTable): [string, PgColumn][] => getOrMake(columnsOf, table, () => Object.entries(getTableColumns(table)));

/**
 * The values for columnPlaceholders: every column of `row`, encoded as the column's own mapping
 * would (JSON, timestamps), null kept as SQL NULL. Every column must be given (null, not absent).
 */
export function placeholderValues<T extends PgTable>(table: T, row: T["$inferSelect"], prefix = ""): Record<string, unknown> {
  const columns = tableColumns(table);
  const values: Record<string, unknown> = {};
  for (const [key, column] of columns) {
    const value = (row as Record<string, unknown>)[key];
    if (value === undefined) throw new Error(`no value for ${table._.name}.${key}`);
    values[`${prefix}${key}`] = value === null ? null : column.mapToDriverValue(value);
  }
  return values;
}
