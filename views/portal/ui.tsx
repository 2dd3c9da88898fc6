import type { Children } from "@kitajs/html";
import type { FormEntry, FormField, FormGroup } from "../../src/products/types";

/** One refused field: the message, next to the input it is about when there is one. */
interface FieldProblem {
  message: string;
  /** The input name the message belongs to (see inputForField). */
  input?: string;
}

/** What a form shows after a refusal: the first problem, and the others the same check found (all at once). */
export interface FormProblem extends FieldProblem {
  more?: readonly FieldProblem[];
  /** Where the fix is when it is on another page ("add the missing details on the consumer's page"). */
  fix?: { href: string; label: string };
}

const problemsOf = (problem?: FormProblem): FieldProblem[] => (problem ? [problem, ...(problem.more ?? [])] : []);

export type FormValues = Record<string, string | undefined>;

const describedBy = (name: string, hint?: string, error?: string) =>
  [hint ? `${name}-hint` : "", error ? `${name}-error` : ""].filter(Boolean).join(" ") || undefined;

/** A problem without an input of its own (or whose input is not on the page), shown above the form. */
export function ProblemSummary(props: { problem?: FormProblem; inputs?: readonly string[] }) {
  const unplaced = problemsOf(props.problem).filter((p) => !(p.input && props.inputs?.includes(p.input)));
  return (
    <>
      {unplaced.map((p) => (
        <div class="problem" role="alert" safe>
          {p.message}
        </div>
      ))}
      {props.problem?.fix ? (
        <p>
          <a class="button" href={props.problem.fix.href} safe>
            {props.problem.fix.label}
          </a>
        </p>
      ) : (
        ""
      )}
    </>
  );
}

const errorFor = (name: string, problem?: FormProblem) => problemsOf(problem).find((p) => p.input === name)?.message;

/** One labelled input of any kind, keeping what was typed and showing its error beside it. */
export function Input(props: {
  name: string;
  label: string;
  kind?: FormField["kind"] | "email" | "password" | "hidden" | "month";
  value?: string;
  /** The latest value a month input offers (YYYY-MM). */
  max?: string;
  required?: boolean;
  hint?: string;
  options?: readonly { value: string; label: string }[];
  /** The text of a select's empty choice: a filter's "Any" rather than a form's "Choose…". */
  emptyChoice?: string;
  problem?: FormProblem;
  autocomplete?: string;
  /** Changing this input re-draws its form (it decides which other inputs are shown). */
  redraws?: boolean;
  /** A key that focuses this input when the page offers keyboard shortcuts (public/portal.js). */
  shortcut?: string;
  /** A textarea whose Enter sends its form (Shift+Enter still starts a new line; public/portal.js). */
  enterSubmits?: boolean;
}) {
  const { name, kind = "text", value = "" } = props;
  const error = errorFor(name, props.problem);
  const id = `f-${name.replace(/[^\w-]/g, "-")}`;
  const common = {
    id,
    name,
    "aria-describedby": describedBy(id, props.hint, error),
    "aria-invalid": error ? "true" : undefined,
    required: props.required,
    class: props.redraws ? "redraws" : undefined,
    "data-key": props.shortcut,
    "aria-keyshortcuts": props.shortcut?.toUpperCase(),
    "data-enter-submits": props.enterSubmits,
  };
  let control: JSX.Element;
  switch (kind) {
    case "select":
      control = (
        <select {...common}>
          <option value="" safe>
            {props.emptyChoice ?? "Choose…"}
          </option>
          {(props.options ?? []).map((o) => (
            <option value={o.value} selected={o.value === value} safe>
              {o.label}
            </option>
          ))}
        </select>
      );
      break;
    case "textarea":
      control = (
        <textarea {...common} rows="3" safe>
          {value}
        </textarea>
      );
      break;
    case "checkbox":
      control = <input {...common} type="checkbox" checked={value === "on" || value === "true"} required={false} />;
      break;
    case "document":
      control = <input {...common} type="file" accept="application/pdf,image/jpeg,image/png,image/webp" />;
      break;
    case "number":
    case "integer":
      // Text with a numeric keyboard: people type thousands separators ("1,500,000").
      control = <input {...common} type="text" inputmode={kind === "integer" ? "numeric" : "decimal"} value={value} />;
      break;
    case "datetime":
      control = <input {...common} type="datetime-local" step="1" value={value} />;
      break;
    case "phone":
      control = <input {...common} type="tel" autocomplete="tel" value={value} />;
      break;
    case "plate":
      // Plates are capitals: phones offer them first.
      control = <input {...common} type="text" autocapitalize="characters" value={value} />;
      break;
    default:
      control = <input {...common} type={kind} value={value} max={props.max} autocomplete={props.autocomplete} />;
  }
  if (kind === "hidden") return <input type="hidden" name={name} value={value} />;
  return (
    <div class={`field${error ? " has-error" : ""}`}>
      {/* The asterisk of a required input is drawn by CSS, so the label's text is exactly the field's name. */}
      <label for={id} class={props.required ? "required" : undefined} safe>
        {props.label}
      </label>
      {control}
      {props.hint ? (
        <small id={`${id}-hint`} class="hint" safe>
          {props.hint}
        </small>
      ) : (
        ""
      )}
      {error ? (
        <p id={`${id}-error`} class="error" safe>
          {error}
        </p>
      ) : (
        ""
      )}
    </div>
  );
}

