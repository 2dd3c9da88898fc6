import { dateTime, naira } from "../format";
import { ConfirmStep, type ConfirmStepProps } from "../portal/confirm";
import { Badge, type FormProblem, type FormValues, HxForm, Input, ProblemSummary, Table } from "../portal/ui";
import { type FieldSpec, Fields } from "../shared-forms/record";

type FundingStatus = "pending" | "credited" | "held" | "failed" | "expired";

/** How to pay a pending funding, as the partner reads it. */
export interface PaymentToMake {
  reference: string;
  amountKobo: number;
  bank: string;
  accountNumber: string;
  accountName: string;
  expiresAt: Date;
  /** The sandbox's "pay now" (sandbox provider only). */
  payHref: string | null;
}

/** One step of a funding's history: asked for, confirmed, approved, credited, rejected, expired. */
export interface TrailStep {
  at: Date;
  text: string;
}

/** One funding in the partner's list. */
export interface FundingRow {
  reference: string;
  amountKobo: number;
  status: FundingStatus;
  note: string | null;
  createdAt: Date;
  expiresAt: Date;
  payHref: string | null;
  /** Its history, oldest first: who confirmed and who approved, and when. */
  trail: TrailStep[];
}

/** Which fundings a list shows (src/modules/funding/lists.ts FUNDING_SHOWS), in words. */
const SHOW_TEXT = {
  open: "Open: waiting for money or a decision",
  all: "All fundings",
  credited: "Credited",
  rejected: "Rejected or failed",
  expired: "Expired",
} as const;
type Show = keyof typeof SHOW_TEXT;

/** The "Show" filter: its empty choice is the list's default (open for the operator, all for a partner), never offered twice. */
const showField = (fallback: Show): FieldSpec => ({
  name: "show",
  label: "Show",
  kind: "select",
  emptyChoice: SHOW_TEXT[fallback],
  options: (Object.keys(SHOW_TEXT) as Show[]).filter((show) => show !== fallback).map((show) => ({ value: show, label: SHOW_TEXT[show] })),
});

/** A funding's history, folded away under its step count: when each step happened and who made it. */
function FundingTrail(props: { steps: TrailStep[] }) {
  return (
    <details class="trail">
      <summary safe>{`History (${props.steps.length} ${props.steps.length === 1 ? "step" : "steps"})`}</summary>
      <ol>
        {props.steps.map((step) => (
          <li>
            <span class="muted" safe>{`${dateTime(step.at)}: `}</span>
            <span safe>{step.text}</span>
          </li>
        ))}
      </ol>
    </details>
  );
}

const STATUS_TEXT: Record<FundingStatus, string> = {
  pending: "Waiting for payment",
  credited: "Credited",
  held: "Held for review",
  failed: "Failed",
  expired: "Expired",
};

const TONE: Record<FundingStatus, "ok" | "wait" | "bad" | "info"> = { pending: "wait", credited: "ok", held: "info", failed: "bad", expired: "bad" };

/** The sandbox's pay button: sends the provider's signed callback through the real path. */
function SandboxPay(props: { href: string; csrf: string }) {
  return (
    <HxForm action={props.href} target="#wallet" csrf={props.csrf} class="inline">
      <button type="submit" class="secondary">
        Pay now (sandbox)
      </button>
    </HxForm>
  );
}

