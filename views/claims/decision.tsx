import { dateTime, noteText } from "../format";
import { type FormProblem, HxForm, Input, ProblemSummary } from "../portal/ui";

/** A decision waiting for a second administrator, and what the viewer may do about it. */
export interface RecommendationView {
  action: string;
  decision: "approved" | "rejected";
  /** "Approve for ₦1,200,000.00, ₦1,200,000.00 payable" / "Reject: The loss is not covered …" */
  what: string;
  note: string | null;
  by: string;
  at: Date;
  /** Why it waits, one sentence each. */
  why: string[];
  confirmLabel: string;
  /** Why the viewer may not confirm it (they recommended it, or their authority does not reach), or undefined. */
  cannotConfirm?: string;
  cannotReturn?: string;
}

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;

/**
 * The recommendation waiting on a claim: what is recommended, by whom, why a second administrator
 * must confirm it, and (for an administrator who may) the buttons to confirm it or send it back.
 */
export function RecommendationCard(props: { view: RecommendationView; csrf: string; values: Record<string, string | undefined>; problem?: FormProblem }) {
  const r = props.view;
  const decides = !r.cannotConfirm || !r.cannotReturn;
  return (
    <section class="card" aria-labelledby="recommendation-title">
      <h2 id="recommendation-title">Waiting for a second administrator</h2>
      <p>
        <strong safe>{r.what}</strong>
      </p>
      <p class="muted" safe>{`Recommended by ${r.by}, ${dateTime(r.at)}.`}</p>
      {r.note ? <p safe>{noteText(r.note)}</p> : ""}
      <ul>
        {r.why.map((w) => (
          <li safe>{sentence(w)}</li>
        ))}
      </ul>
      {decides ? (
        <HxForm action={r.action} target="#claim" csrf={props.csrf}>
          <ProblemSummary problem={props.problem} inputs={["note"]} />
          <Input
            name="note"
            label="Why you send it back (needed to send it back)"
            kind="textarea"
            value={props.values.note}
            problem={props.problem}
            hint="The administrator who recommended it sees this; the claim stays in review."
          />
          <p>
            {r.cannotConfirm ? (
              ""
            ) : (
              <>
                <button type="submit" name="choice" value="confirm" safe>
                  {r.confirmLabel}
                </button>{" "}
              </>
            )}
            {r.cannotReturn ? (
              ""
            ) : (
              <button type="submit" name="choice" value="return" class="secondary">
                Send it back
              </button>
            )}
          </p>
          {r.cannotConfirm && !r.cannotReturn ? (
            <p class="muted" safe>
              {sentence(r.cannotConfirm)}
            </p>
          ) : (
            ""
          )}
        </HxForm>
      ) : (
        <p class="notice" safe>
          {sentence(r.cannotConfirm ?? "")}
        </p>
      )}
    </section>
  );
}
