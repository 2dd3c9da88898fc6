import { HxForm } from "../portal/ui";

export interface ReinstateViewProps {
  reference: string;
  productName: string;
  backHref: string;
  action: string;
  csrf: string;
  /** "₦9,801.37 from your wallet" or that a test policy moves no money. */
  owed: string;
  /** "No cover from 1 Dec 2026 to 5 Dec 2026: claims for incidents then are refused", or that there is no gap. */
  gap: string;
  /** Why it cannot be reinstated, in words (then there is no form). */
  problem?: string;
}

/** Put a cancelled policy back in force: what it costs and the gap it leaves, before the confirmation. */
export function ReinstateView(props: ReinstateViewProps) {
  return (
    <section id="reinstate">
      <h1>
        Reinstate policy <span safe>{props.reference}</span>
      </h1>
      <p safe>{props.productName}</p>
      {props.problem ? (
        <p class="problem" role="alert" safe>
          {props.problem}
        </p>
      ) : (
        <HxForm action={props.action} target="#reinstate" confirm={`Reinstate policy ${props.reference}? ${props.owed}.`} csrf={props.csrf}>
          <dl>
            <dt>To pay back</dt>
            <dd safe>{props.owed}</dd>
            <dt>Gap in cover</dt>
            <dd safe>{props.gap}</dd>
          </dl>
          <p>
            <button type="submit">Reinstate the policy</button> <a href={props.backHref}>Back to the policy</a>
          </p>
        </HxForm>
      )}
      {props.problem ? (
        <p>
          <a href={props.backHref}>Back to the policy</a>
        </p>
      ) : (
        ""
      )}
    </section>
  );
}
