import { dateTime, monthName, naira } from "../format";
import { FundingList, type FundingRow, HowToPay, type PaymentToMake } from "../funding/funding";
import { Badge, DownloadLink, Empty, type FormProblem, type FormValues, HxForm, Input, MoreRows, ProblemSummary, Table } from "../portal/ui";

export interface LedgerRow {
  at: Date;
  kind: "topup" | "premium" | "refund" | "commission" | "commission_reversal";
  /** Signed: credits positive, debits negative. */
  amountKobo: number;
  balanceAfterKobo: number;
  /** The top-up's reference. */
  reference: string | null;
  /** The transaction reference of the policy a premium or refund belongs to. */
  policyReference: string | null;
}

interface UsageLine {
  service: "registry_check" | "vin_decode";
  mode: "test" | "live";
  calls: number;
  billedCalls: number;
  amountKobo: number;
}

export interface UsageProps {
  /** YYYY-MM as asked (kept when it was refused). */
  month: string;
  /** The current Nigerian month: the picker's latest choice. */
  currentMonth: string;
  /** Absent when the month was refused. */
  statement?: { month: string; lines: UsageLine[]; totalKobo: number };
  problem?: FormProblem;
}

/** What the last top-up did: credited (or, for a reference used before, what the first one did), waiting for the money, or another end. */
export type TopUpOutcome =
  | { kind: "credited"; applied: boolean; reference: string; amountKobo: number; balanceAfterKobo: number; at: Date }
  /** Test mode: a specimen in the test balance, never in the wallet. */
  | { kind: "test"; applied: boolean; reference: string; amountKobo: number; testBalanceKobo: number }
  | { kind: "pending"; applied: boolean; payment: PaymentToMake }
  | { kind: "held" | "failed" | "expired"; reference: string; amountKobo: number; note: string | null };

export interface WalletProps {
  balanceKobo: number;
  mode: "test" | "live";
  topUp: { values: FormValues; problem?: FormProblem; outcome?: TopUpOutcome };
  ledger: { rows: LedgerRow[]; more: string | null };
  usage: UsageProps;
  /** Live mode: the account's fundings, newest first. */
  fundings: FundingRow[];
  /** Which fundings the list shows, when not every one (the filter's value). */
  fundingsShown?: string;
  /** The next page of older live top-ups, when there are more. */
  olderFundings: string | null;
  /** Test mode: its own balance and ledger (the test top-ups), kept apart from the live wallet. */
  test?: { balanceKobo: number; ledger: { rows: LedgerRow[]; more: string | null } };
  csrf: string;
}

export const KIND_TEXT: Record<LedgerRow["kind"], string> = {
  topup: "Top-up",
  premium: "Premium",
  refund: "Refund",
  commission: "Commission",
  commission_reversal: "Commission given back",
};
const SERVICE_TEXT: Record<UsageLine["service"], string> = { registry_check: "Vehicle registry checks", vin_decode: "VIN decodes" };

/** The ledger's rows (also what "Show more" swaps in). */
export function LedgerRows(props: { rows: LedgerRow[]; more: string | null }) {
  return (
    <>
      {props.rows.map((row) => (
        <tr>
          <td safe>{dateTime(row.at)}</td>
          <td>
            <Badge tone={row.kind === "premium" || row.kind === "commission_reversal" ? "info" : "ok"} text={KIND_TEXT[row.kind]} />
          </td>
          <td>
            {row.policyReference ? (
              <a href={`/portal/policies/${encodeURIComponent(row.policyReference)}`} safe>
                {row.policyReference}
              </a>
            ) : (
              <span safe>{row.reference ?? "—"}</span>
            )}
          </td>
          <td class="num" safe>
            {naira(row.amountKobo)}
          </td>
          <td class="num" safe>
            {naira(row.balanceAfterKobo)}
          </td>
        </tr>
      ))}
      <MoreRows href={props.more} colspan={5} />
    </>
  );
}

