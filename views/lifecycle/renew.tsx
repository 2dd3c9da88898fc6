import { HxForm } from "../portal/ui";

export interface RenewViewProps {
  reference: string;
  productName: string;
  backHref: string;
  action: string;
  csrf: string;
  /** The new premium in naira words, and how it is paid. */
  premium: string;
  /** "1 Dec 2026 to 30 Nov 2027". */
  cover: string;
  /** How the new policy is decided: at once, by the insurer, by a review. */
  decision: string;
  /** Why it cannot be renewed, in words (then there is no form). */
  problem?: string;
}

/** Renew a policy: the new premium, the cover it continues with and how it is decided, before the confirmation. */
export function RenewView(props: RenewViewProps) {
  return (
    <section id="renew">
      <h1>
        Renew policy <span safe>{props.reference}</span>
      </h1>
      <p safe>{props.productName}</p>
      {props.problem ? (
        <>
          <p class="problem" role="alert" safe>
            {props.problem}
          </p>
          <p>
            <a href={props.backHref}>Back to the policy</a>
          </p>
        </>
      ) : (
        <HxForm action={props.action} target="#renew" confirm={`Renew policy ${props.reference}? ${props.premium}.`} csrf={props.csrf}>
          <dl>
            <dt>New premium</dt>
            <dd safe>{props.premium}</dd>
            <dt>Cover</dt>
            <dd safe>{props.cover}</dd>
            <dt>Decision</dt>
            <dd safe>{props.decision}</dd>
          </dl>
          <p>
            <button type="submit">Renew the policy</button> <a href={props.backHref}>Back to the policy</a>
          </p>
        </HxForm>
      )}
    </section>
  );
}
