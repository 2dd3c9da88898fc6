/** The fundings as pages list them: a partner's own, and the operator's work with its open confirmations. */
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { portalUsers } from "../partners";
import { type FundingStatus, fundingConfirmations, walletFundings } from "./schema";
import { type Funding, type FundingConfirmation, TEST_PROVIDER } from "./settlement";

/** A partner's live fundings, newest first (the portal's list). */
export async function partnerFundings(db: Database, partnerId: string, limit = 20): Promise<Funding[]> {
  return db
    .select()
    .from(walletFundings)
    .where(and(eq(walletFundings.partnerId, partnerId), sql`${walletFundings.provider} <> ${TEST_PROVIDER}`))
    .orderBy(desc(walletFundings.createdAt), desc(walletFundings.id))
    .limit(limit);
}

/** The operator's work: fundings in these statuses (pending and held by default), oldest first, with their open confirmations. */
export async function operatorFundings(
  db: Database,
  statuses: readonly FundingStatus[] = ["pending", "held"],
  limit = 200,
): Promise<{ funding: Funding; awaiting: FundingConfirmation | null }[]> {
  const rows = await db
    .select()
    .from(walletFundings)
    .where(and(inArray(walletFundings.status, [...statuses]), sql`${walletFundings.provider} <> ${TEST_PROVIDER}`))
    .orderBy(asc(walletFundings.createdAt), asc(walletFundings.id))
    .limit(limit);
  if (rows.length === 0) return [];
  const open = await db
    .select()
    .from(fundingConfirmations)
    .where(
      and(
        inArray(
          fundingConfirmations.fundingId,
          rows.map((r) => r.id),
        ),
        eq(fundingConfirmations.status, "awaiting_approval"),
      ),
    );
  const byFunding = new Map(open.map((c) => [c.fundingId, c]));
  return rows.map((funding) => ({ funding, awaiting: byFunding.get(funding.id) ?? null }));
}

/** The e-mail addresses of the administrators who asked for confirmations (the page names them). */
export async function requesterEmails(db: Database, userIds: string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ id: portalUsers.id, email: portalUsers.email })
    .from(portalUsers)
    .where(inArray(portalUsers.id, [...new Set(userIds)]));
  return new Map(rows.map((row) => [row.id, row.email]));
}
