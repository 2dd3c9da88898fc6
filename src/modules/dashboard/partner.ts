/**
 * The operator's page of one partner (/admin/partners/:id). It reads what modules of every tier keep
 * of the partner (its account, users, wallet, policies, fundings, statements), so it lives here, in
 * a top-tier module that may import them all (docs/decisions.md, issue 36).
 */
import type { PartnerPageProps } from "../../../views/admin/partner";
import { monthName } from "../../../views/format";
import type { Database } from "../../db/client";
import { listUsers } from "../accounts";
import { partnerStatement, previousMonth } from "../commissions";
import { currentWatMonth } from "../enrichment";
import { fundingRow, partnerFundings, testBalance } from "../funding";
import { policyRows } from "../issuance";
import { findPartner } from "../partners";
import { listPolicies } from "../policies";
import { walletBalance } from "../wallet";

/** How many of the newest policies and fundings the page shows. */
const NEWEST = 10;
/** The statements shown: this month so far and the two before it. */
const MONTHS = 3;

/** The page's facts, or null for no partner (or for the operator's own account, which is no partner's). */
export async function partnerPage(db: Database, partnerId: string, now: Date): Promise<Omit<PartnerPageProps, "csrf"> | null> {
  const partner = await findPartner(db, partnerId);
  if (!partner || partner.isAdmin) return null;
  const months = [currentWatMonth(now)];
  while (months.length < MONTHS) months.push(previousMonth(months.at(-1)!));
  const statementHref = (month?: string) => `/admin/statements?${new URLSearchParams({ partner: partnerId, ...(month ? { month } : {}) })}`;
  const [liveBalanceKobo, testBalanceKobo, users, policies, fundings, statements] = await Promise.all([
    walletBalance(db, partnerId),
    testBalance(db, partnerId),
    listUsers(db, partnerId),
    listPolicies(db, { partnerId }, {}, { limit: NEWEST }),
    partnerFundings(db, partnerId, NEWEST),
    Promise.all(months.map((month) => partnerStatement(db, partnerId, month))),
  ]);
  return {
    partner: {
      id: partner.id,
      name: partner.name,
      mode: partner.mode,
      suspended: partner.suspended,
      enrichment: partner.enrichmentEnabled,
      createdAt: partner.createdAt,
      financeEmail: partner.financeEmail,
    },
    liveBalanceKobo,
    testBalanceKobo,
    users,
    policies: await policyRows(db, policies.items, (policy) => `/admin/policies/${policy.id}`),
    fundings: fundings.map((funding) => fundingRow(funding, false)),
    statements: statements.map((s, index) => ({
      label: index === 0 ? `${monthName(s.month)} so far` : monthName(s.month),
      netDueKobo: s.netDueKobo,
      closingKobo: s.closingKobo,
      href: statementHref(s.month),
    })),
    statementsHref: statementHref(),
    links: {
      policies: `/admin/policies?${new URLSearchParams({ partner: partnerId, mode: "all" })}`,
      claims: `/admin/claims?${new URLSearchParams({ partner: partnerId })}`,
      fundings: `/admin/fundings?${new URLSearchParams({ show: "all", partner: partnerId })}`,
    },
  };
}
