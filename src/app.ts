import { Elysia } from "elysia";
import { commandEndpoint } from "./assembly/command-endpoint";
import { healthRoutes } from "./assembly/health";
import { countHttpRequest, metricsRoutes } from "./assembly/metrics";
import { pageRoutes } from "./assembly/pages";
import { portalRoutes } from "./assembly/portal";
import { CommandError } from "./core/errors";
import { failure } from "./core/feedback";
import { log } from "./core/log";
import { isTransientDatabaseError } from "./db/errors";
import { type AppDeps, requestContext, requestFacts } from "./http/context";
import { errorPage, wantsPage } from "./http/error-pages";
import { refuseUnsafeInput } from "./http/unsafe-input";
import { isPortalPath } from "./portal/paths";
import { inWords } from "./portal/words";
import { referenceRoutes } from "./reference/routes";

export type { AppDeps } from "./http/context";

/** The whole HTTP surface, without listening: main.ts listens, tests call app.handle(). */
export function createApp(deps: AppDeps) {
  return new Elysia()
    .onError(({ code, error, set, request }) => {
      // Routes other than POST / answer plain JSON errors, and a page (src/http/error-pages.tsx) to a
      // browser; the command endpoint never throws.
      const path = new URL(request.url).pathname;
      const requestId = String(set.headers["x-request-id"] ?? "");
      const asPage = wantsPage(request, path);
      if (code === "NOT_FOUND") {
        set.status = 404;
        return asPage ? errorPage(set, "notFound") : { error: "not found" };
      }
      // The client's mistakes are 4xx wherever they surface, never a 500: a body the framework cannot
      // parse, and a refusal (CommandError) thrown before a route's own handling, such as portal input
      // that can never be stored (src/assembly/portal.ts) or an unreadable list cursor.
      const refusal =
        error instanceof CommandError
          ? { status: error.status, message: error.message }
          : code === "PARSE" || code === "VALIDATION" || code === "INVALID_COOKIE_SIGNATURE" || code === "INVALID_FILE_TYPE"
            ? { status: 400, message: "the request could not be read: send the form again" }
            : null;
      if (refusal) {
        set.status = refusal.status;
        if (!isPortalPath(path)) return { error: refusal.message };
        return errorPage(set, { title: "Not accepted", message: inWords(refusal.message) });
      }
      // The database could not be reached (a dropped connection, a restart): nothing of ours is
      // broken and a retry in a moment succeeds, so 503, never 500.
      if (isTransientDatabaseError(error)) {
        log.warn("request lost its database connection", { requestId, method: request.method, path, error });
        set.status = 503;
        set.headers["retry-after"] = "1";
        if (!isPortalPath(path)) return failure(503, `the database is temporarily unavailable: try again in a moment (request id ${requestId})`);
        return errorPage(set, "unavailable", requestId);
      }
      log.error("request failed", { requestId, method: request.method, path, code, error });
      set.status = 500;
      return asPage ? errorPage(set, "failed", requestId) : { error: "internal error" };
    })
    .use(requestContext)
    .onTransform({ as: "global" }, refuseUnsafeInput)
    .onAfterResponse({ as: "global" }, ({ set, route, request }) => {
      const facts = requestFacts(request);
      if (!facts) return;
      const { requestId, startedAt, requestMethod, requestPath } = facts;
      countHttpRequest(route, requestMethod, set.status);
      // POST / logs its own line with the command and outcome.
      if (requestMethod === "POST" && requestPath === "/") return;
      // A hosted certificate's path and a password link's are their bearer tokens: the log names the route instead.
      const path = route === "/certificates/:token" || route === "/reset/:token" ? route : requestPath;
      log.info("request", { requestId, method: requestMethod, path, status: set.status, ms: Math.round(performance.now() - startedAt) });
    })
    .use(healthRoutes(deps))
    .use(metricsRoutes(deps))
    .use(pageRoutes(deps))
    .use(referenceRoutes(deps))
    .use(portalRoutes(deps))
    .use(commandEndpoint(deps));
}
