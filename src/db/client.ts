import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import * as schema from "./schema";

/** One drizzle type for both engines: domain code never knows which one it talks to. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction or the database itself: services accept either so callers can compose them. */
export type Executor = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];

export interface DatabaseHandle {
  db: Database;
  engine: "postgres" | "pglite";
  ping(): Promise<boolean>;
  /**
   * Run `onMessage` for every NOTIFY on `channel` from any process; `onConnect` runs on every
   * (re)connection of the listener, when notifications may have been missed.
   */
  listen(channel: string, onMessage: (payload: string) => void, onConnect?: () => void): Promise<void>;
  /**
   * PostgreSQL: take a session advisory lock (`classId`, a random free key) on a connection of its
   * own and hold it until close, so other processes can list this one as running (pg_locks); a
   * killed process's lock ends with its connection. Returns the key. PGlite: nothing to share (0).
   */
  holdInstanceLock(classId: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * drizzle asks postgres.js for unnamed (unprepared) statements, so PostgreSQL would parse and plan
 * every query afresh: about three times the server CPU of a prepared one (docs/performance.md).
 * Our statements are parameterised and come from a bounded set of query shapes, so every one is
 * prepared, once per connection, inside transactions too.
 */
function preparingEveryStatement<T extends postgres.Sql | postgres.TransactionSql>(client: T): T {
  return new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === "unsafe")
        return (query: string, parameters?: unknown[], options?: { prepare?: boolean }) =>
          (value as postgres.Sql["unsafe"]).call(target, query, parameters as postgres.ParameterOrJSON<never>[], { ...options, prepare: true });
      if (property === "begin" || property === "savepoint")
        return (...args: unknown[]) => {
          const callback = args.pop() as (tx: postgres.TransactionSql) => unknown;
          return (value as (...a: unknown[]) => unknown).call(target, ...args, (tx: postgres.TransactionSql) => callback(preparingEveryStatement(tx)));
        };
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const migrationsFolder = fileURLToPath(new URL("../../drizzle", import.meta.url));
// Any constant: serialises migrations when several instances start against one PostgreSQL.
const MIGRATION_LOCK = 727_001;

/** `url` set → PostgreSQL through postgres.js; otherwise PGlite in `dataDir` ("memory://" for tests). Migrations are applied. */
export async function openDatabase(options: { url?: string; dataDir?: string }): Promise<DatabaseHandle> {
  if (options.url) return openPostgres(options.url);
  return openPglite(options.dataDir ?? "./data");
}

async function openPostgres(url: string): Promise<DatabaseHandle> {
  const migrationClient = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrationClient`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migratePostgres(drizzlePostgres({ client: migrationClient }), { migrationsFolder });
    await migrationClient`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await migrationClient.end();
  }
  const client = postgres(url, { max: 10, onnotice: () => {} });
  const db = drizzlePostgres({ client: preparingEveryStatement(client), schema }) as unknown as Database;
  const reserved: postgres.ReservedSql[] = [];
  return {
    db,
    engine: "postgres",
    ping: () => ping(db),
    async listen(channel, onMessage, onConnect) {
      await client.listen(channel, onMessage, onConnect);
    },
    async holdInstanceLock(classId) {
      const connection = await client.reserve();
      reserved.push(connection);
      for (;;) {
        const key = 1 + Math.floor(Math.random() * 0x7ffffffe);
        const [row] = await connection`select pg_try_advisory_lock(${classId}::int4, ${key}::int4) as taken`;
        if (row?.taken) return key;
      }
    },
    async close() {
      for (const connection of reserved.splice(0)) connection.release();
      await client.end({ timeout: 5 });
    },
  };
}

async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  const inMemory = dataDir.includes("://");
  const release = inMemory ? () => {} : lockDataDir(dataDir);
  try {
    const client = await PGlite.create(dataDir);
    const raw = drizzlePglite({ client, schema });
    await migratePglite(raw, { migrationsFolder });
    const db = raw as unknown as Database;
    return {
      db,
      engine: "pglite",
      ping: () => ping(db),
      async listen(channel, onMessage, onConnect) {
        await client.listen(channel, onMessage);
        onConnect?.();
      },
      holdInstanceLock: async () => 0,
      close: async () => {
        await client.close();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/**
 * PGlite is one process's database: a second process opening the same directory would corrupt
 * it. A lock file holding the owner's pid refuses that (a stale lock of a dead process is taken over).
 */
function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = join(dataDir, "service.lock");
  try {
    writeFileSync(lockFile, String(process.pid), { flag: "wx" });
  } catch {
    const owner = Number(readFileSync(lockFile, "utf8"));
    if (owner && owner !== process.pid && isAlive(owner))
      throw new Error(`the embedded database in ${dataDir} is in use by process ${owner}; stop it first (or use DATABASE_URL)`);
    writeFileSync(lockFile, String(process.pid));
  }
  return () => rmSync(lockFile, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function ping(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
