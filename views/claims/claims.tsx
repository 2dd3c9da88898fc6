import { dateTime, day, naira } from "../format";
import { Badge, Csrf, Empty, type FormProblem, type FormValues, HxForm, Input, MoreRows, ProblemSummary } from "../portal/ui";

/** The claim statuses in the order a claim moves through them (src/modules/claims/schema.ts). */
export const CLAIM_STATUS_TEXT: Record<string, string> = {
  submitted: "Submitted",
  in_review: "In review",
  approved: "Approved",
  paid: "Paid",
  rejected: "Rejected",
  withdrawn: "Withdrawn",
};

const claimTone = (status: string) =>
  status === "approved" || status === "paid" ? "ok" : status === "in_review" ? "wait" : status === "submitted" ? "info" : "bad";

const ClaimBadge = (props: { status: string }) => <Badge tone={claimTone(props.status)} text={CLAIM_STATUS_TEXT[props.status] ?? props.status} />;

/** How many file inputs the claim form offers (the JSON surface takes up to 10 documents). */
export const CLAIM_DOCUMENT_INPUTS = 5;

export interface ClaimRow {
  claimNo: string;
  href: string;
  policy: string;
  /** Set on the administrators' list. */
  partnerName?: string;
  productName: string;
  status: string;
  mode: "test" | "live";
  incidentDate: string;
  claimedKobo: number;
  payableKobo: number | null;
  createdAt: Date;
}

/** The rows of a claim list (also what "Show more" swaps in). */
export function ClaimRows(props: { rows: ClaimRow[]; more: string | null; withPartner?: boolean }) {
  return (
    <>
      {props.rows.map((c) => (
        <tr>
          <td>
            <a href={c.href} safe>
              {c.claimNo}
            </a>
          </td>
          {props.withPartner ? <td safe>{c.partnerName ?? ""}</td> : ""}
          <td>
            <span safe>{c.policy}</span>
            <br />
            <small class="muted" safe>
              {c.productName}
            </small>
          </td>
          <td>
            <ClaimBadge status={c.status} />
            {c.mode === "test" ? <span class="muted"> test</span> : ""}
          </td>
          <td safe>{day(c.incidentDate)}</td>
          <td class="num" safe>
            {naira(c.claimedKobo)}
          </td>
          <td class="num" safe>
            {c.payableKobo === null ? "—" : naira(c.payableKobo)}
          </td>
          <td safe>{dateTime(c.createdAt)}</td>
        </tr>
      ))}
      <MoreRows href={props.more} colspan={props.withPartner ? 8 : 7} />
    </>
  );
}

export interface ClaimFilterValues {
  status?: string;
  policy?: string;
  from?: string;
  to?: string;
}

