import { dateTime, day, naira, noteText } from "../format";
import { ListRows, ListSection } from "../portal/list-section";
import { Badge, type Column, type FormProblem, type FormValues, HxForm, ProblemSummary, Table } from "../portal/ui";
import {
  Announce,
  Details,
  type FieldSpec,
  Fields,
  FormSection,
  LinkCell,
  MoneyCell,
  namesOf,
  optionsOf,
  partnerFilterField,
  RecordHeading,
  StatusCard,
  statusField,
} from "../shared-forms/record";

export const PLAN_STATUS_TEXT: Record<string, string> = { active: "Active", completed: "Completed", lapsed: "Lapsed", cancelled: "Cancelled" };
const FREQUENCY_TEXT: Record<string, string> = { weekly: "Weekly", biweekly: "Every two weeks", monthly: "Monthly" };

const planTone = (status: string) => (status === "completed" ? "ok" : status === "active" ? "info" : "bad");
const PlanBadge = (props: { status: string }) => <Badge tone={planTone(props.status)} text={PLAN_STATUS_TEXT[props.status] ?? props.status} />;

export interface PlanRow {
  planNo: string;
  /** Where the plan number links to. */
  href: string;
  policy: string;
  /** Set on the administrators' list. */
  partnerName?: string;
  status: string;
  premiumKobo: number;
  financedKobo: number;
  outstandingKobo: number;
  nextDueDate: string | null;
  createdAt: Date;
}

const planColumns = (withPartner?: boolean): Column[] => [
  "Plan",
  withPartner && "Partner",
  "Policy",
  "Status",
  { label: "Premium", numeric: true },
  { label: "Financed", numeric: true },
  { label: "Outstanding", numeric: true },
  "Next due",
  "Created",
];

/** The rows of a plan list (also what "Show more" swaps in). */
export function PlanRows(props: { rows: PlanRow[]; more: string | null; withPartner?: boolean }) {
  return (
    <ListRows columns={planColumns(props.withPartner)} more={props.more}>
      {props.rows.map((p) => (
        <tr>
          <LinkCell href={p.href} text={p.planNo} />
          {props.withPartner ? <td safe>{p.partnerName ?? ""}</td> : ""}
          <td safe>{p.policy}</td>
          <td>
            <PlanBadge status={p.status} />
          </td>
          <MoneyCell kobo={p.premiumKobo} />
          <MoneyCell kobo={p.financedKobo} />
          <MoneyCell kobo={p.outstandingKobo} />
          <td>{p.status === "active" ? day(p.nextDueDate) : "—"}</td>
          <td safe>{dateTime(p.createdAt)}</td>
        </tr>
      ))}
    </ListRows>
  );
}

const PLAN_FILTERS = [statusField(PLAN_STATUS_TEXT)];

/** A list of plans with its status filter (and, for the operator, the lapse run above it). */
export function PlanList(props: {
  title: string;
  action: string;
  /** A page of plans as the presenter gives it: the rows, the "more" link, the status filter and a refused page. */
  list: { rows: PlanRow[]; more: string | null; values: { status?: string; partner?: string }; problem?: FormProblem };
  /** The operator's list of every partner's plans: each row names its partner, and a Partner filter chooses one. */
  partners?: readonly { value: string; label: string }[];
  intro?: string;
  /** The operator's "Run lapse now" card, shown above the list. */
  lapse?: { csrf: string; state: LapseRunState; today: string };
  /** The same list as CSV. */
  exportHref: string;
}) {
  const { rows, values, problem } = props.list;
  return (
    <ListSection
      heading={
        <>
          <h1 safe>{props.title}</h1>
          {props.intro ? (
            <p class="muted" safe>
              {props.intro}
            </p>
          ) : (
            ""
          )}
          {props.lapse ? (
            <>
              <LapseRun csrf={props.lapse.csrf} state={props.lapse.state} today={props.lapse.today} />
              <h2>Plans</h2>
            </>
          ) : (
            ""
          )}
        </>
      }
      action={props.action}
      filters={props.partners ? [partnerFilterField(props.partners), ...PLAN_FILTERS] : PLAN_FILTERS}
      values={{ status: values.status, partner: values.partner }}
      problem={problem}
      exportHref={props.exportHref}
      columns={planColumns(!!props.partners)}
      count={rows.length}
      empty="No financing plans yet. Finance a policy's premium from the policy's page."
      emptyFiltered="No plans match these filters."
      caption="Financing plans, newest first"
    >
      <PlanRows rows={rows} more={props.list.more} withPartner={!!props.partners} />
    </ListSection>
  );
}

