/**
 * Claims (design: claims; issue 5): plain functions, no web framework. The command endpoint calls
 * them, and so do the portal's pages. Every change, its outbox event and (given an actor) its audit
 * row are written in one transaction; a refused request changes nothing.
 */

import { and, asc, desc, eq, getTableColumns, gte, isNotNull, lt, lte, type SQL, sql } from "drizzle-orm";
import type { DecodedDocument } from "../../core/documents";
import { CommandError } from "../../core/errors";
import { newId, normaliseUuid } from "../../core/ids";
import { toNaira as naira } from "../../core/money";
import { encodeCursor, type Page } from "../../core/pagination";
import { lastCoverDay } from "../../core/time";
import type { Database, Executor } from "../../db/client";
import { isUniqueViolation } from "../../db/errors";
import { readCheckWrite, type TableRow, writeWhenStill } from "../../db/guarded";
import { afterCursor } from "../../db/keyset";
import { resultRows } from "../../db/results";
import { sumInsuredIn } from "../../products/claims";
import { watMidnight, watToday } from "../../products/policy-helpers";
import { type AuditActor, auditRows, recordAudit } from "../audit";
import { addDays, holidaysBetween } from "../calendar";
import { type DomainEvent, outboxEvents, outboxRow, recordEvent } from "../events";
import type { Mode, PolicyRecord } from "../policies";
import { POLICY_STATUS_WORDS, policies, policiesByIds, requirePolicyMode } from "../policies";
import { type FlagInput, flagClaim, newClaimSignals, PHOTO_HEAD_BYTES, policyIdentifiers, type SignalSettings } from "../signals";
import { refuseAfterCoolingOff, takeBackRefund } from "./after-cancellation";
import { type ClockSettings, lateInterestKobo, pauseCounted, pauseOf, settlementDueOn, voucherDueOn } from "./clock";
import { awaitingDecision, type ClaimDecision, closeAwaitingDecision } from "./decision-records";
import type { ClaimRequest } from "./model";
import { type RejectionReason, rejectionNote } from "./rejections";
import { approvalOf, type ClaimActor, checkTransition, claimCeiling, newClaimNumber } from "./rules";
import { type ClaimStatus, type ClaimStep, claimChecks, claimDocuments, claimReserves, claims } from "./schema";
import { currentVoucher, latestPayout, type PayoutRecord, type VoucherRecord } from "./settlement-records";

type ClaimRow = typeof claims.$inferSelect;

/** A claim with what it shows of its policy: the transaction reference, product and mode. */
export interface ClaimRecord extends ClaimRow {
  /** The policy's transaction reference (tx_id). */
  policy: string;
  productCode: string;
  /** The policy's mode: a test policy's claims are sandbox claims. */
  mode: Mode;
  /** The policy's addtnlFact.webHook, which hears about its claims too. */
  policyWebhook: string | null;
}

interface ClaimDocumentInfo {
  /** 1 for the first document sent. */
  position: number;
  name: string;
  mime: DecodedDocument["mime"];
  sizeBytes: number;
}

export interface ClaimDetail extends ClaimRecord {
  documents: ClaimDocumentInfo[];
  /** The checklist's items ticked so far (their keys). */
  checked: string[];
  /** A decision waiting for a second administrator (the operator's view only). */
  awaiting: ClaimDecision | null;
  /** The discharge voucher in force, once issued, and the latest payout. */
  voucher: VoucherRecord | null;
  payout: PayoutRecord | null;
  /** Set on an approval's answer: the refund of the policy's cancellation the approval took back. */
  refundTakenBackKobo?: number;
}

/** Whose claims: one partner's, or (operator) every partner's. */
export interface ClaimScope {
  partnerId?: string;
}

const claimColumns = {
  ...getTableColumns(claims),
  policy: policies.reference,
  productCode: policies.productCode,
  mode: policies.mode,
  policyWebhook: policies.webhookUrl,
};

export const selectClaims = (db: Executor) => db.select(claimColumns).from(claims).innerJoin(policies, eq(policies.id, claims.policyId));

