import { dateTime, day, naira } from "../format";
import { Badge, Empty, type FormProblem, type FormValues, HxForm, Input, MoreRows, ProblemSummary } from "../portal/ui";

const PLAN_STATUS_TEXT: Record<string, string> = { active: "Active", completed: "Completed", lapsed: "Lapsed" };
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

/** The rows of a plan list (also what "Show more" swaps in). */
export function PlanRows(props: { rows: PlanRow[]; more: string | null; withPartner?: boolean }) {
  return (
    <>
      {props.rows.map((p) => (
        <tr>
          <td>
            <a href={p.href} safe>
              {p.planNo}
            </a>
          </td>
          {props.withPartner ? <td safe>{p.partnerName ?? ""}</td> : ""}
          <td safe>{p.policy}</td>
          <td>
            <PlanBadge status={p.status} />
          </td>
          <td class="num" safe>
            {naira(p.premiumKobo)}
          </td>
          <td class="num" safe>
            {naira(p.financedKobo)}
          </td>
          <td class="num" safe>
            {naira(p.outstandingKobo)}
          </td>
          <td>{p.status === "active" ? day(p.nextDueDate) : "—"}</td>
          <td safe>{dateTime(p.createdAt)}</td>
        </tr>
      ))}
      <MoreRows href={props.more} colspan={props.withPartner ? 9 : 8} />
    </>
  );
}