/** The policy being financed, when the reference is one of the partner's policies. */
export interface FinancePolicySummary {
  reference: string;
  productName: string;
  premiumKobo: number;
  coverLastDay: string;
}

const financeFields = (defaultGraceDays: number, latestFirstDue: string): FieldSpec[] => [
  {
    name: "policy",
    label: "Policy reference",
    required: true,
    hint: "The transaction reference the policy was issued with; approved or pending policies only.",
  },
  { name: "downPayment", label: "Down payment in naira", kind: "number", required: true, hint: "Paid now, less than the premium; 0 for none." },
  { name: "installments", label: "Number of installments", kind: "integer", required: true, hint: "2 to 12." },
  { name: "frequency", label: "Frequency", kind: "select", required: true, options: optionsOf(FREQUENCY_TEXT) },
  { name: "firstDueDate", label: "First installment due", kind: "date", required: true, hint: `From today up to ${day(latestFirstDue)}.` },
  {
    name: "graceDays",
    label: "Grace days",
    kind: "integer",
    hint: `Days after a due date before a missed installment lapses the plan and the policy: 0 to 30; ${defaultGraceDays} when left blank.`,
  },
];

/** Finance a policy's premium: the terms of the plan. */
export function FinanceForm(props: {
  values: FormValues;
  problem?: FormProblem;
  csrf: string;
  policy?: FinancePolicySummary;
  defaultGraceDays: number;
  latestFirstDue: string;
}) {
  const p = props.policy;
  const fields = financeFields(props.defaultGraceDays, props.latestFirstDue);
  return (
    <FormSection
      id="finance-form"
      title="Finance a premium"
      summary={
        p
          ? `${p.productName}, policy ${p.reference}: premium ${naira(p.premiumKobo)}, cover to ${day(p.coverLastDay)}. Installments must fall due within the cover.`
          : undefined
      }
      problem={props.problem}
      inputs={namesOf(fields)}
    >
      <HxForm action="/portal/financing" target="#finance-form" csrf={props.csrf}>
        <Fields fields={fields} values={props.values} problem={props.problem} />
        <button type="submit">Create the plan</button>
      </HxForm>
    </FormSection>
  );
}

interface InstallmentView {
  number: number;
  dueDate: string;
  amountKobo: number;
  paidKobo: number;
  paidAt: Date | null;
}

interface PaymentView {
  reference: string;
  amountKobo: number;
  paidOn: string;
  createdAt: Date;
}

export interface PlanView {
  planNo: string;
  /** The insured consumer (absent only if their record is gone). */
  consumer?: { name: string; href: string };
  policy: string;
  policyHref: string;
  /** Set on the administrators' pages. */
  partnerName?: string;
  status: string;
  statusNote: string | null;
  premiumKobo: number;
  downPaymentKobo: number;
  financedKobo: number;
  paidKobo: number;
  outstandingKobo: number;
  installmentCount: number;
  frequency: string;
  graceDays: number;
  nextDueDate: string | null;
  createdAt: Date;
  closedAt: Date | null;
  installments: InstallmentView[];
  payments: PaymentView[];
  /** Today in Nigeria (YYYY-MM-DD): unpaid installments due before it are overdue. */
  today: string;
}

/** What the last payment did: a new one, or the first result of a reference used before. */
interface PaymentOutcome {
  applied: boolean;
  reference: string;
  amountKobo: number;
  paidOn: string;
  outstandingAfterKobo: number;
  nextDueDateAfter: string | null;
  recordedAt: Date;
}

export interface PaymentFormState {
  values: FormValues;
  problem?: FormProblem;
  outcome?: PaymentOutcome;
}

