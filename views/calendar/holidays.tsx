/** The operator's public holidays: the days the claims clock does not count as working days. */
import { day } from "../format";
import { Done, type FormProblem, type FormValues, HxForm, Input, ProblemSummary, Table } from "../portal/ui";

export interface HolidayRow {
  day: string;
  name: string;
  addedBy: string;
}

export function HolidaysPage(props: { rows: readonly HolidayRow[]; csrf: string; values?: FormValues; problem?: FormProblem; done?: string }) {
  return (
    <section id="holidays" aria-labelledby="holidays-title">
      <h1 id="holidays-title">Public holidays</h1>
      <p class="muted">
        The claims clock counts working days (the discharge voucher is due within 5 of them) from Monday to Friday, leaving out these days. The Islamic holidays
        move with the moon: when the Federal Government declares a day, add it here, and remove one it moves.
      </p>
      <Done text={props.done} />
      <HxForm action="/admin/holidays" target="#holidays" csrf={props.csrf} class="filters">
        <ProblemSummary problem={props.problem} inputs={["day", "name"]} />
        <Input name="day" label="Date" kind="date" value={props.values?.day} problem={props.problem} required />
        <Input name="name" label="Holiday" value={props.values?.name} problem={props.problem} hint="e.g. Eid-el-Fitr holiday" required />
        <button type="submit">Add the holiday</button>
      </HxForm>
      <Table
        columns={["Date", "Holiday", "Added by", ""]}
        count={props.rows.length}
        empty="No public holidays from today on."
        caption="Public holidays from today"
      >
        {props.rows.map((h) => (
          <tr>
            <td safe>{day(h.day)}</td>
            <td safe>{h.name}</td>
            <td safe>{h.addedBy === "shipped" ? "Came with the service" : h.addedBy}</td>
            <td>
              <HxForm
                action={`/admin/holidays/${h.day}/remove`}
                target="#holidays"
                csrf={props.csrf}
                confirm={`Remove ${h.name} on ${day(h.day)}? Working days will count it again.`}
              >
                <button type="submit" class="secondary">
                  Remove
                </button>
              </HxForm>
            </td>
          </tr>
        ))}
      </Table>
    </section>
  );
}