/** A list of plans with its status filter (and, for the operator, the lapse run above it). */
export function PlanList(props: {
  title: string;
  action: string;
  rows: PlanRow[];
  more: string | null;
  status?: string;
  withPartner?: boolean;
  intro?: string;
  /** The operator's "Run lapse now" card, shown above the list. */
  lapse?: { csrf: string; state: LapseRunState; today: string };
}) {
  return (
    <section>
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
      <form class="filters" method="get" action={props.action} role="search">
        <Input
          name="status"
          label="Status"
          kind="select"
          emptyChoice="Any"
          value={props.status}
          options={Object.entries(PLAN_STATUS_TEXT).map(([value, label]) => ({ value, label }))}
        />
        <button type="submit">Filter</button>
      </form>
      {props.rows.length === 0 ? (
        <Empty>{props.status ? "No plans with this status." : "No financing plans yet. Finance a policy's premium from the policy's page."}</Empty>
      ) : (
        <table>
          <caption class="visually-hidden">Financing plans, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Plan</th>
              {props.withPartner ? <th scope="col">Partner</th> : ""}
              <th scope="col">Policy</th>
              <th scope="col">Status</th>
              <th scope="col" class="num">
                Premium
              </th>
              <th scope="col" class="num">
                Financed
              </th>
              <th scope="col" class="num">
                Outstanding
              </th>
              <th scope="col">Next due</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            <PlanRows rows={props.rows} more={props.more} withPartner={props.withPartner} />
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The policy being financed, when the reference is one of the partner's policies. */
export interface FinancePolicySummary {
  reference: string;
  productName: string;
  premiumKobo: number;
  coverLastDay: string;
}

const FINANCE_INPUTS = ["policy", "downPayment", "installments", "frequency", "firstDueDate", "graceDays"];

/** Finance a policy's premium: the terms of the plan. */
export function FinanceForm(props: {
  values: FormValues;
  problem?: FormProblem;
  csrf: string;
  policy?: FinancePolicySummary;
  defaultGraceDays: number;
  latestFirstDue: string;
}) {
  const v = props.values;
  const p = props.policy;
  return (
    <section id="finance-form">
      <h1>Finance a premium</h1>
      {p ? (
        <p class="muted" safe>
          {`${p.productName}, policy ${p.reference}: premium ${naira(p.premiumKobo)}, cover to ${day(p.coverLastDay)}. Installments must fall due within the cover.`}
        </p>
      ) : (
        ""
      )}
      <ProblemSummary problem={props.problem} inputs={FINANCE_INPUTS} />
      <HxForm action="/portal/financing" target="#finance-form" csrf={props.csrf}>
        <Input
          name="policy"
          label="Policy reference"
          required
          value={v.policy}
          problem={props.problem}
          hint="The transaction reference the policy was issued with; approved or pending policies only."
        />
        <Input
          name="downPayment"
          label="Down payment in naira"
          kind="number"
          required
          value={v.downPayment}
          problem={props.problem}
          hint="Paid now, less than the premium; 0 for none."
        />
        <Input name="installments" label="Number of installments" kind="integer" required value={v.installments} problem={props.problem} hint="2 to 12." />
        <Input
          name="frequency"
          label="Frequency"
          kind="select"
          required
          value={v.frequency}
          problem={props.problem}
          options={Object.entries(FREQUENCY_TEXT).map(([value, label]) => ({ value, label }))}
        />
        <Input
          name="firstDueDate"
          label="First installment due"
          kind="date"
          required
          value={v.firstDueDate}
          problem={props.problem}
          hint={`From today up to ${day(props.latestFirstDue)}.`}
        />
        <Input
          name="graceDays"
          label="Grace days"
          kind="integer"
          value={v.graceDays}
          problem={props.problem}
          hint={`Days after a due date before a missed installment lapses the plan and the policy: 0 to 30; ${props.defaultGraceDays} when left blank.`}
        />
        <button type="submit">Create the plan</button>
      </HxForm>
    </section>
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
  if (o.applied)
    return (
      <p class="success" role="status" aria-live="polite" safe>
        {`Recorded ${naira(o.amountKobo)} with reference ${o.reference}, paid ${day(o.paidOn)}: ${after}.`}
      </p>
    );
  return (
    <p class="notice" role="status" aria-live="polite" safe>
      {`Reference ${o.reference} was already recorded on ${dateTime(o.recordedAt)} for ${naira(o.amountKobo)}: nothing new was recorded. That first result was: ${after}.`}
    </p>
  );
}

function PaymentForm(props: { action: string; csrf: string; state: PaymentFormState }) {
  const { values, problem } = props.state;
  return (
    <div class="card">
      <h2>Record an installment</h2>
      <ProblemSummary problem={problem} inputs={["amount", "reference", "paidAt"]} />
      <HxForm action={props.action} target="#plan" csrf={props.csrf}>
        <Input
          name="amount"
          label="Amount in naira"
          kind="number"
          required
          value={values.amount}
          problem={problem}
          hint="Goes to the oldest unpaid installments first; part payments are fine, more than the outstanding amount is not."
        />
        <Input
          name="reference"
          label="Payment reference"
          required
          value={values.reference}
          problem={problem}
          hint="Your receipt's reference: 1–64 letters, digits, dots, hyphens or underscores. Recording a reference again never counts it twice."
        />
        <Input name="paidAt" label="Paid on" kind="date" value={values.paidAt} problem={problem} hint="The day the consumer paid; today when left blank." />
        <button type="submit">Record the payment</button>
      </HxForm>
    </div>
  );
}

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
  return (
    <section id="plan" aria-labelledby="plan-title">
      <p>
        <a href={props.backHref}>← All plans</a>
      </p>
      <h1 id="plan-title">
        Financing plan <span safe>{p.planNo}</span>
      </h1>
      {props.created ? (
        <p class="success" role="status" aria-live="polite" safe>
          {`Plan ${p.planNo} is set up: ${naira(p.financedKobo)} in ${p.installmentCount} installments, the first due ${day(p.installments[0]?.dueDate)}.`}
        </p>
      ) : (
        ""
      )}
      {state?.outcome ? <PaymentResult outcome={state.outcome} /> : ""}
      <div class="card" aria-live="polite">
        <p>
          <PlanBadge status={p.status} />{" "}
          {p.status === "active" ? (
            <span class="muted" safe>{`next installment due ${day(p.nextDueDate)}`}</span>
          ) : (
            <span class="muted" safe>{`since ${dateTime(p.closedAt)}`}</span>
          )}
        </p>
        {p.statusNote ? <p safe>{p.statusNote}</p> : ""}
      </div>
      <dl>
        {p.partnerName !== undefined ? (
          <>
            <dt>Partner</dt>
            <dd safe>{p.partnerName}</dd>
          </>
        ) : (
          ""
        )}
        <dt>Policy</dt>
        <dd>
          <a href={p.policyHref} safe>
            {p.policy}
          </a>
        </dd>
        <dt>Premium</dt>
        <dd safe>{naira(p.premiumKobo)}</dd>
        <dt>Down payment</dt>
        <dd safe>{naira(p.downPaymentKobo)}</dd>
        <dt>Financed</dt>
        <dd safe>{naira(p.financedKobo)}</dd>
        <dt>Paid so far</dt>
        <dd safe>{naira(p.paidKobo)}</dd>
        <dt>Outstanding</dt>
        <dd>
          <strong safe>{naira(p.outstandingKobo)}</strong>
        </dd>
        <dt>Terms</dt>
        <dd
          safe
        >{`${p.installmentCount} installments, ${(FREQUENCY_TEXT[p.frequency] ?? p.frequency).toLowerCase()}; ${p.graceDays === 1 ? "1 grace day" : `${p.graceDays} grace days`}`}</dd>
        <dt>Created</dt>
        <dd safe>{dateTime(p.createdAt)}</dd>
      </dl>
      <h2>Schedule</h2>
      <table>
        <caption class="visually-hidden">Installments of this plan</caption>
        <thead>
          <tr>
            <th scope="col">Installment</th>
            <th scope="col">Due</th>
            <th scope="col" class="num">
              Amount
            </th>
            <th scope="col" class="num">
              Paid
            </th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {p.installments.map((i) => (
            <tr>
              <th scope="row" safe>{`${i.number} of ${p.installmentCount}`}</th>
              <td safe>{day(i.dueDate)}</td>
              <td class="num" safe>
                {naira(i.amountKobo)}
              </td>
              <td class="num" safe>
                {naira(i.paidKobo)}
              </td>
              <td>{installmentState(i, p.today)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Payments</h2>
      {p.payments.length === 0 ? (
        <Empty>No installment payments recorded yet.</Empty>
      ) : (
        <table>
          <caption class="visually-hidden">Recorded payments, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">Reference</th>
              <th scope="col" class="num">
                Amount
              </th>
              <th scope="col">Paid on</th>
              <th scope="col">Recorded</th>
            </tr>
          </thead>
          <tbody>
            {p.payments.map((payment) => (
              <tr>
                <td safe>{payment.reference}</td>
                <td class="num" safe>
                  {naira(payment.amountKobo)}
                </td>
                <td safe>{day(payment.paidOn)}</td>
                <td safe>{dateTime(payment.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
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
  return (
    <div class="card" id="lapse-run">
      <h2>Run lapse now</h2>
      <p class="muted">The background run does this every hour. A plan lapses, with its policy, when its oldest unpaid installment is past its grace days.</p>
      <ProblemSummary problem={problem} inputs={["asOf"]} />
      <HxForm action="/admin/financing/lapse" target="#lapse-run" csrf={props.csrf}>
        <Input
          name="asOf"
          label="As of"
          kind="date"
          value={values.asOf}
          problem={problem}
          hint={`Today (${day(props.today)}) when left blank. A later day lapses plans that are not late yet: for rehearsals only.`}
        />
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
              <table>
                <caption class="visually-hidden">Plans lapsed by this run</caption>
                <thead>
                  <tr>
                    <th scope="col">Plan</th>
                    <th scope="col">Partner</th>
                    <th scope="col">Policy</th>
                    <th scope="col">Why</th>
                  </tr>
                </thead>
                <tbody>
                  {result.lapsed.map((row) => (
                    <tr>
                      <td>
                        <a href={row.planHref} safe>
                          {row.planNo}
                        </a>
                      </td>
                      <td safe>{row.partnerName}</td>
                      <td safe>{row.policy}</td>
                      <td safe>{row.statusNote}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
        </div>
      ) : (
        ""
      )}
    </div>
  );
}
