import { getTableColumns } from "drizzle-orm";
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

const columnsOf = new WeakMap<PgTable, [string, PgColumn][]>();

/** The columns of `table` by their keys in the row, looked up once per table. */
export const tableColumns = (table: PgTable): [string, PgColumn][] => getOrMake(columnsOf, table, () => Object.entries(getTableColumns(table)));
