import { sql } from "drizzle-orm";
import { type PgTable, PgTransaction } from "drizzle-orm/pg-core";
import { getOrMake } from "../core/maps";
import type { Database, Executor } from "./client";
import { type TableRow, tableRecord } from "./guarded";

/**
 * Group commit (docs/decisions.md, "Group commit"): rows that requests arriving at the same moment
 * insert outside any transaction of theirs — quotes, test policies with their events — share one
 * statement and its commit, and every caller is answered only once its rows are committed. A commit
 * costs PostgreSQL more than the rows of a small insert (a single-row insert per transaction ran at a
 * quarter of the rows per second of eight-row ones on this machine), so under load most of that cost
 * is shared; alone, a request writes at once, as before.
 *
 * A batch is atomic as a whole. When one caller's rows break a constraint (a reused reference) or the
 * batch meets a deadlock, nothing was written, and every caller's rows are written again on their
 * own, so each hears its own outcome; any other failure (a lost connection, whose outcome is
 * unknown) is every caller's.
 */
class GroupCommit {
  private readonly waiting: { rows: readonly TableRow[]; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private writing = 0;

  constructor(
    private readonly db: Database,
    /** Rows of at most this many callers per statement, and at most `concurrent` statements at a time (the pool serves the rest). */
    private readonly limits = { callers: 100, concurrent: 2 },
  ) {}

  insert(rows: readonly TableRow[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ rows, resolve, reject });
      this.next();
    });
  }

  private next() {
    while (this.writing < this.limits.concurrent && this.waiting.length) {
      const batch = this.waiting.splice(0, this.limits.callers);
      this.writing++;
      void this.write(batch).finally(() => {
        this.writing--;
        this.next();
      });
    }
  }

  private async write(batch: GroupCommit["waiting"]) {
    try {
      await insertTogether(
        this.db,
        batch.flatMap((caller) => caller.rows),
      );
      for (const caller of batch) caller.resolve();
    } catch (error) {
      if (batch.length === 1 || !isOneCallersConflict(error)) {
        for (const caller of batch) caller.reject(error);
        return;
      }
      await Promise.all(batch.map((caller) => insertTogether(this.db, caller.rows).then(caller.resolve, caller.reject)));
    }
  }
}

/** SQLSTATE class 23 (a constraint: one caller's reused reference), or a deadlock or serialization failure between batches: nothing was written, and the rows alone may well succeed. */
function isOneCallersConflict(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 8; e = e.cause as typeof e, depth++) {
    if (typeof e.code === "string" && (e.code.startsWith("23") || e.code === "40P01" || e.code === "40001")) return true;
  }
  return false;
}

/** Every row in one statement: per table, its rows as one JSON parameter, so the statement's text depends only on which tables. */
async function insertTogether(db: Executor, rows: readonly TableRow[]): Promise<void> {
  const byTable = new Map<PgTable, Record<string, unknown>[]>();
  for (const { table, row } of rows) getOrMake(byTable, table, () => []).push(tableRecord(table, row));
  const inserts = [...byTable].map(
    ([table, records], i) =>
      sql`${sql.raw(i ? ", " : "with ")}${sql.raw(`rows_${i}`)} as (insert into ${table} select * from json_populate_recordset(null::${table}, ${JSON.stringify(records)}::json))`,
  );
  await db.execute(sql`${sql.join(inserts)} select`);
}

const groups = new WeakMap<Executor, GroupCommit>();

/**
 * Insert `rows` (one caller's: all or none of them), committed when this resolves. Inside a
 * transaction they are simply part of it; otherwise they share a statement and a commit with
 * whatever other requests are inserting at the same moment.
 */
export function insertCommitted(db: Executor, rows: readonly TableRow[]): Promise<void> {
  if (db instanceof PgTransaction) return insertTogether(db, rows);
  return getOrMake(groups, db, () => new GroupCommit(db)).insert(rows);
}
