import { dateTime, noteText, sentence } from "../format";
import { Badge, Done, DownloadLink, type FormProblem, type FormValues, HxForm, Input, MoreRows, ProblemSummary, Table } from "../portal/ui";

export interface EndpointRow {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  disabledReason: string | null;
  failingSince: Date | null;
  createdAt: Date;
}

interface AttemptView {
  number: number;
  at: Date;
  url: string;
  requestHeaders: string;
  requestBody: string;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  latencyMs: number;
}

export interface DeliveryView {
  id: string;
  eventType: string;
  url: string;
  status: string;
  attempts: AttemptView[];
  nextAttemptAt: Date | null;
  createdAt: Date;
}

const eventsText = (events: string[]): string => events.join(", ") || "all";

const endpointState = (e: EndpointRow) =>
  e.enabled ? e.failingSince ? <Badge tone="wait" text="Failing" /> : <Badge tone="ok" text="Active" /> : <Badge tone="bad" text="Disabled" />;

/** The event types as checkboxes: none ticked means every type. */
/** What each event means, for the person choosing (the type is what the receiver reads in `type`). */
const EVENT_TEXT: Record<string, string> = {
  "policy.pending": "A policy waits for the insurer's decision",
  "policy.approved": "A policy is approved",
  "policy.declined": "A policy is declined",
  "policy.lapsed": "A policy lapses (unpaid financing)",
  "policy.cancelled": "A policy is cancelled (with the refund)",
  "policy.reinstated": "A cancelled policy is back in force",
  "policy.renewed": "A policy is renewed into a new one",
  "policy.renewal_failed": "An automatic renewal could not be made",
  "policy.expiring": "A policy's cover ends in 30, 7 or 1 days",
  "policy.expired": "A policy's cover ends",
  "policy.endorsed": "A change to a policy is in force (a new certificate version)",
  "policy.endorsement_declined": "A change to a policy is declined",
  "wallet.credited": "The wallet is topped up",
  "wallet.funding_held": "A live top-up is held: another amount arrived",
  "wallet.funding_failed": "A live top-up failed",
  "wallet.funding_expired": "A live top-up expired unpaid",
  "claim.submitted": "A claim is submitted",
  "claim.updated": "A claim moves on (in review, approved, rejected, paid)",
  "financing.plan_created": "A premium is financed",
  "financing.installment_recorded": "An installment is paid",
  "financing.completed": "A financing plan is paid off",
  "financing.lapsed": "A financing plan lapses",
  "financing.cancelled": "A financing plan closes with its cancelled policy",
  "webhook.endpoint_disabled": "One of your endpoints is disabled after failing",
  "webhook.test": "A test event sent from this page",
};