const notFound = (scope: ClaimScope, claimNo: string) =>
  new CommandError(404, `no claim ${claimNo}${scope.partnerId ? " among this partner's claims" : ""}`, "seed.claimNo");

const documentInfo = (db: Executor, claimId: string): Promise<ClaimDocumentInfo[]> =>
  db
    .select({ position: claimDocuments.position, name: claimDocuments.name, mime: claimDocuments.mime, sizeBytes: claimDocuments.sizeBytes })
    .from(claimDocuments)
    .where(eq(claimDocuments.claimId, claimId))
    .orderBy(asc(claimDocuments.position));

const checkedOf = async (db: Executor, claimId: string) =>
  (await db.select({ item: claimChecks.item }).from(claimChecks).where(eq(claimChecks.claimId, claimId))).map((c) => c.item);

const withDocuments = async (db: Executor, claim: ClaimRecord): Promise<ClaimDetail> => ({
  ...claim,
  documents: await documentInfo(db, claim.id),
  checked: await checkedOf(db, claim.id),
  awaiting: await awaitingDecision(db, claim.id),
  voucher: await currentVoucher(db, claim.id),
  payout: await latestPayout(db, claim.id),
});

/** Which claim, of which policy, and where it stands: how the wire and the events open a claim. */
export const claimHeading = (claim: ClaimRecord) => ({
  claimNo: claim.claimNo,
  ...(claim.reference ? { reference: claim.reference } : {}),
  policy: claim.policy,
  productCode: claim.productCode,
  mode: claim.mode,
  status: claim.status,
  ...(claim.statusNote ? { statusNote: claim.statusNote } : {}),
  ...(claim.rejectionReason ? { rejectionReason: claim.rejectionReason } : {}),
});

/** The amount claimed in naira and, once approved, the settlement; late interest once paid late. */
export const claimAmounts = (claim: ClaimRecord) => ({
  amount: naira(claim.claimedKobo),
  ...(claim.approvedKobo === null
    ? {}
    : { approvedAmount: naira(claim.approvedKobo), excess: naira(claim.excessKobo ?? 0), payable: naira(claim.payableKobo ?? 0) }),
  ...(claim.lateInterestKobo ? { lateInterest: naira(claim.lateInterestKobo) } : {}),
});

/** The clock's deadlines (Nigerian dates): settlement always, the voucher once liability is admitted. */
export const claimDeadlines = (claim: ClaimRecord) => ({
  settlementDue: claim.settlementDueOn,
  ...(claim.voucherDueOn ? { voucherDue: claim.voucherDueOn } : {}),
});

/** The refund an approval took back from the partner's wallet, in naira, when it took one. */
export const refundTakenBack = (claim: Pick<ClaimDetail, "refundTakenBackKobo">) =>
  claim.refundTakenBackKobo ? { refundTakenBack: naira(claim.refundTakenBackKobo) } : {};

/** The event of a claim's change (design: claim.submitted, then claim.updated on every later change). */
function claimEvent(claim: ClaimRecord & Pick<ClaimDetail, "refundTakenBackKobo">, type: "claim.submitted" | "claim.updated"): DomainEvent {
  return {
    partnerId: claim.partnerId,
    type,
    targetUrl: claim.policyWebhook,
    payload: { ...claimHeading(claim), ...claimAmounts(claim), ...claimDeadlines(claim), ...refundTakenBack(claim) },
  };
}

/** A sandbox key must not change a real claim, nor a live key a sandbox one (spec 5.5). */
export const checkMode = (policy: { reference: string; mode: Mode }, mode: Mode) => requirePolicyMode(policy, mode, "its claims are handled");

/** Claims wait for a decision, and never reach cover that was never in force. */
const NOT_CLAIMABLE = new Set<PolicyRecord["status"]>(["p", "d", "l"]);

/**
 * Spec: claims only on an active policy of the partner, for an incident within its cover, up to its sum insured.
 * A cancelled or expired policy still answers for incidents while it covered (docs/lifecycle.md).
 */
