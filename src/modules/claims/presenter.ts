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
import type { RecommendationView } from "../../../views/claims/decision";
import type { SettlementView } from "../../../views/claims/settlement";
import { dateTime, day, naira } from "../../../views/format";
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
import type { AuditActor } from "../audit";
import { consumerName, findConsumer, wireConsumerId } from "../consumers";
import { rowsWithPartner } from "../partners";
import { bankChoices, bankName } from "../payouts";
import type { PolicyRecord } from "../policies";
import { policiesByIds } from "../policies";
import { claimSignalScores, claimSignals, signalsCard } from "../signals";
import { walletBalance } from "../wallet";
import { refundToTakeBack } from "./after-cancellation";
import { checklist, isAssessed, reserveHistory } from "./assessment";
import { type ClockSettings, lateInterestKobo } from "./clock";
import { runningDeadlines } from "./deadlines";
import { AUTHORITY_WORDS, type AuthoritySettings, authorityLimit, authorityOf, authorityReach, refusalToDecide } from "./decisions";
import { DOCUMENT_TYPES, listFiltersOf, listSeed, parseClaimSeed } from "./model";
import { REJECTION_REASONS } from "./rejections";
import { approvalOf, CLAIM_TRANSITIONS, type ClaimActor, checklistOf, excessPercentOf } from "./rules";
import type { ClaimStatus, SecondReviewGround } from "./schema";
import { type ClaimDetail, type ClaimRecord, type ClaimScope, listClaims } from "./service";
import type { PayoutRecord } from "./settlement-records";

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

/** The operator's rows: each with its partner, and a flagged claim's mark with its score (src/modules/signals). */
export async function operatorClaimRows(db: Database, items: ClaimRecord[], clock: ClockSettings): Promise<ClaimRow[]> {
  const [rows, scores] = await Promise.all([
    rowsWithPartner(db, items, (c, partnerName) => claimRow(c, adminHref(c.claimNo), clock, partnerName)),
    claimSignalScores(
      db,
      items.map((c) => c.id),
    ),
  ]);
  return rows.map((row, i) => ({ ...row, signals: scores.get(items[i]!.id) }));
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
    // The fraud rules' flags: the operator's only, never the partner's.
    signals: admin ? signalsCard(await claimSignals(db, claim.id)) : undefined,
  };
}

/** A decision that settles money, asked before it is made: approving (what is payable). */
export const settles = (status: string): status is "approved" => status === "approved";

/** What a claim's facts say of whom and what, for the confirmation steps of its decisions. */
const aboutClaim = (claim: ClaimView): [string, string][] => [
  ["Claim", claim.claimNo],
  ["Policy", claim.policyNo ?? claim.policy],
  ...(claim.insured ? ([["Insured", claim.insured.name]] as [string, string][]) : []),
  ...(claim.partnerName ? ([["Partner", claim.partnerName]] as [string, string][]) : []),
  ["Claimed", naira(claim.claimedKobo)],
];

/**
 * The confirmation before an administrator approves a claim (or confirms a recommendation to): the
 * claim, whose policy, the amounts the decision settles, what it takes back from the partner's
 * wallet, and a button naming the amount ("Approve ₦180,000.00 payable"). `recommends`: the
 * approval is above their authority (or the claim flagged), so it will wait for a second administrator.
 */
export function decisionStep(
  claim: ClaimView & { productCode: string },
  approvedKobo: number | undefined,
  takesBack: string | undefined,
  recommends?: string,
): Pick<ConfirmStepProps, "heading" | "lines" | "consequences" | "button"> {
  const test = claim.mode === "test" ? " This is a test claim: no money moves." : "";
  const { approvedKobo: approved, excessKobo, payableKobo } = approvalOf(claim, approvedKobo);
  const payable = naira(payableKobo);
  const lines: [string, string][] = [
    ...aboutClaim(claim),
    ["Approved", naira(approved)],
    ...(claim.excessPercent === null ? [] : ([[`Excess (${claim.excessPercent}%)`, naira(excessKobo)]] as [string, string][])),
    ["Payable", payable],
  ];
  if (recommends)
    return {
      heading: `Recommend approving claim ${claim.claimNo} for ${payable} payable?`,
      lines,
      consequences: [recommends, "The claim stays in review until then; the partner is told when it is decided."],
      button: `Recommend ${payable} payable`,
    };
  return {
    heading: `Approve claim ${claim.claimNo} for ${payable} payable?`,
    lines,
    consequences: [
      `The claim is approved for ${naira(approved)}; ${payable} is payable to the insured.${test}`,
      ...(takesBack ? [takesBack] : []),
      "The partner sees it approved and their systems are told.",
    ],
    button: `Approve ${payable} payable`,
  };
}

