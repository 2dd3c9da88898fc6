import { Elysia } from "elysia";
import { SearchPage } from "../../../views/search/search";
import type { AppDeps } from "../../http/context";
import { page } from "../../portal/page";
import { portalSession } from "../../portal/session";
import { searchAnswer } from "./presenter";

/** The operator's search: every partner's records, each naming its partner. */
export const searchAdmin = (deps: AppDeps) =>
  new Elysia({ name: "admin-search" }).use(portalSession(deps)).get(
    "/admin/search",
    async ({ viewer, csrf, request, query, set }) => {
      const { status, view } = await searchAnswer(deps.database.db, { operator: true }, query.q);
      set.status = status;
      return page(request, { title: view.query ? `Search: ${view.query}` : "Search", active: "search", viewer, csrf }, <SearchPage view={view} />);
    },
    { portal: "admin" },
  );