function checkClaimable(policy: PolicyRecord, request: ClaimRequest): void {
  if (NOT_CLAIMABLE.has(policy.status))
    throw new CommandError(
      409,
      `policy ${policy.reference} ${POLICY_STATUS_WORDS[policy.status]} (status ${policy.status}): claims can be submitted only on an active policy (status a)`,
    );
  const firstDay = watToday(policy.coverStart);
  // The last day the cover reaches: a cover ending at midnight does not cover the day that starts then; a cancellation ends it early.
  const end = policy.cancelledFrom && policy.cancelledFrom < policy.coverEnd ? policy.cancelledFrom : policy.coverEnd;
  const lastDay = lastCoverDay(end);
  if (request.incidentDate < firstDay || request.incidentDate > lastDay)
    throw new CommandError(
      400,
      `seed.incidentDate must be within the cover of policy ${policy.reference}, ${firstDay} to ${lastDay}; received ${request.incidentDate}, ` +
        `${request.incidentDate < firstDay ? "before the cover started" : policy.status === "c" ? "after the policy was cancelled" : "after the cover ended"}`,
      "seed.incidentDate",
    );
  // A reinstated policy did not cover the time it was cancelled (a day begun in the gap counts as the gap's).
  const gap = policy.coverGaps.find((g) => watToday(new Date(g.from)) <= request.incidentDate && request.incidentDate <= watToday(new Date(g.to)));
  if (gap)
    throw new CommandError(
      400,
      `seed.incidentDate ${request.incidentDate} falls in a gap in the cover of policy ${policy.reference}: it was cancelled from ${watToday(new Date(gap.from))} ` +
        `until it was reinstated on ${watToday(new Date(gap.to))}`,
      "seed.incidentDate",
    );
  const ceiling = claimCeiling(policy);
  if (request.amountKobo > ceiling.kobo)
    throw new CommandError(
      400,
      `seed.amount must be at most ${naira(ceiling.kobo)} naira, ${ceiling.basis} of policy ${policy.reference}; received ${naira(request.amountKobo)}`,
      "seed.amount",
    );
}

/** The first bytes (all the EXIF reader reads) of the claim's JPEG documents, in order. */
const claimPhotos = async (db: Executor, claimId: string) =>
  (
    await db
      .select({ head: sql<Uint8Array>`substring(${claimDocuments.content} from 1 for ${sql.raw(String(PHOTO_HEAD_BYTES))})` })
      .from(claimDocuments)
      .where(and(eq(claimDocuments.claimId, claimId), eq(claimDocuments.mime, "image/jpeg")))
      .orderBy(asc(claimDocuments.position))
  ).map((d) => d.head);

/** What the fraud rules see of a claim on its policy (src/modules/signals): its photographs read from the claim unless given. */
async function signalInput(db: Executor, claim: ClaimRow, policy: PolicyRecord, settings: SignalSettings, photos?: Uint8Array[]): Promise<FlagInput> {
  const bankAccount = claim.payeeBankCode && claim.payeeAccountNumber ? { bankCode: claim.payeeBankCode, accountNumber: claim.payeeAccountNumber } : undefined;
  return {
    ...(bankAccount ? { bankAccount } : {}),
    claimId: claim.id,
    partnerId: claim.partnerId,
    policyId: policy.id,
    mode: policy.mode,
    ...(await policyIdentifiers(db, policy)),
    incidentDate: claim.incidentDate,
    coverStart: policy.coverStart,
    submittedAt: claim.createdAt,
    claimedKobo: claim.claimedKobo,
    ceilingKobo: sumInsuredIn(claimCeiling(policy)),
    photos: photos ?? (await claimPhotos(db, claim.id)),
    settings,
  };
}

/** The fraud rules look at a claim again (new photographs, the account to pay it into), in the caller's transaction. */
export async function reflagClaim(tx: Executor, claim: ClaimRow, signals: SignalSettings, now: Date): Promise<void> {
  const [policy] = await policiesByIds(tx, [claim.policyId]);
  await flagClaim(tx, await signalInput(tx, claim, policy!, signals), now);
}

async function claimByReference(db: Executor, partnerId: string, reference: string): Promise<ClaimRecord | undefined> {
  const [row] = await selectClaims(db).where(and(eq(claims.partnerId, partnerId), eq(claims.reference, reference)));
  return row;
}

