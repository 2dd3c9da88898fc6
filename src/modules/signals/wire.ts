/** The fraud signals in the operator's answers (`claim review`, `claim assess`); never in a partner's. */
import { z } from "zod";
import { type ClaimSignals, RULE_KEYS } from "./rules";
import { flagWords } from "./words";

export const signalsAnswer = z
  .object({
    score: z.int().meta({ description: "The flags' scores added up; 0 when no rule flagged the claim" }),
    needsSecondReviewer: z.boolean().meta({ description: "The score reached CLAIM_SIGNAL_REVIEW_SCORE: a second administrator confirms the decision" }),
    flags: z.array(
      z.object({
        rule: z.enum(RULE_KEYS),
        score: z.int(),
        words: z.string().meta({ description: "What the rule saw, in a sentence" }),
      }),
    ),
  })
  .meta({ description: 'What the fraud rules flagged (docs/claims.md, "Fraud signals"): they flag, never decide' });

export const wireSignals = (signals: ClaimSignals): z.output<typeof signalsAnswer> => ({
  score: signals.score,
  needsSecondReviewer: signals.needsSecondReviewer,
  flags: signals.flags.map((f) => ({ rule: f.rule, score: f.score, words: flagWords(f) })),
});
