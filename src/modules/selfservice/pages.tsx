import { Elysia } from "elysia";
import { LinkRefusedView, PolicyholderPageView } from "../../../views/selfservice/page";
import type { AppDeps } from "../../http/context";
import { openLink } from "./links";
import { policyholderPage } from "./presenter";
import { policyholderView } from "./service";

/** GET /my/<token>: the policyholder's page, outside the portal session (the signed link is the proof). */
export const selfServicePages = (deps: AppDeps) =>
  new Elysia({ name: "self-service" }).get("/my/:token", async ({ params, set }) => {
    set.headers["content-type"] = "text/html; charset=utf-8";
    // The link is the key to the page: never cached (and, as every answer's Referrer-Policy: same-origin, never sent to another site).
    set.headers["cache-control"] = "private, no-store";
    const now = (deps.now ?? (() => new Date()))();
    const opened = await openLink(deps.database.db, deps.config, params.token, now);
    const view = opened.status === "open" ? await policyholderView(deps.database.db, deps.config, opened.link) : null;
    if (opened.status !== "open" || !view) {
      set.status = opened.status === "expired" ? 410 : 404;
      return <LinkRefusedView expired={opened.status === "expired"} />;
    }
    return <PolicyholderPageView {...policyholderPage(view, opened.link.expiresAt, now)} />;
  });
