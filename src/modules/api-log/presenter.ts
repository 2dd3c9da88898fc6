import type { ApiLogEntryView } from "../../../views/api-log/api-log";
import type { CsvValue } from "../../core/csv";
import { watTimestamp } from "../../core/time";
import type { ApiRequestRecord } from "./service";

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

export const entryView = (record: ApiRequestRecord): ApiLogEntryView => ({
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

export const API_LOG_CSV_COLUMNS = [
  "When (WAT)",
  "Command",
  "Key",
  "Mode",
  "Outcome",
  "Status",
  "Message",
  "Duration (ms)",
  "Request id",
  "Request",
  "Answer",
] as const;

export const apiLogCsvRow = (e: ApiLogEntryView): CsvValue[] => [
  e.at,
  e.commandText,
  e.keyLabel,
  e.mode,
  e.outcome,
  e.status,
  e.elbrtn,
  e.durationMs,
  e.requestId,
  e.request,
  e.response,
];