/** A claim list with its filters: status, policy, submission dates. A refused filter is shown next to its input. */
export function ClaimList(props: {
  title: string;
  action: string;
  rows: ClaimRow[];
  more: string | null;
  filters: ClaimFilterValues;
  problem?: FormProblem;
  withPartner?: boolean;
  /** The partner's "Make a claim" link. */
  newHref?: string;
}) {
  const filtered = Object.values(props.filters).some(Boolean);
  return (
    <section>
      <div class="title-row">
        <h1 safe>{props.title}</h1>
        {props.newHref ? (
          <a class="button" href={props.newHref}>
            Make a claim
          </a>
        ) : (
          ""
        )}
      </div>
      <form class="filters" method="get" action={props.action} role="search">
        <Input
          name="status"
          label="Status"
          kind="select"
          emptyChoice="Any"
          value={props.filters.status}
          options={Object.entries(CLAIM_STATUS_TEXT).map(([value, label]) => ({ value, label }))}
          problem={props.problem}
        />
        <Input name="policy" label="Policy reference" value={props.filters.policy} problem={props.problem} />
        <Input name="from" label="Submitted from" kind="date" value={props.filters.from} problem={props.problem} />
        <Input name="to" label="to" kind="date" value={props.filters.to} problem={props.problem} />
        <button type="submit">Filter</button>
      </form>
      <ProblemSummary problem={props.problem} inputs={["status", "policy", "from", "to"]} />
      {props.rows.length === 0 ? (
        <Empty>{filtered ? "No claims match these filters." : "No claims yet. Claims are made from an approved policy's page."}</Empty>
      ) : (
        <table>
          <caption class="visually-hidden">Claims, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Claim</th>
              {props.withPartner ? <th scope="col">Partner</th> : ""}
              <th scope="col">Policy</th>
              <th scope="col">Status</th>
              <th scope="col">Incident</th>
              <th scope="col" class="num">
                Claimed
              </th>
              <th scope="col" class="num">
                Payable
              </th>
              <th scope="col">Submitted</th>
            </tr>
          </thead>
          <tbody>
            <ClaimRows rows={props.rows} more={props.more} withPartner={props.withPartner} />
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The policy a new claim is about, when the reference is one of the partner's policies. */
export interface ClaimPolicySummary {
  reference: string;
  productName: string;
  status: string;
  coverFirstDay: string;
  coverLastDay: string;
}

const CLAIM_FORM_INPUTS = [
  "policy",
  "incidentDate",
  "description",
  "amount",
  "reference",
  ...Array.from({ length: CLAIM_DOCUMENT_INPUTS }, (_, i) => `document${i + 1}`),
];

/** Submit a claim: the policy, the incident, the amount, documents as files. */
export function ClaimForm(props: {
  values: FormValues;
  problem?: FormProblem;
  csrf: string;
  policy?: ClaimPolicySummary;
  maxDocumentBytes: number;
  hadFiles?: boolean;
}) {
  const v = props.values;
  const p = props.policy;
  return (
    <section id="claim-form">
      <h1>Make a claim</h1>
      {p ? (
        <p class="muted" safe>
          {`${p.productName}, policy ${p.reference}: cover ${day(p.coverFirstDay)} to ${day(p.coverLastDay)}.`}
        </p>
      ) : (
        ""
      )}
      <ProblemSummary problem={props.problem} inputs={CLAIM_FORM_INPUTS} />
      {props.problem && props.hadFiles ? (
        <p class="notice">Browsers do not keep chosen files after a refusal: choose the documents again before sending.</p>
      ) : (
        ""
      )}
      <HxForm action="/portal/claims" target="#claim-form" csrf={props.csrf} files>
        <Input
          name="policy"
          label="Policy reference"
          required
          value={v.policy}
          problem={props.problem}
          hint="The transaction reference the policy was issued with. Only approved policies take claims."
        />
        <Input
          name="incidentDate"
          label="Date of the incident"
          kind="date"
          required
          value={v.incidentDate}
          problem={props.problem}
          hint="Within the policy's cover, not after today."
        />
        <Input name="description" label="What happened" kind="textarea" required value={v.description} problem={props.problem} hint="Up to 2,000 characters." />
        <Input
          name="amount"
          label="Amount claimed in naira"
          kind="number"
          required
          value={v.amount}
          problem={props.problem}
          hint="For example 45,000 or 45000.50: at most the policy's sum insured."
        />
        <fieldset class="group">
          <legend>Documents</legend>
          <small class="hint" safe>
            {`Photos or scans: JPEG, PNG, WebP or PDF, at most ${(props.maxDocumentBytes / 1_048_576).toLocaleString("en-NG", { maximumFractionDigits: 1 })} MB each. Optional; up to ${CLAIM_DOCUMENT_INPUTS} here.`}
          </small>
          {Array.from({ length: CLAIM_DOCUMENT_INPUTS }, (_, i) => (
            <Input name={`document${i + 1}`} label={`Document ${i + 1}`} kind="document" problem={props.problem} />
          ))}
        </fieldset>
        <Input
          name="reference"
          label="Your claim reference"
          value={v.reference}
          problem={props.problem}
          hint="Optional: 1–64 letters, digits, dots, hyphens or underscores. Sending the same claim again with it never files it twice."
        />
        <button type="submit">Submit the claim</button>
      </HxForm>
    </section>
  );
}

interface ClaimDocumentView {
  position: number;
  name: string;
  type: string;
  sizeBytes: number;
  href: string;
}

interface ClaimStepView {
  status: string;
  note?: string;
  at: Date;
  /** Who made the change: shown to the operator only. */
  by?: string;
}

export interface ClaimView {
  claimNo: string;
  reference: string | null;
  policy: string;
  policyHref: string;
  productName: string;
  productCode: string;
  /** Set on the administrators' pages. */
  partnerName?: string;
  mode: "test" | "live";
  status: string;
  statusNote: string | null;
  incidentDate: string;
  description: string;
  claimedKobo: number;
  approvedKobo: number | null;
  excessKobo: number | null;
  payableKobo: number | null;
  createdAt: Date;
  updatedAt: Date;
  documents: ClaimDocumentView[];
  history: ClaimStepView[];
}

/** A move the viewer may make, as a button. */
export interface ClaimMove {
  status: string;
  label: string;
  danger?: boolean;
}

/** What the last change did, or why it was refused. */
export interface ClaimActionState {
  values: FormValues;
  problem?: FormProblem;
  done?: string;
}

const sizeText = (bytes: number) =>
  bytes < 1024 ? `${bytes} bytes` : bytes < 1_048_576 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1_048_576).toFixed(1)} MB`;

/** The partner's withdraw form: only while the claim may still be withdrawn. */
function WithdrawForm(props: { action: string; csrf: string; state: ClaimActionState }) {
  return (
    <form
      method="post"
      action={props.action}
      hx-post={props.action}
      hx-target="#claim"
      hx-swap="outerHTML"
      hx-indicator="#loading"
      hx-disabled-elt="find button"
      class="card"
    >
      <h2>Withdraw this claim</h2>
      <Csrf token={props.csrf} />
      <ProblemSummary problem={props.state.problem} inputs={["note"]} />
      <Input
        name="note"
        label="Note (optional)"
        kind="textarea"
        value={props.state.values.note}
        problem={props.state.problem}
        hint="Why it is withdrawn, up to 500 characters."
      />
      <button type="submit" class="danger">
        Withdraw the claim
      </button>
    </form>
  );
}

/** The operator's decision form: one button per move the state machine allows from here. */
function ReviewForm(props: { action: string; csrf: string; moves: ClaimMove[]; state: ClaimActionState; claimedKobo: number }) {
  const approving = props.moves.some((m) => m.status === "approved");
  const rejecting = props.moves.some((m) => m.status === "rejected");
  return (
    <form
      method="post"
      action={props.action}
      hx-post={props.action}
      hx-target="#claim"
      hx-swap="outerHTML"
      hx-indicator="#loading"
      hx-disabled-elt="find button"
      class="card"
    >
      <h2>Decide</h2>
      <Csrf token={props.csrf} />
      <ProblemSummary problem={props.state.problem} inputs={["note", ...(approving ? ["approvedAmount"] : [])]} />
      {approving ? (
        <Input
          name="approvedAmount"
          label="Approved amount in naira"
          kind="number"
          value={props.state.values.approvedAmount}
          problem={props.state.problem}
          hint={`Only to approve; leave blank to approve the amount claimed (${naira(props.claimedKobo)}). The excess is worked out from it.`}
        />
      ) : (
        ""
      )}
      <Input
        name="note"
        label={rejecting ? "Note (required to reject)" : "Note (optional)"}
        kind="textarea"
        value={props.state.values.note}
        problem={props.state.problem}
        hint="Shown to the partner with the new status, up to 500 characters."
      />
      <p>
        {props.moves.map((m) => (
          <>
            <button type="submit" name="status" value={m.status} class={m.danger ? "danger" : undefined} safe>
              {m.label}
            </button>{" "}
          </>
        ))}
      </p>
    </form>
  );
}

/**
 * One claim: status, amounts with the excess and what is payable, documents, history, and the
 * viewer's next moves. htmx swaps this whole section after a change.
 */
export function ClaimDetail(props: {
  claim: ClaimView;
  csrf: string;
  /** What the last change did or why it was refused, and what was typed. */
  state?: ClaimActionState;
  /** The partner's withdraw form, when the claim can still be withdrawn. */
  withdrawAction?: string;
  /** The operator's decision form with the moves left (none: a final status). */
  review?: { action: string; moves: ClaimMove[] };
  /** The page the viewer came from (the list). */
  backHref: string;
}) {
  const c = props.claim;
  const state = props.state ?? { values: {} };
  const approved = c.approvedKobo !== null;
  const formShown = !!props.withdrawAction || !!props.review?.moves.length;
  return (
    <section id="claim" aria-labelledby="claim-title">
      <p>
        <a href={props.backHref}>← All claims</a>
      </p>
      <h1 id="claim-title">
        Claim <span safe>{c.claimNo}</span>
      </h1>
      {state.done ? (
        <p class="success" role="status" aria-live="polite" safe>
          {state.done}
        </p>
      ) : (
        ""
      )}
      {formShown ? "" : <ProblemSummary problem={state.problem} />}
      {c.mode === "test" ? <p class="notice">Test mode: a sandbox claim on a specimen policy; nothing is paid.</p> : ""}
      <div class="card" aria-live="polite">
        <p>
          <ClaimBadge status={c.status} /> <span class="muted" safe>{`since ${dateTime(c.updatedAt)}`}</span>
        </p>
        {c.statusNote ? <p safe>{c.statusNote}</p> : ""}
      </div>
      <dl>
        {c.partnerName !== undefined ? (
          <>
            <dt>Partner</dt>
            <dd safe>{c.partnerName}</dd>
          </>
        ) : (
          ""
        )}
        <dt>Policy</dt>
        <dd>
          <a href={c.policyHref} safe>
            {c.policy}
          </a>{" "}
          <span class="muted" safe>
            {`${c.productName} (${c.productCode})`}
          </span>
        </dd>
        {c.reference ? (
          <>
            <dt>Your reference</dt>
            <dd safe>{c.reference}</dd>
          </>
        ) : (
          ""
        )}
        <dt>Incident</dt>
        <dd safe>{day(c.incidentDate)}</dd>
        <dt>What happened</dt>
        <dd safe>{c.description}</dd>
        <dt>Submitted</dt>
        <dd safe>{dateTime(c.createdAt)}</dd>
      </dl>
      <h2>Amounts</h2>
      <table class="amounts">
        <caption class="visually-hidden">Amounts of this claim</caption>
        <tbody>
          <tr>
            <th scope="row">Claimed</th>
            <td class="num" safe>
              {naira(c.claimedKobo)}
            </td>
          </tr>
          <tr>
            <th scope="row">Approved</th>
            <td class="num">{approved ? naira(c.approvedKobo!) : "—"}</td>
          </tr>
          <tr>
            <th scope="row">Excess</th>
            <td class="num">{approved ? naira(c.excessKobo ?? 0) : "—"}</td>
          </tr>
          <tr>
            <th scope="row">Payable</th>
            <td class="num">
              <strong>{approved ? naira(c.payableKobo ?? 0) : "—"}</strong>
            </td>
          </tr>
        </tbody>
      </table>
      {approved ? "" : <p class="hint">The approved amount, the excess (10% on phone cover) and what is payable are set when the claim is approved.</p>}
      <h2>Documents</h2>
      {c.documents.length === 0 ? (
        <Empty>No documents were sent with this claim.</Empty>
      ) : (
        <ul>
          {c.documents.map((d) => (
            <li>
              <a href={d.href} safe>
                {d.name}
              </a>{" "}
              <span class="muted" safe>
                {`${d.type.toUpperCase()}, ${sizeText(d.sizeBytes)}`}
              </span>
            </li>
          ))}
        </ul>
      )}
      <h2>History</h2>
      <ol class="timeline">
        {c.history.map((step) => (
          <li>
            <ClaimBadge status={step.status} /> <span safe>{dateTime(step.at)}</span>
            {step.by ? (
              <span class="muted" safe>
                {` by ${step.by}`}
              </span>
            ) : (
              ""
            )}
            {step.note ? <p safe>{step.note}</p> : ""}
          </li>
        ))}
      </ol>
      {props.withdrawAction ? <WithdrawForm action={props.withdrawAction} csrf={props.csrf} state={state} /> : ""}
      {props.review ? (
        props.review.moves.length ? (
          <ReviewForm action={props.review.action} csrf={props.csrf} moves={props.review.moves} state={state} claimedKobo={c.claimedKobo} />
        ) : (
          <p class="muted">This claim is in a final status: nothing more can change.</p>
        )
      ) : (
        ""
      )}
    </section>
  );
}
