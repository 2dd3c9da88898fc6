/** Claims as the portal's pages show them: rows, the claim page's view model, the moves offered, the list with its paging. */

import { randomBytes } from "node:crypto";
import {
  CLAIM_STATUS_TEXT,
  type ClaimAssessmentView,
  type ClaimDeadlineView,
  type ClaimFilterValues,
  type ClaimMove,
  type ClaimPolicySummary,
  type ClaimRow,
  type ClaimView,
} from "../../../views/claims/claims";
import { day, naira } from "../../../views/format";
import type { ConfirmStepProps } from "../../../views/portal/confirm";
import type { FormProblem } from "../../../views/portal/ui";
import type { CsvValue } from "../../core/csv";
import { toNaira } from "../../core/money";
import { lastCoverDay, watTimestamp } from "../../core/time";
import type { Database } from "../../db/client";
import type { ListSource } from "../../portal/list";
import { productName } from "../../products";
import { watToday } from "../../products/policy-helpers";
import { listUsers } from "../accounts";
import { consumerName, findConsumer, wireConsumerId } from "../consumers";
import type { PolicyRecord } from "../policies";
import { policiesByIds } from "../policies";
import { walletBalance } from "../wallet";
import { refundToTakeBack } from "./after-cancellation";
import { checklist, isAssessed, reserveHistory } from "./assessment";
import type { ClockSettings } from "./clock";
import { runningDeadlines } from "./deadlines";
import { DOCUMENT_TYPES, listFiltersOf, listSeed, parseClaimSeed } from "./model";
import { approvalOf, CLAIM_TRANSITIONS, type ClaimActor, checklistOf, excessPercentOf } from "./rules";
import type { ClaimStatus } from "./schema";
import { type ClaimDetail, type ClaimRecord, type ClaimScope, listClaims } from "./service";

/**
 * The reference a new claim form is drawn with, in its "Your claim reference" input: the same form
 * sent twice (a double click, a retry after a lost answer) is one claim, as a repeat of `claim
 * submit` with its reference is. The person may replace it with their own.
 */
export const drawnClaimReference = () => `CLM-${randomBytes(6).toString("hex").toUpperCase()}`;

export const partnerHref = (claimNo: string) => `/portal/claims/${claimNo}`;
export const adminHref = (claimNo: string) => `/admin/claims/${claimNo}`;

/** The operator's buttons, in the order the state machine offers them. */
const OPERATOR_MOVES: Record<string, ClaimMove> = {
  in_review: { status: "in_review", label: "Start the review" },
  info_requested: { status: "info_requested", label: "Ask the partner for more information" },
  approved: { status: "approved", label: "Approve" },
  rejected: { status: "rejected", label: "Reject", danger: true },
  paid: { status: "paid", label: "Mark as paid" },
};

/** What `actor` may turn a claim of this status into (CLAIM_TRANSITIONS, the one state machine). */
const movesOf = (status: ClaimStatus, actor: ClaimActor) =>
  (Object.entries(CLAIM_TRANSITIONS[status]) as [ClaimStatus, ClaimActor][]).filter(([, by]) => by === actor).map(([to]) => to);

export const canWithdraw = (claim: ClaimRecord) => movesOf(claim.status, "partner").includes("withdrawn");

export const operatorMoves = (claim: ClaimRecord) => movesOf(claim.status, "operator").map((s) => OPERATOR_MOVES[s]!);

/**
 * What approving the claim takes back from the partner's wallet, said before the operator approves:
 * the refund of its policy's cancellation, and whether the wallet covers it. None while approving
 * is not a move, or when there is nothing to take back.
 */
