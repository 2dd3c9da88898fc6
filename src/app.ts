import { Elysia } from "elysia";
import { log } from "./core/log";
import { certificateRoutes } from "./http/certificates";
import { commandEndpoint } from "./http/command-endpoint";
import { requestContext, type AppDeps } from "./http/context";
import { healthRoutes } from "./http/health";
import { pageRoutes } from "./http/pages";
import { portalRoutes } from "./portal/routes";

export type { AppDeps } from "./http/context";

/** The whole HTTP surface, without listening: main.ts listens, tests call app.handle(). */
export function createApp(deps: AppDeps) {
  return new Elysia()
    .onError(({ code, error, set, request }) => {
      // Routes other than POST / answer plain JSON errors; the command endpoint never throws.
      if (code === "NOT_FOUND") {
        set.status = 404;
        return { error: "not found" };
      }
      log.error("request failed", { method: request.method, path: new URL(request.url).pathname, code, error });
      set.status = 500;
      return { error: "internal error" };
    })
    .use(requestContext)
    .onAfterResponse({ as: "global" }, ({ set, requestId, startedAt, requestMethod, requestPath }) => {
      // POST / logs its own line with the command and outcome.
      if (requestMethod === "POST" && requestPath === "/") return;
      log.info("request", { requestId, method: requestMethod, path: requestPath, status: set.status, ms: Math.round(performance.now() - startedAt) });
    })
    .use(healthRoutes(deps))
    .use(pageRoutes(deps))
    .use(certificateRoutes(deps))
    .use(portalRoutes(deps))
    .use(commandEndpoint(deps));
}

export type App = ReturnType<typeof createApp>;
