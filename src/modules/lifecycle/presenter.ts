import { coverPeriod, dateTime, day, gapDays, noteText } from "../../../views/format";
import type { CancelFormProps, RefundPreview } from "../../../views/lifecycle/cancel";
import type { ChangeDecisionProps, ChangeFormProps, ChangeRow } from "../../../views/lifecycle/change";
import type { ConfirmChangeProps } from "../../../views/lifecycle/confirm";
import type { PolicyLifecycleView } from "../../../views/policies/policies";
import type { FormProblem } from "../../../views/portal/ui";
import { CommandError } from "../../core/errors";
import { newId, normaliseUuid } from "../../core/ids";
import { formatNaira } from "../../core/money";
import { lastCoverDay } from "../../core/time";
import type { Database } from "../../db/client";
import { problemOf } from "../../portal/page";
import { inWords } from "../../portal/words";
import { findProduct, productName } from "../../products";
import { CANCELLATION_REASON_TEXT, claimsAfterCancellation } from "../../products/cancellation";
import { seedFromForm } from "../../products/forms";
import { watToday } from "../../products/policy-helpers";
import type { FormField } from "../../products/types";
import { partnerNames } from "../partners";
import type { FactChange, PolicyRecord } from "../policies";
import { type CancellationRecord, cancellationOf, type EndorsementRecord, endorsementsOf, policyTitle } from "../policies";
import { type CancellationTerms, quoteCancellation } from "./cancellation";
import type { Canceller } from "./changes";
import { checkChangeable, endorsableFields, quoteEndorsement } from "./endorsements";
import { typedEffectiveDate } from "./model";
import { assessReinstatement, REINSTATEMENT_WINDOW_DAYS, reinstatable } from "./reinstatement";
import { quoteRenewal, renewable, renewalLinks } from "./renewal";

/**
 * The reference a form's change is stored under: the one the form was drawn with (its `id`), so that
 * sending it again is answered as the first time (docs/reliability.md, "Concurrent repeats"); a new
 * one for a new form, or a post without one.
 */
export const changeReferenceOf = (values?: Record<string, string | undefined>): string => normaliseUuid(values?.id) ?? newId();

/** A refusal on these pages in people's words, its dates as every date on the page ("until 27 Dec 2026"). */
export const refusalText = (error: CommandError) => noteText(inWords(error.message));

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
    explanation: [terms.refund.explanation, claimsAfterCancellation(terms.refund)].filter(Boolean).join(". "),
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
    const { terms } = await quoteCancellation(db, canceller, { policyId: policy.id }, typedEffectiveDate(effectiveDate), now);
    return { preview: previewOf(policy, terms, canceller, now) };
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    return { problem: refusalText(error) };
  }
}

/**
 * What the confirmation of a cancellation says: the cover stops, who is told (the partner's staff
 * read "your systems", the operator the partner's name), and that it is not final: it can be
 * reinstated within the window, what came back paid back.
 */
async function cancelConsequence(db: Database, canceller: Canceller, policy: PolicyRecord): Promise<string> {
  const whose = canceller.kind === "partner" ? "your" : `${(await partnerNames(db, [policy.partnerId])).get(policy.partnerId) ?? "the partner"}'s`;
  return (
    `The cover stops from the first day without cover, and ${whose} systems are told at once. ` +
    `It can be reinstated within ${REINSTATEMENT_WINDOW_DAYS} days of that day, by paying back what came back.`
  );
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
    policyName: await policyTitle(db, policy),
    changeReference: changeReferenceOf(form.values),
    productName: productName(policy.productCode),
    backHref: base,
    consequence: await cancelConsequence(db, canceller, policy),
    action: `${base}/cancel`,
    previewHref: `${base}/cancel/refund`,
    reasons: REASON_OPTIONS(canceller),
    today: watToday(now),
    lastDay: lastCoverDay(policy.coverEnd),
    csrf: form.csrf,
    values: form.values,
    problem: form.problem,
    preview,
  };
}

