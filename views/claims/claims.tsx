import { dateTime, day, naira, noteText } from "../format";
import { ConfirmStep, type ConfirmStepProps } from "../portal/confirm";
import { ListRows, ListSection } from "../portal/list-section";
import { Badge, type Column, Empty, type FormProblem, type FormValues, HxForm, Input, ProblemSummary, Table } from "../portal/ui";
import {
  Announce,
  Details,
  type FieldSpec,
  Fields,
  FormSection,
  LinkCell,
  MoneyCell,
  namesOf,
  partnerFilterField,
  RecordHeading,
  StatusCard,
  statusField,
} from "../shared-forms/record";
import { RecommendationCard, type RecommendationView } from "./decision";
import { SettlementCard, type SettlementView } from "./settlement";
import { type ClaimSignalMark, type ClaimSignalsView, SignalMark, SignalsCard } from "./signals";

/** The claim statuses in the order a claim moves through them (src/modules/claims/schema.ts). */
export const CLAIM_STATUS_TEXT: Record<string, string> = {
  submitted: "Submitted",
  in_review: "In review",
  info_requested: "Information asked for",
  approved: "Approved",
  paid: "Paid",
  rejected: "Rejected",
  withdrawn: "Withdrawn",
};

const claimTone = (status: string) =>
  status === "approved" || status === "paid" ? "ok" : status === "in_review" || status === "info_requested" ? "wait" : status === "submitted" ? "info" : "bad";

const ClaimBadge = (props: { status: string }) => <Badge tone={claimTone(props.status)} text={CLAIM_STATUS_TEXT[props.status] ?? props.status} />;

/** How many file inputs the claim form offers (the JSON surface takes up to 10 documents). */
export const CLAIM_DOCUMENT_INPUTS = 5;

/** A deadline of the claims clock in words, e.g. "Settle by" "26 Jan 2027: 3 days left", with its tone. */
export interface ClaimDeadlineView {
  label: string;
  text: string;
  tone: "ok" | "wait" | "bad" | "info";
}

export interface ClaimRow {
  /** The nearest deadline still running, or when it was settled. */
  due?: ClaimDeadlineView;
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
  /** The operator's lists: a flagged claim's score (the fraud rules), and whether a second administrator must confirm its decision. */
  signals?: ClaimSignalMark;
}

const claimColumns = (withPartner?: boolean): Column[] => [
  "Claim",
  withPartner && "Partner",
  "Policy",
  "Status",
  "Incident",
  { label: "Claimed", numeric: true },
  { label: "Payable", numeric: true },
  "Submitted",
  "Due",
];

/** The rows of a claim list (also what "Show more" swaps in). */
export function ClaimRows(props: { rows: ClaimRow[]; more: string | null; withPartner?: boolean }) {
  return (
    <ListRows columns={claimColumns(props.withPartner)} more={props.more}>
      {props.rows.map((c) => (
        <tr>
          <LinkCell href={c.href} text={c.claimNo} />
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
            {c.signals ? (
              <>
                {" "}
                <SignalMark mark={c.signals} />
              </>
            ) : (
              ""
            )}
          </td>
          <td safe>{day(c.incidentDate)}</td>
          <MoneyCell kobo={c.claimedKobo} />
          <td class="num" safe>
            {c.payableKobo === null ? "—" : naira(c.payableKobo)}
          </td>
          <td safe>{dateTime(c.createdAt)}</td>
          <td>{c.due ? <Badge tone={c.due.tone} text={`${c.due.label} ${c.due.text}`} /> : ""}</td>
        </tr>
      ))}
    </ListRows>
  );
}

export interface ClaimFilterValues {
  status?: string;
  policy?: string;
  from?: string;
  to?: string;
}

/** A page of claims as the presenter gives it: the rows, the "more" link, the filters as typed and a refused filter. */
interface ClaimListData {
  rows: ClaimRow[];
  more: string | null;
  values: ClaimFilterValues;
  problem?: FormProblem;
}

