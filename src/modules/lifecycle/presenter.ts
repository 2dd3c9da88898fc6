import { coverPeriod, day } from "../../../views/format";
import type { CancelFormProps, RefundPreview } from "../../../views/lifecycle/cancel";
import type { ConfirmChangeProps } from "../../../views/lifecycle/confirm";
import type { FormProblem } from "../../../views/portal/ui";
import { CommandError } from "../../core/errors";
import { formatNaira } from "../../core/money";
import type { Database } from "../../db/client";
import { inWords } from "../../portal/words";
import { productName } from "../../products";
import { watToday } from "../../products/policy-helpers";
import type { PolicyRecord } from "../policies/types";
import { CANCELLATION_REASON_TEXT } from "./model";
import { assessReinstatement, type CancellationRecord, type CancellationTerms, type Canceller, quoteCancellation, quoteRenewal } from "./service";

/** Whose wallet the refund goes to, in the viewer's words. */
const walletOf = (canceller: Canceller) => (canceller.kind === "partner" ? "your wallet" : "the partner's wallet");

/** A refund as the form and the policy page say it. */
function refundText(policy: PolicyRecord, refundKobo: number, canceller: Canceller): string {
  if (policy.mode === "test") return `${formatNaira(refundKobo)} (a test policy: no money moves)`;
  return refundKobo > 0 ? `${formatNaira(refundKobo)} back to ${walletOf(canceller)}` : "Nothing comes back";
}

function previewOf(policy: PolicyRecord, terms: CancellationTerms, canceller: Canceller, now: Date): RefundPreview {
  const today = watToday(now);
  return {
    refund: refundText(policy, terms.refund.refundKobo, canceller),
    explanation: terms.refund.explanation,
    coverEnds:
      terms.effectiveDate === today ? "The cover stops as soon as you confirm." : `The last day of cover is ${day(new Date(terms.effectiveAt.getTime() - 1))}.`,
  };
}

/** The refund for a chosen day, or the reason that day cannot be chosen, in people's words. */
export async function refundPreview(
  db: Database,
  canceller: Canceller,
  policy: PolicyRecord,
  effectiveDate: string | undefined,
  now: Date,
): Promise<{ preview?: RefundPreview; problem?: string }> {
  try {
    const { terms } = await quoteCancellation(db, canceller, { policyId: policy.id }, effectiveDate, now);
    return { preview: previewOf(policy, terms, canceller, now) };
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    return { problem: inWords(error.message) };
  }
}

const REASON_OPTIONS = (canceller: Canceller) =>
  Object.entries(CANCELLATION_REASON_TEXT)
    .filter(([, reason]) => canceller.kind === "operator" || !reason.operatorOnly)
    .map(([value, reason]) => ({ value, label: reason.text }));

/** The cancellation form of `policy` at `base` (its page), with the refund for the chosen (or today's) day. */
export async function cancelFormView(
  db: Database,
  canceller: Canceller,
  policy: PolicyRecord,
  base: string,
  form: { csrf: string; values: Record<string, string | undefined>; problem?: FormProblem },
  now: Date,
): Promise<CancelFormProps> {
  const effectiveDate = form.values.effectiveDate?.trim() || undefined;
  const { preview } = await refundPreview(db, canceller, policy, effectiveDate, now);
  return {
    reference: policy.reference,
    productName: productName(policy.productCode),
    backHref: base,
    action: `${base}/cancel`,
    previewHref: `${base}/cancel/refund`,
    reasons: REASON_OPTIONS(canceller),
    today: watToday(now),
    lastDay: watToday(new Date(policy.coverEnd.getTime() - 1)),
    csrf: form.csrf,
    values: form.values,
    problem: form.problem,
    preview,
  };
}

/** What a policy page says of a cancellation: what came back and by which rule. */
export function cancellationSummary(policy: PolicyRecord, cancellation: CancellationRecord): string {
  const refund =
    policy.mode === "test"
      ? `${formatNaira(cancellation.refundKobo)} would have come back (a test policy: no money moved)`
      : cancellation.refundKobo > 0
        ? `${formatNaira(cancellation.refundKobo)} went back to the wallet`
        : "Nothing came back";
  return `${refund}. ${cancellation.explanation}.`;
}

/** The confirmation page of a change (`verb`) to `policy` at `base`: its lines, or why it cannot be made (a refusal in words). */
async function confirmationOf(
  verb: "Reinstate" | "Renew",
  policy: PolicyRecord,
  base: string,
  csrf: string,
  problem: string | undefined,
  assess: () => Promise<{ lines: [string, string][]; consequence: string }>,
): Promise<ConfirmChangeProps> {
  const shell = {
    verb,
    reference: policy.reference,
    productName: productName(policy.productCode),
    backHref: base,
    action: `${base}/${verb.toLowerCase()}`,
    csrf,
  };
  try {
    return { ...shell, ...(await assess()), problem };
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    return { ...shell, lines: [], consequence: "", problem: problem ?? inWords(error.message) };
  }
}

/** The reinstatement page of `policy`: what is paid back and the gap it leaves, or why it cannot be. */
export function reinstateView(db: Database, canceller: Canceller, policy: PolicyRecord, base: string, csrf: string, now: Date, problem?: string) {
  return confirmationOf("Reinstate", policy, base, csrf, problem, async () => {
    const { owedKobo, gap } = await assessReinstatement(db, policy, now);
    const owed = policy.mode === "test" ? "Nothing (a test policy: no money moves)" : `${formatNaira(owedKobo)} from ${walletOf(canceller)}`;
    return {
      lines: [
        ["To pay back", owed],
        [
          "Gap in cover",
          gap ? `No cover from ${day(gap.from)} to ${day(gap.to)}: claims for incidents then are refused.` : "None: the cancellation had not taken effect yet.",
        ],
      ],
      consequence: owed,
    };
  });
}

const DECISION_TEXT = {
  test: "At once (test mode: a specimen)",
  approve: "At once",
  insurer: "By the insurer, usually within minutes",
  manual: "By the insurer's underwriter, within one working day",
} as const;

/** The renewal page of `policy`: the new premium, cover and decision, or why it cannot be renewed. */
export function renewView(
  db: Database,
  canceller: Canceller,
  policy: PolicyRecord,
  base: string,
  csrf: string,
  now: Date,
  insurerDelayMs: number,
  problem?: string,
) {
  return confirmationOf("Renew", policy, base, csrf, problem, async () => {
    const { renewal } = await quoteRenewal(db, canceller, { policyId: policy.id }, now, insurerDelayMs);
    const premium =
      policy.mode === "test"
        ? `${formatNaira(renewal.premiumKobo)} (test mode: nothing is paid)`
        : `${formatNaira(renewal.premiumKobo)} from ${walletOf(canceller)}`;
    return {
      lines: [
        ["New premium", premium],
        ["Cover", coverPeriod(renewal.coverStart, renewal.coverEnd)],
        ["Decision", policy.mode === "test" ? DECISION_TEXT.test : DECISION_TEXT[renewal.route]],
      ],
      consequence: premium,
    };
  });
}