const ENDED: Record<"held" | "failed" | "expired", string> = {
  held: "is held: a different amount arrived, and the operator will check it before anything is credited",
  failed: "failed: nothing was credited",
  expired: "expired: no payment arrived in time, nothing was credited",
};

function TopUpResult(props: { outcome: TopUpOutcome; csrf: string }) {
  const o = props.outcome;
  if (o.kind === "pending") return <HowToPay payment={o.payment} csrf={props.csrf} repeat={!o.applied} />;
  if (o.kind === "test")
    return (
      <p class={o.applied ? "success" : "notice"} role="status" aria-live="polite" safe>
        {`${o.applied ? "Test top-up" : "Reference already used for a test top-up"}: ${naira(o.amountKobo)} with reference ${o.reference}. ` +
          `The test balance is ${naira(o.testBalanceKobo)}. Test top-ups never reach the wallet that live premiums are paid from.`}
      </p>
    );
  if (o.kind !== "credited")
    return (
      <p class="notice" role="status" aria-live="polite" safe>
        {`The top-up of ${naira(o.amountKobo)} with reference ${o.reference} ${ENDED[o.kind]}.${o.note ? ` ${o.note}.` : ""}`}
      </p>
    );
  if (o.applied)
    return (
      <p class="success" role="status" aria-live="polite" safe>
        {`Credited ${naira(o.amountKobo)} with reference ${o.reference}. The balance is now ${naira(o.balanceAfterKobo)}.`}
      </p>
    );
  return (
    <p class="notice" role="status" aria-live="polite" safe>
      {`Reference ${o.reference} was already used on ${dateTime(o.at)} for ${naira(o.amountKobo)}: nothing new was credited. ` +
        `That first top-up is shown here (balance after it: ${naira(o.balanceAfterKobo)}).`}
    </p>
  );
}

function TopUpForm(props: WalletProps["topUp"] & { csrf: string; mode: "test" | "live" }) {
  return (
    <div class="card">
      <h2>Top up</h2>
      <ProblemSummary problem={props.problem} inputs={["amount", "reference"]} />
      <p class="muted">
        {props.mode === "live"
          ? "Live mode: you get a bank account to transfer the amount to; the wallet is credited when the payment provider confirms the money arrived."
          : "Test mode: the top-up is recorded at once in the test balance; it never reaches the wallet live premiums are paid from."}
      </p>
      {props.outcome ? <TopUpResult outcome={props.outcome} csrf={props.csrf} /> : ""}
      <HxForm action="/portal/wallet/topup" target="#wallet" csrf={props.csrf}>
        <Input
          name="amount"
          label="Amount in naira"
          kind="number"
          required
          value={props.values.amount}
          problem={props.problem}
          hint="For example 250,000 or 1500.50: at most two decimals, up to ₦1,000,000,000 per top-up."
        />
        <Input
          name="reference"
          label="Payment reference"
          required
          value={props.values.reference}
          problem={props.problem}
          hint="Your transfer's reference: 1–64 letters, digits, dots, hyphens or underscores. Sending a reference again never credits twice."
        />
        <button type="submit">Top up</button>
      </HxForm>
    </div>
  );
}

