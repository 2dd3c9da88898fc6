import { dateTime, naira } from "../format";
import { ListRows, ListSection, type ListTotal } from "../portal/list-section";
import { Done, type FormProblem, type FormValues, HxForm, Input, ProblemSummary, Table } from "../portal/ui";
import type { FieldSpec } from "../shared-forms/record";

export interface PendingRow {
  id: string;
  reference: string;
  partnerName: string;
  consumerName: string;
  productName: string;
  premiumKobo: number;
  /** Null for a product insured without a sum (the claims' general ceiling applies). */
  sumInsuredKobo: number | null;
  /** The premium and the sum insured in one phrase, for the approval's confirmation. */
  amounts: string;
  createdAt: Date;
  href: string;
  /** "12 min", "3 h": how long it has waited. */
  waiting: string;
}

const QUEUE_COLUMNS = [
  "Reference",
  "Partner",
  "Consumer",
  "Product",
  "Waiting",
  { label: "Premium", numeric: true },
  { label: "Sum insured", numeric: true },
  "Decision",
] as const;

/** One row of the approvals queue, with its approve and decline actions (htmx swaps the row). */
export function PendingPolicyRow(props: { row: PendingRow; csrf: string; problem?: FormProblem; done?: string }) {
  const r = props.row;
  if (props.done)
    return (
      <tr id={`pending-${r.id}`}>
        <td colspan={String(QUEUE_COLUMNS.length)} role="status" safe>
          {props.done}
        </td>
      </tr>
    );
  return (
    <tr id={`pending-${r.id}`}>
      <td>
        <a href={r.href} safe>
          {r.reference}
        </a>
      </td>
      <td safe>{r.partnerName}</td>
      <td safe>{r.consumerName}</td>
      <td safe>{r.productName}</td>
      <td safe>{r.waiting}</td>
      <td class="num" safe>
        {naira(r.premiumKobo)}
      </td>
      <td class="num" safe>
        {r.sumInsuredKobo === null ? "—" : naira(r.sumInsuredKobo)}
      </td>
      <td>
        <a href={r.href}>Review</a>
        <ProblemSummary problem={props.problem} />
        {/* Approving and declining ask different questions: approving names what the insurer takes on. */}
        <HxForm
          action={`/admin/policies/${r.id}/review`}
          target={`#pending-${r.id}`}
          class="review"
          confirm={`Approve policy ${r.reference}? ${r.amounts}. The partner is told at once and the certificate is issued.`}
          csrf={props.csrf}
        >
          <button type="submit" name="decision" value="a">
            Approve
          </button>
        </HxForm>
        <HxForm
          action={`/admin/policies/${r.id}/review`}
          target={`#pending-${r.id}`}
          class="review"
          confirm={`Decline policy ${r.reference}? The partner is told at once, with your reason.`}
          csrf={props.csrf}
        >
          <label for={`note-${r.id}`} class="visually-hidden">
            Reason for declining
          </label>
          <input id={`note-${r.id}`} name="statusNote" placeholder="Reason, to decline" />
          <button type="submit" name="decision" value="d" class="danger">
            Decline
          </button>
        </HxForm>
      </td>
    </tr>
  );
}

export function ApprovalQueue(props: { rows: PendingRow[]; csrf: string }) {
  return (
    <section>
      <h1>Approvals</h1>
      <p class="muted">
        Live policies waiting for a person: marine import, credit life, loan guaranty, comprehensive vehicles without proof of ownership. Oldest first: open one
        to see the consumer and their documents.
      </p>
      <Table columns={[...QUEUE_COLUMNS]} count={props.rows.length} empty="Nothing is waiting for approval.">
        {props.rows.map((row) => (
          <PendingPolicyRow row={row} csrf={props.csrf} />
        ))}
      </Table>
    </section>
  );
}

export interface PartnerRow {
  partnerId: string;
  name: string;
  enrichment: boolean;
  suspended: boolean;
  mode: string;
  createdAt: string;
}

export function PartnerRows(props: { rows: PartnerRow[]; csrf: string }) {
  return (
    <>
      {props.rows.map((p) => (
        <tr id={`partner-${p.partnerId}`}>
          <td>
            <a href={`/admin/partners/${p.partnerId}`} safe>
              {p.name}
            </a>
          </td>
          <td>
            <code safe>{p.partnerId}</code>
          </td>
          <td>{p.mode === "live" ? "Live" : "Test"}</td>
          <td>{p.enrichment ? "Active" : "Off"}</td>
          <td>
            {p.suspended ? <span class="warn">Suspended</span> : "Active"}
            {/* Apart from the vehicle checks: it cuts the partner off (or lets them back in), so it asks first (the whole page becomes the question). */}
            <HxForm action={`/admin/partners/${p.partnerId}`} target="#partners" class="inline" csrf={props.csrf}>
              {" "}
              <button type="submit" name="change" value={p.suspended ? "reinstate" : "suspend"} class={p.suspended ? "secondary" : "danger"}>
                {p.suspended ? "Reinstate…" : "Suspend…"}
                <span class="visually-hidden" safe>{` ${p.name}`}</span>
              </button>
            </HxForm>
          </td>
          <td>
            <HxForm action={`/admin/partners/${p.partnerId}`} target="#partner-rows" swap="innerHTML" class="inline" csrf={props.csrf}>
              <button type="submit" name="change" value={p.enrichment ? "enrichment-off" : "enrichment-on"} class="secondary">
                {p.enrichment ? "Turn vehicle checks off" : "Activate vehicle checks"}
              </button>
            </HxForm>
          </td>
        </tr>
      ))}
    </>
  );
}

