import { dateTime, naira } from "../format";
import { ListRows, ListSection } from "../portal/list-section";
import { Badge, type Column, type FormProblem } from "../portal/ui";
import { type FieldSpec, LinkCell, MoneyCell } from "../shared-forms/record";

type Tone = "ok" | "wait" | "bad" | "info";

export interface PayoutRow {
  claimNo: string;
  href: string;
  partnerName: string;
  status: { tone: Tone; text: string };
  amountKobo: number;
  lateInterestKobo: number;
  account: string;
  reference: string;
  reason: string | null;
  createdAt: Date;
}

const COLUMNS: Column[] = ["Claim", "Partner", "Status", { label: "Amount", numeric: true }, "Paid to", "Transfer", "Queued"];

export function PayoutRows(props: { rows: PayoutRow[]; more: string | null }) {
  return (
    <ListRows columns={COLUMNS} more={props.more}>
      {props.rows.map((p) => (
        <tr>
          <LinkCell href={p.href} text={p.claimNo} />
          <td safe>{p.partnerName}</td>
          <td>
            <Badge tone={p.status.tone} text={p.status.text} />
            {p.reason ? (
              <>
                <br />
                <small class="muted" safe>
                  {p.reason}
                </small>
              </>
            ) : (
              ""
            )}
          </td>
          <MoneyCell kobo={p.amountKobo} />
          <td safe>{p.account}</td>
          <td safe>{p.reference}</td>
          <td safe>{dateTime(p.createdAt)}</td>
        </tr>
      ))}
    </ListRows>
  );
}

const FILTERS: FieldSpec[] = [
  { name: "mode", label: "Mode", kind: "select", emptyChoice: "Live", options: [{ value: "test", label: "Test (sandbox claims)" }] },
  {
    name: "status",
    label: "Status",
    kind: "select",
    emptyChoice: "Any",
    options: [
      { value: "queued", label: "Being sent" },
      { value: "pending", label: "Waiting for the bank" },
      { value: "success", label: "Paid" },
      { value: "failed", label: "Failed" },
      { value: "reversed", label: "Reversed" },
    ],
  },
];

/** The insurer's payout account: what its ledger says left it and came back, and the payouts, newest first. */
export function PayoutsPage(props: {
  mode: "test" | "live";
  totals: { paidOutKobo: number; reversedKobo: number; netKobo: number; entries: number };
  list: { rows: PayoutRow[]; more: string | null; values: Record<string, string | undefined>; problem?: FormProblem; exportHref: string };
}) {
  const t = props.totals;
  return (
    <ListSection
      heading={
        <>
          <h1>Claim payouts</h1>
          <p class="muted">
            {props.mode === "test"
              ? "The sandbox's payout account: test claims, paid by the sandbox bank; no money moves."
              : "The insurer's payout account: claims paid to claimants' banks. Partners' wallets are never touched."}
          </p>
          <table class="amounts">
            <caption class="visually-hidden">The payout account's ledger</caption>
            <tbody>
              <tr>
                <th scope="row">Claims paid out</th>
                <td class="num" safe>
                  {naira(t.paidOutKobo)}
                </td>
              </tr>
              <tr>
                <th scope="row">Reversed (came back)</th>
                <td class="num" safe>
                  {naira(t.reversedKobo)}
                </td>
              </tr>
              <tr>
                <th scope="row">Net paid out</th>
                <td class="num">
                  <strong safe>{naira(t.netKobo)}</strong>
                </td>
              </tr>
            </tbody>
          </table>
        </>
      }
      action="/admin/payouts"
      filters={FILTERS}
      values={props.list.values}
      problem={props.list.problem}
      exportHref={props.list.exportHref}
      columns={COLUMNS}
      count={props.list.rows.length}
      empty="No claim has been paid out yet."
      emptyFiltered="No payout matches these filters."
      caption="Payouts, newest first"
    >
      <PayoutRows rows={props.list.rows} more={props.list.more} />
    </ListSection>
  );
}
