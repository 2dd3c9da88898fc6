/**
 * The view half of every filtered, paged portal list (claims, financing plans, policies): what comes
 * above it, the filter form with a refused filter beside its input, the CSV download, then the table
 * of a page of rows ending with "Show more", or the line saying there is nothing. src/portal/list.ts
 * is the controller half.
 */
import type { Children } from "@kitajs/html";
import { type FieldSpec, Fields, namesOf } from "../shared-forms/record";
import { type Column, DownloadLink, type FormProblem, type FormValues, MoreRows, ProblemSummary, Table } from "./ui";

/** A list's count: `more` when there are more than `count` (a count stops somewhere on a large book). */
/** A list's count line: the count (none on a refused filter), what one and many rows are called, and whether filters apply. */
export interface ListTotal {
  count?: ListCount;
  one: string;
  many: string;
  filtered?: boolean;
}

export interface ListCount {
  count: number;
  more: boolean;
}

/**
 * How many the filters select, in words: "1 policy", "24 policies", "More than 1,000 policies";
 * where the list says whether filters apply (`filtered`), as a sentence: "24 entries match these
 * filters.", "3,120 entries in all.".
 */
function CountLine(props: ListTotal & { count: ListCount }) {
  const { count, more } = props.count;
  const one = count === 1 && !more;
  const words = `${more ? "More than " : ""}${count.toLocaleString("en-NG")} ${one ? props.one : props.many}`;
  const said =
    props.filtered === undefined ? words : `${words}${props.filtered ? (one ? " matches these filters" : " match these filters") : more ? "" : " in all"}.`;
  return (
    <p class="list-count" role="status" safe>
      {said}
    </p>
  );
}

/** A list's filters (a GET form), with a refused filter's message when its input is not on the page. */
function FilterForm(props: { action: string; fields: readonly FieldSpec[]; values: FormValues; problem?: FormProblem }) {
  return (
    <>
      <form class="filters" method="get" action={props.action} role="search">
        <Fields fields={props.fields} values={props.values} problem={props.problem} />
        <button type="submit">Filter</button>
      </form>
      <ProblemSummary problem={props.problem} inputs={namesOf(props.fields)} />
    </>
  );
}

/** A page of a list's rows, then "Show more" across its columns when there are more: the table's body, and what "Show more" swaps in. */
export function ListRows(props: { columns: readonly Column[]; more: string | null; children: Children }) {
  return (
    <>
      {props.children}
      <MoreRows href={props.more} colspan={props.columns.filter(Boolean).length} />
    </>
  );
}

/** A filtered list: `heading` (the title, its buttons, an introduction), the filters, the CSV link, and the rows (a ListRows) or the empty line. */
export function ListSection(props: {
  heading: Children;
  /** The list's own page: the filter form's action. */
  action: string;
  filters: readonly FieldSpec[];
  /** The filters as typed. */
  values: FormValues;
  /** A refused filter (beside its input) or page (above the list). */
  problem?: FormProblem;
  /** The same list as CSV. */
  exportHref: string;
  columns: readonly Column[];
  /** The rows on this page: 0 shows the empty line instead of the table. */
  count: number;
  /** The line for a list with nothing in it, and (when different) for filters that select nothing. */
  empty: string;
  emptyFiltered?: string;
  caption?: string;
  /** How many the filters select, and what they are called, when the list counts. */
  total?: ListTotal;
  children: Children;
}) {
  const filtered = Object.values(props.values).some(Boolean);
  return (
    <section>
      {props.heading}
      <FilterForm action={props.action} fields={props.filters} values={props.values} problem={props.problem} />
      <DownloadLink href={props.exportHref} />
      {props.total?.count ? <CountLine {...props.total} count={props.total.count} /> : ""}
      <Table columns={props.columns} count={props.count} empty={filtered && props.emptyFiltered ? props.emptyFiltered : props.empty} caption={props.caption}>
        {props.children}
      </Table>
    </section>
  );
}