/** The monthly usage statement of vehicle checks, with its month picker. */
export function UsageStatementView(props: UsageProps) {
  const s = props.statement;
  return (
    <section id="usage" aria-labelledby="usage-title">
      <h2 id="usage-title">Usage statement</h2>
      <p class="muted">
        Vehicle registry checks that reach the registry in live mode cost ₦150.00 each and are invoiced monthly (they are not taken from the wallet). Repeats
        within five minutes, test-mode checks and VIN decodes are free.
      </p>
      <form class="filters" method="get" action="/portal/wallet" hx-get="/portal/wallet/usage" hx-target="#usage" hx-swap="outerHTML" hx-indicator="#loading">
        <Input name="month" label="Month (Nigerian time)" kind="month" value={props.month} max={props.currentMonth} problem={props.problem} />
        <button type="submit" class="secondary">
          Show statement
        </button>
      </form>
      <ProblemSummary problem={props.problem} inputs={["month"]} />
      {!s ? (
        ""
      ) : s.lines.length === 0 ? (
        <Empty>
          <span safe>{`No vehicle checks in ${monthName(s.month)}.`}</span>
        </Empty>
      ) : (
        <Table
          columns={["Service", "Mode", { label: "Calls", numeric: true }, { label: "Billed calls", numeric: true }, { label: "Amount", numeric: true }]}
          caption={`Vehicle checks in ${monthName(s.month)}`}
          showCaption
          footer={
            <tr>
              <th scope="row" colspan="4">
                Total
              </th>
              <td class="num" safe>
                {naira(s.totalKobo)}
              </td>
            </tr>
          }
        >
          {s.lines.map((line) => (
            <tr>
              <td safe>{SERVICE_TEXT[line.service]}</td>
              <td>{line.mode === "live" ? "Live" : "Test"}</td>
              <td class="num" safe>
                {line.calls.toLocaleString("en-NG")}
              </td>
              <td class="num" safe>
                {line.billedCalls.toLocaleString("en-NG")}
              </td>
              <td class="num" safe>
                {naira(line.amountKobo)}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}

/** Test mode's ledger: the test top-ups and the test balance after each, marked as test money. */
function TestLedger(props: NonNullable<WalletProps["test"]>) {
  return (
    <>
      <h2>
        Test wallet activity <Badge tone="info" text="Test money" />
      </h2>
      <p class="muted">Specimen top-ups made in test mode. They pay for nothing live and never reach the live wallet below.</p>
      <Table
        columns={["When", "Kind", "Reference", { label: "Amount", numeric: true }, { label: "Test balance after", numeric: true }]}
        count={props.ledger.rows.length}
        empty="No test top-ups yet. A top-up made here is recorded at once in the test balance."
        caption="Test wallet activity, newest first"
        bodyId="test-ledger-rows"
      >
        <LedgerRows rows={props.ledger.rows} more={props.ledger.more} />
      </Table>
    </>
  );
}

/** The wallet page: balance (and test mode's own), top-up, the live top-ups or the test activity, usage statement, ledger. */
export function WalletPage(props: WalletProps) {
  return (
    <section id="wallet">
      <h1>Wallet</h1>
      <div class="tiles">
        {props.test ? (
          <div class="tile test-money">
            <span class="tile-value" id="test-balance" safe>
              {naira(props.test.balanceKobo)}
            </span>
            <span class="tile-label">
              Test balance <Badge tone="info" text="Test money" />
            </span>
          </div>
        ) : (
          ""
        )}
        <div class="tile">
          <span class="tile-value" id="balance" safe>
            {naira(props.balanceKobo)}
          </span>
          <span class="tile-label">{props.test ? "Live wallet balance" : "Balance"}</span>
        </div>
      </div>
      <p class="muted">
        The prepaid wallet pays the premiums of live policies when they are issued; a declined policy's premium comes back as a refund.{" "}
        {props.mode === "test" ? "The account is in test mode: test policies never touch the wallet." : ""}
      </p>
      <TopUpForm {...props.topUp} csrf={props.csrf} mode={props.mode} />
      {props.mode === "live" ? (
        <FundingList
          rows={props.fundings}
          csrf={props.csrf}
          show={props.fundingsShown}
          filterAction="/portal/wallet#fundings"
          olderHref={props.olderFundings}
        />
      ) : (
        ""
      )}
      {props.test ? <TestLedger {...props.test} /> : ""}
      <UsageStatementView {...props.usage} />
      <h2>{props.test ? "Live wallet ledger" : "Ledger"}</h2>
      <DownloadLink href="/portal/wallet/ledger.csv" />
      <Table
        columns={["When", "Kind", "Reference or policy", { label: "Amount", numeric: true }, { label: "Balance after", numeric: true }]}
        count={props.ledger.rows.length}
        empty="No wallet activity yet. Top up to issue live policies."
        caption="Wallet ledger, newest first"
        bodyId="ledger-rows"
      >
        <LedgerRows rows={props.ledger.rows} more={props.ledger.more} />
      </Table>
    </section>
  );
}
