import { Elysia } from "elysia";
import { SearchPage } from "../../../views/search/search";
import type { AppDeps } from "../../http/context";
import { page } from "../../portal/page";
import { portalSession } from "../../portal/session";
import { searchAnswer } from "./presenter";

/** Partner staff's search: their own records only (both modes, each test record marked). */
export const searchPortal = (deps: AppDeps) =>
  new Elysia({ name: "portal-search" }).use(portalSession(deps)).get(
    "/portal/search",
    async ({ viewer, csrf, request, query, set }) => {
      const { status, view } = await searchAnswer(deps.database.db, { partnerId: viewer.partnerId }, query.q);
      set.status = status;
      return page(request, { title: view.query ? `Search: ${view.query}` : "Search", active: "search", viewer, csrf }, <SearchPage view={view} />);
    },
    { portal: "partner" },
  );
