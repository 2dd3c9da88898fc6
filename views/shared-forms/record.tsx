/**
 * Pieces the claims and financing pages share: forms described as data (the inputs and the names a
 * refusal may point at come from one list), list filters, a record's heading, status card and
 * details, and the cells of its lists.
 */
import type { Children } from "@kitajs/html";
import { naira, noteText } from "../format";
import { type FormProblem, type FormValues, Input, ProblemSummary } from "../portal/ui";

/** One input of a form: what Input takes, less what was typed and the refusal (the form passes them). */
export type FieldSpec = Omit<Parameters<typeof Input>[0], "value" | "problem">;

/** The input names of a list of fields, for ProblemSummary. */
export const namesOf = (fields: readonly FieldSpec[]) => fields.map((f) => f.name);

/** A select's choices from a value → label map. */
export const optionsOf = (labels: Record<string, string>) => Object.entries(labels).map(([value, label]) => ({ value, label }));

/** A list's status filter: any status by default. */
export const statusField = (labels: Record<string, string>): FieldSpec => ({
  name: "status",
  label: "Status",
  kind: "select",
  emptyChoice: "Any",
  options: optionsOf(labels),
});

/** The operator's Partner filter on a list of every partner's records: any partner by default. */
export const partnerFilterField = (partners: readonly { value: string; label: string }[]): FieldSpec => ({
  name: "partner",
  label: "Partner",
  kind: "select",
  emptyChoice: "Any",
  options: [...partners],
});

/** The inputs of `fields`, each keeping what was typed and showing its error beside it. */
export function Fields(props: { fields: readonly FieldSpec[]; values: FormValues; problem?: FormProblem }) {
  return (
    <>
      {props.fields.map((field) => (
        <Input {...field} value={props.values[field.name]} problem={props.problem} />
      ))}
    </>
  );
}

/** A page-sized form: its title, what it is about (when known), a refusal without an input of its own, then the form. */
export function FormSection(props: {
  id: string;
  title: string;
  summary?: string;
  problem?: FormProblem;
  inputs: readonly string[];
  notice?: string;
  children: Children;
}) {
  return (
    <section id={props.id}>
      <h1 safe>{props.title}</h1>
      {props.summary ? (
        <p class="muted" safe>
          {props.summary}
        </p>
      ) : (
        ""
      )}
      <ProblemSummary problem={props.problem} inputs={props.inputs} />
      {props.notice ? (
        <p class="notice" safe>
          {props.notice}
        </p>
      ) : (
        ""
      )}
      {props.children}
    </section>
  );
}

/** A record page's heading: the way back to its list, then what it is and its number. */
export function RecordHeading(props: {
  backHref: string;
  back: "← All claims" | "← All plans" | "← All complaints";
  id: string;
  title: "Claim" | "Financing plan" | "Complaint";
  number: string;
}) {
  return (
    <>
      <p>
        <a href={props.backHref}>{props.back}</a>
      </p>
      <h1 id={props.id}>
        {props.title} <span safe>{props.number}</span>
      </h1>
    </>
  );
}

/** What just happened, announced to screen readers. */
export const Announce = (props: { tone: "success" | "notice"; text: string }) => (
  <p class={props.tone} role="status" aria-live="polite" safe>
    {props.text}
  </p>
);

/** A record's status: its badge, since when (or what comes next), and the note that came with it. */
export function StatusCard(props: { badge: Children; since: string; note: string | null }) {
  return (
    <div class="card" aria-live="polite">
      <p>
        {props.badge}{" "}
        <span class="muted" safe>
          {props.since}
        </span>
      </p>
      {props.note ? <p safe>{noteText(props.note)}</p> : ""}
    </div>
  );
}

/** One line of a record's details: a label with plain text, a label with markup, or nothing (left out). */
export type DetailRow = readonly [label: string, text: string] | { label: string; html: Children } | false;

/** A record's details as a description list. */
export function Details(props: { rows: readonly DetailRow[] }) {
  return (
    <dl>
      {props.rows.map((row) =>
        row === false ? (
          ""
        ) : "html" in row ? (
          <>
            <dt safe>{row.label}</dt>
            <dd>{row.html}</dd>
          </>
        ) : (
          <>
            <dt safe>{row[0]}</dt>
            <dd safe>{row[1]}</dd>
          </>
        ),
      )}
    </dl>
  );
}

/** A list's first cell: the record's number, linking to it. */
export const LinkCell = (props: { href: string; text: string }) => (
  <td>
    <a href={props.href} safe>
      {props.text}
    </a>
  </td>
);

/** An amount in naira, right-aligned. */
export const MoneyCell = (props: { kobo: number }) => (
  <td class="num" safe>
    {naira(props.kobo)}
  </td>
);
