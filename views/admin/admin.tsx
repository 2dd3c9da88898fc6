import { dateTime, naira } from "../format";
import { DownloadLink, type FormProblem, type FormValues, HxForm, Input, MoreRows, ProblemSummary, Table } from "../portal/ui";

export interface PendingRow {
  id: string;
  reference: string;
  partnerName: string;
  consumerName: string;
  productName: string;
  premiumKobo: number;
  createdAt: Date;
  href: string;
  /** "12 min", "3 h": how long it has waited. */
  waiting: string;
}

/** One row of the approvals queue, with its approve and decline actions (htmx swaps the row). */
export function PendingPolicyRow(props: { row: PendingRow; csrf: string; problem?: FormProblem; done?: string }) {
  const r = props.row;
  if (props.done)
    return (
      <tr id={`pending-${r.id}`}>
        <td colspan="7" role="status" safe>
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
      <td>
        <a href={r.href}>Review</a>
        <HxForm
          action={`/admin/policies/${r.id}/review`}
          target={`#pending-${r.id}`}
          class="review"
          confirm={`Record this decision for policy ${r.reference}? The partner is told at once.`}
          csrf={props.csrf}
        >
          <ProblemSummary problem={props.problem} />
          <button type="submit" name="decision" value="a">
            Approve
          </button>
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
      <Table
        columns={["Reference", "Partner", "Consumer", "Product", "Waiting", { label: "Premium", numeric: true }, "Decision"]}
        count={props.rows.length}
        empty="Nothing is waiting for approval."
      >
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
  admin: boolean;
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
          <td safe>{p.name}</td>
          <td>
            <code safe>{p.partnerId}</code>
          </td>
          <td>{p.admin ? "Operator" : p.mode === "live" ? "Live" : "Test"}</td>
          <td>{p.enrichment ? "Active" : "Off"}</td>
          <td>{p.suspended ? <span class="warn">Suspended</span> : "Active"}</td>
          <td>
            {p.admin ? (
              ""
            ) : (
              <HxForm action={`/admin/partners/${p.partnerId}`} target="#partner-rows" swap="innerHTML" class="inline" csrf={props.csrf}>
                <button type="submit" name="change" value={p.enrichment ? "enrichment-off" : "enrichment-on"} class="secondary">
                  {p.enrichment ? "Turn vehicle checks off" : "Activate vehicle checks"}
                </button>{" "}
                <button type="submit" name="change" value={p.suspended ? "reinstate" : "suspend"} class={p.suspended ? "secondary" : "danger"}>
                  {p.suspended ? "Reinstate" : "Suspend"}
                </button>
              </HxForm>
            )}
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

export function PartnersPage(props: { rows: PartnerRow[]; csrf: string; values: FormValues; problem?: FormProblem; created?: CreatedPartner }) {
  return (
    <section id="partners">
      <h1>Partners</h1>
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
  subject: string;
  details: string;
}

export function AuditRows(props: { rows: AuditRow[]; more: string | null }) {
  return (
    <>
      {props.rows.map((r) => (
        <tr>
          <td safe>{dateTime(r.at)}</td>
          <td safe>{r.actor}</td>
          <td safe>{r.partnerName}</td>
          <td safe>{r.action}</td>
          <td class="wrap" safe>
            {r.subject}
          </td>
          <td class="wrap" safe>
            {r.details}
          </td>
        </tr>
      ))}
      <MoreRows href={props.more} colspan={6} />
    </>
  );
}

export function AuditPage(props: { rows: AuditRow[]; more: string | null }) {
  return (
    <section>
      <h1>Audit log</h1>
      <p class="muted">Who did what, newest first: portal changes and the administrators' decisions.</p>
      <DownloadLink href="/admin/audit.csv" />
      <Table columns={["When", "Who", "Account", "Action", "Subject", "Details"]} count={props.rows.length} empty="Nothing recorded yet.">
        <AuditRows rows={props.rows} more={props.more} />
      </Table>
    </section>
  );
}