export interface CreatedPartner {
  partnerId: string;
  name: string;
  keys: Record<string, { id: string; key: string }>;
  portal: { email: string; password: string };
}

export function PartnersPage(props: {
  rows: PartnerRow[];
  csrf: string;
  values: FormValues;
  problem?: FormProblem;
  created?: CreatedPartner;
  /** What a confirmed account change did. */
  done?: string;
}) {
  return (
    <section id="partners">
      <h1>Partners</h1>
      <Done text={props.done} />
      {props.created ? (
        <div class="success" role="status">
          <p>
            <strong safe>{props.created.name}</strong> was created. These credentials are shown once: hand them over securely.
          </p>
          <dl>
            <dt>Partner id</dt>
            <dd class="secret" safe>
              {props.created.partnerId}
            </dd>
            {Object.entries(props.created.keys).map(([label, key]) => (
              <>
                <dt safe>{`${label} key`}</dt>
                <dd class="secret" safe>
                  {`id ${key.id} · key ${key.key}`}
                </dd>
              </>
            ))}
            <dt>Portal sign-in</dt>
            <dd class="secret" safe>
              {`${props.created.portal.email} / ${props.created.portal.password}`}
            </dd>
          </dl>
        </div>
      ) : (
        ""
      )}
      <Table columns={["Name", "Partner id", "Mode", "Vehicle checks", "Account", "Change"]} bodyId="partner-rows">
        <PartnerRows rows={props.rows} csrf={props.csrf} />
      </Table>
      <h2>Create a partner</h2>
      <ProblemSummary problem={props.problem} inputs={["name", "email"]} />
      <HxForm action="/admin/partners" target="#partners" csrf={props.csrf}>
        <Input name="name" label="Partner name" required value={props.values.name} problem={props.problem} />
        <Input
          name="email"
          label="Owner's e-mail"
          kind="email"
          value={props.values.email}
          hint="The portal login of the partner's owner."
          problem={props.problem}
        />
        <Input name="enrichment" label="Activate vehicle checks" kind="checkbox" value={props.values.enrichment} />
        <button type="submit">Create partner</button>
      </HxForm>
    </section>
  );
}

export interface AuditRow {
  at: Date;
  actor: string;
  partnerName: string;
  action: string;
  /** What kind of record the entry is about ("Policy", "Claim"), empty when unknown. */
  about: string;
  /** The record in words (a policy by its number), linked to its page when it has one. */
  subject: { text: string; href: string | null };
  details: string;
}

const AUDIT_COLUMNS = ["When", "Who", "Account", "Action", "Subject", "Details"] as const;

export function AuditRows(props: { rows: AuditRow[]; more: string | null }) {
  return (
    <ListRows columns={AUDIT_COLUMNS} more={props.more}>
      {props.rows.map((r) => (
        <tr>
          <td safe>{dateTime(r.at)}</td>
          <td class="wrap" safe>
            {r.actor}
          </td>
          <td safe>{r.partnerName}</td>
          <td safe>{r.action}</td>
          <td class="wrap">
            {r.about ? <span class="muted" safe>{`${r.about} `}</span> : ""}
            {r.subject.href ? (
              <a href={r.subject.href} safe>
                {r.subject.text}
              </a>
            ) : (
              <span safe>{r.subject.text}</span>
            )}
          </td>
          <td class="wrap" safe>
            {r.details}
          </td>
        </tr>
      ))}
    </ListRows>
  );
}

/** The audit log's filters: account, who, what, about what, days; the choices come from the page (every partner, every action in words). */
export interface AuditFilterChoices {
  partners: { value: string; label: string }[];
  actions: { value: string; label: string }[];
  subjects: { value: string; label: string }[];
}

const auditFilters = (choices: AuditFilterChoices): FieldSpec[] => [
  { name: "partner", label: "Account", kind: "select", emptyChoice: "Any", options: choices.partners },
  { name: "actor", label: "Who", hint: "Part of an e-mail address or an API key's name." },
  { name: "action", label: "What", kind: "select", emptyChoice: "Anything", options: choices.actions },
  { name: "about", label: "About", kind: "select", emptyChoice: "Anything", options: choices.subjects },
  { name: "from", label: "From", kind: "date" },
  { name: "to", label: "to", kind: "date" },
];

export function AuditPage(props: {
  rows: AuditRow[];
  more: string | null;
  choices: AuditFilterChoices;
  values: FormValues;
  problem?: FormProblem;
  exportHref: string;
  /** How many entries the filters select, in words. */
  total?: ListTotal;
}) {
  return (
    <ListSection
      heading={
        <>
          <h1>Audit log</h1>
          <p class="muted">Who did what, newest first: portal changes and the administrators' decisions.</p>
        </>
      }
      action="/admin/audit"
      filters={auditFilters(props.choices)}
      values={props.values}
      problem={props.problem}
      exportHref={props.exportHref}
      total={props.total}
      columns={AUDIT_COLUMNS}
      count={props.rows.length}
      empty="Nothing recorded yet."
      emptyFiltered="No entries match these filters."
      caption="Audit log, newest first"
    >
      <AuditRows rows={props.rows} more={props.more} />
    </ListSection>
  );
}
