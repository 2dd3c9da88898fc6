import { getTableName, type SQL, sql } from "drizzle-orm";
import { type PgTable, PgTransaction } from "drizzle-orm/pg-core";
import { getOrMake } from "../core/maps";
import type { Database, Executor } from "./client";
import { isConflict } from "./errors";
import { type TableRow, tableRecord, writableColumns } from "./guarded";
import { resultRows } from "./results";

/**
 * Group commit (docs/decisions.md, "Group commit"): rows that requests arriving at the same moment
 * insert outside any transaction of theirs — quotes, test policies with their events, new
 * consumers, live premiums with what they pay for — share one statement and its commit, and every
 * caller is answered only once its rows are committed. A commit costs PostgreSQL more than the rows
 * of a small insert (a single-row insert per transaction ran at a quarter of the rows per second of
 * eight-row ones on this machine), so under load most of that cost is shared; alone, a request
 * writes at once, as before.
 *
 * A batch is atomic as a whole. When one caller's rows break a constraint (a reused reference) or the
 * batch meets a deadlock, nothing was written, and every caller's rows are written again on their
 * own, so each hears its own outcome; any other failure (a lost connection, whose outcome is
 * unknown) is every caller's.
 */
class GroupCommit<Item, Result> {
  private readonly waiting: { item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void }[] = [];
  private writing = 0;

  constructor(
    /** The items' rows in one statement; its results in the items' order. */
    private readonly write: (db: Executor, items: Item[]) => Promise<Result[]>,
    private readonly db: Database,
    /** Rows of at most this many callers per statement, and at most `concurrent` statements at a time (the pool serves the rest). */
    private readonly limits = { callers: 100, concurrent: 2 },
  ) {}

  submit(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.next();
    });
  }

  private next() {
    while (this.writing < this.limits.concurrent && this.waiting.length) {
      const batch = this.waiting.splice(0, this.limits.callers);
      this.writing++;
      void this.writeBatch(batch).finally(() => {
        this.writing--;
        this.next();
      });
    }
  }

  private async writeBatch(batch: GroupCommit<Item, Result>["waiting"]) {
    try {
      const results = await this.write(
        this.db,
        batch.map((caller) => caller.item),
      );
      for (const [i, caller] of batch.entries()) caller.resolve(results[i]!);
    } catch (error) {
      if (batch.length === 1 || !isConflict(error)) {
        for (const caller of batch) caller.reject(error);
        return;
      }
      await Promise.all(batch.map((caller) => this.write(this.db, [caller.item]).then(([result]) => caller.resolve(result!), caller.reject)));
    }
  }
}

/** A row as a grouped statement takes it: its table, and its JSON record (made by the caller, so a bad row fails only its own request). */
export interface Encoded {
  table: PgTable;
  record: Record<string, unknown>;
}

export const encode = (rows: readonly TableRow[]): Encoded[] => rows.map(({ table, row }) => ({ table, record: tableRecord(table, row) }));

/** The callers' rows by table, each with the index of its caller. */
function byTable(callers: Encoded[][]): Map<PgTable, { caller: number; record: Record<string, unknown> }[]> {
  const tables = new Map<PgTable, { caller: number; record: Record<string, unknown> }[]>();
  for (const [caller, rows] of callers.entries()) for (const { table, record } of rows) getOrMake(tables, table, () => []).push({ caller, record });
  return tables;
}

/** Every caller's rows in one statement: per table, its rows as one JSON parameter, so the statement's text depends only on which tables. */
async function insertTogether(db: Executor, callers: Encoded[][]): Promise<null[]> {
  const inserts = [...byTable(callers)].map(
    ([table, rows], i) =>
      sql`${sql.raw(i ? ", " : "with ")}${sql.raw(`rows_${i}`)} as (insert into ${table} ${writableColumns(table).into} select ${writableColumns(table).from} from json_populate_recordset(null::${table}, ${JSON.stringify(rows.map((r) => r.record))}::json) as row)`,
  );
  await db.execute(sql`${sql.join(inserts)} select`);
  return callers.map(() => null);
}

/**
 * The CTEs of one statement inserting the rows of the callers whose index the CTE named `guard`
 * returns (as its column `caller`): `, rows_0 as (…)`, per table one JSON parameter.
 */
export function insertsOfCallers(guard: string, callers: Encoded[][]): SQL {
  return sql.join(
    [...byTable(callers)].map(
      ([table, rows], i) =>
        sql`, ${sql.raw(`rows_${i}`)} as (insert into ${table} ${writableColumns(table).into} select ${writableColumns(table).from} from json_to_recordset(${JSON.stringify(rows)}::json) as x(caller int, record json)
          cross join lateral json_populate_record(null::${table}, x.record) as row where x.caller in (select caller from ${sql.raw(guard)}))`,
    ),
  );
}

/** Per database handle, a group for each kind of statement (its name). */
const groups = new WeakMap<Executor, Map<string, unknown>>();

function groupOf<Item, Result>(db: Database, name: string, write: (db: Executor, items: Item[]) => Promise<Result[]>): GroupCommit<Item, Result> {
  const named = getOrMake(groups, db, () => new Map<string, unknown>());
  return getOrMake(named, name, () => new GroupCommit(write, db)) as GroupCommit<Item, Result>;
}

/**
 * Insert `rows` (one caller's: all or none of them), committed when this resolves. Inside a
 * transaction they are simply part of it; otherwise they share a statement and a commit with
 * whatever other requests are inserting at the same moment.
 */
export async function insertCommitted(db: Executor, rows: readonly TableRow[]): Promise<void> {
  await writeCommitted(db, "rows", insertTogether, encode(rows));
}

/**
 * `write` of `item` (one statement for any number of items, its results in their order), committed
 * when this resolves: inside a transaction as part of it; otherwise in a statement and a commit
 * shared with the items of the same `name` that other requests write at the same moment.
 */
export async function writeCommitted<Item, Result>(
  db: Executor,
  name: string,
  write: (db: Executor, items: Item[]) => Promise<Result[]>,
  item: Item,
): Promise<Result> {
  if (db instanceof PgTransaction) return (await write(db, [item]))[0]!;
  return groupOf(db, name, write).submit(item);
}

/**
 * Insert `row` into `table` unless a row already holds its unique key (`onConflict`: the `ON
 * CONFLICT (…) DO NOTHING` clause), committed when this resolves: true when it was inserted. Rows of
 * requests arriving together share a statement and a commit, as insertCommitted's do; two rows of
 * one batch under one key behave as two statements would: the first is inserted.
 */
export async function insertCommittedUnlessTaken<T extends PgTable>(
  db: Database,
  table: T,
  row: T["$inferInsert"] & { id: string },
  onConflict: string,
): Promise<boolean> {
  const write = async (db: Executor, records: Record<string, unknown>[]) => {
    const inserted = resultRows<{ id: string }>(
      await db.execute(
        sql`insert into ${table} ${writableColumns(table).into} select ${writableColumns(table).from} from json_populate_recordset(null::${table}, ${JSON.stringify(records)}::json) as row ${sql.raw(onConflict)} returning id`,
      ),
    );
    const ids = new Set(inserted.map((r) => r.id));
    return records.map((r) => ids.has(r.id as string));
  };
  return groupOf(db, `${getTableName(table)} ${onConflict}`, write).submit(tableRecord(table, row));
}
