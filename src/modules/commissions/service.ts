/** Commission rates (set by administrators) and the partner's monthly statement (docs/commissions.md). */
import { and, eq, gte, isNotNull, isNull, lt, ne, sql } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { newId } from "../../core/ids";
import type { Database } from "../../db/client";
import { allProductCodes, findProduct } from "../../products";
import { type AuditActor, recordAudit } from "../audit";
import { usageStatement, watMonth } from "../enrichment";
import { partners } from "../partners";
import { policies } from "../policies";
import { walletEntries } from "../wallet";
import { percentText } from "./model";
import { commissionRates } from "./schema";

export interface ProductRates {
  productCode: string;
  /** The rate for every partner without its own, basis points; null when none is set (it earns nothing). */
  basisPoints: number | null;
  /** Partners' own rates for the product, which win over it. */
  overrides: { partnerId: string; partnerName: string; basisPoints: number }[];
}

/** Every product sold, with its rate and the partners' own rates. */
export async function listRates(db: Database): Promise<ProductRates[]> {
  const rows = await db
    .select({
      productCode: commissionRates.productCode,
      partnerId: commissionRates.partnerId,
      basisPoints: commissionRates.rateBasisPoints,
      name: partners.name,
    })
    .from(commissionRates)
    .leftJoin(partners, eq(partners.id, commissionRates.partnerId))
    .orderBy(partners.name);
  return allProductCodes().map((productCode) => {
    const own = rows.filter((row) => row.productCode === productCode);
    return {
      productCode,
      basisPoints: own.find((row) => row.partnerId === null)?.basisPoints ?? null,
      overrides: own.flatMap((row) => (row.partnerId ? [{ partnerId: row.partnerId, partnerName: row.name ?? "", basisPoints: row.basisPoints }] : [])),
    };
  });
}

export interface RateChange {
  productCode: string;
  /** Null: the product's rate for every partner. */
  partnerId: string | null;
  /** Null removes the rate: a partner's own rate gives way to the product's; without a product rate it earns nothing. */
  basisPoints: number | null;
}

/**
 * Set (or, for a partner's own rate, remove) a commission rate, audited in the same transaction.
 * Only policies approved afterwards earn at it: an earned commission is a ledger line, never recomputed.
 */
export async function changeRate(db: Database, actor: AuditActor, change: RateChange, now: Date): Promise<void> {
  findProduct(change.productCode, "productCode");
  if (change.basisPoints !== null && (!Number.isInteger(change.basisPoints) || change.basisPoints < 0 || change.basisPoints > 10_000))
    throw new CommandError(400, "rate must be from 0 to 100 %", "rate");
  const updatedBy = "userId" in actor ? actor.userId : null;
  await db.transaction(async (tx) => {
    let partnerName: string | null = null;
    if (change.partnerId) {
      const [partner] = await tx.select({ name: partners.name }).from(partners).where(eq(partners.id, change.partnerId));
      if (!partner) throw new CommandError(400, "partner: choose a partner from the list", "partner");
      partnerName = partner.name;
    }
    const whose = change.partnerId ? eq(commissionRates.partnerId, change.partnerId) : isNull(commissionRates.partnerId);
    const where = and(eq(commissionRates.productCode, change.productCode), whose);
    const [before] = await tx.select({ basisPoints: commissionRates.rateBasisPoints }).from(commissionRates).where(where).for("update");
    if (change.basisPoints === null) await tx.delete(commissionRates).where(where);
    else if (before) await tx.update(commissionRates).set({ rateBasisPoints: change.basisPoints, updatedBy, updatedAt: now }).where(where);
    else
      await tx
        .insert(commissionRates)
        .values({
          id: newId(),
          productCode: change.productCode,
          partnerId: change.partnerId,
          rateBasisPoints: change.basisPoints,
          updatedBy,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: change.partnerId ? [commissionRates.productCode, commissionRates.partnerId] : [commissionRates.productCode],
          targetWhere: change.partnerId ? isNotNull(commissionRates.partnerId) : isNull(commissionRates.partnerId),
          set: { rateBasisPoints: change.basisPoints, updatedBy, updatedAt: now },
        });
    await recordAudit(
      tx,
      actor,
      {
        action: change.basisPoints === null ? "commission.rate_remove" : "commission.rate_set",
        subject: change.productCode,
        ...(change.partnerId ? { partnerId: change.partnerId } : {}),
        details: {
          partner: partnerName,
          from: before ? percentText(before.basisPoints) : null,
          to: change.basisPoints === null ? null : percentText(change.basisPoints),
        },
      },
      now,
    );
  });
}

// ─── The monthly statement ──────────────────────────────────────────────────────────────────

type LedgerKind = (typeof walletEntries.kind.enumValues)[number];

interface ProductLine {
  productCode: string;
  /** Live policies issued in the month and not declined. */
  policiesWritten: number;
  premiumsKobo: number;
  refundsKobo: number;
  commissionKobo: number;
  commissionReversedKobo: number;
}

/**
 * A partner's month, Nigerian time. Every money figure but the registry checks is a sum of that
 * month's wallet ledger lines of one kind (premiums, reversals as positive amounts), so
 * opening + top-ups − premiums + refunds + commission − reversed = closing, to the kobo.
 */
