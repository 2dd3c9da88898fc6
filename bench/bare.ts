/**
 * The baseline of the throughput benchmark: a bare Elysia app and postgres.js doing one INSERT
 * per `POST /`, with nothing else (no envelope, no auth, no logging). The real service's
 * throughput is compared against this on the same machine in the same run.
 *
 * Env: PORT, DATABASE_URL (required). Run by bench/run.ts; can be run alone with `bun bench/bare.ts`.
 */
import { Elysia } from "elysia";
import postgres from "postgres";

const url = process.env.DATABASE_URL;
if (!url) throw new Error("bench/bare.ts needs DATABASE_URL");
const port = Number(process.env.PORT ?? 3100);

// Same pool size as the service's postgres.js client (src/db/client.ts), so the comparison is fair.
const sql = postgres(url, { max: 10, onnotice: () => {} });
await sql`create table if not exists bare_requests (id uuid primary key, body jsonb not null, created_at timestamptz not null default now())`;

const app = new Elysia()
  .get("/healthz", () => ({ status: "ok" }))
  .post("/", async ({ body }) => {
    const id = crypto.randomUUID();
    await sql`insert into bare_requests (id, body) values (${id}, ${sql.json(body as postgres.JSONValue)})`;
    return { ok: true, id };
  })
  .listen({ port });

async function shutdown() {
  await app.stop();
  await sql.end({ timeout: 5 });
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown());
process.on("SIGINT", () => void shutdown());
