/** The fraud signals as the operator's pages show them (views/claims/signals.tsx). */
import type { ClaimSignalsView } from "../../../views/claims/signals";
import type { ClaimSignals } from "./rules";
import { flagWords, signalsSummary } from "./words";

export const signalsCard = (signals: ClaimSignals): ClaimSignalsView => ({
  score: signals.score,
  needsSecondReviewer: signals.needsSecondReviewer,
  summary: signalsSummary(signals),
  flags: signals.flags.map((f) => ({ words: flagWords(f), score: f.score })),
});
