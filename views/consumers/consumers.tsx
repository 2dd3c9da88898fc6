import type { FormEntry } from "../../src/products/types";
import { dateTime, day, naira, POLICY_STATUS_TEXT } from "../format";
import { Badge, Done, Empty, type FormProblem, type FormValues, HxForm, Input, MoreRows, ProblemSummary, ProductFields, Table } from "../portal/ui";

export interface ConsumerRow {
  id: string;
  /** 32 hex: what the JSON surface calls the consumer id. */
  wireId: string;
  name: string;
  consumerClass: "h" | "o";
  email?: string;
  phone?: string;
  documents: string[];
  createdAt: Date;
}

export interface ConsumerPolicyRow {
  reference: string;
  href: string;
  productCode: string;
  productName: string;
  status: string;
  premiumKobo: number;
  mode: string;
  createdAt: Date;
}

/** A consumer's page: on the partner's portal, and the operator's (read-only, with the documents). */
const partnerConsumerHref = (wireId: string) => `/portal/consumers/${wireId}`;
export const adminConsumerHref = (wireId: string) => `/admin/consumers/${wireId}`;

/** The rows of the consumer list (also what "Show more" and the search box swap in). */
export function ConsumerRows(props: { rows: ConsumerRow[]; more: string | null; hrefOf?: (wireId: string) => string }) {
  const hrefOf = props.hrefOf ?? partnerConsumerHref;
  return (
    <>
      {props.rows.map((c) => (
        <tr>
          <td>
            <a href={hrefOf(c.wireId)} safe>
              {c.name || "(no name)"}
            </a>
          </td>
          <td>{c.consumerClass === "o" ? "Organisation" : "Individual"}</td>
          <td safe>{c.email ?? "—"}</td>
          <td safe>{c.phone ?? "—"}</td>
          <td safe>{dateTime(c.createdAt)}</td>
        </tr>
      ))}
      <MoreRows href={props.more} colspan={5} />
    </>
  );
}

export function ConsumerList(props: { rows: ConsumerRow[]; more: string | null; search: string }) {
  return (
    <section>
      <div class="title-row">
        <h1>Consumers</h1>
        <a class="button" href="/portal/consumers/new">
          Register a consumer
        </a>
      </div>
      <form class="search" role="search" action="/portal/consumers" method="get">
        <label for="q">Search by name, e-mail or phone</label>
        <input
          id="q"
          type="search"
          name="q"
          value={props.search}
          hx-get="/portal/consumers"
          hx-trigger="input changed delay:300ms, search"
          hx-target="#consumer-rows"
          hx-vals='{"rows":"1"}'
          hx-indicator="#loading"
        />
        <button type="submit">Search</button> <SearchDownload action="/portal/consumers.csv" />
      </form>
      {props.rows.length === 0 && !props.search ? (
        <Empty>No consumers yet. Register one to quote and issue policies for them.</Empty>
      ) : (
        <Table columns={["Name", "Class", "E-mail", "Phone", "Registered"]} caption="Consumers, newest first" bodyId="consumer-rows">
          <ConsumerRows rows={props.rows} more={props.more} />
        </Table>
      )}
    </section>
  );
}

/** Register, or update (same e-mail), a consumer. Changing the class re-draws the form for it. */
export function ConsumerForm(props: {
  consumerClass: "h" | "o";
  entries: readonly FormEntry[];
  values: FormValues;
  problem?: FormProblem;
  csrf: string;
  /** Updating an existing consumer: the e-mail that identifies it cannot change here. */
  updating?: {
    wireId: string;
    email: string;
    /** A quote to go back to once saved. */
    returnTo?: string;
  };
}) {
  const inputs = props.entries.map((e) => e.path);
  return (
    <section id="consumer-form">
      <h1>{props.updating ? "Update consumer" : "Register a consumer"}</h1>
      <ProblemSummary problem={props.problem} inputs={["class", ...inputs]} />
      <HxForm action="/portal/consumers" target="#consumer-form" files csrf={props.csrf}>
        <input type="hidden" name="type" value="s" />
        {props.updating ? (
          <>
            <input type="hidden" name="class" value={props.consumerClass} />
            <input type="hidden" name="updating" value={props.updating.wireId} />
            <input type="hidden" name="eMail" value={props.updating.email} />
            {props.updating.returnTo ? <input type="hidden" name="returnTo" value={props.updating.returnTo} /> : ""}
            <p class="muted">
              Updating <strong safe>{props.updating.email}</strong>: only the fields you fill in change; documents you upload replace the ones on file.
            </p>
          </>
        ) : (
          <Input
            name="class"
            label="This consumer is"
            kind="select"
            required
            value={props.consumerClass}
            options={[
              { value: "h", label: "An individual" },
              { value: "o", label: "An organisation" },
            ]}
            problem={props.problem}
          />
        )}
        <div hx-get="/portal/consumers/new" hx-trigger="change from:#f-class" hx-target="#consumer-form" hx-swap="outerHTML" hx-include="closest form"></div>
        <ProductFields
          entries={props.updating ? props.entries.filter((e) => e.path !== "eMail") : props.entries}
          values={props.values}
          problem={props.problem}
        />
        <button type="submit">{props.updating ? "Save changes" : "Register"}</button>
      </HxForm>
    </section>
  );
}

const documentsText = (documents: string[]): string => documents.join(", ") || "none";