const GROUND_WORDS: Record<SecondReviewGround, string> = {
  authority: "it is above the authority of the administrator who recommended it",
  signals: "the fraud signals flag the claim for a second reviewer",
};

/**
 * Why an approval or rejection by `viewer` would wait for a second administrator, in words, or
 * undefined when they decide it alone (the decision checks again under the claim's lock).
 */
export async function recommendationWords(
  db: Database,
  viewer: AuditActor,
  amountKobo: number,
  settings: AuthoritySettings,
  flagged: boolean,
): Promise<string | undefined> {
  const authority = await authorityOf(db, viewer);
  const above = amountKobo > authorityLimit(authority, settings);
  if (!above && !flagged) return undefined;
  const why = above
    ? `Your authority as ${AUTHORITY_WORDS[authority]} reaches ${authorityReach(authority, settings)}`
    : "The fraud signals flag this claim for a second reviewer";
  return `${why}: this is recorded as your recommendation, and applies once a second administrator${above ? " with the authority" : ""} confirms it.`;
}

/** The recommendation waiting on a claim, as its card shows it, with what the viewer may do about it. */
export async function recommendationView(
  db: Database,
  claim: ClaimDetail,
  viewer: AuditActor,
  settings: AuthoritySettings,
): Promise<RecommendationView | undefined> {
  const waiting = claim.awaiting;
  if (!waiting) return undefined;
  const [confirmRefusal, returnRefusal] = await Promise.all([
    refusalToDecide(db, waiting, viewer, settings, "confirm"),
    refusalToDecide(db, waiting, viewer, settings, "return"),
  ]);
  const what =
    waiting.decision === "approved"
      ? `Approve for ${naira(waiting.approvedKobo ?? 0)}, ${naira(waiting.amountKobo)} payable`
      : `Reject: ${REJECTION_REASONS[waiting.rejectionReason ?? "other"]}`;
  return {
    action: `${adminHref(claim.claimNo)}/recommendation`,
    decision: waiting.decision,
    what,
    note: waiting.note,
    by: who(waiting.recommendedBy),
    at: waiting.createdAt,
    why: waiting.grounds.map((g) => GROUND_WORDS[g]),
    confirmLabel: waiting.decision === "approved" ? `Confirm: approve ${naira(waiting.amountKobo)} payable` : "Confirm the rejection",
    cannotConfirm: confirmRefusal?.message,
    cannotReturn: returnRefusal?.message,
  };
}

/** The confirmation before a second administrator confirms a recommendation to approve: the approval's figures, as any approval's. */
export const confirmRecommendationStep = (claim: ClaimView & { productCode: string }, approvedKobo: number, takesBack: string | undefined) => {
  const step = decisionStep(claim, approvedKobo, takesBack);
  return {
    ...step,
    consequences: [...step.consequences, "You are the second administrator: once you confirm, the approval applies."],
  };
};

