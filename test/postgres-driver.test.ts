/**
 * The PostgreSQL driver under dropped connections (docs/reliability.md, "Lost database
 * connections"; patches/postgres@3.4.9.patch, fix 4). PostgreSQL only: 30 callers query one
 * pool of 10 connections with the options the service uses, each asking for its own number back,
 * while every backend of the database is terminated every 0.1–0.3 s for 5 s. Unpatched, under Bun,
 * queries of a connection that closed with an error stayed on it: one was answered with an empty
 * result (the service read a genuine key as unknown and answered 401), the others never settled,
 * hanging their callers and the connection. Now every query ends within seconds of the last fault,
 * with its own answer or a connection error. And (fix 5) a query that fails after some of its rows
 * arrived no longer shifts the rows of the connection's next query.
 */
import { afterAll, expect, test } from "bun:test";
import postgres from "postgres";
import { isConnectionError } from "../src/db/errors";
import { engine } from "./support/harness";
import { freshPostgresDatabase } from "./support/reliability";

const CALLERS = 30;
const FAULTS_FOR_MS = 5_000;
/** After the last fault, every caller's query in flight must have ended within this. */
const SETTLE_MS = 10_000;

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

test.skipIf(engine !== "postgres")("a query failing after two of its rows leaves the next query's answer whole (no holes before its row)", async () => {
  const serverUrl = (process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL)!;
  // One connection, so both queries use it.
  const sql = postgres(serverUrl, { max: 1, prepare: true, fetch_types: false, onnotice: () => {} });
  cleanups.push(() => sql.end({ timeout: 1 }));
  const failing = sql.unsafe("select case when g < 3 then g else 1 / (g - g) end as n from generate_series(1, 5) g");
  await expect(failing).rejects.toMatchObject({ code: "22012" });
  const rows = await sql.unsafe("select 42 as n");
  expect([...rows] as unknown[]).toEqual([{ n: 42 }]);
});

test.skipIf(engine !== "postgres")(
  "backends terminated under concurrent queries: every query ends, with its own answer or a connection error",
  async () => {
    const serverUrl = (process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL)!;
    const database = await freshPostgresDatabase(serverUrl, "driver");
    cleanups.push(() => database.drop());
    const databaseName = new URL(database.url).pathname.slice(1);
    // As src/db/client.ts connects: prepared statements, no type fetch, quick reconnects.
    const sql = postgres(database.url, { max: 10, prepare: true, fetch_types: false, connect_timeout: 5, backoff: () => 0.05, onnotice: () => {} });
    cleanups.push(() => sql.end({ timeout: 1 }));
    const admin = postgres(new URL("/postgres", serverUrl).toString(), { max: 1, onnotice: () => {} });
    cleanups.push(() => admin.end());

    let running = true;
    const answered = { own: 0, other: [] as unknown[], connectionErrors: 0, otherErrors: [] as unknown[] };
    const callers = Array.from({ length: CALLERS }, async (_, caller) => {
      for (let i = 0; running; i++) {
        const n = caller * 1_000_000 + i;
        try {
          const rows = await sql.unsafe("select $1::int as n, pg_sleep(random() * 0.005)", [n], { prepare: true });
          if (rows.length === 1 && rows[0]!.n === n) answered.own++;
          else answered.other.push({ asked: n, got: [...rows] });
        } catch (error) {
          if (isConnectionError(error)) answered.connectionErrors++;
          else answered.otherErrors.push(String(error));
        }
      }
    });

    let terminated = 0;
    const until = performance.now() + FAULTS_FOR_MS;
    while (performance.now() < until) {
      const killed = await admin`select pg_terminate_backend(pid) as done from pg_stat_activity where datname = ${databaseName} and pid <> pg_backend_pid()`;
      terminated += killed.filter((row) => row.done).length;
      await Bun.sleep(100 + Math.random() * 200);
    }
    running = false;
    const settled = await Promise.race([Promise.all(callers).then(() => true), Bun.sleep(SETTLE_MS).then(() => false)]);

    expect(terminated).toBeGreaterThan(20);
    expect({ settled, other: answered.other, otherErrors: answered.otherErrors }).toEqual({ settled: true, other: [], otherErrors: [] });
    expect(answered.own).toBeGreaterThan(0);
    expect(answered.connectionErrors).toBeGreaterThan(0);
    // And the pool still serves.
    expect((await sql`select 1 as one`)[0]!.one).toBe(1);
  },
  60_000,
);