/** What a policy page says of a cancellation: what came back and by which rule, and what a claim approved since took back. */
function cancellationSummary(policy: PolicyRecord, cancellation: CancellationRecord): string {
  const refund =
    policy.mode === "test"
      ? `${formatNaira(cancellation.refundKobo)} would have come back (a test policy: no money moved)`
      : cancellation.refundKobo > 0
        ? `${formatNaira(cancellation.refundKobo)} went back to the wallet`
        : "Nothing came back";
  const takenBack = cancellation.refundTakenBackAt
    ? ` The refund was taken back on ${day(cancellation.refundTakenBackAt)}, when a claim on the policy was approved.`
    : "";
  return `${refund}. ${cancellation.explanation}.${takenBack}`;
}

/** The confirmation page of a change (`verb`) to `policy` at `base`: its lines, or why it cannot be made (a refusal in words). */
async function confirmationOf(
  db: Database,
  verb: "Reinstate" | "Renew",
  policy: PolicyRecord,
  base: string,
  csrf: string,
  problem: string | undefined,
  assess: () => Promise<{ lines: [string, string][]; consequence: string }>,
): Promise<ConfirmChangeProps> {
  const shell = {
    verb,
    policyName: await policyTitle(db, policy),
    changeReference: changeReferenceOf(),
    productName: productName(policy.productCode),
    backHref: base,
    action: `${base}/${verb.toLowerCase()}`,
    csrf,
  };
  try {
    return { ...shell, ...(await assess()), problem };
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    return { ...shell, lines: [], consequence: "", problem: problem ?? refusalText(error) };
  }
}