/** A repeat of an earlier submission: the same claim returns the first one; anything else under its reference is a conflict. */
async function repeatOf(db: Executor, prior: ClaimRecord, request: ClaimRequest, policyReference: string): Promise<ClaimDetail> {
  const documents = await db.select().from(claimDocuments).where(eq(claimDocuments.claimId, prior.id)).orderBy(asc(claimDocuments.position));
  const sameDocuments =
    documents.length === request.documents.length &&
    documents.every((d, i) => d.name === request.documents[i]!.name && Buffer.from(d.content).equals(request.documents[i]!.bytes));
  const differences = [
    prior.policy !== policyReference && "policy",
    prior.incidentDate !== request.incidentDate && "incidentDate",
    prior.description !== request.description && "description",
    prior.claimedKobo !== request.amountKobo && "amount",
    !sameDocuments && "documents",
  ].filter((d): d is string => !!d);
  if (differences.length)
    throw new CommandError(
      409,
      `seed.reference ${request.reference} was already used for claim ${prior.claimNo}, which has another ${differences.join(", ")}: a repeat must send the same claim`,
      "seed.reference",
    );
  return {
    ...prior,
    documents: documents.map(({ position, name, mime, sizeBytes }) => ({ position, name, mime, sizeBytes })),
    checked: await checkedOf(db, prior.id),
    awaiting: await awaitingDecision(db, prior.id),
    voucher: await currentVoucher(db, prior.id),
    payout: await latestPayout(db, prior.id),
  };
}

/**
 * The claim stored under the request's reference, when it is the same claim (a repeat, or a
 * request whose answer was lost); null when there is none (or no reference). Another claim under
 * the reference is a conflict.
 */
export async function earlierClaim(db: Executor, partnerId: string, request: ClaimRequest): Promise<ClaimDetail | null> {
  const prior = request.reference ? await claimByReference(db, partnerId, request.reference) : undefined;
  return prior ? repeatOf(db, prior, request, normaliseUuid(request.policy) ?? request.policy) : null;
}

/**
 * `claim submit`: a claim on an active policy of this partner, for an incident within the cover
 * and not in the future, for at most the sum insured. With a `reference`, a repeat returns the
 * first claim (`created: false`), also under concurrent repeats (the unique index decides). With
 * an `actor` (the portal's) a new claim is audited in its transaction; a repeat is not.
 */
