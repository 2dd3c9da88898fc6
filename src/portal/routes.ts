import { Elysia } from "elysia";
import { commandRegistry } from "../commands";
import type { AppDeps } from "../http/context";
import { modules } from "../modules";
import { policyLifecycleView } from "../modules/lifecycle/presenter";
import type { ServiceFacts } from "../modules/manifest";
import { partnerNames } from "../modules/partners/service";
import { listPolicies } from "../modules/policies/service";
import { authRoutes } from "./auth-routes";
import { dashboardRoutes } from "./dashboard";
import { SHELL_NAV } from "./navigation";
import { portalNotFound } from "./not-found";
import { isPortalPath } from "./paths";
import { portalBodies } from "./session";

/**
 * The second surface: the htmx portal for partner staff and the operator's administrators. The
 * shell (sign-in, dashboard) is here; every other page is a module's, gathered from the manifests.
 * Every page calls the same domain functions as the JSON endpoint.
 */
export const portalRoutes = (appDeps: AppDeps) => {
  const deps: AppDeps = { ...appDeps, navigation: [...SHELL_NAV, ...modules.flatMap((module) => module.nav ?? [])] };
  const facts: ServiceFacts = {
    commandGrammars: commandRegistry.definitions.map((definition) => definition.grammar),
    partnerNames,
    policiesOfConsumer: async (db, scope, consumerId, limit) => (await listPolicies(db, scope, { consumerId }, { limit })).items,
    policyLifecycle: policyLifecycleView,
  };
  const portal = new Elysia({ name: "portal" })
    .onAfterHandle({ as: "global" }, ({ request, set }) => {
      const path = new URL(request.url).pathname;
      if (!isPortalPath(path)) return;
      set.headers["content-type"] ??= "text/html; charset=utf-8";
      set.headers["cache-control"] = "no-store";
    })
    .use(portalBodies(deps))
    .use(authRoutes(deps))
    .use(dashboardRoutes(deps));
  for (const module of modules) if (module.routes) portal.use(module.routes(deps, facts));
  return portal.use(portalNotFound(deps));
};