export interface PartnerStatement {
  partnerId: string;
  partnerName: string;
  /** YYYY-MM. */
  month: string;
  from: Date;
  to: Date;
  openingKobo: number;
  topUpsKobo: number;
  premiumsKobo: number;
  refundsKobo: number;
  commissionKobo: number;
  commissionReversedKobo: number;
  closingKobo: number;
  /** Billed registry checks of the month (the usage statement): invoiced, not taken from the wallet. */
  registryChecksKobo: number;
  registryChecks: number;
  /** What the partner paid the operator for the month: premiums − refunds − (commission − reversed) + registry checks. */
  netDueKobo: number;
  policiesWritten: number;
  products: ProductLine[];
  ledgerLines: number;
}

const sumOf = (totals: Map<LedgerKind, number>, kind: LedgerKind) => totals.get(kind) ?? 0;
/** Debits shown as positive amounts (never -0). */
const debit = (kobo: number) => 0 - kobo;

/** The statement every surface shows (portal page, PDF, CSV, `wallet statement`, the CLI). */
export async function partnerStatement(db: Database, partnerId: string, month: string): Promise<PartnerStatement> {
  const [from, to] = watMonth(month);
  const [partner] = await db.select({ name: partners.name }).from(partners).where(eq(partners.id, partnerId));
  if (!partner) throw new CommandError(404, "no such partner");
  const inMonth = and(eq(walletEntries.partnerId, partnerId), gte(walletEntries.createdAt, from), lt(walletEntries.createdAt, to));
  const [[opening], byKind, byProduct, written, usage] = await Promise.all([
    db
      .select({ kobo: sql<string>`coalesce(sum(${walletEntries.amountKobo}), 0)` })
      .from(walletEntries)
      .where(and(eq(walletEntries.partnerId, partnerId), lt(walletEntries.createdAt, from))),
    db
      .select({ kind: walletEntries.kind, kobo: sql<string>`sum(${walletEntries.amountKobo})`, lines: sql<number>`count(*)::int` })
      .from(walletEntries)
      .where(inMonth)
      .groupBy(walletEntries.kind),
    db
      .select({ productCode: policies.productCode, kind: walletEntries.kind, kobo: sql<string>`sum(${walletEntries.amountKobo})` })
      .from(walletEntries)
      .innerJoin(policies, eq(policies.id, walletEntries.policyId))
      .where(inMonth)
      .groupBy(policies.productCode, walletEntries.kind),
    db
      .select({ productCode: policies.productCode, count: sql<number>`count(*)::int` })
      .from(policies)
      .where(
        and(eq(policies.partnerId, partnerId), eq(policies.mode, "live"), ne(policies.status, "d"), gte(policies.createdAt, from), lt(policies.createdAt, to)),
      )
      .groupBy(policies.productCode),
    usageStatement(db, partnerId, month),
  ]);
  const totals = new Map(byKind.map((row) => [row.kind, Number(row.kobo)]));
  const products = new Map<string, ProductLine>();
  const line = (productCode: string) => {
    let found = products.get(productCode);
    if (!found) {
      found = { productCode, policiesWritten: 0, premiumsKobo: 0, refundsKobo: 0, commissionKobo: 0, commissionReversedKobo: 0 };
      products.set(productCode, found);
    }
    return found;
  };
  for (const row of written) line(row.productCode).policiesWritten = row.count;
  for (const row of byProduct) {
    const kobo = Number(row.kobo);
    const target = line(row.productCode);
    if (row.kind === "premium") target.premiumsKobo = debit(kobo);
    else if (row.kind === "refund") target.refundsKobo = kobo;
    else if (row.kind === "commission") target.commissionKobo = kobo;
    else if (row.kind === "commission_reversal") target.commissionReversedKobo = debit(kobo);
  }
  const openingKobo = Number(opening?.kobo ?? 0);
  const premiumsKobo = debit(sumOf(totals, "premium"));
  const refundsKobo = sumOf(totals, "refund");
  const commissionKobo = sumOf(totals, "commission");
  const commissionReversedKobo = debit(sumOf(totals, "commission_reversal"));
  const liveUsage = usage.lines.filter((l) => l.mode === "live" && l.service === "registry_check");
  const registryChecksKobo = usage.totalKobo;
  return {
    partnerId,
    partnerName: partner.name,
    month,
    from,
    to,
    openingKobo,
    topUpsKobo: sumOf(totals, "topup"),
    premiumsKobo,
    refundsKobo,
    commissionKobo,
    commissionReversedKobo,
    closingKobo: openingKobo + [...totals.values()].reduce((sum, kobo) => sum + kobo, 0),
    registryChecksKobo,
    registryChecks: liveUsage.reduce((sum, l) => sum + l.billedCalls, 0),
    netDueKobo: premiumsKobo - refundsKobo - (commissionKobo - commissionReversedKobo) + registryChecksKobo,
    policiesWritten: written.reduce((sum, row) => sum + row.count, 0),
    products: [...products.values()].sort((a, b) => a.productCode.localeCompare(b.productCode)),
    ledgerLines: byKind.reduce((sum, row) => sum + row.lines, 0),
  };
}
