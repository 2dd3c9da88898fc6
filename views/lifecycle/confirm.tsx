import type { Children } from "@kitajs/html";
import { HxForm } from "../portal/ui";

/** A change to a policy that is confirmed on its own page (reinstate, renew): what it will do, then the button. */
export interface ConfirmChangeProps {
  /** The heading's and the button's verb. */
  verb: "Reinstate" | "Renew";
  /** The policy's number (or product) and whose it is (policyName). */
  policyName: string;
  /** The reference the change is stored under, drawn with the page: confirming twice is a repeat, not a second change. */
  changeReference: string;
  productName: string;
  backHref: string;
  action: string;
  csrf: string;
  /** What the change will do, as label and value, shown before the confirmation. */
  lines: readonly (readonly [label: string, value: string])[];
  /** What the browser's confirmation says beside the question. */
  consequence: string;
  /** Why it cannot be done, in words (then there is no form). */
  problem?: string;
}

/** The heading of a page that changes a policy ("Renew policy POL-… (Adaeze Okafor)"), and the product. */
export const ChangeHeading = (props: { verb: "Reinstate" | "Renew" | "Change"; policyName: string; productName: string }) => (
  <>
    <h1>
      {props.verb} policy <span safe>{props.policyName}</span>
    </h1>
    <p safe>{props.productName}</p>
  </>
);

/** What a change will do, as label and value. */
export const ChangeLines = (props: { lines: readonly (readonly [label: string, value: string])[] }) => (
  <dl>
    {props.lines.map(([label, value]) => (
      <>
        <dt safe>{label}</dt>
        <dd safe>{value}</dd>
      </>
    ))}
  </dl>
);

/** Why the change cannot be made, in words, and the way back (then there is no form). */
export const ChangeRefused = (props: { problem: string; children: Children }) => (
  <>
    <p class="problem" role="alert" safe>
      {props.problem}
    </p>
    <p>{props.children}</p>
  </>
);

export function ConfirmChange(props: ConfirmChangeProps) {
  const back = <a href={props.backHref}>Back to the policy</a>;
  return (
    <section id="confirm-change">
      <ChangeHeading verb={props.verb} policyName={props.policyName} productName={props.productName} />
      {props.problem ? (
        <ChangeRefused problem={props.problem}>{back}</ChangeRefused>
      ) : (
        <HxForm action={props.action} target="#confirm-change" confirm={`${props.verb} policy ${props.policyName}? ${props.consequence}.`} csrf={props.csrf}>
          <input type="hidden" name="id" value={props.changeReference} />
          <ChangeLines lines={props.lines} />
          <p>
            <button type="submit">{props.verb} the policy</button> {back}
          </p>
        </HxForm>
      )}
    </section>
  );
}
