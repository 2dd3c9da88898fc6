/** The complaints report page (src/modules/complaints/report-admin.tsx): the period, the tables, their downloads. */
import { type FormProblem, type FormValues, Input, ProblemSummary, Table } from "../portal/ui";

export interface ReportTableView {
  title: string;
  csvHref: string;
  columns: { heading: string; numeric: boolean }[];
  rows: string[][];
}

export function ComplaintsReportPage(props: {
  action: string;
  values: FormValues;
  problem?: FormProblem;
  tables?: readonly ReportTableView[];
  xlsxHref?: string;
  resolutionDays: number;
}) {
  return (
    <section>
      <h1>Complaints report</h1>
      <p class="muted" safe>
        {`The published results of complaint handling for a period: complaints received and resolved, those resolved within the deadline (${props.resolutionDays} days), the outcomes and redress, and the complaints still open at the end of the period by age.`}
      </p>
      <ProblemSummary problem={props.problem} inputs={["from", "to", "mode"]} />
      <form method="get" action={props.action} class="filters">
        <Input name="from" label="From" kind="date" value={props.values.from} problem={props.problem} />
        <Input name="to" label="To" kind="date" value={props.values.to} problem={props.problem} />
        <Input
          name="mode"
          label="Mode"
          kind="select"
          value={props.values.mode}
          options={[
            { value: "live", label: "Live" },
            { value: "test", label: "Test (sandbox)" },
          ]}
          problem={props.problem}
        />
        <button type="submit">Show</button>
      </form>
      {props.xlsxHref ? (
        <p>
          <a class="button secondary" href={props.xlsxHref} download="">
            Download the workbook (XLSX)
          </a>
        </p>
      ) : (
        ""
      )}
      {(props.tables ?? []).map((t) => (
        <section>
          <h2 safe>{t.title}</h2>
          <Table
            columns={t.columns.map((c) => (c.numeric ? { label: c.heading, numeric: true as const } : c.heading))}
            count={t.rows.length}
            empty="No complaints in this period."
            caption={t.title}
          >
            {t.rows.map((cells) => (
              <tr>
                {cells.map((cell, i) => (
                  <td class={t.columns[i]!.numeric ? "num" : undefined} safe>
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </Table>
          <p>
            <a class="button secondary" href={t.csvHref} download="">
              Download CSV
            </a>
          </p>
        </section>
      ))}
    </section>
  );
}