export async function submitClaim(
  db: Database,
  input: { partnerId: string; mode: Mode; request: ClaimRequest; now: Date; clock: ClockSettings; signals: SignalSettings; actor?: AuditActor },
): Promise<{ claim: ClaimDetail; created: boolean }> {
  const { partnerId, mode, request, now, actor } = input;
  const today = watToday(now);
  if (request.incidentDate > today)
    throw new CommandError(
      400,
      `seed.incidentDate must not be in the future: today is ${today} in Nigeria; received ${request.incidentDate}`,
      "seed.incidentDate",
    );
  const policyReference = normaliseUuid(request.policy) ?? request.policy;
  const repeat = async () => {
    const prior = await earlierClaim(db, partnerId, request);
    return prior && { claim: prior, created: false };
  };
  const earlier = await repeat();
  if (earlier) return earlier;

  /**
   * Read and check the policy, then write in one statement that holds it (FOR SHARE) only while it
   * is still as read: null, having written nothing, when it was cancelled, lapsed or changed
   * meanwhile. `locked`: inside a transaction that holds the policy from the read on.
   */
  const attempt = async (db: Executor, locked: boolean): Promise<{ claim: ClaimDetail; created: boolean } | null> => {
    const found = db
      .select()
      .from(policies)
      .where(and(eq(policies.partnerId, partnerId), eq(policies.reference, policyReference)));
    const [policy] = locked ? await found.for("share") : await found;
    if (!policy) throw new CommandError(404, `seed.policy: no policy ${request.policy} among this partner's transactions`, "seed.policy");
    checkMode(policy, mode);
    await refuseAfterCoolingOff(db, policy);
    checkClaimable(policy, request);
    const step: ClaimStep = { status: "submitted", by: "partner", at: now.toISOString() };
    const dueOn = settlementDueOn(today, 0, input.clock);
    const row: ClaimRow = {
      id: newId(),
      partnerId,
      policyId: policy.id,
      claimNo: newClaimNumber(now),
      reference: request.reference ?? null,
      status: "submitted",
      statusNote: null,
      incidentDate: request.incidentDate,
      description: request.description,
      claimedKobo: request.amountKobo,
      approvedKobo: null,
      excessKobo: null,
      payableKobo: null,
      history: [step],
      settlementDueOn: dueOn,
      voucherDueOn: null,
      nextDueOn: dueOn,
      settledAt: null,
      lateInterestKobo: null,
      rejectionReason: null,
      payeeBankCode: null,
      payeeAccountNumber: null,
      payeeAccountName: null,
      payeeNameCheck: null,
      payeeConfirmedBy: null,
      voucherIssuedAt: null,
      pausedSince: null,
      pausedUntil: null,
      pausedDays: 0,
      assessor: null,
      reserveKobo: request.amountKobo,
      createdAt: now,
      updatedAt: now,
    };
    const record: ClaimRecord = { ...row, policy: policy.reference, productCode: policy.productCode, mode: policy.mode, policyWebhook: policy.webhookUrl };
    // Its fraud signals are written by the same statement: a claim is never stored without them, nor a repeat's with them.
    const photos = request.documents.filter((d) => d.mime === "image/jpeg").map((d) => d.bytes);
    const flagged = await newClaimSignals(db, await signalInput(db, row, policy, input.signals, photos), now);
    const rows: TableRow[] = [
      { table: claims, row },
      ...request.documents.map((d, i) => ({
        table: claimDocuments,
        row: { claimId: row.id, position: i + 1, name: d.name, mime: d.mime, sizeBytes: d.bytes.length, content: d.bytes },
      })),
      {
        table: claimReserves,
        row: { id: newId(), claimId: row.id, amountKobo: request.amountKobo, reason: "The amount claimed", by: "partner", createdAt: now },
      },
      { table: outboxEvents, row: await outboxRow(db, claimEvent(record, "claim.submitted"), now) },
      ...auditRows(
        actor,
        {
          action: "claim.submit",
          subject: record.claimNo,
          details: { policy: record.policy, claimedKobo: record.claimedKobo, documents: request.documents.length },
        },
        now,
      ),
      ...flagged.rows,
    ];
    const still = sql`select id from ${policies}
      where id = ${policy.id}::uuid and status = ${policy.status} and status_at = ${policy.statusAt.toISOString()}::timestamptz and version = ${policy.version}
      for share`;
    if (!(await writeWhenStill(db, still, rows))) return null;
    const documents = request.documents.map((d, i) => ({ position: i + 1, name: d.name, mime: d.mime, sizeBytes: d.bytes.length }));
    return { claim: { ...record, documents, checked: [], awaiting: null, voucher: null, payout: null }, created: true };
  };
  try {
    return await readCheckWrite(db, attempt);
  } catch (error) {
    // A concurrent repeat stored the claim first.
    if (isUniqueViolation(error, "claims_partner_reference_idx")) {
      const first = await repeat();
      if (first) return first;
    }
    throw error;
  }
}

const scoped = (scope: ClaimScope, ...conditions: SQL[]) => and(...(scope.partnerId ? [eq(claims.partnerId, scope.partnerId)] : []), ...conditions);

/** `claim status`: the claim with its documents (names, types, sizes) and history. Another partner's claim is not found. */
export async function claimDetail(db: Executor, scope: ClaimScope, claimNo: string): Promise<ClaimDetail> {
  const [claim] = await selectClaims(db).where(scoped(scope, eq(claims.claimNo, claimNo)));
  if (!claim) throw notFound(scope, claimNo);
  return withDocuments(db, claim);
}