export async function approvalTakes(db: Database, claim: ClaimRecord): Promise<{ words: string; covered: boolean } | undefined> {
  if (!movesOf(claim.status, "operator").includes("approved")) return undefined;
  const cancellation = await refundToTakeBack(db, claim.policyId);
  if (!cancellation) return undefined;
  const owedKobo = cancellation.refundKobo - cancellation.refundTakenBackKobo;
  const refund = `the ${naira(owedKobo)} refunded when policy ${claim.policy} was cancelled from ${day(cancellation.effectiveDate)}, as the claim shows the cover was used`;
  if (claim.mode === "test") return { words: `Approving takes back ${refund} (a test policy: no money moves).`, covered: true };
  const balanceKobo = await walletBalance(db, claim.partnerId);
  const covered = balanceKobo >= owedKobo;
  const holds = covered
    ? `The wallet holds ${naira(balanceKobo)}.`
    : `The wallet holds ${naira(balanceKobo)}, less than that: the approval is refused until the partner tops up.`;
  return { words: `Approving takes back from the partner's wallet ${refund}. ${holds}`, covered };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * Where a claim's deadlines stand today, in words with a tone (the clock, clock.ts): each one still
 * running (the nearest first), or, once paid, when it was settled and any late interest.
 */
function deadlineWords(claim: ClaimRecord, now: Date, clock: ClockSettings): ClaimDeadlineView[] {
  const today = watToday(now);
  if (claim.status === "paid" && claim.settledAt) {
    const late = claim.lateInterestKobo ? `, after ${day(claim.settlementDueOn)}: late interest ${naira(claim.lateInterestKobo)}` : ", on time";
    return [{ label: "Settled", text: `${day(claim.settledAt)}${late}`, tone: claim.lateInterestKobo ? "bad" : "ok" }];
  }
  const nearestFirst = runningDeadlines(claim, today, clock).sort((a, b) => a.dueOn.localeCompare(b.dueOn));
  return nearestFirst.map(({ deadline, dueOn, standing, pause }) => ({
    label: deadline === "settlement" ? "Settle by" : "Discharge voucher by",
    text: `${day(dueOn)}: ${
      standing.state === "overdue"
        ? `overdue by ${plural(standing.daysOverdue, "day")}`
        : standing.daysLeft === 0
          ? "the last day is today"
          : `${plural(standing.daysLeft, "day")} left`
    }${pause ? `; waiting for the partner's information since ${day(pause.since)}, ${pause.spent ? "the pause's allowance used up: the clock runs" : "the clock stopped"}` : ""}`,
    tone: standing.state === "overdue" ? "bad" : standing.state === "due_soon" ? "wait" : "info",
  }));
}

const who = (by: string) => (by === "partner" ? "the partner" : by.replace(/^admin:/, ""));

/** The operator's assessment card of a claim: the assessors to choose from (the operator's active administrators), the reserve's history, the checklist. */
export async function assessmentView(db: Database, claim: ClaimDetail, operatorPartnerId: string): Promise<ClaimAssessmentView> {
  const [items, reserves, users] = await Promise.all([checklist(db, claim), reserveHistory(db, claim.id), listUsers(db, operatorPartnerId)]);
  return {
    action: `${adminHref(claim.claimNo)}/assess`,
    assessors: users.filter((u) => u.active).map((u) => ({ value: u.email.toLowerCase(), label: `${u.name} (${u.email})` })),
    assessor: claim.assessor,
    reserveKobo: claim.reserveKobo,
    reserves: reserves.map((r) => ({ amountKobo: r.amountKobo, reason: r.reason, by: who(r.by), at: r.createdAt })),
    checklist: items.map((i) => ({ key: i.key, label: i.label, kind: i.kind, checked: i.checked ? { by: who(i.checked.by), at: i.checked.at } : null })),
    open: isAssessed(claim.status),
  };
}

export function claimRow(claim: ClaimRecord, href: string, clock: ClockSettings, partnerName?: string): ClaimRow {
  const [due] = deadlineWords(claim, new Date(), clock);
  return {
    due,
    claimNo: claim.claimNo,
    href,
    policy: claim.policy,
    partnerName,
    productName: productName(claim.productCode),
    status: claim.status,
    mode: claim.mode,
    incidentDate: claim.incidentDate,
    claimedKobo: claim.claimedKobo,
    payableKobo: claim.payableKobo,
    createdAt: claim.createdAt,
  };
}

/**
 * Everything a claim page shows: whose claim it is (the insured, their phone, the policy's number), the
 * figures with the excess only where the product keeps one; the operator also sees the partner and who
 * made each change.
 */
export async function claimView(db: Database, claim: ClaimDetail, admin: { partnerName: string } | null, clock: ClockSettings): Promise<ClaimView> {
  const base = admin ? adminHref(claim.claimNo) : partnerHref(claim.claimNo);
  const [policy] = await policiesByIds(db, [claim.policyId]);
  const consumer = policy ? await findConsumer(db, claim.partnerId, policy.consumerId) : null;
  const consumerHref = (id: string) => (admin ? `/admin/consumers/${wireConsumerId(id)}` : `/portal/consumers/${wireConsumerId(id)}`);
  return {
    claimNo: claim.claimNo,
    reference: claim.reference,
    policy: claim.policy,
    policyNo: policy?.policyNo ?? null,
    policyHref: admin ? `/admin/policies/${claim.policyId}` : `/portal/policies/${encodeURIComponent(claim.policy)}`,
    productName: productName(claim.productCode),
    insured: consumer
      ? { name: consumerName(consumer.profile) || "(no name)", phone: consumer.profile.phoneNo as string | undefined, href: consumerHref(consumer.id) }
      : undefined,
    excessPercent: excessPercentOf(claim.productCode),
    partnerName: admin?.partnerName,
    mode: claim.mode,
    status: claim.status,
    statusNote: claim.statusNote,
    incidentDate: claim.incidentDate,
    description: claim.description,
    claimedKobo: claim.claimedKobo,
    approvedKobo: claim.approvedKobo,
    excessKobo: claim.excessKobo,
    payableKobo: claim.payableKobo,
    deadlines: deadlineWords(claim, new Date(), clock),
    documentsNeeded: checklistOf(claim.productCode).documents.map((d) => ({ label: d.label, checked: claim.checked.includes(d.key) })),
    createdAt: claim.createdAt,
    updatedAt: claim.updatedAt,
    documents: claim.documents.map((d) => ({
      position: d.position,
      name: d.name,
      type: DOCUMENT_TYPES[d.mime],
      sizeBytes: d.sizeBytes,
      href: `${base}/documents/${d.position}`,
    })),
    history: claim.history.map((step) => ({ status: step.status, note: step.note, at: new Date(step.at), by: admin ? who(step.by) : undefined })),
  };
}

/** The sentence after a review: the new status, and the figures of an approval. */
/** A decision that settles money, asked before it is made: approving (what is payable) and marking paid. */
export type SettlingDecision = "approved" | "paid";
export const settles = (status: string): status is SettlingDecision => status === "approved" || status === "paid";

/**
 * The confirmation before an administrator approves a claim or marks it paid: the claim, whose
 * policy, the amounts the decision settles, what it takes back from the partner's wallet, and a
 * button naming the amount ("Approve ₦180,000.00 payable").
 */
export function decisionStep(
  claim: ClaimView & { productCode: string },
  status: SettlingDecision,
  approvedKobo: number | undefined,
  takesBack: string | undefined,
): Pick<ConfirmStepProps, "heading" | "lines" | "consequences" | "button"> {
  const about: [string, string][] = [
    ["Claim", claim.claimNo],
    ["Policy", claim.policyNo ?? claim.policy],
    ...(claim.insured ? ([["Insured", claim.insured.name]] as [string, string][]) : []),
    ...(claim.partnerName ? ([["Partner", claim.partnerName]] as [string, string][]) : []),
    ["Claimed", naira(claim.claimedKobo)],
  ];
  const test = claim.mode === "test" ? " This is a test claim: no money moves." : "";
  if (status === "paid") {
    const payable = naira(claim.payableKobo ?? 0);
    return {
      heading: `Mark ${payable} as paid on claim ${claim.claimNo}?`,
      lines: [...about, ["Approved", naira(claim.approvedKobo ?? 0)], ["Paid to the insured", payable]],
      consequences: [
        `The claim is recorded as paid: ${payable} settled, and nothing about it can change afterwards.${test}`,
        "The partner sees it paid and their systems are told.",
      ],
      button: `Mark ${payable} as paid`,
    };
  }
  const { approvedKobo: approved, excessKobo, payableKobo } = approvalOf(claim, approvedKobo);
  const payable = naira(payableKobo);
  return {
    heading: `Approve claim ${claim.claimNo} for ${payable} payable?`,
    lines: [
      ...about,
      ["Approved", naira(approved)],
      ...(claim.excessPercent === null ? [] : ([[`Excess (${claim.excessPercent}%)`, naira(excessKobo)]] as [string, string][])),
      ["Payable", payable],
    ],
    consequences: [
      `The claim is approved for ${naira(approved)}; ${payable} is payable to the insured.${test}`,
      ...(takesBack ? [takesBack] : []),
      "The partner sees it approved and their systems are told.",
    ],
    button: `Approve ${payable} payable`,
  };
}

export function reviewedText(claim: ClaimDetail): string {
  // The excess is named only where the product keeps one back.
  const excess = excessPercentOf(claim.productCode) === null ? "" : `, excess ${naira(claim.excessKobo ?? 0)}`;
  const settled = claim.approvedKobo === null ? "" : `: approved ${naira(claim.approvedKobo)}${excess}, payable ${naira(claim.payableKobo ?? 0)}`;
  const takenBack = claim.refundTakenBackKobo
    ? ` The ${naira(claim.refundTakenBackKobo)} refunded when the policy was cancelled is taken back${claim.mode === "test" ? " (a test policy: no money moved)" : " from the partner's wallet"}.`
    : "";
  return `Claim ${claim.claimNo} is now ${CLAIM_STATUS_TEXT[claim.status]!.toLowerCase()}${settled}.${takenBack}`;
}

/** The policy a new claim is about, with the days its cover reaches. */
export function claimPolicySummary(policy: PolicyRecord | null): ClaimPolicySummary | undefined {
  if (!policy) return undefined;
  return {
    reference: policy.reference,
    productName: productName(policy.productCode),
    status: policy.status,
    coverFirstDay: watToday(policy.coverStart),
    coverLastDay: lastCoverDay(policy.coverEnd),
  };
}

/** A refusal of a document (seed.documents[1].content) shown beside the file input it came from. */
export function documentProblem(problem: FormProblem, inputs: string[]): FormProblem {
  const match = /^documents\.(\d+)\.(content|name)$/.exec(problem.input ?? "");
  return match && inputs[Number(match[1])] ? { ...problem, input: inputs[Number(match[1])] } : problem;
}

/** The claims list of `scope` (its page at `path`) with the query's filters: `claim list`'s own seed, so a refusal reads the same. */
export const claimList = (
  db: Database,
  scope: ClaimScope,
  path: string,
  rows: (items: ClaimRecord[]) => ClaimRow[] | Promise<ClaimRow[]>,
): ListSource<ClaimFilterValues, ReturnType<typeof claimFiltersOf>, ClaimRecord, ClaimRow> => ({
  path,
  values: (query) => listFiltersOf(query).values,
  filters: claimFiltersOf,
  fetch: (filters, paging) => listClaims(db, scope, filters, paging),
  rows,
});

/** The claims a list's query selects (`claim list`'s own seed, so a refusal reads the same). */
export function claimFiltersOf(query: Record<string, string | undefined>) {
  const { cursor: _cursor, limit: _limit, ...filters } = parseClaimSeed(listSeed, listFiltersOf(query).seed);
  return filters;
}

/** The columns of a claims CSV: the partner's, or the operator's (the partner first, and whose the reference is). */
export const claimCsvColumns = (reader: "partner" | "operator") => [
  ...(reader === "operator" ? ["Partner"] : []),
  "Claim number",
  reader === "partner" ? "Your reference" : "The partner's reference",
  "Policy",
  "Product code",
  "Status",
  "Note",
  "Incident date",
  "Claimed (NGN)",
  "Approved (NGN)",
  "Excess (NGN)",
  "Payable (NGN)",
  "Mode",
  "Submitted (WAT)",
  "Last change (WAT)",
];

const nairaOrBlank = (kobo: number | null) => (kobo === null ? null : toNaira(kobo));

export const claimCsvRow = (c: ClaimRecord, partner?: string): CsvValue[] => [
  ...(partner === undefined ? [] : [partner]),
  c.claimNo,
  c.reference,
  c.policy,
  c.productCode,
  CLAIM_STATUS_TEXT[c.status],
  c.statusNote,
  c.incidentDate,
  toNaira(c.claimedKobo),
  nairaOrBlank(c.approvedKobo),
  nairaOrBlank(c.excessKobo),
  nairaOrBlank(c.payableKobo),
  c.mode,
  watTimestamp(c.createdAt),
  watTimestamp(c.updatedAt),
];
