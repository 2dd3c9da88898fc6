import { Badge, DownloadLink, Input, MoreRows, Table } from "../portal/ui";

/** One request to POST / as the page shows it (src/modules/api-log/portal.tsx prepares it). */
export interface ApiLogEntryView {
  id: string;
  /** YYYY-MM-DD HH:MM:SS, Nigerian time (WAT), as the wire writes times. */
  at: string;
  /** The registry's name of the command; null when the string matched none. */
  command: string | null;
  /** cmmnd.cmmnd as sent. */
  commandText: string;
  keyLabel: "test" | "live" | "legacy";
  mode: "test" | "live";
  outcome: number;
  status: number;
  /** exctnFdbck.elbrtn, when the answer was an error (and was not cut before it). */
  elbrtn?: string;
  durationMs: number;
  requestId: string;
  /** Pretty-printed when whole; as stored, with a note, when cut. */
  request: string;
  response: string;
}

export interface ApiLogProps {
  rows: ApiLogEntryView[];
  more: string | null;
  filters: { command?: string; outcome?: string };
  commands: readonly string[];
  keep: number;
  days: number;
  /** Characters each stored body is cut at. */
  cutAt: number;
  /** The same list as CSV. */
  exportHref: string;
}

export const UNKNOWN_COMMAND = "unknown";
export const OUTCOME_OPTIONS = [
  { value: "75", label: "75 · success" },
  { value: "55", label: "55 · error" },
] as const;

const KEY_TEXT: Record<ApiLogEntryView["keyLabel"], string> = { test: "Test key", live: "Live key", legacy: "Legacy key" };
const milliseconds = (ms: number) => `${ms < 10 ? ms.toFixed(1) : Math.round(ms).toLocaleString("en-NG")} ms`;

/** The log's rows (also what "Show more" swaps in). */
export function ApiLogRows(props: { rows: ApiLogEntryView[]; more: string | null }) {
  return (
    <>
      {props.rows.map((row) => (
        <tr id={`request-${row.id}`}>
          <td safe>{row.at}</td>
          <td>
            <code safe>{row.commandText}</code>
            {row.command === null ? (
              <div>
                <Badge tone="bad" text="unknown command" />
              </div>
            ) : (
              ""
            )}
          </td>
          <td>
            <span safe>{KEY_TEXT[row.keyLabel]}</span>
            <div class="muted" safe>
              {`${row.mode} mode`}
            </div>
          </td>
          <td>
            <Badge tone={row.outcome === 75 ? "ok" : row.outcome === 35 ? "wait" : "bad"} text={`${row.outcome} · ${row.status}`} />
            {row.elbrtn ? (
              <div class="muted" safe>
                {row.elbrtn.length > 160 ? `${row.elbrtn.slice(0, 159)}…` : row.elbrtn}
              </div>
            ) : (
              ""
            )}
          </td>
          <td class="num" safe>
            {milliseconds(row.durationMs)}
          </td>
          <td>
            <details>
              <summary>Request and response</summary>
              <p class="hint">Request</p>
              <pre safe>{row.request}</pre>
              <p class="hint">Response</p>
              <pre safe>{row.response}</pre>
              <p class="muted" safe>{`Request id ${row.requestId}`}</p>
            </details>
          </td>
        </tr>
      ))}
      <MoreRows href={props.more} colspan={6} />
    </>
  );
}

/** The API log page: filters, then the requests newest first. */
export function ApiLogPage(props: ApiLogProps) {
  const filtered = !!(props.filters.command || props.filters.outcome);
  const newest = `the newest ${props.keep.toLocaleString("en-NG")}, from the last ${props.days} days`;
  const kept = `each body is kept up to ${props.cutAt / 1024} KB`;
  return (
    <section id="api-log">
      <h1>API log</h1>
      <p class="muted" safe>
        {`Requests this account sent to POST / and the answers it got, newest first: ${newest}. New requests appear within a second.`}
      </p>
      <p class="muted" safe>
        {`Authorization keys are never stored. Secrets show as [redacted] and documents as <base64, N bytes>; ${kept}. ` +
          "Requests refused before the account was recognised (wrong credentials, malformed JSON, at capacity) name no account and are not listed."}
      </p>
      <form class="filters" method="get" action="/portal/api-log">
        <Input
          name="command"
          label="Command"
          kind="select"
          emptyChoice="Any"
          value={props.filters.command}
          options={[...props.commands.map((command) => ({ value: command, label: command })), { value: UNKNOWN_COMMAND, label: "Unknown command" }]}
        />
        <Input name="outcome" label="Outcome" kind="select" emptyChoice="Any" value={props.filters.outcome} options={OUTCOME_OPTIONS} />
        <button type="submit">Filter</button>
      </form>
      <DownloadLink href={props.exportHref} />
      <Table
        columns={["When (WAT)", "Command", "Key", "Outcome", { label: "Duration", numeric: true }, "Details"]}
        count={props.rows.length}
        empty={filtered ? "No requests match these filters." : "No requests yet. Send one to POST / with this account's keys and it shows here."}
        caption="Requests to POST /, newest first"
        bodyId="api-log-rows"
      >
        <ApiLogRows rows={props.rows} more={props.more} />
      </Table>
    </section>
  );
}
