/** The Messages pages (docs/messages.md): the outbox as a list, and one message with its parts and its delivery log. */
import { dateTime } from "../format";
import { ListRows, ListSection } from "../portal/list-section";
import { Badge, type Column, type FormProblem, Table } from "../portal/ui";
import { Details, type FieldSpec, LinkCell, optionsOf, partnerFilterField, statusField } from "../shared-forms/record";

type Tone = "ok" | "wait" | "bad" | "info";
type Words = { tone: Tone; text: string };

export interface MessageRow {
  href: string;
  createdAt: Date;
  channel: string;
  recipient: string;
  /** The subject of an e-mail, what an SMS is about. */
  about: string;
  status: Words;
  reason: string | null;
  /** The operator's list only. */
  partnerName?: string;
}

const columns = (withPartner: boolean): Column[] => ["Queued", "Channel", "To", "About", "Status", withPartner && "Partner"];

export function MessageRows(props: { rows: MessageRow[]; more: string | null; withPartner?: boolean }) {
  return (
    <ListRows columns={columns(!!props.withPartner)} more={props.more}>
      {props.rows.map((m) => (
        <tr>
          <LinkCell href={m.href} text={dateTime(m.createdAt)} />
          <td safe>{m.channel}</td>
          <td safe>{m.recipient}</td>
          <td safe>{m.about}</td>
          <td>
            <Badge tone={m.status.tone} text={m.status.text} />
            {m.reason ? (
              <>
                <br />
                <small class="muted" safe>
                  {m.reason}
                </small>
              </>
            ) : (
              ""
            )}
          </td>
          {props.withPartner ? <td safe>{m.partnerName ?? ""}</td> : ""}
        </tr>
      ))}
    </ListRows>
  );
}

const filters = (statuses: Record<string, string>, partners?: readonly { value: string; label: string }[]): FieldSpec[] => [
  { name: "channel", label: "Channel", kind: "select", emptyChoice: "Any", options: optionsOf({ email: "E-mail", sms: "SMS" }) },
  statusField(statuses),
  { name: "recipient", label: "Recipient (e-mail or phone)", kind: "text" },
  ...(partners ? [partnerFilterField(partners)] : []),
];

/** The outbox, newest first: every partner's for the operator (with a Partner filter), one partner's own otherwise. */
export function MessageList(props: {
  intro: string;
  action: string;
  statuses: Record<string, string>;
  partners?: readonly { value: string; label: string }[];
  /** How many wait to be sent (the outbox's health), on the operator's page. */
  waiting?: number;
  list: { rows: MessageRow[]; more: string | null; values: Record<string, string | undefined>; problem?: FormProblem; exportHref: string };
}) {
  const withPartner = !!props.partners;
  return (
    <ListSection
      heading={
        <>
          <h1>Messages</h1>
          <p class="muted" safe>
            {props.intro}
          </p>
          {props.waiting === undefined ? (
            ""
          ) : (
            <p role="status" safe>
              {props.waiting === 0
                ? "Nothing is waiting to be sent."
                : `${props.waiting.toLocaleString("en-NG")} ${props.waiting === 1 ? "message is" : "messages are"} waiting to be sent or being sent.`}
            </p>
          )}
        </>
      }
      action={props.action}
      filters={filters(props.statuses, props.partners)}
      values={props.list.values}
      problem={props.list.problem}
      exportHref={props.list.exportHref}
      columns={columns(withPartner)}
      count={props.list.rows.length}
      empty="No message has been sent yet."
      emptyFiltered="No message matches these filters."
      caption="Messages, newest first"
    >
      <MessageRows rows={props.list.rows} more={props.list.more} withPartner={withPartner} />
    </ListSection>
  );
}

export interface MessageView {
  backHref: string;
  title: string;
  details: [string, string][];
  status: Words;
  reason: string | null;
  text: string;
  /** Where the HTML part is served on its own, sandboxed; null when there is none. */
  htmlHref: string | null;
  log: { at: Date; what: string; detail: string | null }[];
}

/** One message: who it went to, its text, a link to its HTML part (served sandboxed), and its delivery log in plain words. */
export function MessageDetail(props: { message: MessageView }) {
  const m = props.message;
  return (
    <section>
      <p>
        <a href={m.backHref}>← All messages</a>
      </p>
      <h1 id="message" safe>
        {m.title}
      </h1>
      <p>
        <Badge tone={m.status.tone} text={m.status.text} />{" "}
        {m.reason ? (
          <span class="muted" safe>
            {m.reason}
          </span>
        ) : (
          ""
        )}
      </p>
      <Details rows={m.details} />
      <h2>The text</h2>
      <pre class="message-text" tabindex="0" safe>
        {m.text}
      </pre>
      {m.htmlHref ? (
        <>
          <h2>The HTML part</h2>
          <p>
            <a href={m.htmlHref} target="_blank" rel="noopener">
              Open the HTML part
            </a>{" "}
            <span class="muted">(on a page of its own that runs nothing in it and loads nothing from elsewhere)</span>
          </p>
        </>
      ) : (
        ""
      )}
      <h2>Delivery log</h2>
      <Table
        columns={["When", "What happened", "Details"]}
        count={m.log.length}
        empty="Nothing has happened to this message yet."
        caption="Delivery log, oldest first"
      >
        {m.log.map((line) => (
          <tr>
            <td safe>{dateTime(line.at)}</td>
            <td safe>{line.what}</td>
            <td safe>{line.detail ?? ""}</td>
          </tr>
        ))}
      </Table>
    </section>
  );
}