/** The bytes of one document of a claim (`position` from 1), for the portal's download. */
export async function claimDocument(
  db: Executor,
  scope: ClaimScope,
  claimNo: string,
  position: number,
): Promise<{ name: string; mime: DecodedDocument["mime"]; bytes: Uint8Array }> {
  const [document] = await db
    .select({ name: claimDocuments.name, mime: claimDocuments.mime, bytes: claimDocuments.content })
    .from(claimDocuments)
    .innerJoin(claims, eq(claims.id, claimDocuments.claimId))
    .where(scoped(scope, eq(claims.claimNo, claimNo), eq(claimDocuments.position, position)));
  if (!document) throw new CommandError(404, `claim ${claimNo} has no document ${position}${scope.partnerId ? " among this partner's claims" : ""}`);
  return document;
}

export interface ClaimFilters {
  status?: ClaimStatus;
  /** The policy's transaction reference. */
  policy?: string;
  /** Submitted on or after / on or before these dates (YYYY-MM-DD, Nigerian local time). */
  from?: string;
  to?: string;
}

/**
 * `claim list` (one partner) and the operator's list (every partner, `scope` {}): newest first,
 * keyset-paginated. A partner filtering by a policy it does not have is told so (404).
 */
export async function listClaims(db: Executor, scope: ClaimScope, filters: ClaimFilters, page: { limit: number; cursor?: string }): Promise<Page<ClaimRecord>> {
  const conditions: SQL[] = [];
  if (filters.status) conditions.push(eq(claims.status, filters.status));
  if (filters.policy) {
    const reference = normaliseUuid(filters.policy) ?? filters.policy;
    if (scope.partnerId) {
      const [policy] = await db
        .select({ id: policies.id })
        .from(policies)
        .where(and(eq(policies.partnerId, scope.partnerId), eq(policies.reference, reference)));
      if (!policy) throw new CommandError(404, `seed.policy: no policy ${filters.policy} among this partner's transactions`, "seed.policy");
      conditions.push(eq(claims.policyId, policy.id));
    } else conditions.push(eq(policies.reference, reference));
  }
  if (filters.from) conditions.push(gte(claims.createdAt, watMidnight(filters.from)));
  if (filters.to) conditions.push(lt(claims.createdAt, new Date(watMidnight(filters.to).getTime() + 86_400_000)));
  if (page.cursor) {
    conditions.push(afterCursor(claims.createdAt, claims.id, page.cursor));
  }
  const rows = await selectClaims(db)
    .where(scoped(scope, ...conditions))
    .orderBy(desc(claims.createdAt), desc(claims.id))
    .limit(page.limit + 1);
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > page.limit && last ? encodeCursor(last.createdAt, last.id) : null };
}

/** A claim's documents, those sent with it and with the answers to requests for information. */
const MAX_DOCUMENTS_IN_ALL = 30;

/** The clock's settings a change needs: only the operator's review approves and pays, and it brings them. */
function clockOf(change: { to: ClaimStatus; clock?: ClockSettings }): ClockSettings {
  if (!change.clock) throw new Error(`a claim becomes ${change.to} only with the clock's settings`);
  return change.clock;
}

/**
 * The operator's desk: open claims whose next deadline is on or before `horizon` (overdue or due
 * soon), what is due first at the top, at most `limit`; and how many there are (counted to 1,000).
 */
export async function claimsDueFirst(db: Executor, horizon: string, limit: number): Promise<{ items: ClaimRecord[]; count: number }> {
  const due = and(isNotNull(claims.nextDueOn), lte(claims.nextDueOn, horizon));
  const items = await selectClaims(db).where(due).orderBy(asc(claims.nextDueOn), asc(claims.id)).limit(limit);
  const [counted] = resultRows<{ count: number }>(
    await db.execute(sql`select count(*)::int as count from (select 1 from ${claims} where ${due} limit 1000) as due`),
  );
  return { items, count: counted?.count ?? 0 };
}

/** A change of a claim's status: what it becomes, by whom, and what the change brings. */
export interface ClaimChange {
  to: ClaimStatus;
  actor: ClaimActor;
  by: string;
  note?: string;
  approvedKobo?: number;
  rejectionReason?: RejectionReason;
  mode?: Mode;
  clock?: ClockSettings;
  /** Documents the change brings (an answer to a request for information), after the claim's own. */
  documents?: ClaimRequest["documents"];
  /** A payment's late interest, as its payout sent it. */
  lateInterestKobo?: number;
}

