import { Elysia } from "elysia";
import { ApiLogPage, ApiLogRows } from "../../../views/api-log/api-log";
import { CommandError } from "../../core/errors";
import type { AppDeps } from "../../http/context";
import { csvDownload } from "../../portal/export";
import { exportHref, moreHref, PAGE_SIZE } from "../../portal/kit";
import { page } from "../../portal/page";
import { portalSession } from "../../portal/session";
import { watToday } from "../../products/policy-helpers";
import { apiLogFor } from "./buffer";
import { MAX_BODY_CHARS } from "./entry";
import { apiLogFilters } from "./model";
import { API_LOG_CSV_COLUMNS, apiLogCsvRow, entryView } from "./presenter";
import { API_LOG_KEEP, API_LOG_MAX_AGE_MS, listApiRequests } from "./service";

/** Partner page: the account's recent requests to POST / and their answers (issue 8). */
export const apiLogPortal = (deps: AppDeps, commands: readonly string[]) => {
  const db = deps.database.db;
  const buffer = apiLogFor(db);

  return new Elysia({ name: "portal-api-log" })
    .use(portalSession(deps))
    .get(
      "/portal/api-log.csv",
      async ({ viewer, query }) => {
        await buffer.flush();
        const { filters } = apiLogFilters(query, commands);
        return csvDownload({
          filename: `api-log-${watToday(new Date())}`,
          columns: API_LOG_CSV_COLUMNS,
          page: (limit, cursor) => listApiRequests(db, viewer.partnerId, filters, { limit, cursor }),
          rows: async (items) => items.map((record) => apiLogCsvRow(entryView(record))),
        });
      },
      { portal: "partner" },
    )
    .get(
      "/portal/api-log",
      async ({ viewer, csrf, request, query, set }) => {
        // What this instance still holds in memory is written first, so the page shows the latest requests.
        await buffer.flush();
        const { filters, values } = apiLogFilters(query, commands);
        let list: Awaited<ReturnType<typeof listApiRequests>>;
        try {
          list = await listApiRequests(db, viewer.partnerId, filters, { limit: PAGE_SIZE, cursor: query.cursor || undefined });
        } catch (error) {
          if (!(error instanceof CommandError)) throw error;
          set.status = 400;
          const message = "This “Show more” link is not one this page made. Reload the page.";
          if (query.rows)
            return (
              <tr>
                <td colspan="6" class="problem">
                  {message}
                </td>
              </tr>
            );
          return (
            <p class="problem" role="alert">
              {message}
            </p>
          );
        }
        const rows = list.items.map(entryView);
        const more = moreHref("/portal/api-log", values, list.nextCursor);
        if (query.rows) return <ApiLogRows rows={rows} more={more} />;
        return page(
          request,
          { title: "API log", active: "api-log", viewer, csrf },
          <ApiLogPage
            rows={rows}
            more={more}
            filters={values}
            commands={commands}
            exportHref={exportHref("/portal/api-log.csv", values)}
            keep={API_LOG_KEEP}
            days={API_LOG_MAX_AGE_MS / 86_400_000}
            cutAt={MAX_BODY_CHARS}
          />,
        );
      },
      { portal: "partner" },
    );
};
