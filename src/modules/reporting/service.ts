/**
 * Insurer bordereaux (docs/reporting.md): what the operator owes and reports to each insurer for a
 * calendar month in Nigerian time. The premium bordereau is read from the wallet ledger, so its
 * figures are the ledger's to the kobo; the claims bordereau from the claims reported in the month.
 * Both read a keyset page at a time, never a month in one query.
 */
import { and, asc, eq, gt, gte, inArray, lt, notInArray, or, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { getOrMake } from "../../core/maps";
import type { Database } from "../../db/client";
import { productName } from "../../products";
import type { Insurer } from "../../products/types";
import { type ClaimStatus, claims } from "../claims";
import { consumerNamesOf } from "../consumers";
import { watMonth } from "../enrichment";
import { partnerNames } from "../partners";
import { policies } from "../policies";
import { walletEntries } from "../wallet";
import { productCodesOf } from "./insurers";

/** Rows read per query. */
const BATCH = 1_000;

/** What happened to the policy: written, cancelled, or its premium changed mid-term (an endorsement, a reinstatement). */
export type BordereauTransaction = "new" | "cancellation" | "change";

export interface PremiumRow {
  partnerName: string;
  reference: string;
  policyNo: string | null;
  productName: string;
  insuredName: string;
  coverStart: Date;
  coverEnd: Date;
  transaction: BordereauTransaction;
  /** When the transaction was booked (its first ledger line; a cancellation without refund: when it was made). */
  bookedAt: Date;
  /** Premium taken, or (negative) premium refunded. */
  grossKobo: number;
  /** Commission earned on it, or (negative) reversed. */
  commissionKobo: number;
  /** gross − commission. */
  netKobo: number;
}

export interface ClaimRow {
  partnerName: string;
  claimNo: string;
  reference: string;
  policyNo: string | null;
  productName: string;
  claimantName: string;
  /** The incident's date, YYYY-MM-DD. */
  lossDate: string;
  reportedAt: Date;
  status: ClaimStatus;
  claimedKobo: number;
  /** Still expected to be paid: open claims at the amount claimed, approved ones at the amount payable. */
  reserveKobo: number;
  paidKobo: number;
}

interface Bordereau<Row, Totals> {
  insurer: Insurer;
  /** YYYY-MM, Nigerian time. */
  month: string;
  rows: Row[];
  totals: Totals;
}

export type PremiumBordereau = Bordereau<PremiumRow, { grossKobo: number; commissionKobo: number; netKobo: number }>;
export type ClaimsBordereau = Bordereau<ClaimRow, { claimedKobo: number; reserveKobo: number; paidKobo: number }>;

/** A query's rows after a keyset position, a page at a time: ordered by (created, id) ascending, at most BATCH rows. */
type PageQuery<T> = (after: SQL | undefined) => Promise<T[]>;

/** Every row `query` selects, a keyset page at a time (the month's rows, however many, never in one read). */
async function* keysetPages<T extends { at: Date; id: string }>(created: AnyPgColumn, id: AnyPgColumn, query: PageQuery<T>): AsyncGenerator<T[]> {
  let after: SQL | undefined;
  for (;;) {
    const rows = await query(after);
    if (rows.length) yield rows;
    if (rows.length < BATCH) return;
    const last = rows.at(-1)!;
    // `created >= at` bounds the index scan; the rest breaks ties on the same instant by id.
    after = and(gte(created, last.at), or(gt(created, last.at), and(eq(created, last.at), gt(id, last.id))));
  }
}

/** Names by id read in batches (a month's policies may name more consumers than one query should carry). */
async function namesOf(ids: Iterable<string>, read: (batch: string[]) => Promise<Map<string, string>>): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  const names = new Map<string, string>();
  for (let start = 0; start < unique.length; start += BATCH) for (const [id, name] of await read(unique.slice(start, start + BATCH))) names.set(id, name);
  return names;
}

/** The ledger kinds a premium bordereau is made of: premium taken and refunded, commission earned and reversed. */
const BORDEREAU_KINDS = ["premium", "refund", "commission", "commission_reversal"] as const;
const COMMISSION_KINDS: ReadonlySet<string> = new Set(["commission", "commission_reversal"]);

/** A policy's columns every row of the bordereau carries. */
const policyColumns = {
  policyId: policies.id,
  partnerId: policies.partnerId,
  consumerId: policies.consumerId,
  reference: policies.reference,
  policyNo: policies.policyNo,
  productCode: policies.productCode,
  coverStart: policies.coverStart,
  coverEnd: policies.coverEnd,
  policyCreatedAt: policies.createdAt,
  status: policies.status,
  statusAt: policies.statusAt,
};

