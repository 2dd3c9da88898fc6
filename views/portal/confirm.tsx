import { HxForm } from "./ui";

/**
 * The step between asking for an action that moves money or cuts someone off and doing it: the
 * action with whom and how much in its heading, what it does, and the button that says it again
 * ("Credit ₦2,500,000.00 to Acme"). It is a page of its own (or the part of one htmx swaps in), so
 * it works without JavaScript; the form sends back the values it names with the server's token
 * (src/portal/confirm.ts), without which the action is not done.
 */
export interface ConfirmStepProps {
  /** The element's id: the answer to the confirmation takes the place of `target` (this element unless told). */
  id: string;
  target?: string;
  /** "Suspend Acme Insurance?" */
  heading: string;
  /** A page of its own has the page's heading; a step inside a card a section heading. */
  level?: 1 | 2;
  /** What the action is about, as label and value (the policy, the amount, the bank reference). */
  lines?: readonly (readonly [label: string, value: string])[];
  /** What happens once confirmed, one sentence each. */
  consequences: readonly string[];
  action: string;
  csrf: string;
  files?: boolean;
  /** What the form sends back: the values the confirmation names and its token. */
  fields: Readonly<Record<string, string | undefined>>;
  /** The button, naming the action, the amount and whom ("Issue and pay ₦21,600.00"). */
  button: string;
  danger?: boolean;
  /** The way back without doing anything: a link, or a post of the same values to `action` (a form to correct). */
  back: { label: string; href: string } | { label: string; action: string };
}

/** htmx focuses an `autofocus` element of what it swaps in; Kita types the attribute on form controls only. */
const FOCUSED_WHEN_SWAPPED = { autofocus: true };

export function ConfirmStep(props: ConfirmStepProps) {
  const headingId = `${props.id}-heading`;
  const heading = (
    // Focused when swapped in (htmx moves focus to [autofocus]), so on a phone the question is on screen, not the button.
    <span id={headingId} tabindex="-1" {...FOCUSED_WHEN_SWAPPED} safe>
      {props.heading}
    </span>
  );
  return (
    <section id={props.id} class="card confirm-step" aria-labelledby={headingId}>
      {props.level === 1 ? <h1>{heading}</h1> : <h2>{heading}</h2>}
      {props.lines?.length ? (
        <dl class="facts">
          {props.lines.map(([label, value]) => (
            <>
              <dt safe>{label}</dt>
              <dd safe>{value}</dd>
            </>
          ))}
        </dl>
      ) : (
        ""
      )}
      <ul>
        {props.consequences.map((line) => (
          <li safe>{line}</li>
        ))}
      </ul>
      <HxForm action={props.action} target={props.target ?? `#${props.id}`} csrf={props.csrf} files={props.files}>
        {Object.entries(props.fields).map(([name, value]) => (
          <input type="hidden" name={name} value={value ?? ""} />
        ))}
        <p class="actions">
          <button type="submit" class={props.danger ? "danger" : undefined} safe>
            {props.button}
          </button>{" "}
          {"href" in props.back ? (
            <a href={props.back.href} safe>
              {props.back.label}
            </a>
          ) : (
            <button type="submit" class="secondary" formaction={props.back.action} formnovalidate safe>
              {props.back.label}
            </button>
          )}
        </p>
      </HxForm>
    </section>
  );
}
