import { Elysia } from "elysia";
import { ERRORS, ErrorPanel } from "../../views/errors";
import type { AppDeps } from "../http/context";
import { page } from "../portal/page";
import { homeOf, portalSession } from "../portal/session";

/** Any other address under /portal or /admin: the not-found page in the viewer's own layout, with the way home. */
export const portalNotFound = (deps: AppDeps) => {
  const notFoundPage = (path: "/portal/*" | "/admin/*") =>
    new Elysia().use(portalSession(deps)).all(
      path,
      ({ viewer, csrf, request, set }) => {
        set.status = 404;
        return page(
          request,
          { title: ERRORS.notFound.title, viewer, csrf },
          <ErrorPanel {...ERRORS.notFound} back={{ href: homeOf(viewer.role), label: "Go to your home page" }} />,
        );
      },
      { portal: "partner-or-admin" },
    );
  return new Elysia({ name: "portal-not-found" }).use(notFoundPage("/portal/*")).use(notFoundPage("/admin/*"));
};
