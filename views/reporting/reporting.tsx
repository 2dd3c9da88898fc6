import { day, naira } from "../format";
import { type FormProblem, type FormValues, ProblemSummary, Table } from "../portal/ui";
import { type FieldSpec, Fields, namesOf } from "../shared-forms/record";

type Cell = string | number | null;

/** A bordereau as the preview shows it: cells as the files hold them (money in kobo, days as YYYY-MM-DD). */
export interface BordereauPreview {
  /** "premium" or "claims": the section's id. */
  id: "premium" | "claims";
  title: string;
  /** Why the operator draws it, one line. */
  intro: string;
  columns: readonly { heading: string; kind: "text" | "day" | "money" }[];
  rows: readonly Cell[][];
  totals: readonly Cell[];
  csvHref: string;
  xlsxHref: string;
  /** What an empty month says. */
  empty: string;
}

const cellText = (kind: BordereauPreview["columns"][number]["kind"], value: Cell): string =>
  value === null ? "—" : kind === "money" ? naira(value as number) : kind === "day" ? day(String(value)) : String(value);

/**
 * The order the preview shows the columns in (the files keep theirs): the partner and the record's
 * number, then the amounts, the figures the insurer is paid on, before the rest: a bordereau is wider
 * than any screen, and scrolling sideways to find the money is what this spares.
 */
function previewOrder(columns: BordereauPreview["columns"]): number[] {
  const indexes = columns.map((_, index) => index);
  const money = indexes.filter((index) => columns[index]!.kind === "money");
  const others = indexes.filter((index) => columns[index]!.kind !== "money");
  return [...others.slice(0, 2), ...money, ...others.slice(2)];
}

function PreviewRow(props: { columns: BordereauPreview["columns"]; order: readonly number[]; cells: readonly Cell[] }) {
  return (
    <tr>
      {props.order.map((index) => {
        const kind = props.columns[index]!.kind;
        return (
          <td class={kind === "money" ? "num" : undefined} safe>
            {cellText(kind, props.cells[index] ?? null)}
          </td>
        );
      })}
    </tr>
  );
}

function Preview(props: { preview: BordereauPreview }) {
  const p = props.preview;
  const order = previewOrder(p.columns);
  return (
    <section id={p.id} aria-labelledby={`${p.id}-title`}>
      <h2 id={`${p.id}-title`} safe>
        {p.title}
      </h2>
      <p class="muted" safe>
        {p.intro}
      </p>
      <p>
        <a class="button secondary" href={p.csvHref} download="">
          Download CSV
        </a>{" "}
        <a class="button secondary" href={p.xlsxHref} download="">
          Download Excel (XLSX)
        </a>
      </p>
      <Table
        columns={order.map((index) => {
          const c = p.columns[index]!;
          return c.kind === "money" ? { label: c.heading, numeric: true as const } : c.heading;
        })}
        count={p.rows.length}
        empty={p.empty}
        caption={p.title}
        footer={<PreviewRow columns={p.columns} order={order} cells={p.totals} />}
      >
        {p.rows.map((cells) => (
          <PreviewRow columns={p.columns} order={order} cells={cells} />
        ))}
      </Table>
    </section>
  );
}

/** The operator's reports: a month and an insurer, then each bordereau's preview and its downloads. */
export function ReportsPage(props: {
  months: readonly { value: string; label: string }[];
  insurers: readonly { value: string; label: string }[];
  values: FormValues;
  problem?: FormProblem;
  /** The bordereaux of the month and insurer chosen; absent until both are. */
  previews?: readonly BordereauPreview[];
}) {
  const fields: FieldSpec[] = [
    { name: "month", label: "Month", kind: "select", required: true, options: props.months, hint: "Calendar month, Nigerian time." },
    { name: "insurer", label: "Insurer", kind: "select", required: true, options: props.insurers },
  ];
  return (
    <section>
      <h1>Insurer bordereaux</h1>
      <p class="muted">
        What each insurer is owed and told for a month: the policies written and cancelled with their premium, commission and net, and the claims reported. Live
        business only.
      </p>
      <form class="filters" method="get" action="/admin/reports">
        <Fields fields={fields} values={props.values} problem={props.problem} />
        <button type="submit">Show bordereaux</button>
      </form>
      <ProblemSummary problem={props.problem} inputs={namesOf(fields)} />
      {props.previews ? props.previews.map((preview) => <Preview preview={preview} />) : <p class="empty">Choose a month and an insurer.</p>}
    </section>
  );
}