/** A claim by its id, its row locked for the rest of the transaction (the payouts find their claim so). */
export async function lockClaimById(tx: Executor, claimId: string): Promise<ClaimRecord> {
  const [claim] = await selectClaims(tx).where(eq(claims.id, claimId)).for("update", { of: claims });
  if (!claim) throw new Error(`no claim ${claimId}`);
  return claim;
}

/** The claim of `claimNo` in `scope`, its row locked for the rest of the transaction (404 when there is none). */
export async function lockClaim(tx: Executor, scope: ClaimScope, claimNo: string): Promise<ClaimRecord> {
  const [claim] = await selectClaims(tx)
    .where(scoped(scope, eq(claims.claimNo, claimNo)))
    .for("update", { of: claims });
  if (!claim) throw notFound(scope, claimNo);
  return claim;
}

/**
 * Move a claim whose row the caller holds locked along the state machine, with its history step and
 * claim.updated event (concurrent changes apply one at a time, and the second sees the first's
 * status). An approval takes back the refund of the policy's cancellation, if it has one
 * (takeBackRefund). A partner's move closes a decision waiting for a second administrator: the
 * claim it was about has changed.
 */
export async function applyTransition(
  tx: Executor,
  claim: ClaimRecord,
  change: ClaimChange,
  now: Date,
  audit?: (tx: Executor, claim: ClaimDetail) => Promise<void>,
): Promise<ClaimDetail> {
  if (change.mode) checkMode({ reference: claim.policy, mode: claim.mode }, change.mode);
  checkTransition(claim.claimNo, claim.status, change.to, change.actor);
  let amounts: Partial<ClaimRow> = {};
  let refundTakenBackKobo = 0;
  const today = watToday(now);
  // Asking for information stops the settlement clock; any way out of the wait starts it again, the days waited (up to the allowance) added.
  if (change.to === "info_requested") amounts = pauseOf(today, claim.pausedDays, clockOf(change));
  if (claim.status === "info_requested" && claim.pausedSince && claim.pausedUntil) {
    const counted = pauseCounted({ pausedSince: claim.pausedSince, pausedUntil: claim.pausedUntil }, today);
    amounts = { pausedSince: null, pausedUntil: null, pausedDays: claim.pausedDays + counted, settlementDueOn: addDays(claim.settlementDueOn, counted) };
  }
  if (change.to === "approved" && claim.status === "paid") {
    // A reversed payout: the money came back, so the claim is owed again, at its approved figures.
    amounts = { settledAt: null, lateInterestKobo: null, reserveKobo: claim.payableKobo ?? 0 };
  } else if (change.to === "approved") {
    // Liability admitted: the voucher's working days count from today, skipping the holidays ahead.
    const clock = clockOf(change);
    const holidays = await holidaysBetween(tx, today, addDays(today, 10 * clock.voucherWorkingDays + 30));
    const approval = approvalOf(claim, change.approvedKobo);
    // Liability admitted: the reserve is what will be paid.
    amounts = { ...approval, voucherDueOn: voucherDueOn(today, holidays, clock), reserveKobo: approval.payableKobo };
    refundTakenBackKobo = await takeBackRefund(tx, claim, now);
  }
  if (change.to === "paid") {
    const interest = change.lateInterestKobo ?? lateInterestKobo(claim.payableKobo ?? 0, claim.settlementDueOn, today, clockOf(change).lateInterestBasisPoints);
    amounts = { settledAt: now, lateInterestKobo: interest || null, reserveKobo: 0 };
  }
  if (change.to === "rejected") amounts = { ...amounts, reserveKobo: 0, rejectionReason: change.rejectionReason ?? null };
  if (change.to === "withdrawn") amounts.reserveKobo = 0;
  if (change.documents?.length) await addDocuments(tx, claim, change.documents);
  if (change.actor === "partner") await closeAwaitingDecision(tx, claim.id, now);
  const step: ClaimStep = { status: change.to, ...(change.note ? { note: change.note } : {}), by: change.by, at: now.toISOString() };
  const statusNote = change.to === "rejected" && change.rejectionReason ? rejectionNote(change.rejectionReason, change.note) : (change.note ?? null);
  const [row] = await tx
    .update(claims)
    .set({ status: change.to, statusNote, history: [...claim.history, step], updatedAt: now, ...amounts })
    .where(eq(claims.id, claim.id))
    .returning();
  const record: ClaimRecord = { ...row!, policy: claim.policy, productCode: claim.productCode, mode: claim.mode, policyWebhook: claim.policyWebhook };
  const updated: ClaimDetail = { ...(await withDocuments(tx, record)), ...(refundTakenBackKobo ? { refundTakenBackKobo } : {}) };
  await recordEvent(tx, claimEvent(updated, "claim.updated"), now);
  if (audit) await audit(tx, updated);
  return updated;
}

