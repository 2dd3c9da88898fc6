import { Elysia } from "elysia";
import { type PayoutRow, PayoutRows, PayoutsPage } from "../../../views/claims/payouts";
import type { CsvValue } from "../../core/csv";
import { toNaira } from "../../core/money";
import { watTimestamp } from "../../core/time";
import type { AppDeps } from "../../http/context";
import { csvDownload, csvOrRefusal } from "../../portal/export";
import { listAnswer } from "../../portal/list";
import { type PortalViewer, portalSession } from "../../portal/session";
import { watToday } from "../../products/policy-helpers";
import { partnerNames } from "../partners";
import { bankName } from "../payouts";
import { type ListedPayout, ledgerTotals, listPayouts, payoutFiltersOf } from "./payout-ledger";
import { adminHref, PAYOUT_WORDS } from "./presenter";

const accountOf = (p: ListedPayout) => `${p.accountName}, ${bankName(p.bankCode) ?? p.bankCode}, ${p.accountNumber}`;

/** The operator's payouts page (the insurer's payout account) and its CSV. */
export const payoutsAdmin = (deps: AppDeps) => {
  const db = deps.database.db;
  const shell = (viewer: PortalViewer, csrf: string) => ({ title: "Claim payouts", active: "payouts", viewer, csrf });
  const rowsOf = async (items: ListedPayout[]): Promise<PayoutRow[]> => {
    const names = await partnerNames(db, [...new Set(items.map((p) => p.partnerId))]);
    return items.map((p) => ({
      claimNo: p.claimNo,
      href: adminHref(p.claimNo),
      partnerName: names.get(p.partnerId) ?? "",
      status: PAYOUT_WORDS[p.status],
      amountKobo: p.amountKobo,
      lateInterestKobo: p.lateInterestKobo,
      account: accountOf(p),
      reference: p.reference,
      reason: p.statusReason,
      createdAt: p.createdAt,
    }));
  };
  const source = {
    path: "/admin/payouts",
    values: (query: Record<string, string | undefined>) => ({
      ...(query.mode === "test" ? { mode: "test" } : {}),
      ...(query.status?.trim() ? { status: query.status.trim() } : {}),
    }),
    filters: payoutFiltersOf,
    fetch: (filters: ReturnType<typeof payoutFiltersOf>, paging: { limit: number; cursor?: string }) => listPayouts(db, filters, paging),
    rows: rowsOf,
  };
  return new Elysia({ name: "admin-payouts" })
    .use(portalSession(deps))
    .get(
      "/admin/payouts",
      (ctx) =>
        listAnswer(ctx, source, {
          shell: shell(ctx.viewer, ctx.csrf),
          rows: (list) => <PayoutRows rows={list.rows} more={list.more} />,
          page: async (list) => {
            const mode = ctx.query.mode === "test" ? "test" : "live";
            return <PayoutsPage mode={mode} totals={await ledgerTotals(db, mode)} list={list} />;
          },
        }),
      { portal: "admin" },
    )
    .get(
      "/admin/payouts.csv",
      ({ query, set }) =>
        csvOrRefusal(set, () => {
          const filters = payoutFiltersOf(query);
          return csvDownload({
            filename: `payouts-${filters.mode}-${watToday(new Date())}`,
            columns: [
              "Claim number",
              "Partner",
              "Status",
              "Amount (NGN)",
              "Late interest (NGN)",
              "Bank",
              "Account number",
              "Account name",
              "Transfer reference",
              "Reason",
              "Queued (WAT)",
              "Settled (WAT)",
            ],
            page: (limit, cursor) => listPayouts(db, filters, { limit, cursor }),
            rows: async (items) => {
              const names = await partnerNames(db, [...new Set(items.map((p) => p.partnerId))]);
              return items.map((p): CsvValue[] => [
                p.claimNo,
                names.get(p.partnerId) ?? "",
                PAYOUT_WORDS[p.status].text,
                toNaira(p.amountKobo),
                toNaira(p.lateInterestKobo),
                bankName(p.bankCode) ?? p.bankCode,
                p.accountNumber,
                p.accountName,
                p.reference,
                p.statusReason,
                watTimestamp(p.createdAt),
                p.settledAt ? watTimestamp(p.settledAt) : null,
              ]);
            },
          });
        }),
      { portal: "admin" },
    );
};
