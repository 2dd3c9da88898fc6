import { Elysia } from "elysia";
import type { AppDeps } from "../http/context";
import { apiLogPortal } from "../modules/api-log/portal";
import { claimPortal } from "../modules/claims/portal";
import { consumerAdmin } from "../modules/consumers/admin";
import { consumerPortal } from "../modules/consumers/portal";
import { vehiclePortal } from "../modules/enrichment/portal";
import { financingPortal } from "../modules/financing/portal";
import { partnerAdmin } from "../modules/partners/admin";
import { partnerPortal } from "../modules/partners/portal";
import { policyAdmin } from "../modules/policies/admin";
import { policyPortal } from "../modules/policies/portal";
import { auditAdmin } from "../modules/portal/admin";
import { quotePortal } from "../modules/quotes/portal";
import { walletPortal } from "../modules/wallet/portal";
import { webhookPortal } from "../modules/webhooks/portal";
import { authRoutes } from "./auth-routes";
import { dashboardRoutes } from "./dashboard";
import { isPortalPath } from "./paths";
import { signedOutBodyLimit } from "./session";

/**
 * The second surface: the htmx portal for partner staff and the operator's administrators. Every
 * page calls the same domain functions as the JSON endpoint.
 */
export const portalRoutes = (deps: AppDeps) =>
  new Elysia({ name: "portal" })
    .onAfterHandle({ as: "global" }, ({ request, set }) => {
      const path = new URL(request.url).pathname;
      if (!isPortalPath(path)) return;
      set.headers["content-type"] ??= "text/html; charset=utf-8";
      set.headers["cache-control"] = "no-store";
    })
    .use(signedOutBodyLimit(deps))
    .use(authRoutes(deps))
    .use(dashboardRoutes(deps))
    .use(consumerPortal(deps))
    .use(policyPortal(deps))
    .use(quotePortal(deps))
    .use(walletPortal(deps))
    .use(partnerPortal(deps))
    .use(vehiclePortal(deps))
    .use(webhookPortal(deps))
    .use(claimPortal(deps))
    .use(financingPortal(deps))
    .use(apiLogPortal(deps))
    .use(policyAdmin(deps))
    .use(consumerAdmin(deps))
    .use(partnerAdmin(deps))
    .use(auditAdmin(deps));