function installmentState(i: InstallmentView, today: string): JSX.Element {
  if (i.paidKobo >= i.amountKobo) return <Badge tone="ok" text={`Paid ${day(i.paidAt)}`} />;
  const overdue = i.dueDate < today;
  if (i.paidKobo > 0)
    return <Badge tone={overdue ? "bad" : "wait"} text={`Part paid: ${naira(i.amountKobo - i.paidKobo)} to pay${overdue ? ", overdue" : ""}`} />;
  return overdue ? <Badge tone="bad" text="Overdue" /> : <Badge tone="info" text="Unpaid" />;
}

function PaymentResult(props: { outcome: PaymentOutcome }) {
  const o = props.outcome;
  const after =
    o.outstandingAfterKobo === 0
      ? "nothing is outstanding: the plan is completed"
      : `${naira(o.outstandingAfterKobo)} outstanding, next installment due ${day(o.nextDueDateAfter)}`;
  if (o.applied) return <Announce tone="success" text={`Recorded ${naira(o.amountKobo)} with reference ${o.reference}, paid ${day(o.paidOn)}: ${after}.`} />;
  const first = `Reference ${o.reference} was already recorded on ${dateTime(o.recordedAt)} for ${naira(o.amountKobo)}`;
  return <Announce tone="notice" text={`${first}: nothing new was recorded. That first result was: ${after}.`} />;
}

const PAYMENT_FIELDS: FieldSpec[] = [
  {
    name: "amount",
    label: "Amount in naira",
    kind: "number",
    required: true,
    hint: "Goes to the oldest unpaid installments first; part payments are fine, more than the outstanding amount is not.",
  },
  {
    name: "reference",
    label: "Payment reference",
    required: true,
    hint: "Your receipt's reference: 1–64 letters, digits, dots, hyphens or underscores. Recording a reference again never counts it twice.",
  },
  { name: "paidAt", label: "Paid on", kind: "date", hint: "The day the consumer paid; today when left blank." },
];

function PaymentForm(props: { action: string; csrf: string; state: PaymentFormState }) {
  const { values, problem } = props.state;
  return (
    <div class="card">
      <h2>Record an installment</h2>
      <ProblemSummary problem={problem} inputs={namesOf(PAYMENT_FIELDS)} />
      <HxForm action={props.action} target="#plan" csrf={props.csrf}>
        <Fields fields={PAYMENT_FIELDS} values={values} problem={problem} />
        <button type="submit">Record the payment</button>
      </HxForm>
    </div>
  );
}

const termsText = (p: PlanView) =>
  `${p.installmentCount} installments, ${(FREQUENCY_TEXT[p.frequency] ?? p.frequency).toLowerCase()}; ${p.graceDays === 1 ? "1 grace day" : `${p.graceDays} grace days`}`;

