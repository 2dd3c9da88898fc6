import { Elysia } from "elysia";
import type { AppDeps } from "./context";

/** GET /healthz — is the service up and can it reach its database. */
export const healthRoutes = (deps: AppDeps) =>
  new Elysia({ name: "health" }).get("/healthz", async ({ set }) => {
    const database = await deps.database.ping();
    set.status = database ? 200 : 503;
    set.headers["cache-control"] = "no-store";
    return { status: database ? "ok" : "degraded", database: database ? "up" : "down", engine: deps.database.engine };
  });