export function reviewedText(claim: ClaimDetail): string {
  // Recorded as a recommendation: nothing is decided yet, and the claim stays where it was.
  const waiting = claim.awaiting;
  if (waiting) {
    const what =
      waiting.decision === "approved"
        ? `approving ${naira(waiting.amountKobo)} payable`
        : `rejecting it (${REJECTION_REASONS[waiting.rejectionReason ?? "other"]})`;
    const confirmer = waiting.grounds.includes("authority") ? "a second administrator with the authority" : "a second administrator";
    return `Your recommendation, ${what}, is recorded: it applies once ${confirmer} confirms it. Claim ${claim.claimNo} stays ${CLAIM_STATUS_TEXT[claim.status]!.toLowerCase()}.`;
  }
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

export const PAYOUT_WORDS: Record<PayoutRecord["status"], { tone: "ok" | "wait" | "bad" | "info"; text: string }> = {
  queued: { tone: "wait", text: "Being sent to the bank" },
  pending: { tone: "wait", text: "Sent: waiting for the bank to confirm" },
  success: { tone: "ok", text: "Paid: the bank confirmed the money arrived" },
  failed: { tone: "bad", text: "Failed: nothing was paid" },
  reversed: { tone: "bad", text: "Reversed: the money came back" },
};

/**
 * How a claim is paid, on its page: the account (and how its name compares with the insured's),
 * the voucher in force, the latest payout, a rejection's letter; and the viewer's next step — the
 * partner gives the account and records the acceptance, the operator confirms a mismatched account
 * and sends a failed payout again. Undefined while there is nothing to show or do.
 */
export function settlementView(claim: ClaimDetail, insuredName: string | undefined, role: "partner" | "operator"): SettlementView | undefined {
  const base = role === "operator" ? adminHref(claim.claimNo) : partnerHref(claim.claimNo);
  const open = ["submitted", "in_review", "info_requested", "approved"].includes(claim.status);
  const moneyMoving = !!claim.payout && ["queued", "pending", "success"].includes(claim.payout.status);
  const view: SettlementView = {};
  if (claim.status === "rejected") view.letterHref = `${base}/letter.pdf`;
  if (claim.payeeBankCode && claim.payeeAccountNumber) {
    const check =
      claim.payeeNameCheck === "matched"
        ? { tone: "ok" as const, text: "The bank's name for the account matches the insured's" }
        : claim.payeeNameCheck === "confirmed"
          ? { tone: "ok" as const, text: `Confirmed as the insured's by ${who(claim.payeeConfirmedBy ?? "")}` }
          : {
              tone: "bad" as const,
              text: `The bank's name for the account does not match the insured's${insuredName ? ` (${insuredName})` : ""}: the insurer checks it before paying`,
            };
    view.payee = {
      bank: bankName(claim.payeeBankCode) ?? claim.payeeBankCode,
      accountNumber: claim.payeeAccountNumber,
      accountName: claim.payeeAccountName ?? "",
      check,
    };
    if (role === "operator" && claim.payeeNameCheck === "mismatch" && open && !moneyMoving)
      view.confirmPayee = { action: `${base}/payee/confirm`, label: "Confirm the account is the insured's" };
  }
  if (role === "partner" && open && !moneyMoving)
    view.payeeForm = { action: `${base}/payee`, banks: bankChoices.map((b) => ({ value: b.code, label: b.name })), changing: !!view.payee };
  if (claim.voucher) {
    const v = claim.voucher;
    view.voucher = {
      version: v.version,
      issuedAt: v.issuedAt,
      payableKobo: v.payableKobo,
      href: `${base}/voucher/${v.version}.pdf`,
      status: v.acceptedAt
        ? { tone: "ok", text: `Accepted ${dateTime(v.acceptedAt)}, ${CHANNEL_WORDS[v.acceptedChannel ?? "api"]}` }
        : { tone: "wait", text: "Waiting for the insured's acceptance" },
    };
    if (role === "partner" && !v.acceptedAt && claim.status === "approved")
      view.accept = { action: `${base}/accept`, version: v.version, label: `Record the insured's acceptance of ${naira(v.payableKobo)}` };
  } else if (claim.status === "approved")
    view.voucherWaits = !claim.payeeBankCode
      ? "The discharge voucher is issued once the account to pay into is given."
      : "The discharge voucher is issued once the insurer confirms the account is the insured's.";
  if (claim.payout) {
    const p = claim.payout;
    const refused = p.status === "failed" || p.status === "reversed";
    view.payout = {
      status: PAYOUT_WORDS[p.status],
      amountKobo: p.amountKobo,
      lateInterestKobo: p.lateInterestKobo,
      account: `${p.accountName}, ${bankName(p.bankCode) ?? p.bankCode}, ${p.accountNumber}`,
      reference: p.reference,
      reason: p.statusReason,
      at: p.updatedAt,
      // The partner's way on when the bank refused the payout of the voucher in force (a new account's voucher is accepted again).
      next:
        role === "partner" && refused && claim.status === "approved" && p.voucherVersion === claim.voucher?.version
          ? "If the account is wrong or closed, give another below: a new discharge voucher names it, for the insured to accept again. Otherwise the insurer may send the payment again."
          : undefined,
      earlierVoucher: claim.voucher && p.voucherVersion !== claim.voucher.version ? p.voucherVersion : undefined,
    };
    if (role === "operator" && claim.status === "approved" && (p.status === "failed" || p.status === "reversed") && claim.voucher?.acceptedAt)
      view.resend = { action: `${base}/payout/resend`, label: `Send ${naira(claim.voucher.payableKobo)} again` };
  }
  return Object.keys(view).length ? view : undefined;
}

/**
 * What recording an acceptance, or sending a payout again, did, once the bank has answered (the
 * sandbox answers at once): paid, refused, or on its way. A refusal is a notice, not a success.
 */
export function payoutAnswer(claim: ClaimDetail, done: string): { done?: string; notice?: string } {
  const p = claim.payout;
  if (claim.status === "paid") return { done: `${done} and the bank confirmed the payment: claim ${claim.claimNo} is paid.` };
  if (p?.status === "failed" || p?.status === "reversed") {
    const answer = p.status === "failed" ? "the bank refused the transfer" : "the bank sent the money back";
    return { notice: `${done}, but ${answer}${p.statusReason ? ` (${p.statusReason})` : ""}: nothing was paid.` };
  }
  return { done: `${done} and the payment is on its way: the claim is paid when the bank confirms it.` };
}

const CHANNEL_WORDS: Record<string, string> = {
  api: "through the partner's systems",
  portal: "in the partner's portal",
  self_service: "on the insured's own page",
};

/** The confirmation before the partner records the claimant's acceptance: what is paid, to which account, at once. */
export function acceptanceStep(claim: ClaimDetail, insuredName: string): Pick<ConfirmStepProps, "heading" | "lines" | "consequences" | "button"> {
  const v = claim.voucher!;
  const payable = naira(v.payableKobo);
  const account = `${v.accountName}, ${bankName(v.bankCode) ?? v.bankCode}, ${v.accountNumber}`;
  return {
    heading: `Record that ${insuredName} accepts ${payable} for claim ${claim.claimNo}?`,
    lines: [
      ["Claim", claim.claimNo],
      ["Insured", insuredName],
      ["Voucher", `version ${v.version}`],
      ["Payable", payable],
      ["Paid to", account],
    ],
    consequences: [
      "The acceptance is recorded now, with the time, as given in this portal: the insured discharges the insurer once the money arrives.",
      `${payable} (and any interest for a late settlement) is sent at once to ${account}; the claim is paid when the bank confirms it.${claim.mode === "test" ? " This is a test claim: the sandbox bank answers, and no money moves." : ""}`,
    ],
    button: `Record the acceptance and pay ${payable}`,
  };
}

/** The confirmation before an administrator confirms an account whose name does not match the insured's. */
export function payeeConfirmationStep(claim: ClaimDetail, insuredName: string): Pick<ConfirmStepProps, "heading" | "lines" | "consequences" | "button"> {
  const account = `${bankName(claim.payeeBankCode ?? "") ?? claim.payeeBankCode}, ${claim.payeeAccountNumber}`;
  return {
    heading: `Confirm that the account in the name of ${claim.payeeAccountName} is ${insuredName}'s?`,
    lines: [
      ["Claim", claim.claimNo],
      ["Insured", insuredName],
      ["Account", account],
      ["The bank's name for it", claim.payeeAccountName ?? ""],
    ],
    consequences: [
      "Only once you have checked it is theirs (a married name, a sole trader's business account): the claim's money will be paid into it.",
      ...(claim.status === "approved" ? ["The discharge voucher is issued to this account at once."] : []),
    ],
    button: "Confirm the account",
  };
}

/** The confirmation before an administrator sends a failed or reversed payout again. */
export function resendStep(claim: ClaimDetail, clock: ClockSettings): Pick<ConfirmStepProps, "heading" | "lines" | "consequences" | "button"> {
  const v = claim.voucher!;
  const interest = lateInterestKobo(v.payableKobo, claim.settlementDueOn, watToday(new Date()), clock.lateInterestBasisPoints);
  const amount = naira(v.payableKobo + interest);
  const account = `${v.accountName}, ${bankName(v.bankCode) ?? v.bankCode}, ${v.accountNumber}`;
  return {
    heading: `Send ${amount} again for claim ${claim.claimNo}?`,
    lines: [
      ["Claim", claim.claimNo],
      ["Payable", naira(v.payableKobo)],
      ...(interest ? ([["Interest for the late settlement", naira(interest)]] as [string, string][]) : []),
      ["Paid to", account],
      ["Last attempt", claim.payout?.statusReason ?? PAYOUT_WORDS[claim.payout?.status ?? "failed"].text],
    ],
    consequences: [
      `A new transfer of ${amount} goes to ${account} at once; the claim is paid when the bank confirms it.`,
      "If the account itself is wrong, ask the partner to give another instead: its new voucher is accepted again.",
    ],
    button: `Send ${amount}`,
  };
}