/** One plan: its terms, the schedule with what is paid, the payments, and (partners, active plans) the payment form. */
export function PlanDetail(props: {
  plan: PlanView;
  csrf: string;
  backHref: string;
  created?: boolean;
  payment?: { action: string; state: PaymentFormState };
}) {
  const p = props.plan;
  const state = props.payment?.state;
  const created = `Plan ${p.planNo} is set up: ${naira(p.financedKobo)} in ${p.installmentCount} installments, the first due ${day(p.installments[0]?.dueDate)}.`;
  return (
    <section id="plan" aria-labelledby="plan-title">
      <RecordHeading backHref={props.backHref} back="← All plans" id="plan-title" title="Financing plan" number={p.planNo} />
      {props.created ? <Announce tone="success" text={created} /> : ""}
      {state?.outcome ? <PaymentResult outcome={state.outcome} /> : ""}
      <StatusCard
        badge={<PlanBadge status={p.status} />}
        since={p.status === "active" ? `next installment due ${day(p.nextDueDate)}` : `since ${dateTime(p.closedAt)}`}
        note={p.statusNote}
      />
      <Details
        rows={[
          p.partnerName !== undefined && ["Partner", p.partnerName],
          p.consumer !== undefined && {
            label: "Consumer",
            html: (
              <a href={p.consumer.href} safe>
                {p.consumer.name}
              </a>
            ),
          },
          {
            label: "Policy",
            html: (
              <a href={p.policyHref} safe>
                {p.policy}
              </a>
            ),
          },
          ["Premium", naira(p.premiumKobo)],
          ["Down payment", naira(p.downPaymentKobo)],
          ["Financed", naira(p.financedKobo)],
          ["Paid so far", naira(p.paidKobo)],
          { label: "Outstanding", html: <strong safe>{naira(p.outstandingKobo)}</strong> },
          ["Terms", termsText(p)],
          ["Created", dateTime(p.createdAt)],
        ]}
      />
      <h2>Schedule</h2>
      <Table
        columns={["Installment", "Due", { label: "Amount", numeric: true }, { label: "Paid", numeric: true }, "State"]}
        caption="Installments of this plan"
      >
        {p.installments.map((i) => (
          <tr>
            <th scope="row" safe>{`${i.number} of ${p.installmentCount}`}</th>
            <td safe>{day(i.dueDate)}</td>
            <MoneyCell kobo={i.amountKobo} />
            <MoneyCell kobo={i.paidKobo} />
            <td>{installmentState(i, p.today)}</td>
          </tr>
        ))}
      </Table>
      <h2>Payments</h2>
      <Table
        columns={["Reference", { label: "Amount", numeric: true }, "Paid on", "Recorded"]}
        count={p.payments.length}
        empty="No installment payments recorded yet."
        caption="Recorded payments, oldest first"
      >
        {p.payments.map((payment) => (
          <tr>
            <td safe>{payment.reference}</td>
            <MoneyCell kobo={payment.amountKobo} />
            <td safe>{day(payment.paidOn)}</td>
            <td safe>{dateTime(payment.createdAt)}</td>
          </tr>
        ))}
      </Table>
      {props.payment && (p.status === "active" || state?.problem) ? (
        <PaymentForm action={props.payment.action} csrf={props.csrf} state={props.payment.state} />
      ) : (
        ""
      )}
    </section>
  );
}

interface LapsedRow {
  planNo: string;
  planHref: string;
  partnerName: string;
  policy: string;
  missedInstallment: number;
  dueDate: string;
  statusNote: string;
}

export interface LapseRunState {
  values: FormValues;
  problem?: FormProblem;
  result?: { asOf: string; lapsed: LapsedRow[] };
}

/** The operator's "Run lapse now": lapses every plan past its grace as of a day (today by default) and shows what it lapsed. */
export function LapseRun(props: { csrf: string; state: LapseRunState; today: string }) {
  const { values, problem, result } = props.state;
  const lapseFields: FieldSpec[] = [
    {
      name: "asOf",
      label: "As of",
      kind: "date",
      hint: `Today (${day(props.today)}) when left blank. A later day lapses plans that are not late yet: for rehearsals only.`,
    },
  ];
  return (
    <div class="card" id="lapse-run">
      <h2>Run lapse now</h2>
      <p class="muted">The background run does this every hour. A plan lapses, with its policy, when its oldest unpaid installment is past its grace days.</p>
      <ProblemSummary problem={problem} inputs={namesOf(lapseFields)} />
      <HxForm action="/admin/financing/lapse" target="#lapse-run" csrf={props.csrf}>
        <Fields fields={lapseFields} values={values} problem={problem} />
        <button type="submit" class="danger">
          Run lapse now
        </button>
      </HxForm>
      {result ? (
        <div role="status" aria-live="polite">
          {result.lapsed.length === 0 ? (
            <p class="success" safe>{`Nothing to lapse as of ${day(result.asOf)}.`}</p>
          ) : (
            <>
              <p
                class="success"
                safe
              >{`Lapsed ${result.lapsed.length === 1 ? "1 plan" : `${result.lapsed.length} plans`} as of ${day(result.asOf)}, with their policies.`}</p>
              <Table columns={["Plan", "Partner", "Policy", "Why"]} caption="Plans lapsed by this run">
                {result.lapsed.map((row) => (
                  <tr>
                    <LinkCell href={row.planHref} text={row.planNo} />
                    <td safe>{row.partnerName}</td>
                    <td safe>{row.policy}</td>
                    <td safe>{noteText(row.statusNote)}</td>
                  </tr>
                ))}
              </Table>
            </>
          )}
        </div>
      ) : (
        ""
      )}
    </div>
  );
}
