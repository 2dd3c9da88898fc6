import { Elysia } from "elysia";
import { beforeDeadline } from "../core/deadline";
import type { AppDeps } from "../http/context";

/**
 * How long /healthz waits for the database to answer: a probe must get its answer in time even
 * while new connections wait up to DATABASE_CONNECT_TIMEOUT_MS.
 */
const PING_TIMEOUT_MS = 2_000;

/** GET /healthz — is the service up and can it reach its database (down while it cannot, up as soon as it answers). */
export const healthRoutes = (deps: AppDeps) =>
  new Elysia({ name: "health" }).get("/healthz", async ({ set }) => {
    const database = (await beforeDeadline(deps.database.ping(), Date.now() + PING_TIMEOUT_MS)) ?? false;
    set.status = database ? 200 : 503;
    set.headers["cache-control"] = "no-store";
    return { status: database ? "ok" : "degraded", database: database ? "up" : "down", engine: deps.database.engine };
  });
