import { BarChart, type ChartProps, PairedBarChart } from "../charts/charts";
import { naira } from "../format";
import { type FormProblem, type FormValues, ProblemSummary, Table } from "../portal/ui";
import { type FieldSpec, Fields, namesOf, partnerFilterField } from "../shared-forms/record";

type Cell = string | number | null;
type CellKind = "text" | "day" | "money" | "count" | "days" | "hours" | "percent";

/** A table of figures as the page shows it: the first column names each row. Money in kobo, durations in their unit, shares from 0 to 1. */
export interface ReportTable {
  caption: string;
  columns: readonly { heading: string; kind: CellKind }[];
  rows: readonly Cell[][];
}

/** The regulator's view of the chosen scope and period, ready to draw. */
export interface RegulatorReportView {
  /** Whose business and which days, in a sentence. */
  covers: string;
  xlsxHref: string;
  ageing: { chart: ChartProps; bands: ReportTable; products: ReportTable; csvHref: string; dueSoonDays: number };
  settlement: { chart: ChartProps; table: ReportTable; csvHref: string };
  rejections: { ratesChart: ChartProps; rates: ReportTable; ratesCsvHref: string; reasonsChart: ChartProps; reasons: ReportTable; reasonsCsvHref: string };
}

/** 1,248.0 */
const oneDecimal = (value: number) => value.toLocaleString("en-NG", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

function cellText(kind: CellKind, value: Cell): string {
  if (value === null) return "—";
  if (typeof value === "string") return value;
  if (kind === "money") return naira(value);
  if (kind === "days") return `${oneDecimal(value)} days`;
  if (kind === "hours") return `${oneDecimal(value)} hours`;
  if (kind === "percent") return `${(value * 100).toFixed(1)} %`;
  return value.toLocaleString("en-NG");
}

function FiguresTable(props: { table: ReportTable }) {
  const { columns, rows, caption } = props.table;
  return (
    <Table columns={columns.map((c, i) => (i > 0 && c.kind !== "text" ? { label: c.heading, numeric: true as const } : c.heading))} caption={caption}>
      {rows.map((cells) => (
        <tr>
          {cells.map((value, i) =>
            i === 0 ? (
              <th scope="row" safe>
                {cellText(columns[i]!.kind, value)}
              </th>
            ) : (
              <td class={columns[i]!.kind === "text" ? undefined : "num"} safe>
                {cellText(columns[i]!.kind, value)}
              </td>
            ),
          )}
        </tr>
      ))}
    </Table>
  );
}

function Download(props: { href: string; text: string }) {
  return (
    <p>
      <a class="button secondary" href={props.href} download="" safe>
        {props.text}
      </a>
    </p>
  );
}

function Report(props: { report: RegulatorReportView; settlementDays: number }) {
  const { ageing, settlement, rejections } = props.report;
  return (
    <>
      <p safe>{props.report.covers}</p>
      <Download href={props.report.xlsxHref} text="Download the four tables (Excel, XLSX)" />

      <section id="ageing" aria-labelledby="ageing-title">
        <h2 id="ageing-title">Open claims by age</h2>
        <p class="muted" safe>
          {`Claims not yet paid, rejected or withdrawn, by the days since they were notified, and where each stands against its settlement deadline (${props.settlementDays} days from notification, later by the days it waited for information): within time, due within ${ageing.dueSoonDays} days, or overdue. The reserve is what is still expected to be paid on them.`}
        </p>
        <Download href={ageing.csvHref} text="Download the open claims by age (CSV)" />
        <div class="chart-grid">
          <BarChart {...ageing.chart} />
          <FiguresTable table={ageing.bands} />
        </div>
        <h3>By product</h3>
        <FiguresTable table={ageing.products} />
      </section>

      <section id="settlement" aria-labelledby="settlement-title">
        <h2 id="settlement-title">Settlement times</h2>
        <p class="muted">
          Claims paid in the period: how long they took from notification to the money reaching the claimant (half were settled within the median, nine in ten
          within the 90th percentile), how many were paid after their deadline, and the late interest paid on them.
        </p>
        <Download href={settlement.csvHref} text="Download the settlement times (CSV)" />
        <div class="chart-grid wide">
          <PairedBarChart {...settlement.chart} first="Median" second="90th percentile" />
          <FiguresTable table={settlement.table} />
        </div>
      </section>

      <section id="rejections" aria-labelledby="rejections-title">
        <h2 id="rejections-title">Rejections</h2>
        <p class="muted">
          Claims decided in the period, approved or rejected: how many of each product were rejected, and the reasons given. A claim rejected before reasons
          were kept has none recorded.
        </p>
        <Download href={rejections.ratesCsvHref} text="Download the rejection rates (CSV)" />
        <div class="chart-grid">
          <BarChart {...rejections.ratesChart} />
          <FiguresTable table={rejections.rates} />
        </div>
        <Download href={rejections.reasonsCsvHref} text="Download the rejection reasons (CSV)" />
        <div class="chart-grid">
          <BarChart {...rejections.reasonsChart} />
          <FiguresTable table={rejections.reasons} />
        </div>
      </section>
    </>
  );
}

/** The operator's view of claims for the regulator (NAICOM): the filters, then the three figures with their charts, tables and downloads. */
export function RegulatorPage(props: {
  action: string;
  values: FormValues;
  partners: readonly { value: string; label: string }[];
  /** The settlement deadline's days (CLAIM_SETTLEMENT_DAYS). */
  settlementDays: number;
  problem?: FormProblem;
  /** Absent when a filter was refused. */
  report?: RegulatorReportView;
}) {
  const fields: FieldSpec[] = [
    { name: "from", label: "From", kind: "date", hint: "Claims paid or decided from this day (Nigerian time)." },
    { name: "to", label: "To", kind: "date", hint: "Up to and including this day." },
    { name: "mode", label: "Mode", kind: "select", emptyChoice: "Live business", options: [{ value: "test", label: "Test business" }] },
    { ...partnerFilterField(props.partners), emptyChoice: "Every partner" },
  ];
  return (
    <section>
      <h1>Claims for the regulator</h1>
      <p class="muted" safe>
        {`What the regulator (NAICOM) asks about claims: the open claims by age against the settlement deadline of ${props.settlementDays} days from notification (section 210 of the Nigerian Insurance Industry Reform Act 2025: never later than 60 days), how long the claims paid took, and how many claims decided were rejected and why. Live and test business are never mixed.`}
      </p>
      <form class="filters" method="get" action={props.action}>
        <Fields fields={fields} values={props.values} problem={props.problem} />
        <button type="submit">Show the figures</button>
      </form>
      <ProblemSummary problem={props.problem} inputs={namesOf(fields)} />
      {props.report ? <Report report={props.report} settlementDays={props.settlementDays} /> : ""}
    </section>
  );
}
