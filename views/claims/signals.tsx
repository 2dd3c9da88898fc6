import { Badge } from "../portal/ui";

/** What the fraud rules found on a claim, in words (src/modules/signals): the operator's only. */
export interface ClaimSignalsView {
  score: number;
  needsSecondReviewer: boolean;
  /** The finding in a sentence: how many signals, the score, what it means for the decision. */
  summary: string;
  /** Highest score first: what the rule saw, in a sentence, and what it adds to the score. */
  flags: readonly { words: string; score: number }[];
}

/** A flagged claim's mark in a list: its score, and whether a second administrator must confirm the decision. */
export interface ClaimSignalMark {
  score: number;
  needsSecondReviewer: boolean;
}

export const SignalMark = (props: { mark: ClaimSignalMark }) => (
  <Badge
    tone={props.mark.needsSecondReviewer ? "bad" : "wait"}
    text={`Flagged, score ${props.mark.score}${props.mark.needsSecondReviewer ? ": second reviewer" : ""}`}
  />
);

/** The operator's "Signals" card on a claim page: the rules flag, they never decide. */
export function SignalsCard(props: { signals: ClaimSignalsView }) {
  const s = props.signals;
  return (
    <section class="card" aria-labelledby="claim-signals-title">
      <h2 id="claim-signals-title">Signals</h2>
      <p>
        {s.flags.length ? (
          <>
            <SignalMark mark={s} />{" "}
          </>
        ) : (
          ""
        )}
        <span safe>{s.summary}</span>
      </p>
      {s.flags.length ? (
        <ul class="checklist">
          {s.flags.map((f) => (
            <li>
              <span safe>{f.words}</span> <span class="muted" safe>{`(+${f.score})`}</span>
            </li>
          ))}
        </ul>
      ) : (
        ""
      )}
      <p class="hint">Signals say what to look at closely; they never decide a claim. The partner never sees them.</p>
    </section>
  );
}
