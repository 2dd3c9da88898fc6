import { HxForm } from "../portal/ui";

/** A change to a policy that is confirmed on its own page (reinstate, renew): what it will do, then the button. */
export interface ConfirmChangeProps {
  /** The heading's and the button's verb. */
  verb: "Reinstate" | "Renew";
  reference: string;
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

export function ConfirmChange(props: ConfirmChangeProps) {
  const back = <a href={props.backHref}>Back to the policy</a>;
  return (
    <section id="confirm-change">
      <h1>
        {props.verb} policy <span safe>{props.reference}</span>
      </h1>
      <p safe>{props.productName}</p>
      {props.problem ? (
        <>
          <p class="problem" role="alert" safe>
            {props.problem}
          </p>
          <p>{back}</p>
        </>
      ) : (
        <HxForm action={props.action} target="#confirm-change" confirm={`${props.verb} policy ${props.reference}? ${props.consequence}.`} csrf={props.csrf}>
          <dl>
            {props.lines.map(([label, value]) => (
              <>
                <dt safe>{label}</dt>
                <dd safe>{value}</dd>
              </>
            ))}
          </dl>
          <p>
            <button type="submit">{props.verb} the policy</button> {back}
          </p>
        </HxForm>
      )}
    </section>
  );
}