function EventChoices(props: { types: readonly string[]; chosen: string[] }) {
  return (
    <fieldset>
      <legend>Events</legend>
      <p class="hint">Tick none to receive every event.</p>
      <ul class="choices">
        {props.types.map((type) => (
          <li>
            <label class="choice">
              <input type="checkbox" name="events" value={type} checked={props.chosen.includes(type)} /> <span safe>{EVENT_TEXT[type] ?? type}</span>{" "}
              <code class="muted" safe>
                {type}
              </code>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** A secret shown on request (or once, when made): with the words a person needs to use it. */
function SecretReveal(props: { secret: string; note: string }) {
  return (
    <div class="notice" role="status">
      <p safe>{props.note}</p>
      <p class="secret" safe>
        {props.secret}
      </p>
    </div>
  );
}

export function WebhooksPage(props: {
  endpoints: EndpointRow[];
  types: readonly string[];
  values: FormValues;
  /** The event types ticked. */
  events: string[];
  problem?: FormProblem;
  created?: { endpoint: EndpointRow; secret: string };
  csrf: string;
}) {
  return (
    <section id="webhooks">
      <h1>Webhooks</h1>
      <p class="muted">
        Status changes are pushed to your endpoints, signed per Standard Webhooks (<code>webhook-id</code>, <code>webhook-timestamp</code>,{" "}
        <code>webhook-signature</code>); verify them with your endpoint's secret.
      </p>
      {props.created ? (
        <SecretReveal
          secret={props.created.secret}
          note={`Endpoint ${props.created.endpoint.url} is registered. Its signing secret is shown once here; you can reveal it later on the endpoint's page.`}
        />
      ) : (
        ""
      )}
      <Table columns={["URL", "Events", "State", "Registered"]} count={props.endpoints.length} empty="No endpoints yet. Register one below.">
        {props.endpoints.map((e) => (
          <tr>
            <td>
              <a href={`/portal/webhooks/${e.id}`} safe>
                {e.url}
              </a>
              {e.description ? (
                <div class="muted" safe>
                  {e.description}
                </div>
              ) : (
                ""
              )}
            </td>
            <td safe>{eventsText(e.events)}</td>
            <td>{endpointState(e)}</td>
            <td safe>{dateTime(e.createdAt)}</td>
          </tr>
        ))}
      </Table>
      <h2>Register an endpoint</h2>
      <ProblemSummary problem={props.problem} inputs={["url", "description", "events"]} />
      <HxForm action="/portal/webhooks" target="#webhooks" csrf={props.csrf}>
        <Input name="url" label="URL" required value={props.values.url} hint="https:// address of your receiver" problem={props.problem} />
        <Input name="description" label="Description" value={props.values.description} problem={props.problem} />
        <EventChoices types={props.types} chosen={props.events} />
        <button type="submit">Register endpoint</button>
      </HxForm>
    </section>
  );
}

export function DeliveryRows(props: { deliveries: DeliveryView[]; more: string | null; csrf: string }) {
  return (
    <>
      {props.deliveries.map((d) => (
        <tr id={`delivery-${d.id}`}>
          <td safe>{dateTime(d.createdAt)}</td>
          <td>
            <code safe>{d.eventType}</code>
          </td>
          <td>
            <Badge tone={d.status === "succeeded" ? "ok" : d.status === "pending" ? "wait" : "bad"} text={d.status} />
            {d.nextAttemptAt ? <div class="muted" safe>{`next try ${dateTime(d.nextAttemptAt)}`}</div> : ""}
          </td>
          <td>
            <details>
              <summary safe>{`${d.attempts.length} attempt${d.attempts.length === 1 ? "" : "s"}`}</summary>
              {d.attempts.map((a) => (
                <div class="attempt">
                  <p safe>{`#${a.number} · ${dateTime(a.at)} · ${a.responseStatus ?? "no answer"} · ${a.latencyMs} ms · ${a.url}`}</p>
                  {a.error ? (
                    <p class="warn" safe>
                      {sentence(noteText(a.error))}
                    </p>
                  ) : (
                    ""
                  )}
                  <p class="hint">Request</p>
                  <pre safe>{`${a.requestHeaders}\n\n${a.requestBody}`}</pre>
                  <p class="hint">Response</p>
                  <pre safe>{a.responseBody ?? ""}</pre>
                </div>
              ))}
            </details>
          </td>
          <td>
            <HxForm action={`/portal/webhooks/deliveries/${d.id}/replay`} target={`#delivery-${d.id}`} swap="beforebegin" class="inline" csrf={props.csrf}>
              <button type="submit" class="secondary">
                Replay
              </button>
            </HxForm>
          </td>
        </tr>
      ))}
      <MoreRows href={props.more} colspan={5} />
    </>
  );
}

export function EndpointPage(props: {
  endpoint: EndpointRow;
  types: readonly string[];
  deliveries: DeliveryView[];
  more: string | null;
  values: FormValues;
  /** The event types ticked. */
  events: string[];
  problem?: FormProblem;
  secret?: { value: string; note: string };
  message?: string;
  csrf: string;
}) {
  const e = props.endpoint;
  const base = `/portal/webhooks/${e.id}`;
  return (
    <section id="endpoint">
      <h1 safe>{e.url}</h1>
      <p>
        {endpointState(e)}{" "}
        {e.disabledReason ? (
          <span class="muted" safe>
            {sentence(noteText(e.disabledReason))}
          </span>
        ) : (
          ""
        )}
        {e.failingSince ? <span class="muted" safe>{` failing since ${dateTime(e.failingSince)}`}</span> : ""}
      </p>
      <Done text={props.message} />
      {props.secret ? <SecretReveal secret={props.secret.value} note={props.secret.note} /> : ""}
      <div class="actions">
        {[
          ["reveal", "Reveal signing secret", "secondary"],
          [
            "rotate",
            "Rotate secret",
            "secondary",
            "Rotate the signing secret? Deliveries carry signatures with both the new and the current secret for 24 hours.",
          ],
          ["test", "Send a test event", "secondary"],
          ["delete", "Delete endpoint", "danger", "Delete this endpoint? Its pending deliveries are dropped; its delivery log is kept."],
        ].map(([action, label, style, confirm]) => (
          <HxForm action={`${base}/${action}`} target="#endpoint" confirm={confirm} class="inline" csrf={props.csrf}>
            <button type="submit" class={style} safe>
              {label}
            </button>
          </HxForm>
        ))}
      </div>
      <h2>Settings</h2>
      <ProblemSummary problem={props.problem} inputs={["url", "description", "events"]} />
      <HxForm action={base} target="#endpoint" csrf={props.csrf}>
        <Input name="url" label="URL" required value={props.values.url} problem={props.problem} />
        <Input name="description" label="Description" value={props.values.description} problem={props.problem} />
        <Input name="enabled" label="Enabled" kind="checkbox" value={props.values.enabled} />
        <EventChoices types={props.types} chosen={props.events} />
        <button type="submit">Save</button>
      </HxForm>
      <h2>Deliveries</h2>
      <DownloadLink href={`/portal/webhooks/${props.endpoint.id}/deliveries.csv`} />
      <Table
        columns={["Created", "Event", "Status", "Attempts", "Replay"]}
        count={props.deliveries.length}
        empty="Nothing sent to this endpoint yet. Send a test event to try it."
      >
        <DeliveryRows deliveries={props.deliveries} more={props.more} csrf={props.csrf} />
      </Table>
    </section>
  );
}
