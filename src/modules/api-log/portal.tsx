import { Elysia } from "elysia";
import { type ApiLogEntryView, ApiLogPage, ApiLogRows, OUTCOME_OPTIONS, UNKNOWN_COMMAND } from "../../../views/api-log/api-log";
import { CommandError } from "../../core/errors";
import { watTimestamp } from "../../core/time";
import type { AppDeps } from "../../http/context";
import { page } from "../../portal/page";
import { portalSession } from "../../portal/session";
import { apiLogFor } from "./buffer";
import { MAX_BODY_CHARS } from "./entry";
import { API_LOG_KEEP, API_LOG_MAX_AGE_MS, type ApiLogFilters, type ApiRequestRecord, listApiRequests } from "./service";

const PAGE_SIZE = 25;

/** The filters from a query string; anything unknown is dropped rather than refused (it is a filter). */
function apiLogFilters(query: Record<string, string | undefined>, commands: readonly string[]): { filters: ApiLogFilters; values: Record<string, string> } {
  const filters: ApiLogFilters = {};
  const values: Record<string, string> = {};
  if (query.command === UNKNOWN_COMMAND) filters.command = null;
  else if (query.command && commands.includes(query.command)) filters.command = query.command;
  if (filters.command !== undefined) values.command = query.command!;
  if (query.outcome && OUTCOME_OPTIONS.some((o) => o.value === query.outcome)) {
    values.outcome = query.outcome;
    filters.outcome = Number(query.outcome);
  }
  return { filters, values };
}

/** A stored body for people: pretty-printed when whole, as stored with a note when it was cut. */
function shown(text: string, length: number): string {
  if (text.length < length)
    return `${text}\n… cut here: ${length.toLocaleString("en-NG")} characters in all, the first ${text.length.toLocaleString("en-NG")} kept`;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function elbrtnOf(record: ApiRequestRecord): string | undefined {
  if (record.outcome === 75 || record.response.length < record.responseLength) return undefined;
  try {
    const elbrtn = JSON.parse(record.response)?.exctnFdbck?.elbrtn;
    return typeof elbrtn === "string" ? elbrtn : undefined;
  } catch {
    return undefined;
  }
}

const entryView = (record: ApiRequestRecord): ApiLogEntryView => ({
  id: record.id,
  at: watTimestamp(record.createdAt),
  command: record.command,
  commandText: record.commandText,
  keyLabel: record.keyLabel,
  mode: record.mode,
  outcome: record.outcome,
  status: record.status,
  elbrtn: elbrtnOf(record),
  durationMs: record.durationMs,
  requestId: record.requestId,
  request: shown(record.request, record.requestLength),
  response: shown(record.response, record.responseLength),
});

/** Partner page: the account's recent requests to POST / and their answers (issue 8). */
export const apiLogPortal = (deps: AppDeps, commands: readonly string[]) => {
  const db = deps.database.db;
  const buffer = apiLogFor(db);

  return new Elysia({ name: "portal-api-log" }).use(portalSession(deps)).get(
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
      const more = list.nextCursor ? `/portal/api-log?${new URLSearchParams({ ...values, rows: "1", cursor: list.nextCursor })}` : null;
      if (query.rows) return <ApiLogRows rows={rows} more={more} />;
      return page(
        request,
        { title: "API log", active: "api-log", viewer, csrf },
        <ApiLogPage
          rows={rows}
          more={more}
          filters={values}
          commands={commands}
          keep={API_LOG_KEEP}
          days={API_LOG_MAX_AGE_MS / 86_400_000}
          cutAt={MAX_BODY_CHARS}
        />,
      );
    },
    { portal: "partner" },
  );
};