/** The reinstatement page of `policy`: what is paid back and the gap it leaves, or why it cannot be. */
export function reinstateView(db: Database, canceller: Canceller, policy: PolicyRecord, base: string, csrf: string, now: Date, problem?: string) {
  return confirmationOf(db, "Reinstate", policy, base, csrf, problem, async () => {
    const { plan, owedKobo, gap } = await assessReinstatement(db, policy, now);
    // A lapsed policy's missed installments are the consumer's to pay: recorded on the plan, not taken from the wallet.
    const owed = plan
      ? `${formatNaira(owedKobo)} of missed installments, recorded as paid on plan ${plan.plan.planNo} (collect it from the consumer first)`
      : policy.mode === "test"
        ? "Nothing (a test policy: no money moves)"
        : `${formatNaira(owedKobo)} from ${walletOf(canceller)}`;
    return {
      lines: [
        [plan ? "To pay" : "To pay back", owed],
        [
          "Gap in cover",
          gap ? `No cover ${gapDays(gap.from, gap.to)}: claims for incidents then are refused.` : "None: the cancellation had not taken effect yet.",
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
  return confirmationOf(db, "Renew", policy, base, csrf, problem, async () => {
    const { renewal } = await quoteRenewal(db, canceller, { policyId: policy.id }, now, insurerDelayMs);
    const premium =
      policy.mode === "test"
        ? `${formatNaira(renewal.premiumKobo)} (test mode: nothing is paid)`
        : `${formatNaira(renewal.premiumKobo)} from ${walletOf(canceller)}`;
    return {
      lines: [
        ["New premium", premium],
        ["Cover period", coverPeriod(renewal.coverStart, renewal.coverEnd)],
        ["Decision", policy.mode === "test" ? DECISION_TEXT.test : DECISION_TEXT[renewal.route]],
      ],
      consequence: premium,
    };
  });
}

/** The product's form inputs for the facts `policy` lets change (shown whatever other inputs would decide). */
function changeEntries(policy: PolicyRecord): FormField[] {
  const product = findProduct(policy.productCode);
  const paths = endorsableFields(policy).map((field) => `addtnlFact.${field}`);
  return product.family
    .forms(product.type)
    .policy.filter((entry): entry is FormField => entry.kind !== "group" && paths.includes(entry.path))
    .map(({ showWhen: _shown, ...field }) => field);
}

/** A stored fact as its input holds it (kobo amounts as naira typed). */
function inputValue(field: FormField, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (field.wireUnit === "kobo" && typeof value === "number") return String(value / 100);
  if (typeof value === "boolean") return value ? "on" : undefined;
  return String(value);
}

/** A fact as people read it: amounts in naira, dates as days. */
function factText(field: FormField | undefined, value: unknown): string {
  if (value === undefined || value === null || value === "") return "none";
  if (typeof value === "number" && field?.kind === "number") return formatNaira(field.wireUnit === "kobo" ? value : Math.round(value * 100));
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (field?.kind === "date" && typeof value === "string") return day(value);
  return String(value);
}

/** Each change of a stored change, as "Registration plate: ABC123DE → LND456XY". */
function changeLines(policy: PolicyRecord, changes: readonly FactChange[]): string[] {
  const product = findProduct(policy.productCode);
  const fields = product.family.forms(product.type).policy.filter((entry): entry is FormField => entry.kind !== "group");
  return changes.map(({ field, from, to }) => {
    const entry = fields.find((f) => f.path === `addtnlFact.${field}`);
    return `${entry?.label ?? field}: ${factText(entry, from)} → ${factText(entry, to)}`;
  });
}

/** A premium change in the viewer's words. */
function premiumChangeText(policy: PolicyRecord, changeKobo: number, canceller: Canceller | null): string {
  if (changeKobo === 0) return "No change";
  const amount = formatNaira(Math.abs(changeKobo));
  if (policy.mode === "test") return `${amount} ${changeKobo > 0 ? "more" : "less"} (a test policy: no money moves)`;
  const wallet = canceller ? walletOf(canceller) : "the wallet";
  return changeKobo > 0 ? `${amount} from ${wallet}` : `${amount} back to ${wallet}`;
}

/** The history of `policy`'s changes, oldest first, for its page. */
function changeHistory(policy: PolicyRecord, endorsements: readonly EndorsementRecord[]): ChangeRow[] {
  const STATE: Record<EndorsementRecord["status"], (e: EndorsementRecord) => string> = {
    applied: (e) => `Version ${e.version}`,
    pending: () => "Waiting for review",
    declined: () => "Declined",
  };
  return endorsements.map((e) => ({
    state: STATE[e.status](e),
    when: dateTime(e.createdAt),
    changes: changeLines(policy, e.changes),
    premium: premiumChangeText(policy, e.premiumChangeKobo, null),
    ...(e.statusNote ? { note: `Declined: ${e.statusNote}` } : {}),
  }));
}

/** The form values of the facts that change, the policy's own where nothing was submitted. */
const currentChangeValues = (policy: PolicyRecord): Record<string, string | undefined> =>
  Object.fromEntries(changeEntries(policy).map((field) => [field.path, inputValue(field, policy.facts[field.path.slice("addtnlFact.".length)])]));

/** The facts a submitted change form changes: those whose value differs from the policy's. */
export function requestedChanges(policy: PolicyRecord, values: Record<string, string | undefined>): Record<string, unknown> {
  const sent = (seedFromForm(changeEntries(policy), values).addtnlFact ?? {}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(sent).filter(([field, value]) => JSON.stringify(policy.facts[field]) !== JSON.stringify(value)));
}

/**
 * The change form of `policy` at `base`: its fields filled in, and with `preview` what the
 * submitted change would do (priced, as it would be decided), or why the policy cannot be changed.
 */
export async function changeFormView(
  db: Database,
  canceller: Canceller,
  policy: PolicyRecord,
  base: string,
  form: { csrf: string; values?: Record<string, string | undefined>; problem?: FormProblem; preview?: boolean },
  now: Date,
): Promise<ChangeFormProps> {
  const shell = {
    policyName: await policyTitle(db, policy),
    changeReference: changeReferenceOf(form.values),
    productName: productName(policy.productCode),
    backHref: base,
    action: `${base}/change`,
    csrf: form.csrf,
    entries: changeEntries(policy),
    values: form.values ?? currentChangeValues(policy),
    problem: form.problem,
  };
  try {
    await checkChangeable(db, policy, now);
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    return { ...shell, refusal: refusalText(error) };
  }
  if (!form.preview || form.problem) return shell;
  try {
    const { assessment } = await quoteEndorsement(db, canceller, { policyId: policy.id }, requestedChanges(policy, shell.values), now);
    const decision = assessment.reviewed
      ? "An underwriter reviews it (within one working day); until then the policy stays as it is"
      : `In force as soon as you confirm: certificate version ${policy.version + 1}`;
    return {
      ...shell,
      preview: {
        lines: [
          ["What changes", changeLines(policy, assessment.changes).join("; ")],
          ["Premium", `${premiumChangeText(policy, assessment.premium.changeKobo, canceller)}. ${assessment.premium.explanation}.`],
          ["Decision", decision],
        ],
      },
    };
  } catch (error) {
    return { ...shell, problem: problemOf(error) };
  }
}

/** The operator's decision page for the change of `policy` waiting for review (null when none waits). */
export async function changeDecisionView(
  db: Database,
  policy: PolicyRecord,
  base: string,
  csrf: string,
  problem?: FormProblem,
): Promise<ChangeDecisionProps | null> {
  const pending = (await endorsementsOf(db, policy.id)).filter((e) => e.status === "pending");
  if (!pending.length) return null;
  return {
    policyName: await policyTitle(db, policy),
    productName: productName(policy.productCode),
    backHref: base,
    approveAction: `${base}/change/approve`,
    declineAction: `${base}/change/decline`,
    csrf,
    change: changeHistory(policy, pending)[0]!,
    problem,
  };
}

/**
 * What the lifecycle adds to a policy's page at `base` (issuance's page gets it through the service
 * facts): the cancellation in force, the changes, the renewal links, and the actions this policy
 * offers now.
 */
export async function policyLifecycleView(db: Database, policy: PolicyRecord, base: string, now: Date): Promise<PolicyLifecycleView> {
  const [cancellation, links, endorsements, changeable, canReinstate] = await Promise.all([
    policy.status === "c" ? cancellationOf(db, policy.id) : null,
    renewalLinks(db, policy),
    endorsementsOf(db, policy.id),
    checkChangeable(db, policy, now).then(
      () => true,
      (error) => {
        if (!(error instanceof CommandError)) throw error;
        return false;
      },
    ),
    reinstatable(db, policy, now),
  ]);
  return {
    cancelHref: policy.status === "a" ? `${base}/cancel` : undefined,
    cancellationText: cancellation ? cancellationSummary(policy, cancellation) : undefined,
    reinstateHref: canReinstate ? `${base}/reinstate` : undefined,
    renewHref: !links.renewal && renewable(policy, now) ? `${base}/renew` : undefined,
    changeHref: changeable ? `${base}/change` : undefined,
    // The operator decides a change waiting for review on the change page.
    decideChangeHref: base.startsWith("/admin/") && endorsements.some((e) => e.status === "pending") ? `${base}/change` : undefined,
    changes: changeHistory(policy, endorsements),
    renewal: links.renewal && { reference: links.renewal.reference, href: siblingHref(base, links.renewal) },
    renews: links.renews && { reference: links.renews.reference, href: siblingHref(base, links.renews) },
  };
}

/** Another policy's page on the same surface as `base` (the operator's pages go by id, the partner's by reference). */
const siblingHref = (base: string, other: PolicyRecord) =>
  base.startsWith("/admin/") ? `/admin/policies/${other.id}` : `/portal/policies/${encodeURIComponent(other.reference)}`;
