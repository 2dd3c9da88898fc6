import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { type Config, loadConfig } from "../core/config";
import { log } from "../core/log";
import { assertDriverPatched } from "./driver-patch";

/** One drizzle type for both engines: domain code never knows which one it talks to. */
export type Database = PgDatabase<PgQueryResultHKT>;
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
   * killed process's lock ends with its connection, and when that connection is lost while we run
   * the lock is taken again (same key) as soon as the database answers. Returns the key. PGlite:
   * nothing to share (0).
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

/** How the service's PostgreSQL connections are bounded in time (the DATABASE_* settings, docs/operations.md). */
export type ConnectionSettings = Pick<
  Config,
  | "DATABASE_CONNECT_TIMEOUT_MS"
  | "DATABASE_IDLE_TIMEOUT_MS"
  | "DATABASE_MAX_LIFETIME_MS"
  | "DATABASE_STATEMENT_TIMEOUT_MS"
  | "DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS"
>;

/**
 * `url` set → PostgreSQL through postgres.js (its connections bounded by `connection`, the defaults
 * when not given), refused when the installed postgres.js lacks its patch; otherwise PGlite in
 * `dataDir` ("memory://" for tests), which never opens a postgres.js connection, so needs no patch.
 * Migrations are applied.
 */
export async function openDatabase(options: { url?: string; dataDir?: string; connection?: ConnectionSettings }): Promise<DatabaseHandle> {
  if (options.url) return openPostgres(options.url, options.connection ?? loadConfig({}));
  return openPglite(options.dataDir ?? "./data");
}

/** A failed connection attempt is retried after 50 ms, doubling up to 1 s (postgres.js waits up to 20 s by default). */
const reconnectDelaySeconds = (retries: number) => Math.min(0.05 * 2 ** retries, 1);

/** postgres.js options of every connection of the service (its time settings are in seconds). */
function connectionOptions(settings: ConnectionSettings): postgres.Options<Record<string, never>> {
  return {
    onnotice: () => {},
    connect_timeout: settings.DATABASE_CONNECT_TIMEOUT_MS / 1000,
    idle_timeout: settings.DATABASE_IDLE_TIMEOUT_MS / 1000,
    max_lifetime: settings.DATABASE_MAX_LIFETIME_MS / 1000,
    backoff: reconnectDelaySeconds,
    // Sent as startup parameters: the server itself ends a runaway statement or an abandoned transaction.
    connection: {
      statement_timeout: settings.DATABASE_STATEMENT_TIMEOUT_MS,
      idle_in_transaction_session_timeout: settings.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
  };
}

async function openPostgres(url: string, settings: ConnectionSettings): Promise<DatabaseHandle> {
  assertDriverPatched();
  const migrationClient = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrationClient`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migratePostgres(drizzlePostgres({ client: migrationClient }), { migrationsFolder });
    await migrationClient`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await migrationClient.end();
  }
  const options = connectionOptions(settings);
  const client = postgres(url, { ...options, max: 10 });
  const db = drizzlePostgres({ client: preparingEveryStatement(client) }) as unknown as Database;
  const locks: { release(): Promise<void> }[] = [];
  return {
    db,
    engine: "postgres",
    ping: () => ping(db),
    async listen(channel, onMessage, onConnect) {
      await client.listen(channel, onMessage, onConnect);
    },
    async holdInstanceLock(classId) {
      const lock = await holdSessionLock(url, options, classId);
      locks.push(lock);
      return lock.key;
    },
    async close() {
      for (const lock of locks.splice(0)) await lock.release();
      await client.end({ timeout: 5 });
    },
  };
}

/** Waits between attempts to take a lost session lock again: 100 ms, doubling up to 2 s. */
const RELOCK_FIRST_WAIT_MS = 100;
const RELOCK_MAX_WAIT_MS = 2_000;

/**
 * A session advisory lock lives as long as its connection: it is held on a one-connection client
 * of its own, and when that connection closes (the server ended it, or restarted) it is taken again
 * with the same key, retried until the database answers — logged once per outage. The same key, as
 * other processes know this one by it; until our old session is gone it is not free, so we wait.
 */
async function holdSessionLock(
  url: string,
  options: postgres.Options<Record<string, never>>,
  classId: number,
): Promise<{ key: number; release(): Promise<void> }> {
  let key = 0;
  let releasing = false;
  let retaking = false;
  const client = postgres(url, {
    ...options,
    max: 1,
    // Never closed on purpose: the lock would go with it (0 turns these timers off).
    idle_timeout: 0,
    max_lifetime: 0,
    onclose: () => {
      if (key && !releasing) void retake();
    },
  });
  const take = async () => {
    const [row] = await client`select pg_try_advisory_lock(${classId}::int4, ${key}::int4) as taken`;
    return row?.taken === true;
  };
  async function retake() {
    if (retaking) return;
    retaking = true;
    log.warn("instance lock lost with its database connection: taking it again", { classId, instance: key });
    for (let wait = RELOCK_FIRST_WAIT_MS; !releasing; wait = Math.min(wait * 2, RELOCK_MAX_WAIT_MS)) {
      if (await take().catch(() => false)) {
        log.info("instance lock held again", { classId, instance: key });
        break;
      }
      await Bun.sleep(wait);
    }
    retaking = false;
  }
  do key = 1 + Math.floor(Math.random() * 0x7ffffffe);
  while (!(await take()));
  return {
    key,
    async release() {
      releasing = true;
      await client.end({ timeout: 5 });
    },
  };
}

async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  const inMemory = dataDir.includes("://");
  const release = inMemory ? () => {} : lockDataDir(dataDir);
  try {
    // pg_trgm: the search's index on consumers' names (drizzle/0028_search_indexes.sql creates the extension).
    const client = await PGlite.create(dataDir, { extensions: { pg_trgm } });
    const raw = drizzlePglite({ client });
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
