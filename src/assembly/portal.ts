import { Elysia } from "elysia";
import type { AppDeps } from "../http/context";
import { modules } from "../modules";
import { sessionViewer } from "../modules/accounts/service";
import { policyLifecycleView } from "../modules/lifecycle/presenter";
import type { ServiceFacts } from "../modules/manifest";
import { partnerNames } from "../modules/partners/service";
import { listPolicies, policiesByReferences } from "../modules/policies/service";
import { isPortalPath } from "../portal/paths";
import { portalBodies } from "../portal/session";
import { commandRegistry } from "./commands";
import { portalNotFound } from "./not-found";

/**
 * The second surface: the htmx portal for partner staff and the operator's administrators (and the
 * public certificate pages). Every page is a module's, gathered from the manifests with the
 * navigation, the session lookup and the service facts module pages read across modules; every
 * page calls the same domain functions as the JSON endpoint.
 */
export const portalRoutes = (appDeps: AppDeps) => {
  const deps: AppDeps = { ...appDeps, navigation: modules.flatMap((module) => module.nav ?? []), sessionViewer };
  const facts: ServiceFacts = {
    commandGrammars: commandRegistry.definitions.map((definition) => definition.grammar),
    partnerNames,
    policiesByReference: policiesByReferences,
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
    .use(portalBodies(deps));
  for (const module of modules) if (module.routes) portal.use(module.routes(deps, facts));
  return portal.use(portalNotFound(deps));
};
