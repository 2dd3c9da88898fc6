/** What the API log page is asked for: its filters, read from the query string. */
import { OUTCOME_OPTIONS, UNKNOWN_COMMAND } from "../../../views/api-log/api-log";
import type { ApiLogFilters } from "./service";

/** The filters from a query string; anything unknown is dropped rather than refused (it is a filter). */
export function apiLogFilters(
  query: Record<string, string | undefined>,
  commands: readonly string[],
): { filters: ApiLogFilters; values: Record<string, string> } {
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