const CLAIM_FILTERS: FieldSpec[] = [
  statusField(CLAIM_STATUS_TEXT),
  { name: "policy", label: "Policy reference" },
  { name: "from", label: "Submitted from", kind: "date" },
  { name: "to", label: "to", kind: "date" },
];

/** A claim list with its filters: status, policy, submission dates. A refused filter is shown next to its input. */
export function ClaimList(props: {
  title: string;
  action: string;
  list: ClaimListData;
  /** The operator's list of every partner's claims: each row names its partner, and a Partner filter chooses one. */
  partners?: readonly { value: string; label: string }[];
  /** The partner's "Make a claim" link. */
  newHref?: string;
  /** The same list as CSV. */
  exportHref: string;
  /** The operator's desk: open claims overdue or due soon, what is due first at the top (at most `rows.length` of `count`). */
  dueFirst?: { rows: ClaimRow[]; count: number; dueSoonDays: number };
}) {
  const { rows, values, problem } = props.list;
  const due = props.dueFirst;
  return (
    <ListSection
      heading={
        <>
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
          {due ? <DueFirst {...due} /> : ""}
        </>
      }
      action={props.action}
      filters={props.partners ? [partnerFilterField(props.partners), ...CLAIM_FILTERS] : CLAIM_FILTERS}
      values={{ ...values }}
      problem={problem}
      exportHref={props.exportHref}
      columns={claimColumns(!!props.partners)}
      count={rows.length}
      empty="No claims yet. Claims are made from an approved policy's page."
      emptyFiltered="No claims match these filters."
      caption="Claims, newest first"
    >
      <ClaimRows rows={rows} more={props.list.more} withPartner={!!props.partners} />
    </ListSection>
  );
}

