import { dateTime } from "../format";
import { Badge, Done, type FormProblem, HxForm, ProblemSummary, Table } from "../portal/ui";

export type KeyLabel = "test" | "live" | "legacy";

/** One label's current key: the active one, or when it was revoked without a replacement. */
export interface KeySlot {
  label: KeyLabel;
  active: { id: string; createdAt: Date } | null;
  /** When there is no active key: the last one's revocation. */
  revokedAt: Date | null;
}

export interface KeysProps {
  slots: KeySlot[];
  mode: "test" | "live";
  /** Owners change keys and the mode; staff only look. */
  canChange: boolean;
  /** A key just issued by a rotation: shown this once. */
  issued?: { label: KeyLabel; id: string; key: string };
  /** What just happened, for the status line. */
  done?: string;
  problem?: FormProblem;
  csrf: string;
}

const LABEL_TEXT: Record<KeyLabel, string> = { test: "Test", live: "Live", legacy: "Legacy" };

const runsIn = (label: KeyLabel, mode: "test" | "live") =>
  label === "legacy" ? `Follows the account: ${mode === "live" ? "live" : "test"} now` : label === "live" ? "Always live" : "Always test";

function NewKey(props: { issued: NonNullable<KeysProps["issued"]> }) {
  const { issued } = props;
  return (
    <div class="notice" role="status" aria-live="polite" id="new-key-notice">
      <p>
        <strong safe>{`Copy the new ${issued.label} key now.`}</strong> It is shown only this once: the service keeps only a hash of it, so nobody can show it
        to you again. The previous <span>{issued.label}</span> key has stopped working; update your integration before its next request.
      </p>
      <dl>
        <dt>Authorization id (userInfo.athrzt.id)</dt>
        <dd>
          <code id="new-key-id" safe>
            {issued.id}
          </code>
        </dd>
        <dt>Key (userInfo.athrzt.key)</dt>
        <dd>
          <code class="secret" id="new-key" safe>
            {issued.key}
          </code>
        </dd>
      </dl>
    </div>
  );
}

/** The API keys page: the three keys (never the keys themselves), rotate, revoke, and the account mode. */
export function KeysPage(props: KeysProps) {
  const other = props.mode === "live" ? "test" : "live";
  return (
    <section id="keys">
      <h1>API keys</h1>
      <ProblemSummary problem={props.problem} />
      {props.issued ? <NewKey issued={props.issued} /> : ""}
      <Done text={props.done} />
      <p class="muted">
        Every request to the command endpoint carries your partner id, an authorization id and its key. Keys are stored only as hashes, so this page shows which
        keys exist, never the keys. Rotating a key issues a new one and stops the old one at once.
      </p>
      {props.canChange ? "" : <p class="notice">Only the account owner can rotate or revoke keys and change the mode.</p>}
      <Table columns={["Label", "Authorization id", "Created", "Runs in", props.canChange && "Actions"]} caption="API keys by label">
        {props.slots.map((slot) => (
          <tr>
            <th scope="row" safe>
              {LABEL_TEXT[slot.label]}
            </th>
            <td>
              {slot.active ? (
                <code safe>{slot.active.id}</code>
              ) : (
                <>
                  <Badge tone="bad" text="No active key" />
                  <span class="muted" safe>{` revoked ${dateTime(slot.revokedAt)}`}</span>
                </>
              )}
            </td>
            <td>{slot.active ? dateTime(slot.active.createdAt) : "—"}</td>
            <td safe>{runsIn(slot.label, props.mode)}</td>
            {props.canChange ? (
              <td>
                <HxForm
                  action="/portal/keys/rotate"
                  target="#keys"
                  confirm={`Rotate the ${slot.label} key? The current one stops working at once.`}
                  class="inline"
                  csrf={props.csrf}
                >
                  <input type="hidden" name="label" value={slot.label} />
                  <button type="submit" class="secondary" aria-label={slot.active ? `Rotate the ${slot.label} key` : `Issue a new key: ${slot.label}`}>
                    {slot.active ? "Rotate" : "Issue a new key"}
                  </button>
                </HxForm>{" "}
                {slot.active ? (
                  <HxForm
                    action="/portal/keys/revoke"
                    target="#keys"
                    confirm={`Revoke the ${slot.label} key? Requests with it are refused from now on.`}
                    class="inline"
                    csrf={props.csrf}
                  >
                    <input type="hidden" name="keyId" value={slot.active.id} />
                    <button type="submit" class="danger" aria-label={`Revoke the ${slot.label} key`}>
                      Revoke
                    </button>
                  </HxForm>
                ) : (
                  ""
                )}
              </td>
            ) : (
              ""
            )}
          </tr>
        ))}
      </Table>
      <h2>Account mode</h2>
      <p>
        The account is in <Badge tone={props.mode === "live" ? "ok" : "wait"} text={props.mode === "live" ? "live mode" : "test mode"} />.
      </p>
      <p class="muted">
        Test and live keys are pinned: test keys always issue specimen policies and are never billed, live keys always issue real, billed policies. The legacy
        key follows this switch (like <code>set env_live</code> and <code>set env_test</code>), and this portal issues in this mode.
      </p>
      {props.canChange ? (
        // A success loads the whole page again: the mode shows in the page header too.
        <HxForm
          action="/portal/keys/mode"
          target="#keys"
          confirm={other === "live" ? "Switch to live mode? Policies issued from now on with the legacy key and this portal are real and billed." : undefined}
          csrf={props.csrf}
        >
          <input type="hidden" name="mode" value={other} />
          <button type="submit" class={other === "live" ? "" : "secondary"}>
            {other === "live" ? "Switch to live mode" : "Switch to test mode"}
          </button>
        </HxForm>
      ) : (
        ""
      )}
    </section>
  );
}