/** A pending funding's instruction: transfer exactly this amount to this account before it expires. */
export function HowToPay(props: { payment: PaymentToMake; csrf: string; repeat?: boolean }) {
  const p = props.payment;
  return (
    <div class="notice" role="status" aria-live="polite" id="how-to-pay">
      <p safe>
        {props.repeat
          ? `Reference ${p.reference} is already waiting for its payment. Pay it as below.`
          : `Top-up ${p.reference} is waiting for your transfer. The wallet is credited when the money arrives.`}
      </p>
      <dl class="facts">
        <dt>Bank</dt>
        <dd safe>{p.bank}</dd>
        <dt>Account number</dt>
        <dd safe>{p.accountNumber}</dd>
        <dt>Account name</dt>
        <dd safe>{p.accountName}</dd>
        <dt>Amount to transfer</dt>
        <dd safe>{naira(p.amountKobo)}</dd>
        <dt>Reference</dt>
        <dd safe>{p.reference}</dd>
        <dt>Pay before</dt>
        <dd safe>{dateTime(p.expiresAt)}</dd>
      </dl>
      {p.payHref ? <SandboxPay href={p.payHref} csrf={props.csrf} /> : ""}
    </div>
  );
}

/** The partner's live top-ups with their status and history in words, all of them or those the filter shows. */
export function FundingList(props: {
  rows: FundingRow[];
  csrf: string;
  show?: string;
  /** Where the kind-of-top-up filter sends its choice (the partner's wallet); none: no filter (the newest few, elsewhere). */
  filterAction?: string;
  heading?: string;
  /** The next page of older top-ups, when there are more. */
  olderHref?: string | null;
}) {
  return (
    <>
      <h2 id="fundings" safe>
        {props.heading ?? "Live top-ups"}
      </h2>
      {props.filterAction ? (
        <form class="filters" method="get" action={props.filterAction} role="search" aria-label="Live top-ups">
          <Fields fields={[showField("all")]} values={{ show: props.show }} />
          <button type="submit" class="secondary">
            Show
          </button>
        </form>
      ) : (
        ""
      )}
      <Table
        columns={["Requested", "Reference", { label: "Amount", numeric: true }, "Status", "Pay before", ""]}
        count={props.rows.length}
        empty={props.show ? "No live top-ups of this kind." : "No live top-ups yet."}
        caption="Live top-ups, newest first"
        bodyId="funding-rows"
      >
        {props.rows.map((row) => (
          <tr>
            <td safe>{dateTime(row.createdAt)}</td>
            <td safe>{row.reference}</td>
            <td class="num" safe>
              {naira(row.amountKobo)}
            </td>
            <td>
              <Badge tone={TONE[row.status]} text={STATUS_TEXT[row.status]} />
              {row.note ? (
                <span class="muted" safe>
                  {` ${row.note}`}
                </span>
              ) : (
                ""
              )}
              <FundingTrail steps={row.trail} />
            </td>
            <td>{row.status === "pending" ? dateTime(row.expiresAt) : "—"}</td>
            <td>{row.payHref ? <SandboxPay href={row.payHref} csrf={props.csrf} /> : ""}</td>
          </tr>
        ))}
      </Table>
      {props.olderHref ? (
        <p>
          <a class="button secondary" href={props.olderHref}>
            Older top-ups
          </a>
        </p>
      ) : (
        ""
      )}
    </>
  );
}

// ---- The operator's page ----

/** A funding waiting for the operator: pending (confirm a transfer by hand) or held (decide). */
export interface OperatorFundingRow {
  id: string;
  partnerName: string;
  reference: string;
  amountKobo: number;
  receivedKobo: number | null;
  status: FundingStatus;
  note: string | null;
  createdAt: Date;
  expiresAt: Date;
  /** Its history, oldest first: the four-eyes trail. */
  trail: TrailStep[];
  /** A confirmation waiting for a second administrator: of a bank transfer (with the bank's reference), or of a held funding's credit. */
  awaiting: { id: string; kind: "transfer" | "held_credit"; bankReference: string | null; amountKobo: number; requestedBy: string; mine: boolean } | null;
}

/** What the last action on the page did, or why it was refused (shown on the funding it was about). */
export interface FundingActionState {
  fundingId?: string;
  values: FormValues;
  problem?: FormProblem;
  done?: string;
  /** The confirmation asked before a credit by hand, on the funding's card in place of its actions. */
  ask?: ConfirmStepProps;
}