export function ConsumerDetail(props: {
  consumer: ConsumerRow & { profile: Record<string, unknown> };
  lines: [string, string][];
  policies: ConsumerPolicyRow[];
  /** The operator's view: whose consumer it is and the documents to open; no partner actions. */
  operator?: { partnerName: string; documents: { label: string; href: string }[] };
  /** How the service writes to them; `action` where the viewer may change it. */
  preferences?: ContactPreferencesView;
}) {
  const c = props.consumer;
  const operator = props.operator;
  return (
    <section>
      <div class="title-row">
        <h1 safe>{c.name || "(no name)"}</h1>
        {operator ? (
          ""
        ) : (
          <span>
            <a class="button" href={`/portal/quote?consumer=${c.wireId}`}>
              Quote &amp; issue for this consumer
            </a>{" "}
            {c.email ? <a href={`/portal/consumers/${c.wireId}/edit`}>Update</a> : ""}
          </span>
        )}
      </div>
      <dl>
        <dt>Consumer id</dt>
        <dd>
          <code safe>{c.wireId}</code>
        </dd>
        {operator ? (
          <>
            <dt>Partner</dt>
            <dd safe>{operator.partnerName}</dd>
          </>
        ) : (
          ""
        )}
        {props.lines.map(([label, value]) => (
          <>
            <dt safe>{label}</dt>
            <dd safe>{value}</dd>
          </>
        ))}
        <dt>Documents on file</dt>
        {operator?.documents.length ? (
          <dd>
            <ul class="plain">
              {operator.documents.map((d) => (
                <li>
                  <a href={d.href} target="_blank" rel="noopener" safe>
                    {d.label}
                  </a>
                </li>
              ))}
            </ul>
          </dd>
        ) : (
          <dd safe>{documentsText(c.documents)}</dd>
        )}
        <dt>Registered</dt>
        <dd safe>{dateTime(c.createdAt)}</dd>
      </dl>
      {props.preferences ? <ContactPreferences {...props.preferences} /> : ""}
      <h2>Policies</h2>
      <Table columns={["Reference", "Product", "Status", "Premium", "Issued"]} count={props.policies.length} empty="No policies for this consumer yet.">
        {props.policies.map((p) => (
          <tr>
            <td>
              <a href={p.href} safe>
                {p.reference}
              </a>
            </td>
            <td safe>{p.productName}</td>
            <td>
              <Badge tone={p.status === "a" ? "ok" : p.status === "p" ? "wait" : "bad"} text={POLICY_STATUS_TEXT[p.status] ?? p.status} />
              {p.mode === "test" ? <span class="muted"> (test)</span> : ""}
            </td>
            <td safe>{naira(p.premiumKobo)}</td>
            <td safe>{day(p.createdAt)}</td>
          </tr>
        ))}
      </Table>
    </section>
  );
}

/** The operator's read-only list of every partner's consumers: each name leads to the consumer's page. */
export function AllConsumersList(props: { rows: ConsumerRow[]; more: string | null; search: string }) {
  return (
    <section>
      <h1>All partners' consumers</h1>
      <form class="search" role="search" action="/admin/consumers" method="get">
        <label for="q">Search by name, e-mail or phone</label>
        <input id="q" type="search" name="q" value={props.search} />
        <button type="submit">Search</button> <SearchDownload action="/admin/consumers.csv" />
      </form>
      <Table columns={["Name", "Class", "E-mail", "Phone", "Registered"]}>
        <ConsumerRows rows={props.rows} more={props.more} hrefOf={adminConsumerHref} />
      </Table>
    </section>
  );
}

/** "Download CSV" inside a search form: it sends the search as typed (the list below follows the typing). */
const SearchDownload = (props: { action: string }) => (
  <button type="submit" class="secondary" formaction={props.action}>
    Download CSV
  </button>
);

interface ContactPreferencesView {
  remindersOff: boolean;
  language: "en" | "pcm";
  action?: string;
  csrf?: string;
  done?: string | null;
  problem?: FormProblem;
}

const LANGUAGES = [
  { value: "en", label: "English" },
  { value: "pcm", label: "Nigerian Pidgin (SMS; e-mails stay in English)" },
];

/** How the service writes to the consumer: service messages always, reminders unless turned off, in their language. */
export function ContactPreferences(props: ContactPreferencesView) {
  const languageWords = LANGUAGES.find((l) => l.value === props.language)?.label ?? props.language;
  return (
    <section id="contact-preferences" class="card">
      <h2>Contact preferences</h2>
      <p>Messages about their policies, claims and complaints always go. Reminders (renewal reminders, installments due) go unless turned off.</p>
      <Done text={props.done} />
      {props.action && props.csrf ? (
        <HxForm action={props.action} target="#contact-preferences" csrf={props.csrf}>
          <ProblemSummary problem={props.problem} inputs={["language"]} />
          <Input name="remindersOff" label="No reminders" kind="checkbox" value={props.remindersOff ? "on" : ""} />
          <Input name="language" label="Language" kind="select" value={props.language} options={LANGUAGES} problem={props.problem} required />
          <button type="submit">Save preferences</button>
        </HxForm>
      ) : (
        <dl>
          <dt>Reminders</dt>
          <dd>{props.remindersOff ? "Turned off" : "Sent"}</dd>
          <dt>Language</dt>
          <dd safe>{languageWords}</dd>
        </dl>
      )}
    </section>
  );
}