/** Entries of a repeatable group shown: what was sent, at least `min`, plus one blank to add another. */
const rowsOf = (group: FormGroup, values: FormValues) => {
  let filled = 0;
  for (const name of Object.keys(values)) {
    const m = name.startsWith(`${group.path}.`) ? /^(\d+)\./.exec(name.slice(group.path.length + 1)) : null;
    if (m && values[name]) filled = Math.max(filled, Number(m[1]) + 1);
  }
  return Math.min(group.max, Math.max(group.min, filled + 1));
};

/**
 * A product's form entries (see src/products/types.ts): inputs named by their wire paths. Entries
 * shown only for another input's value are left out until it has that value (the form re-draws
 * itself when a choice changes).
 */
export function ProductFields(props: { entries: readonly FormEntry[]; values: FormValues; problem?: FormProblem }) {
  const controllers = new Set(props.entries.flatMap((e) => (e.showWhen ? [e.showWhen.path] : [])));
  return (
    <>
      {props.entries.map((entry) => {
        if (entry.showWhen && props.values[entry.showWhen.path] !== entry.showWhen.equals) return "";
        if (entry.kind !== "group")
          return (
            <div>
              <Input
                name={entry.path}
                label={entry.label}
                kind={entry.kind}
                value={props.values[entry.path]}
                required={entry.required}
                hint={entry.hint}
                options={entry.options}
                problem={props.problem}
                redraws={controllers.has(entry.path)}
              />
            </div>
          );
        return (
          <fieldset class="group">
            <legend safe>{entry.label}</legend>
            {Array.from({ length: rowsOf(entry, props.values) }, (_, index) => (
              <fieldset class="row">
                <legend safe>{`${entry.itemLabel} ${index + 1}`}</legend>
                {entry.fields.map((field) => {
                  const name = `${entry.path}.${index}.${field.path}`;
                  return (
                    <Input
                      name={name}
                      label={field.label}
                      kind={field.kind}
                      value={props.values[name]}
                      required={field.required && index < entry.min}
                      hint={field.hint}
                      options={field.options}
                      problem={props.problem}
                    />
                  );
                })}
              </fieldset>
            ))}
            <small class="hint" safe>{`Up to ${entry.max}. Leave an entry blank to leave it out; send the form to get another blank entry.`}</small>
          </fieldset>
        );
      })}
    </>
  );
}

/** The CSRF token every non-htmx form sends back. */
export const Csrf = (props: { token: string }) => <input type="hidden" name="_csrf" value={props.token} />;

/**
 * A form that works both ways: posted by htmx, which swaps the answer in place of `target`
 * (the form's own card, or the record it changes) with its buttons disabled meanwhile, and as a
 * plain form post without JavaScript. Carries the CSRF token.
 */