/** Documents an answer brings, after the claim's own: at most MAX_DOCUMENTS_IN_ALL on a claim. */
async function addDocuments(tx: Executor, claim: ClaimRecord, documents: ClaimRequest["documents"]) {
  const [{ last }] = resultRows<{ last: number }>(
    await tx.execute(sql`select coalesce(max(position), 0)::int as last from ${claimDocuments} where claim_id = ${claim.id}::uuid`),
  ) as [{ last: number }];
  if (last + documents.length > MAX_DOCUMENTS_IN_ALL)
    throw new CommandError(
      413,
      `seed.documents has ${documents.length} entries and claim ${claim.claimNo} holds ${last}: a claim holds at most ${MAX_DOCUMENTS_IN_ALL} documents in all`,
      "seed.documents",
    );
  await tx
    .insert(claimDocuments)
    .values(documents.map((d, i) => ({ claimId: claim.id, position: last + i + 1, name: d.name, mime: d.mime, sizeBytes: d.bytes.length, content: d.bytes })));
}

/** A change of a claim in a transaction of its own: the row locked, then moved. */
function transition(
  db: Database,
  scope: ClaimScope,
  claimNo: string,
  change: ClaimChange,
  now: Date,
  audit?: (tx: Executor, claim: ClaimDetail) => Promise<void>,
): Promise<ClaimDetail> {
  return db.transaction(async (tx) => applyTransition(tx, await lockClaim(tx, scope, claimNo), change, now, audit));
}

/** `claim withdraw`: the partner takes back a claim that is submitted or in review (audited when an actor is given). */
export function withdrawClaim(
  db: Database,
  input: { partnerId: string; mode: Mode; claimNo: string; note?: string; now: Date; actor?: AuditActor },
): Promise<ClaimDetail> {
  const { actor, note, now } = input;
  return transition(
    db,
    { partnerId: input.partnerId },
    input.claimNo,
    { to: "withdrawn", actor: "partner", by: "partner", note, mode: input.mode },
    now,
    actor && ((tx, claim) => recordAudit(tx, actor, { action: "claim.withdraw", subject: claim.claimNo, details: { note } }, now)),
  );
}

/**
 * `claim respond`: the partner answers a request for information (what was asked, in words and
 * documents); the claim goes back into review and its settlement clock runs again, later by the
 * days it waited (at most the allowance). Audited when an actor is given.
 */
export function respondToClaim(
  db: Database,
  input: {
    partnerId: string;
    mode: Mode;
    claimNo: string;
    note: string;
    documents: ClaimRequest["documents"];
    now: Date;
    signals: SignalSettings;
    actor?: AuditActor;
  },
): Promise<ClaimDetail> {
  const { actor, note, now } = input;
  return transition(
    db,
    { partnerId: input.partnerId },
    input.claimNo,
    { to: "in_review", actor: "partner", by: "partner", note, mode: input.mode, documents: input.documents },
    now,
    async (tx, claim) => {
      if (actor) await recordAudit(tx, actor, { action: "claim.respond", subject: claim.claimNo, details: { documents: input.documents.length } }, now);
      // New photographs: the fraud rules look again, at all of the claim's.
      if (input.documents.some((d) => d.mime === "image/jpeg")) await reflagClaim(tx, claim, input.signals, now);
    },
  );
}