/** The operator's desk: the open claims overdue or due soon, what is due first at the top. */
function DueFirst(props: { rows: ClaimRow[]; count: number; dueSoonDays: number }) {
  const heading = `Due first: ${props.count} open ${props.count === 1 ? "claim" : "claims"} overdue or due within ${props.dueSoonDays} days`;
  return (
    <section aria-labelledby="due-first-title">
      <h2 id="due-first-title" safe>
        {heading}
      </h2>
      {props.count > props.rows.length ? (
        <p class="muted" safe>{`The ${props.rows.length} due first are shown here; every claim is in the list below.`}</p>
      ) : (
        ""
      )}
      <Table columns={claimColumns(true)} count={props.count} empty="No open claim is overdue or due soon." caption="Open claims, due first">
        <ClaimRows rows={props.rows} more={null} withPartner />
      </Table>
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

const CLAIM_FIELDS: FieldSpec[] = [
  {
    name: "policy",
    label: "Policy reference",
    required: true,
    hint: "The transaction reference the policy was issued with. Only approved policies take claims.",
  },
  { name: "incidentDate", label: "Date of the incident", kind: "date", required: true, hint: "Within the policy's cover, not after today." },
  { name: "description", label: "What happened", kind: "textarea", required: true, hint: "Up to 2,000 characters." },
  {
    name: "amount",
    label: "Amount claimed in naira",
    kind: "number",
    required: true,
    hint: "For example 45,000 or 45000.50: at most the policy's sum insured.",
  },
];

const DOCUMENT_FIELDS: FieldSpec[] = Array.from({ length: CLAIM_DOCUMENT_INPUTS }, (_, i) => ({
  name: `document${i + 1}`,
  label: `Document ${i + 1}`,
  kind: "document",
}));

const REFERENCE_FIELD: FieldSpec = {
  name: "reference",
  label: "Your claim reference",
  hint: "Filled in for you, so that sending this claim twice never files it twice. You may put your own instead: 1–64 letters, digits, dots, hyphens or underscores.",
};

const CLAIM_FORM_INPUTS = namesOf([...CLAIM_FIELDS, REFERENCE_FIELD, ...DOCUMENT_FIELDS]);

const megabytes = (bytes: number) => (bytes / 1_048_576).toLocaleString("en-NG", { maximumFractionDigits: 1 });

/** Submit a claim: the policy, the incident, the amount, documents as files. */
export function ClaimForm(props: {
  values: FormValues;
  problem?: FormProblem;
  csrf: string;
  policy?: ClaimPolicySummary;
  maxDocumentBytes: number;
  hadFiles?: boolean;
}) {
  const p = props.policy;
  return (
    <FormSection
      id="claim-form"
      title="Make a claim"
      summary={p ? `${p.productName}, policy ${p.reference}: cover ${day(p.coverFirstDay)} to ${day(p.coverLastDay)}.` : undefined}
      problem={props.problem}
      inputs={CLAIM_FORM_INPUTS}
      notice={props.problem && props.hadFiles ? "Browsers do not keep chosen files after a refusal: choose the documents again before sending." : undefined}
    >
      <HxForm action="/portal/claims" target="#claim-form" csrf={props.csrf} files>
        <Fields fields={CLAIM_FIELDS} values={props.values} problem={props.problem} />
        <fieldset class="group">
          <legend>Documents</legend>
          <small class="hint" safe>
            {`Photos or scans: JPEG, PNG, WebP or PDF, at most ${megabytes(props.maxDocumentBytes)} MB each. Optional; up to ${CLAIM_DOCUMENT_INPUTS} here.`}
          </small>
          <Fields fields={DOCUMENT_FIELDS} values={{}} problem={props.problem} />
        </fieldset>
        <Fields fields={[REFERENCE_FIELD]} values={props.values} problem={props.problem} />
        <button type="submit">Submit the claim</button>
      </HxForm>
    </FormSection>
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
  /** The policy's number, once approved (its page is linked by it). */
  policyNo: string | null;
  policyHref: string;
  productName: string;
  /** The insured: their name, their phone and their page. */
  insured?: { name: string; phone?: string; href: string };
  /** What the product keeps back of each approved claim, in percent; null where it keeps no excess. */
  excessPercent: number | null;
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
  /** The clock: each deadline still running, or when it was settled. */
  deadlines: ClaimDeadlineView[];
  /** The documents the claim's product needs, and whether the assessor has seen each. */
  documentsNeeded: { label: string; checked: boolean }[];
  createdAt: Date;
  updatedAt: Date;
  documents: ClaimDocumentView[];
  history: ClaimStepView[];
  /** What the fraud rules flagged: the operator's page only. */
  signals?: ClaimSignalsView;
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
  /** What the last change did that did not go as asked (the bank refused a payout): shown as a notice, not a success. */
  notice?: string;
  /** A decision that settles money, asked before it is made: shown in place of the decision form. */
  ask?: ConfirmStepProps;
}

const sizeText = (bytes: number) =>
  bytes < 1024 ? `${bytes} bytes` : bytes < 1_048_576 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1_048_576).toFixed(1)} MB`;

/** The partner's withdraw form: only while the claim may still be withdrawn. */
function WithdrawForm(props: { action: string; csrf: string; state: ClaimActionState }) {
  return (
    <HxForm action={props.action} target="#claim" csrf={props.csrf} class="card">
      <h2>Withdraw this claim</h2>
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
    </HxForm>
  );
}

/** The partner's answer to a request for information: what was asked, in words and documents. */
function RespondForm(props: { action: string; csrf: string; question: string | null; state: ClaimActionState }) {
  const fields: FieldSpec[] = [
    // Not "note": the withdraw form beside it has one.
    { name: "answer", label: "Your answer", kind: "textarea", required: true, hint: "What you send, up to 2,000 characters." },
    ...DOCUMENT_FIELDS.slice(0, 3),
  ];
  return (
    <HxForm action={props.action} target="#claim" csrf={props.csrf} class="card" files>
      <h2>Send the information asked for</h2>
      {props.question ? <p class="notice" safe>{`The insurer asks: ${props.question}`}</p> : ""}
      <ProblemSummary problem={props.state.problem} inputs={namesOf(fields)} />
      <Fields fields={fields} values={props.state.values} problem={props.state.problem} />
      <button type="submit">Send the information</button>
    </HxForm>
  );
}

/** The operator's assessment: the assessor, the reserve with its reason and history, the checklist. */
export interface ClaimAssessmentView {
  action: string;
  assessors: readonly { value: string; label: string }[];
  assessor: string | null;
  reserveKobo: number;
  reserves: readonly { amountKobo: number; reason: string; by: string; at: Date }[];
  checklist: readonly { key: string; label: string; kind: "document" | "check"; checked: { by: string; at: Date } | null }[];
  /** Open while the claim is undecided; afterwards shown, not changed. */
  open: boolean;
}

function AssessmentCard(props: { assessment: ClaimAssessmentView; csrf: string; state: ClaimActionState }) {
  const a = props.assessment;
  const values = props.state.values;
  const item = (i: ClaimAssessmentView["checklist"][number]) => (
    <li>
      <label>
        <input type="checkbox" name="check" value={i.key} checked={!!i.checked} disabled={!a.open} /> <span safe>{i.label}</span>
      </label>
      {i.checked ? <span class="muted" safe>{` (ticked by ${i.checked.by}, ${dateTime(i.checked.at)})`}</span> : ""}
    </li>
  );
  const reserves = (
    <Table columns={["When", { label: "Reserve", numeric: true }, "Why", "By"]} caption="The reserve over time" showCaption>
      {a.reserves.map((r) => (
        <tr>
          <td safe>{dateTime(r.at)}</td>
          <td class="num" safe>
            {naira(r.amountKobo)}
          </td>
          <td safe>{r.reason}</td>
          <td safe>{r.by}</td>
        </tr>
      ))}
    </Table>
  );
  const checklist = (
    <>
      <h3>The documents the product needs</h3>
      <ul class="checklist">{a.checklist.filter((i) => i.kind === "document").map(item)}</ul>
      <h3>Checks</h3>
      <ul class="checklist">{a.checklist.filter((i) => i.kind === "check").map(item)}</ul>
    </>
  );
  if (!a.open)
    return (
      <div class="card">
        <h2>Assessment</h2>
        <p safe>{`Assessor: ${a.assessor ?? "none was assigned"}. The assessment closed with the decision.`}</p>
        {checklist}
        {reserves}
      </div>
    );
  return (
    <HxForm action={a.action} target="#claim" csrf={props.csrf} class="card">
      <h2>Assessment</h2>
      <ProblemSummary problem={props.state.problem} inputs={["assessor", "reserve", "reserveReason", "check"]} />
      <Input
        name="assessor"
        label="Assessor"
        kind="select"
        options={a.assessors}
        value={values.assessor ?? a.assessor ?? undefined}
        emptyChoice="Not assigned"
        problem={props.state.problem}
      />
      <Input
        name="reserve"
        label="Reserve in naira (the expected cost)"
        kind="number"
        value={values.reserve}
        hint={`Now ${naira(a.reserveKobo)}. Leave blank to keep it; a new reserve needs its reason.`}
        problem={props.state.problem}
      />
      <Input name="reserveReason" label="Why the reserve changes" value={values.reserveReason} problem={props.state.problem} />
      {checklist}
      <button type="submit">Save the assessment</button>
      {reserves}
    </HxForm>
  );
}

/** The operator's decision form: one button per move the state machine allows from here, and what approving moves besides the claim. */
function ReviewForm(props: {
  action: string;
  csrf: string;
  moves: ClaimMove[];
  state: ClaimActionState;
  claimedKobo: number;
  excessPercent: number | null;
  approvalTakes?: string;
  rejectionReasons: readonly { value: string; label: string }[];
}) {
  const approving = props.moves.some((m) => m.status === "approved");
  const rejecting = props.moves.some((m) => m.status === "rejected");
  const fields: FieldSpec[] = [
    ...(approving
      ? [
          {
            name: "approvedAmount",
            label: "Approved amount in naira",
            kind: "number" as const,
            hint: `Only to approve; leave blank to approve the amount claimed (${naira(props.claimedKobo)}).${props.excessPercent === null ? "" : ` The excess (${props.excessPercent}%) is worked out from it.`}`,
          },
        ]
      : []),
    ...(rejecting
      ? [
          {
            name: "rejectionReason",
            label: "Reason for a rejection",
            kind: "select" as const,
            options: props.rejectionReasons,
            emptyChoice: "Choose a reason to reject",
            hint: "Only to reject: the partner and the rejection letter state it.",
          },
        ]
      : []),
    {
      name: "note",
      label: rejecting ? "Note (required to ask for information, or to reject for another reason)" : "Note (optional)",
      kind: "textarea",
      hint: "Shown to the partner with the new status, up to 500 characters: to ask for information, what the partner must send; to reject, the particulars.",
    },
  ];
  return (
    <HxForm action={props.action} target="#claim" csrf={props.csrf} class="card">
      <h2>Decide</h2>
      <ProblemSummary problem={props.state.problem} inputs={namesOf(fields)} />
      <Fields fields={fields} values={props.state.values} problem={props.state.problem} />
      {approving && props.approvalTakes ? (
        <p class="notice" safe>
          {props.approvalTakes}
        </p>
      ) : (
        ""
      )}
      <p>
        {props.moves.map((m) => (
          <>
            <button type="submit" name="status" value={m.status} class={m.danger ? "danger" : undefined} safe>
              {m.label}
            </button>{" "}
          </>
        ))}
      </p>
    </HxForm>
  );
}

/** An amount that is set when the claim is approved: a dash until then. */
const onApproval = (approved: boolean, kobo: number | null) => (approved ? naira(kobo ?? 0) : "—");

/** What is settled on approval, said while the claim waits: the excess only where the product keeps one. */
const settledOnApproval = (excessPercent: number | null) =>
  excessPercent === null
    ? "The approved amount is set when the claim is approved; this product keeps no excess, so all of it is payable."
    : `The approved amount, the excess (${excessPercent}% of it) and what is payable are set when the claim is approved.`;

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
  /** The partner's answer form, while the insurer waits for information. */
  respondAction?: string;
  /** The operator's assessment card. */
  assessment?: ClaimAssessmentView;
  /** The operator's decision form with the moves left (none: a final status), and what approving takes back from the partner's wallet. */
  review?: { action: string; moves: ClaimMove[]; approvalTakes?: string; rejectionReasons: readonly { value: string; label: string }[] };
  /** A decision waiting for a second administrator: shown in place of the decision form. */
  recommendation?: RecommendationView;
  /** How the claim is paid (the account, the voucher, the payout) or its rejection letter, with the viewer's next step. */
  settlement?: SettlementView;
  /** The page the viewer came from (the list). */
  backHref: string;
}) {
  const c = props.claim;
  const state = props.state ?? { values: {} };
  const approved = c.approvedKobo !== null;
  const settlementForm = !!props.settlement?.payeeForm || !!props.settlement?.accept;
  const formShown =
    !!props.withdrawAction || !!props.respondAction || !!props.review?.moves.length || !!props.assessment?.open || !!props.recommendation || settlementForm;
  return (
    <section id="claim" aria-labelledby="claim-title">
      <RecordHeading backHref={props.backHref} back="← All claims" id="claim-title" title="Claim" number={c.claimNo} />
      {state.done ? <Announce tone="success" text={state.done} /> : ""}
      {state.notice ? <Announce tone="notice" text={state.notice} /> : ""}
      {formShown ? "" : <ProblemSummary problem={state.problem} />}
      {c.mode === "test" ? <p class="notice">Test mode: a sandbox claim on a specimen policy. The sandbox bank answers its payout; no money moves.</p> : ""}
      <StatusCard badge={<ClaimBadge status={c.status} />} since={`since ${dateTime(c.updatedAt)}`} note={c.statusNote} />
      <Details
        rows={[
          c.partnerName !== undefined && ["Partner", c.partnerName],
          !!c.insured && {
            label: "Insured",
            html: (
              <a href={c.insured.href} safe>
                {c.insured.name}
              </a>
            ),
          },
          !!c.insured?.phone && {
            label: "Phone",
            html: (
              <a href={`tel:${c.insured.phone}`} safe>
                {c.insured.phone}
              </a>
            ),
          },
          {
            label: c.policyNo ? "Policy number" : "Policy",
            html: (
              <>
                <a href={c.policyHref} safe>
                  {c.policyNo ?? c.policy}
                </a>{" "}
                <span class="muted" safe>
                  {c.productName}
                </span>
              </>
            ),
          },
          !!c.policyNo && ["Policy reference", c.policy],
          c.reference ? [c.partnerName === undefined ? "Your reference" : "The partner's reference", c.reference] : false,
          ["Incident", day(c.incidentDate)],
          ["What happened", c.description],
          ["Submitted", dateTime(c.createdAt)],
          ...c.deadlines.map((d) => ({ label: d.label, html: <Badge tone={d.tone} text={d.text} /> })),
        ]}
      />
      {c.signals ? <SignalsCard signals={c.signals} /> : ""}
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
            <td class="num" safe>
              {onApproval(approved, c.approvedKobo)}
            </td>
          </tr>
          {c.excessPercent !== null || c.excessKobo ? (
            <tr>
              <th scope="row" safe>
                {c.excessPercent === null ? "Excess" : `Excess (${c.excessPercent}%)`}
              </th>
              <td class="num" safe>
                {onApproval(approved, c.excessKobo)}
              </td>
            </tr>
          ) : (
            ""
          )}
          <tr>
            <th scope="row">Payable</th>
            <td class="num">
              <strong safe>{onApproval(approved, c.payableKobo)}</strong>
            </td>
          </tr>
        </tbody>
      </table>
      {approved || !["submitted", "in_review", "info_requested"].includes(c.status) ? (
        ""
      ) : (
        <p class="hint" safe>
          {settledOnApproval(c.excessPercent)}
        </p>
      )}
      {props.settlement ? (
        // The partner's step before recording an acceptance takes the card's place (the operator's take the decision form's).
        state.ask && !props.review ? (
          <ConfirmStep {...state.ask} />
        ) : (
          <SettlementCard view={props.settlement} csrf={props.csrf} values={state.values} problem={state.problem} />
        )
      ) : (
        ""
      )}
      {props.assessment ? (
        ""
      ) : (
        <>
          <h2>What the insurer needs</h2>
          <ul class="checklist">
            {c.documentsNeeded.map((d) => (
              <li safe>{`${d.label}: ${d.checked ? "seen by the insurer" : "not seen yet"}`}</li>
            ))}
          </ul>
        </>
      )}
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
            {step.note ? <p safe>{noteText(step.note)}</p> : ""}
          </li>
        ))}
      </ol>
      {props.respondAction ? <RespondForm action={props.respondAction} csrf={props.csrf} question={c.statusNote} state={state} /> : ""}
      {props.withdrawAction ? <WithdrawForm action={props.withdrawAction} csrf={props.csrf} state={state} /> : ""}
      {props.assessment ? <AssessmentCard assessment={props.assessment} csrf={props.csrf} state={state} /> : ""}
      {props.review ? (
        state.ask ? (
          <ConfirmStep {...state.ask} />
        ) : props.recommendation ? (
          <RecommendationCard view={props.recommendation} csrf={props.csrf} values={state.values} problem={state.problem} />
        ) : props.review.moves.length ? (
          <ReviewForm
            action={props.review.action}
            csrf={props.csrf}
            moves={props.review.moves}
            state={state}
            claimedKobo={c.claimedKobo}
            excessPercent={c.excessPercent}
            approvalTakes={props.review.approvalTakes}
            rejectionReasons={props.review.rejectionReasons}
          />
        ) : props.claim.status === "approved" ? (
          ""
        ) : (
          <p class="muted">This claim is in a final status: nothing more can change.</p>
        )
      ) : (
        ""
      )}
    </section>
  );
}
