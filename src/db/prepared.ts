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

/**
 * The values for columnPlaceholders: every column of `row`, encoded as the column's own mapping
 * would (JSON, timestamps), null kept as SQL NULL. Every column must be given (null, not absent).
 */
export function placeholderValues<T extends PgTable>(table: T, row: T["$inferSelect"], prefix = ""): Record<string, unknown> {
  const columns = getOrMake(columnsOf, table, () => Object.entries(getTableColumns(table)));
  const values: Record<string, unknown> = {};
  for (const [key, column] of columns) {
    const value = (row as Record<string, unknown>)[key];
    if (value === undefined) throw new Error(`no value for ${table._.name}.${key}`);
    values[`${prefix}${key}`] = value === null ? null : column.mapToDriverValue(value);
  }
  return values;
}

const namesOf = new WeakMap<PgTable, [string, string][]>();

/**
 * One row of `table` as `json_populate_record(null::<table>, …)` reads it: keyed by column name,
 * values as the row holds them (JSON columns as JSON, times as ISO text). The row travels as one
 * parameter, so a statement inserting it never depends on which values are null.
 */
function recordJson<T extends PgTable>(table: T, row: T["$inferSelect"]): string {
  const names = getOrMake(namesOf, table, () => Object.entries(getTableColumns(table)).map(([key, column]) => [key, column.name] as [string, string]));
  const record: Record<string, unknown> = {};
  for (const [key, name] of names) {
    const value = (row as Record<string, unknown>)[key];
    if (value === undefined) throw new Error(`no value for ${table._.name}.${key}`);
    record[name] = value;
  }
  return JSON.stringify(record);
}

/** A row of a table, as one data-modifying statement inserts it (insertsWhen). */
export interface TableRow<T extends PgTable = PgTable> {
  table: T;
  row: T["$inferSelect"];
}

/**
 * The CTEs of one statement that insert `rows` (each from one JSON parameter) only when the CTE
 * named `guard` — a debit, a row still as it was read, locked — returned a row: `, row_0 as (…)`.
 * Nothing is written when the guard finds nothing, and the statement is atomic as a whole.
 */
export function insertsWhen(guard: string, rows: readonly TableRow[]): SQL {
  return sql.join(
    rows.map(
      ({ table, row }, i) =>
        sql`, ${sql.raw(`row_${i}`)} as (insert into ${table} select * from json_populate_record(null::${table}, ${recordJson(table, row)}::json) where exists (select from ${sql.raw(guard)}))`,
    ),
  );
}