export function HxForm(props: {
  action: string;
  target: string;
  csrf: string;
  files?: boolean;
  /** How the answer takes the target's place: the whole element by default. */
  swap?: "outerHTML" | "innerHTML" | "beforebegin";
  /** A question the browser asks before sending (a change that is hard to undo). */
  confirm?: string;
  class?: string;
  children: Children;
}) {
  const encoding = props.files ? "multipart/form-data" : undefined;
  return (
    <form
      method="post"
      action={props.action}
      enctype={encoding}
      hx-post={props.action}
      hx-encoding={encoding}
      hx-target={props.target}
      hx-swap={props.swap ?? "outerHTML"}
      hx-confirm={props.confirm}
      hx-indicator="#loading"
      hx-disabled-elt="find button"
      // Requests made by elements inside the form (a live premium, a redraw) disable nothing and ask nothing.
      hx-disinherit="hx-disabled-elt hx-confirm"
      class={props.class}
    >
      <Csrf token={props.csrf} />
      {props.children}
    </form>
  );
}

/** "Show more" for a keyset-paginated list: the next rows replace this row (href asks for rows only). */
export function MoreRows(props: { href: string | null; colspan: number }) {
  if (!props.href) return "";
  return (
    <tr class="more">
      <td colspan={String(props.colspan)}>
        <button type="button" class="link" hx-get={props.href} hx-target="closest tr" hx-swap="outerHTML" hx-indicator="#loading">
          Show more
        </button>
      </td>
    </tr>
  );
}

/** A column heading: numeric columns are right-aligned; `false` or `undefined` leaves the column out. */
export type Column = string | { label: string; numeric: true } | false | undefined;

/**
 * A list as a table whose body rows are the children (a paginated list ends them with MoreRows).
 * Given `count` of 0 it shows the `empty` line instead. `caption` names the table for screen readers;
 * `bodyId` is the body's id, for forms whose answer replaces the rows.
 */
export function Table(props: {
  columns: readonly Column[];
  count?: number;
  empty?: Children;
  caption?: string;
  /** Show the caption rather than keep it for screen readers. */
  showCaption?: boolean;
  class?: string;
  /**
   * On a phone each row becomes a card of its cells, one under another, each `td` named by its
   * `data-label`. public/portal.js does this for every table (naming cells by their column); a table
   * marked here is a card list even without the script.
   */
  stacked?: boolean;
  bodyId?: string;
  /** The rows of a totals footer. */
  /** Rows the caller rendered (their text escaped there), after the body. */
  footer?: JSX.Element;
  children: Children;
}) {
  if (props.count === 0) return <Empty>{props.empty}</Empty>;
  return (
    // A table wider than the page scrolls inside its own box, which keyboards must reach: the page never scrolls sideways.
    <div class="table-box" tabindex="0">
      <table class={[props.class, props.stacked ? "stacked" : undefined].filter(Boolean).join(" ") || undefined}>
        {props.caption ? (
          <caption class={props.showCaption ? undefined : "visually-hidden"} safe>
            {props.caption}
          </caption>
        ) : (
          ""
        )}
        <thead>
          <tr>
            {props.columns.map((column) =>
              !column ? (
                ""
              ) : typeof column === "string" ? (
                <th scope="col" safe>
                  {column}
                </th>
              ) : (
                <th scope="col" class="num" safe>
                  {column.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody id={props.bodyId}>{props.children}</tbody>
        {props.footer === undefined ? "" : <tfoot>{props.footer as "safe"}</tfoot>}
      </table>
    </div>
  );
}

/** The line that says a change was made, read out by screen readers; nothing without a text. */
export function Done(props: { text?: string | null }) {
  if (!props.text) return "";
  return (
    <p class="success" role="status" aria-live="polite" safe>
      {props.text}
    </p>
  );
}

/** A friendly line for a list with nothing in it. */
export const Empty = (props: { children: Children }) => <p class="empty">{props.children}</p>;

/** A status shown as a coloured label, e.g. Approved, Pending. */
export const Badge = (props: { tone: "ok" | "wait" | "bad" | "info"; text: string }) => (
  <span class={`badge badge-${props.tone}`} safe>
    {props.text}
  </span>
);

/** "Download CSV" of a list: what its filters select, every page of it. */
export const DownloadLink = (props: { href: string }) => (
  <p>
    <a class="button secondary" href={props.href} download="">
      Download CSV
    </a>{" "}
    <span class="muted">Everything the filters select, not only this page.</span>
  </p>
);