export interface OperatorFundingsProps {
  rows: OperatorFundingRow[];
  /** The filters as typed (show, partner, reference) and the partners to choose from. */
  filters: { values: FormValues; partners: { value: string; label: string }[] };
  /** The next page of a history (newest first); none for the open fundings, all on one page. */
  olderHref: string | null;
  /** The funding whose confirmation form is open (one form on the page at a time). */
  confirming?: string;
  fourEyesKobo: number;
  csrf: string;
  state: FundingActionState;
}

function ConfirmForm(props: { row: OperatorFundingRow; csrf: string; state: FundingActionState; fourEyesKobo: number }) {
  const mine = props.state.fundingId === props.row.id;
  const values = mine ? props.state.values : {};
  const problem = mine ? props.state.problem : undefined;
  return (
    <HxForm action={`/admin/fundings/${props.row.id}/confirm`} target="#fundings" csrf={props.csrf}>
      <ProblemSummary problem={problem} inputs={["bankReference", "amount"]} />
      <Input name="bankReference" label="Bank reference" required value={values.bankReference} problem={problem} hint="The reference on the bank statement." />
      <Input
        name="amount"
        label="Amount received in naira"
        kind="number"
        required
        value={values.amount}
        problem={problem}
        hint={`What you confirm or credit on one funding adds up: from ${naira(props.fourEyesKobo)} in all, a second administrator must approve.`}
      />
      <button type="submit">Confirm a bank transfer</button>
    </HxForm>
  );
}

function Decision(props: { action: string; label: string; csrf: string; secondary?: boolean; confirm?: string }) {
  return (
    <HxForm action={props.action} target="#fundings" csrf={props.csrf} class="inline" confirm={props.confirm}>
      <button type="submit" class={props.secondary ? "secondary" : undefined} safe>
        {props.label}
      </button>
    </HxForm>
  );
}

/** A confirmation waiting for a second administrator, in words, with its decisions (only another administrator may approve). */
function Awaiting(props: { awaiting: NonNullable<OperatorFundingRow["awaiting"]>; csrf: string }) {
  const a = props.awaiting;
  const what =
    a.kind === "transfer"
      ? `Confirmation by ${a.requestedBy}: bank reference ${a.bankReference}, ${naira(a.amountKobo)}. `
      : `Credit of the ${naira(a.amountKobo)} received, asked by ${a.requestedBy}. `;
  return (
    <div>
      <p safe>{what + (a.mine ? "Another administrator must approve it." : "Waiting for your approval.")}</p>
      <p>
        {a.mine ? "" : <Decision action={`/admin/fundings/confirmations/${a.id}/approve`} label={`Approve ${naira(a.amountKobo)}`} csrf={props.csrf} />}{" "}
        <Decision action={`/admin/fundings/confirmations/${a.id}/reject`} label="Reject the confirmation" csrf={props.csrf} secondary />
      </p>
    </div>
  );
}

