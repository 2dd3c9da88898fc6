/** The fundings as pages list them: a partner's own, the operator's work and history, each with its four-eyes trail. */
import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { encodeCursor, type Page } from "../../core/pagination";
import type { Database } from "../../db/client";
import { afterCursor } from "../../db/keyset";
import { actorKey, actorsAt } from "../audit";
import { portalUsers } from "../partners";
import { FUNDING_STATUSES, type FundingStatus, fundingConfirmations, walletFundings } from "./schema";
import { type Funding, type FundingConfirmation, TEST_PROVIDER } from "./settlement";

/** Which fundings a list shows: the open ones (the operator's work), every one, or those that ended one way. */
export const FUNDING_SHOWS = {
  open: ["pending", "held"],
  all: FUNDING_STATUSES,
  credited: ["credited"],
  rejected: ["failed"],
  expired: ["expired"],
} as const satisfies Record<string, readonly FundingStatus[]>;
export type FundingShow = keyof typeof FUNDING_SHOWS;

export const fundingShowOf = (raw: string | undefined, fallback: FundingShow): FundingShow => (raw && raw in FUNDING_SHOWS ? (raw as FundingShow) : fallback);

/** What a fundings list selects: which statuses, one partner's, one reference. */
export interface FundingSelection {
  show: FundingShow;
  partnerId?: string;
  reference?: string;
}

const live = sql`${walletFundings.provider} <> ${TEST_PROVIDER}`;

function conditionsOf(selection: FundingSelection): SQL[] {
  const conditions = [live, inArray(walletFundings.status, [...FUNDING_SHOWS[selection.show]])];
  if (selection.partnerId) conditions.push(eq(walletFundings.partnerId, selection.partnerId));
  if (selection.reference) conditions.push(eq(walletFundings.reference, selection.reference));
  return conditions;
}

/** A partner's live fundings, newest first (the portal's list), all of them or those `show` selects. */
export async function partnerFundings(db: Database, partnerId: string, limit = 20, show: FundingShow = "all"): Promise<Funding[]> {
  return (await newestFirst(db, conditionsOf({ show, partnerId }), { limit })).items;
}

/** A page of the fundings the selection names, newest first (the operator's history). */
export const fundingHistory = (db: Database, selection: FundingSelection, page: { limit: number; cursor?: string }) =>
  newestFirst(db, conditionsOf(selection), page);

/** A page of the fundings the conditions select, newest first, from the cursor. */
async function newestFirst(db: Database, conditions: SQL[], page: { limit: number; cursor?: string }): Promise<Page<Funding>> {
  if (page.cursor) conditions.push(afterCursor(walletFundings.createdAt, walletFundings.id, page.cursor));
  const rows = await db
    .select()
    .from(walletFundings)
    .where(and(...conditions))
    .orderBy(desc(walletFundings.createdAt), desc(walletFundings.id))
    .limit(page.limit + 1);
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > page.limit && last ? encodeCursor(last.createdAt, last.id) : null };
}

/** The operator's work: the open fundings the selection names (pending and held), oldest first. */
export async function operatorFundings(db: Database, selection: Omit<FundingSelection, "show"> = {}, limit = 200): Promise<Funding[]> {
  return db
    .select()
    .from(walletFundings)
    .where(and(...conditionsOf({ ...selection, show: "open" })))
    .orderBy(asc(walletFundings.createdAt), asc(walletFundings.id))
    .limit(limit);
}

/** A funding's trail: the confirmations by hand (oldest first), who asked and decided each, and who rejected it when it was held. */
export interface FundingTrail {
  confirmations: FundingConfirmation[];
  /** The administrator who rejected a held funding (the audit log's entry of that instant). */
  rejectedBy: string | null;
}

/** The trails of these fundings, with the e-mail of every administrator they name, in two or three queries. */
export async function fundingTrails(db: Database, fundings: readonly Funding[]): Promise<{ trails: Map<string, FundingTrail>; admins: Map<string, string> }> {
  if (fundings.length === 0) return { trails: new Map(), admins: new Map() };
  const confirmations = await db
    .select()
    .from(fundingConfirmations)
    .where(
      inArray(
        fundingConfirmations.fundingId,
        fundings.map((funding) => funding.id),
      ),
    )
    .orderBy(asc(fundingConfirmations.requestedAt), asc(fundingConfirmations.id));
  // A held funding rejected by hand: its audit row has the instant the funding settled (one transaction).
  const rejected = fundings.filter((f) => f.status === "failed" && f.settledBy === "manual" && f.settledAt);
  const [admins, rejecters] = await Promise.all([
    requesterEmails(
      db,
      confirmations.flatMap((c) => [c.requestedBy, ...(c.decidedBy ? [c.decidedBy] : [])]),
    ),
    actorsAt(
      db,
      "funding.held_reject",
      rejected.map((f) => ({ partnerId: f.partnerId, subject: f.reference, at: f.settledAt! })),
    ),
  ]);
  const trails = new Map(
    fundings.map((funding) => [
      funding.id,
      {
        confirmations: confirmations.filter((c) => c.fundingId === funding.id),
        rejectedBy: funding.settledAt ? (rejecters.get(actorKey(funding.partnerId, funding.reference, funding.settledAt)) ?? null) : null,
      },
    ]),
  );
  return { trails, admins };
}

/** The e-mail addresses of the administrators who asked for or decided confirmations (the page names them). */
export async function requesterEmails(db: Database, userIds: string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ id: portalUsers.id, email: portalUsers.email })
    .from(portalUsers)
    .where(inArray(portalUsers.id, [...new Set(userIds)]));
  return new Map(rows.map((row) => [row.id, row.email]));
}

/** Test mode's own money: the sum of the partner's test top-ups (test policies move no money, so nothing is taken from it). */
export async function testBalance(db: Database, partnerId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${walletFundings.amountKobo}), 0)` })
    .from(walletFundings)
    .where(and(eq(walletFundings.partnerId, partnerId), eq(walletFundings.provider, TEST_PROVIDER)));
  return Number(row?.total ?? 0);
}

/** A page of the partner's test top-ups, newest first: test mode's ledger. */
export const testTopUps = (db: Database, partnerId: string, page: { limit: number; cursor?: string }) =>
  newestFirst(db, [eq(walletFundings.partnerId, partnerId), eq(walletFundings.provider, TEST_PROVIDER)], page);