/** Live policies of the insurer's products the insurer wrote: pending ones are not yet its, declined ones never were. */
const writtenBy = (insurer: Insurer): SQL =>
  and(eq(policies.mode, "live"), notInArray(policies.status, ["p", "d"]), inArray(policies.productCode, productCodesOf(insurer)))!;

interface PolicyFacts {
  policyId: string;
  partnerId: string;
  consumerId: string;
  reference: string;
  policyNo: string | null;
  productCode: string;
  coverStart: Date;
  coverEnd: Date;
  policyCreatedAt: Date;
  status: string;
  statusAt: Date;
}

/**
 * Which transaction a ledger line belongs to. Each transaction writes its lines in one database
 * transaction at one instant: issuance debits the premium (and earns commission when approved at
 * once) at the policy's creation; a later approval earns the commission; a cancellation refunds
 * (and reverses commission) at the instant the policy became cancelled; anything else changed the premium.
 */
function transactionOf(line: { kind: string; at: Date }, policy: PolicyFacts): BordereauTransaction {
  if ((line.kind === "premium" || line.kind === "commission") && line.at.getTime() === policy.policyCreatedAt.getTime()) return "new";
  if (line.kind === "commission") return "new";
  if (policy.status === "c" && line.at.getTime() === policy.statusAt.getTime()) return "cancellation";
  return "change";
}

interface PremiumGroup extends PolicyFacts {
  transaction: BordereauTransaction;
  bookedAt: Date;
  grossKobo: number;
  commissionKobo: number;
}

/**
 * The monthly premium bordereau of `insurer`: one row per policy written (new), per policy
 * cancelled, and per mid-term premium change, in the month (Nigerian time), from the wallet ledger.
 * Test-mode policies never reach the ledger, so they are never on it.
 */
export async function premiumBordereau(db: Database, insurer: Insurer, month: string): Promise<PremiumBordereau> {
  const [from, to] = watMonth(month);
  const written = writtenBy(insurer);
  const groups = new Map<string, PremiumGroup>();
  const groupOf = (policy: PolicyFacts, transaction: BordereauTransaction, at: Date): PremiumGroup => {
    // A policy has one new and one cancellation row a month; each premium change is its own row.
    const key = `${policy.policyId}|${transaction}${transaction === "change" ? `|${at.toISOString()}` : ""}`;
    return getOrMake(groups, key, () => ({ ...policy, transaction, bookedAt: at, grossKobo: 0, commissionKobo: 0 }));
  };

  const lines = keysetPages(walletEntries.createdAt, walletEntries.id, (after) =>
    db
      .select({ id: walletEntries.id, at: walletEntries.createdAt, kind: walletEntries.kind, amountKobo: walletEntries.amountKobo, ...policyColumns })
      .from(walletEntries)
      .innerJoin(policies, eq(policies.id, walletEntries.policyId))
      .where(and(inArray(walletEntries.kind, BORDEREAU_KINDS), gte(walletEntries.createdAt, from), lt(walletEntries.createdAt, to), written, after))
      .orderBy(asc(walletEntries.createdAt), asc(walletEntries.id))
      .limit(BATCH),
  );
  for await (const page of lines)
    for (const { id: _line, at, kind, amountKobo, ...policy } of page) {
      const group = groupOf(policy, transactionOf({ kind, at }, policy), at);
      // The ledger is the partner's: a premium it paid is a debit, what the insurer is owed a credit.
      if (COMMISSION_KINDS.has(kind)) group.commissionKobo += amountKobo;
      else group.grossKobo -= amountKobo;
    }

  // A cancellation that gave nothing back wrote no ledger line: it is still on the bordereau, at nil.
  const cancelled = keysetPages(policies.statusAt, policies.id, (after) =>
    db
      .select({ id: policies.id, at: policies.statusAt, ...policyColumns })
      .from(policies)
      .where(and(eq(policies.status, "c"), gte(policies.statusAt, from), lt(policies.statusAt, to), written, after))
      .orderBy(asc(policies.statusAt), asc(policies.id))
      .limit(BATCH),
  );
  for await (const page of cancelled) for (const { id: _id, at, ...policy } of page) groupOf(policy, "cancellation", at);

  const all = [...groups.values()];
  const partners = await namesOf(
    all.map((g) => g.partnerId),
    (ids) => partnerNames(db, ids),
  );
  const insured = await namesOf(
    all.map((g) => g.consumerId),
    (ids) => consumerNamesOf(db, ids),
  );
  const rows = all
    .toSorted((a, b) => a.bookedAt.getTime() - b.bookedAt.getTime() || a.reference.localeCompare(b.reference))
    .map(
      (g): PremiumRow => ({
        partnerName: partners.get(g.partnerId) ?? "",
        reference: g.reference,
        policyNo: g.policyNo,
        productName: productName(g.productCode),
        insuredName: insured.get(g.consumerId) ?? "",
        coverStart: g.coverStart,
        coverEnd: g.coverEnd,
        transaction: g.transaction,
        bookedAt: g.bookedAt,
        grossKobo: g.grossKobo,
        commissionKobo: g.commissionKobo,
        netKobo: g.grossKobo - g.commissionKobo,
      }),
    );
  const sum = (pick: (row: PremiumRow) => number) => rows.reduce((total, row) => total + pick(row), 0);
  return {
    insurer,
    month,
    rows,
    totals: { grossKobo: sum((r) => r.grossKobo), commissionKobo: sum((r) => r.commissionKobo), netKobo: sum((r) => r.netKobo) },
  };
}

