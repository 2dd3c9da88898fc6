import type { DashboardChart } from "../../../views/charts/dashboard-charts";
import { day, monthName, POLICY_STATUS_TEXT } from "../../../views/format";
import type { Executor } from "../../db/client";
import { productName } from "../../products";
import { POLICY_STATUSES } from "../policies";
import { type ChartScope, claimsRatioByMonth, policiesByProduct, policiesByStatus, premiumsByDay, premiumsByMonth, walletBalanceByDay } from "./statistics";

/** "Nov 2026" from 2026-11. */
const monthLabel = (month: string) => monthName(month, "short");
/** "Nov" from 2026-11. */
const shortMonth = (month: string) => monthLabel(month).slice(0, 3);
/** "25 Nov" from 2026-11-25. */
const shortDay = (date: string) => day(date).split(" ").slice(0, 2).join(" ");

/**
 * The dashboard's charts in plain words: a partner's own (in the mode they work in, with their
 * wallet) or, without a partner, every partner's live business for the operator.
 */
export async function dashboardCharts(db: Executor, scope: ChartScope, now: Date): Promise<DashboardChart[]> {
  const [byDay, byMonth, byProduct, byStatus, ratio, wallet] = await Promise.all([
    premiumsByDay(db, scope, now),
    premiumsByMonth(db, scope, now),
    policiesByProduct(db, scope),
    policiesByStatus(db, scope),
    claimsRatioByMonth(db, scope, now),
    scope.partnerId ? walletBalanceByDay(db, scope.partnerId, now) : null,
  ]);
  const whose = scope.partnerId ? (scope.mode === "live" ? "Your live policies" : "Your test policies") : "Every partner's live policies";
  const premium = { valueHeading: "Premium", unit: "naira", extra: [{ heading: "Policies", unit: "count" }] } as const;
  const charts: DashboardChart[] = [
    {
      kind: "column",
      chart: {
        id: "chart-premium-day",
        title: "Premium by day",
        description: `${whose}: premium written each day of the last 30 days (declined policies left out).`,
        labelHeading: "Day",
        ...premium,
        extra: [...premium.extra],
        points: byDay.map((b) => ({ label: day(b.key), short: shortDay(b.key), value: b.premiumKobo, extra: [b.policies] })),
        empty: "Nothing yet: no premium in the last 30 days.",
      },
    },
    {
      kind: "column",
      chart: {
        id: "chart-premium-month",
        title: "Premium by month",
        description: `${whose}: premium written each month of the last 12 months.`,
        labelHeading: "Month",
        ...premium,
        extra: [...premium.extra],
        points: byMonth.map((b) => ({ label: monthLabel(b.key), short: shortMonth(b.key), value: b.premiumKobo, extra: [b.policies] })),
        empty: "Nothing yet: no premium in the last 12 months.",
      },
    },
    {
      kind: "bar",
      chart: {
        id: "chart-products",
        title: "Policies by product",
        description: `${whose}: how many of each product, whatever their status.`,
        labelHeading: "Product",
        valueHeading: "Policies",
        unit: "count",
        points: byProduct.map((p) => ({ label: productName(p.productCode), value: p.policies })),
        empty: "Nothing yet: no policies.",
      },
    },
    {
      kind: "bar",
      chart: {
        id: "chart-status",
        title: "Policies by status",
        description: `${whose}: how many stand in each status now.`,
        labelHeading: "Status",
        valueHeading: "Policies",
        unit: "count",
        points: POLICY_STATUSES.map((s) => ({ label: POLICY_STATUS_TEXT[s] ?? s, value: byStatus[s] })),
        empty: "Nothing yet: no policies.",
      },
    },
    {
      kind: "line",
      chart: {
        id: "chart-claims-ratio",
        title: "Claims ratio by month",
        description: `${whose}: claims reported each month (paid, or held in reserve while open) as a share of the premium written that month.`,
        labelHeading: "Month",
        valueHeading: "Claims ratio",
        unit: "percent",
        extra: [
          { heading: "Claims", unit: "naira" },
          { heading: "Premium", unit: "naira" },
        ],
        points: ratio.map((m) => ({
          label: monthLabel(m.month),
          short: shortMonth(m.month),
          value: m.ratio,
          extra: [m.claimsKobo, m.premiumKobo],
        })),
        empty: "Nothing yet: no claims in the last 12 months.",
      },
    },
  ];
  if (wallet)
    charts.push({
      kind: "line",
      chart: {
        id: "chart-wallet",
        title: "Wallet balance",
        description: "Your wallet at the end of each of the last 30 days.",
        labelHeading: "Day",
        valueHeading: "Balance",
        unit: "naira",
        points: wallet.map((d) => ({ label: day(d.day), short: shortDay(d.day), value: d.balanceKobo })),
        empty: "Nothing yet: the wallet has held no money in the last 30 days.",
      },
    });
  return charts;
}
