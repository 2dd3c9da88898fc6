/**
 * The baselines of the throughput benchmark: a bare Elysia app and postgres.js with nothing else
 * (no envelope, no auth, no logging):
 *   POST /      one INSERT of the request body into bare_requests;
 *   POST /read  one SELECT of a bare_reads row by primary key (1,000 rows made at start-up).
 * Both parse the same JSON body. The real service's throughput is compared against these on the
 * same machine in the same run.
 *
 * Env: PORT, DATABASE_URL (required). Run by bench/run.ts; can be run alone with `bun bench/bare.ts`.
 */
import { Elysia } from "elysia";
import postgres from "postgres";

const url = process.env.DATABASE_URL;
if (!url) throw new Error("bench/bare.ts needs DATABASE_URL");
const port = Number(process.env.PORT ?? 3100);
/** Rows of bare_reads: a small table, like one partner's policies the status command reads one of. */
const READ_ROWS = 1000;

// Same pool size as the service's postgres.js client (src/db/client.ts), so the comparison is fair.
const sql = postgres(url, { max: 10, onnotice: () => {} });
await sql`create table if not exists bare_requests (id uuid primary key, body jsonb not null, created_at timestamptz not null default now())`;
await sql`create table if not exists bare_reads (id uuid primary key, body jsonb not null, created_at timestamptz not null default now())`;
const readIds = ((await sql`select id from bare_reads`) as unknown as { id: string }[]).map((r) => r.id);
if (readIds.length === 0) {
  const rows = Array.from({ length: READ_ROWS }, (_, i) => ({ id: crypto.randomUUID(), body: sql.json({ row: i, status: "a" }) }));
  await sql`insert into bare_reads ${sql(rows, "id", "body")}`;
  readIds.push(...rows.map((r) => r.id));
}
let nextRead = 0;

const app = new Elysia()
  .get("/healthz", () => ({ status: "ok" }))
  .post("/", async ({ body }) => {
    const id = crypto.randomUUID();
    await sql`insert into bare_requests (id, body) values (${id}, ${sql.json(body as postgres.JSONValue)})`;
    return { ok: true, id };
  })
  .post("/read", async ({ body }) => {
    if (typeof body !== "object" || body === null) return { ok: false };
    const wanted = readIds[nextRead++ % readIds.length]!;
    const [row] = (await sql`select id, body, created_at from bare_reads where id = ${wanted}`) as unknown as { id: string; body: unknown; created_at: Date }[];
    return row ? { ok: true, id: row.id, body: row.body, createdAt: row.created_at } : { ok: false };
  })
  .listen({ port });

async function shutdown() {
  await app.stop();
  await sql.end({ timeout: 5 });
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown());
process.on("SIGINT", () => void shutdown());