/** What a claim still holds in reserve (as the assessor keeps it; what is payable once approved) and what was paid on it. */
function claimFigures(claim: { status: ClaimStatus; reserveKobo: number; payableKobo: number | null }): { reserveKobo: number; paidKobo: number } {
  switch (claim.status) {
    case "submitted":
    case "in_review":
    case "info_requested":
    case "approved":
      return { reserveKobo: claim.reserveKobo, paidKobo: 0 };
    case "paid":
      return { reserveKobo: 0, paidKobo: claim.payableKobo ?? 0 };
    default:
      return { reserveKobo: 0, paidKobo: 0 };
  }
}

/** The monthly claims bordereau of `insurer`: every claim reported in the month (Nigerian time) on a live policy of its products. */
export async function claimsBordereau(db: Database, insurer: Insurer, month: string): Promise<ClaimsBordereau> {
  const [from, to] = watMonth(month);
  const reported = keysetPages(claims.createdAt, claims.id, (after) =>
    db
      .select({
        id: claims.id,
        at: claims.createdAt,
        partnerId: claims.partnerId,
        claimNo: claims.claimNo,
        status: claims.status,
        incidentDate: claims.incidentDate,
        claimedKobo: claims.claimedKobo,
        reserveKobo: claims.reserveKobo,
        payableKobo: claims.payableKobo,
        consumerId: policies.consumerId,
        reference: policies.reference,
        policyNo: policies.policyNo,
        productCode: policies.productCode,
      })
      .from(claims)
      .innerJoin(policies, eq(policies.id, claims.policyId))
      .where(
        and(gte(claims.createdAt, from), lt(claims.createdAt, to), eq(policies.mode, "live"), inArray(policies.productCode, productCodesOf(insurer)), after),
      )
      .orderBy(asc(claims.createdAt), asc(claims.id))
      .limit(BATCH),
  );
  const found: (Omit<ClaimRow, "partnerName" | "claimantName"> & { partnerId: string; consumerId: string })[] = [];
  for await (const page of reported)
    for (const claim of page)
      found.push({
        partnerId: claim.partnerId,
        consumerId: claim.consumerId,
        claimNo: claim.claimNo,
        reference: claim.reference,
        policyNo: claim.policyNo,
        productName: productName(claim.productCode),
        lossDate: claim.incidentDate,
        reportedAt: claim.at,
        status: claim.status,
        claimedKobo: claim.claimedKobo,
        ...claimFigures(claim),
      });
  const partners = await namesOf(
    found.map((c) => c.partnerId),
    (ids) => partnerNames(db, ids),
  );
  const claimants = await namesOf(
    found.map((c) => c.consumerId),
    (ids) => consumerNamesOf(db, ids),
  );
  const rows = found.map(
    ({ partnerId, consumerId, ...claim }): ClaimRow => ({
      ...claim,
      partnerName: partners.get(partnerId) ?? "",
      claimantName: claimants.get(consumerId) ?? "",
    }),
  );
  const sum = (pick: (row: ClaimRow) => number) => rows.reduce((total, row) => total + pick(row), 0);
  return {
    insurer,
    month,
    rows,
    totals: { claimedKobo: sum((r) => r.claimedKobo), reserveKobo: sum((r) => r.reserveKobo), paidKobo: sum((r) => r.paidKobo) },
  };
}
