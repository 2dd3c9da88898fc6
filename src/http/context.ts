import { Elysia } from "elysia";
import type { Config } from "../config";
import type { CapacityGate } from "../core/capacity";
import type { RateLimiter } from "../core/rate-limit";
import type { DatabaseHandle } from "../db/client";

/** What the HTTP surfaces need; tests build it with an in-memory database and their own limits. */
export interface AppDeps {
  database: DatabaseHandle;
  config: Config;
  rateLimiter: RateLimiter;
  capacity: CapacityGate;
  now?: () => Date;
}

/** A request id for every request: echoed in x-request-id and in every log line. */
export const requestContext = new Elysia({ name: "request-context" })
  .derive({ as: "global" }, ({ set, request }) => {
    const requestId = request.headers.get("x-request-id")?.slice(0, 64) || crypto.randomUUID();
    set.headers["x-request-id"] = requestId;
    // Captured now: Bun has released the request by the time after-response hooks run.
    return { requestId, startedAt: performance.now(), method: request.method, path: new URL(request.url).pathname };
  });
