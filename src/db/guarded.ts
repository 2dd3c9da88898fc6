import { getTableName, type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { getOrMake } from "../core/maps";
import type { Database, Executor } from "./client";
import { tableColumns } from "./prepared";
import { resultRows } from "./results";

/**
 * The columns an insert into `table` names, those the database does not generate (a generated
 * column takes no value): `(a, b, …)`, and `row.a, row.b, …` for the select that feeds it from a
 * record named `row`. Worked out once a table.
 */
export const writableColumns = (table: PgTable): { into: SQL; from: SQL } =>
  getOrMake(writable, table, () => {
    const names = tableColumns(table)
      .filter(([, column]) => !column.generated)
      .map(([, column]) => `"${column.name}"`);
    return { into: sql.raw(`(${names.join(", ")})`), from: sql.raw(names.map((name) => `row.${name}`).join(", ")) };
  });
const writable = new WeakMap<PgTable, { into: SQL; from: SQL }>();

/**
 * Writes made in one statement, guarded by the rows they depend on (docs/decisions.md, "One round
 * trip per write"): a claim on a policy still as read, an installment on a plan still as read.
 * Every row travels as one JSON parameter, so a statement never depends on which values are null.
 */

/** A row of a table, as a guarded statement inserts it. */
export interface TableRow<T extends PgTable = PgTable> {
  table: T;
  row: T["$inferSelect"];
}

/**
 * One row of `table` as `json_populate_record(null::<table>, …)` reads it once stringified: keyed by
 * column name, values as the row holds them (JSON columns as JSON, times as ISO text, bytes in
 * PostgreSQL's hex form of bytea).
 */
export function tableRecord<T extends PgTable>(table: T, row: T["$inferInsert"]): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [key, column] of tableColumns(table)) {
    if (column.generated) continue;
    const value = (row as Record<string, unknown>)[key];
    if (value === undefined) throw new Error(`no value for ${getTableName(table)}.${key}`);
    // Times as text here rather than in JSON.stringify: a Date's toJSON takes the whole record off
    // the stringifier's fast path (four times slower for a policy's row).
    record[column.name] = value instanceof Date ? value.toISOString() : value instanceof Uint8Array ? `\\x${Buffer.from(value).toString("hex")}` : value;
  }
  return record;
}

/**
 * The CTEs of one statement that insert `rows` only when the CTE named `guard` — a debit, rows
 * still as they were read, locked — returned a row: `, row_0 as (…)`. Nothing is written when the
 * guard finds nothing, and the statement is atomic as a whole.
 */
function insertsWhen(guard: string, rows: readonly TableRow[]): SQL {
  return sql.join(
    rows.map(
      ({ table, row }, i) =>
        sql`, ${sql.raw(`row_${i}`)} as (insert into ${table} ${writableColumns(table).into} select ${writableColumns(table).from} from json_populate_record(null::${table}, ${JSON.stringify(tableRecord(table, row))}::json) as row where exists (select from ${sql.raw(guard)}))`,
    ),
  );
}

/**
 * One statement: `still` (a SELECT … FOR SHARE or FOR UPDATE of the rows the write was checked
 * against, as they were read), `changes` (data-modifying CTEs of the caller's, each conditioned on
 * `exists (select from still)`) and `rows`, inserted on the same condition. True when `still` found
 * its rows, so that everything was written; false when nothing was.
 */
export async function writeWhenStill(db: Executor, still: SQL, rows: readonly TableRow[], changes: SQL = sql``): Promise<boolean> {
  const [result] = resultRows<{ written: number }>(
    await db.execute(sql`with still as (${still})${changes}${insertsWhen("still", rows)} select count(*)::int as written from still`),
  );
  return !!result?.written;
}

/**
 * Read, check and write in one guarded statement (`attempt(db, false)`: null when the rows read
 * changed before the statement); only then the same steps again inside a transaction that locks
 * those rows at the read (`attempt(tx, true)`), where the write always happens — so racing writers
 * still all apply, one at a time.
 */
export async function readCheckWrite<R>(db: Database, attempt: (db: Executor, locked: boolean) => Promise<R | null>): Promise<R> {
  const result = (await attempt(db, false)) ?? (await db.transaction((tx) => attempt(tx, true)));
  if (result === null) throw new Error("a guarded write found its rows changed although it held them");
  return result;
}