function OperatorFunding(props: {
  row: OperatorFundingRow;
  csrf: string;
  state: FundingActionState;
  fourEyesKobo: number;
  confirming?: string;
  /** The list's filters, kept by the link that opens the confirmation form. */
  filters: FormValues;
}) {
  const r = props.row;
  const about = props.state.fundingId === r.id;
  const confirming = r.status !== "held" && !r.awaiting && (props.confirming === r.id || about);
  // A refusal the form does not show (it is not open, or the refusal is about the funding) stands on the card.
  const problem = about && !confirming ? props.state.problem : undefined;
  const open = r.status === "pending" || r.status === "held" || r.status === "expired";
  return (
    <article class="card" id={`funding-${r.id}`}>
      <h2 safe>{`${r.partnerName}: ${r.reference}`}</h2>
      <p>
        <Badge tone={TONE[r.status]} text={STATUS_TEXT[r.status]} /> <span safe>{`${naira(r.amountKobo)} asked on ${dateTime(r.createdAt)}`}</span>
        {r.status === "pending" ? <span safe>{`; pay before ${dateTime(r.expiresAt)}`}</span> : ""}
      </p>
      {r.note ? <p safe>{r.note}</p> : ""}
      <FundingTrail steps={r.trail} />
      <ProblemSummary problem={problem} />
      {about && props.state.ask ? (
        <ConfirmStep {...props.state.ask} />
      ) : !open && !r.awaiting ? (
        ""
      ) : r.awaiting ? (
        <Awaiting awaiting={r.awaiting} csrf={props.csrf} />
      ) : r.status === "held" ? (
        <p>
          <Decision action={`/admin/fundings/${r.id}/credit-held`} label={`Credit ${naira(r.receivedKobo ?? 0)} received`} csrf={props.csrf} />{" "}
          <Decision
            action={`/admin/fundings/${r.id}/reject-held`}
            label="Reject"
            csrf={props.csrf}
            secondary
            confirm="Reject this funding? Nothing is credited; the money goes back to the partner outside the service."
          />
        </p>
      ) : confirming ? (
        <ConfirmForm row={r} csrf={props.csrf} state={props.state} fourEyesKobo={props.fourEyesKobo} />
      ) : (
        <p>
          <a class="button secondary" href={`/admin/fundings?${new URLSearchParams({ ...definedOf(props.filters), confirm: r.id })}#funding-${r.id}`}>
            Confirm a bank transfer
          </a>
        </p>
      )}
    </article>
  );
}

const definedOf = (values: FormValues) => Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => Boolean(entry[1])));

const operatorFilters = (partners: { value: string; label: string }[]): FieldSpec[] => [
  showField("open"),
  { name: "partner", label: "Partner", kind: "select", emptyChoice: "Any", options: partners },
  { name: "reference", label: "Reference", hint: "The partner's top-up reference, as they gave it." },
];

/** The operator's fundings page: the open fundings of every partner, oldest first (the work), or a history newest first, each with its trail. */
export function OperatorFundingsPage(props: OperatorFundingsProps) {
  const values = props.filters.values;
  return (
    <section id="fundings">
      <h1>Wallet fundings</h1>
      <p class="muted">
        Live top-ups waiting for money or held because a different amount arrived. Confirm a bank transfer by hand with the bank's reference, or credit what a
        held top-up received. Four eyes: what one administrator confirms or credits on a funding adds up, and from <span safe>{naira(props.fourEyesKobo)}</span>{" "}
        in all a second administrator must approve. Only one confirmation waits per funding; approve or reject it before anything else is done with that
        funding.
      </p>
      {props.state.done ? (
        <p class="success" role="status" aria-live="polite" safe>
          {props.state.done}
        </p>
      ) : (
        ""
      )}
      {props.state.problem && !props.state.fundingId ? <ProblemSummary problem={props.state.problem} /> : ""}
      {/* A confirmation about a funding the list does not show (past its first rows) stands on its own. */}
      {props.state.ask && !props.rows.some((row) => row.id === props.state.fundingId) ? <ConfirmStep {...props.state.ask} /> : ""}
      <form class="filters" method="get" action="/admin/fundings" role="search">
        <Fields fields={operatorFilters(props.filters.partners)} values={values} />
        <button type="submit">Filter</button>
      </form>
      {props.rows.length === 0 ? (
        <p class="empty">{Object.values(values).some(Boolean) ? "No fundings match these filters." : "No fundings wait for the operator."}</p>
      ) : (
        ""
      )}
      {props.rows.map((row) => (
        <OperatorFunding row={row} csrf={props.csrf} state={props.state} fourEyesKobo={props.fourEyesKobo} confirming={props.confirming} filters={values} />
      ))}
      {props.olderHref ? (
        <p>
          <a class="button secondary" href={props.olderHref}>
            Older fundings
          </a>
        </p>
      ) : (
        ""
      )}
    </section>
  );
}
