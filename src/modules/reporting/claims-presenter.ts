/**
 * The regulator's view in plain words (docs/reporting.md, "The regulator's view"): the page's filters
 * read and refused, and the figures as tables — one layout for the page, the CSVs and the workbook —
 * and as charts. Products by their names, rejection reasons by their words, dates in words.
 */
import { z } from "zod";
import type { ChartProps } from "../../../views/charts/charts";
import { day } from "../../../views/format";
import type { RegulatorReportView, ReportTable } from "../../../views/reporting/claims-regulator";
import type { Mode } from "../../core/principal";
import { isoDate, parseWith } from "../../core/validation";
import { type ListQuery, partnerScopeOf } from "../../portal/list";
import { typedValue } from "../../portal/page";
import { productName } from "../../products";
import { watToday } from "../../products/policy-helpers";
import { REJECTION_REASONS } from "../claims";
import {
  AGE_BANDS,
  type AgeBand,
  type AgeingLine,
  type ClaimsReport,
  type ClaimsReportPart,
  type ClaimsReportScope,
  type ReasonLine,
  type ReportPeriod,
  type SettlementLine,
} from "./claims-report";
import type { CellKind, Sheet } from "./presenter";

export const REGULATOR_PATH = "/admin/reports/regulator";

/** The four tables, each a CSV at `${REGULATOR_PATH}/<key>.csv` and a worksheet of the workbook. */
export const REGULATOR_TABLES = ["ageing", "settlement-times", "rejection-rates", "rejection-reasons"] as const;
export type RegulatorTable = (typeof REGULATOR_TABLES)[number];
/** The figure each table is made of. */
export const TABLE_PART: Record<RegulatorTable, ClaimsReportPart> = {
  ageing: "ageing",
  "settlement-times": "settlement",
  "rejection-rates": "rejections",
  "rejection-reasons": "rejections",
};

/** The filters as typed (and the defaults filled in), shown again in the form and carried by the downloads. */
export interface RegulatorValues {
  from: string;
  to: string;
  mode?: string;
  partner?: string;
}

export interface RegulatorFilters {
  period: ReportPeriod;
  scope: ClaimsReportScope;
}

/** The first day of the Nigerian calendar quarter holding `today`. */
export function quarterStart(today: string): string {
  const month = Number(today.slice(5, 7));
  return `${today.slice(0, 4)}-${String(Math.floor((month - 1) / 3) * 3 + 1).padStart(2, "0")}-01`;
}

/** The query's filters as typed, the defaults filled in: an absent end is today (Nigerian time), an absent start the first day of the end's quarter. */
export function regulatorValues(query: ListQuery, now: Date): RegulatorValues {
  const today = watToday(now);
  const from = typedValue(query.from);
  const to = typedValue(query.to);
  const partner = partnerScopeOf(query).partnerId;
  const mode = typedValue(query.mode);
  const end = to ?? today;
  return {
    // An absent start is the first day of the end's quarter (of today's, when the end is no date at all: it is refused anyway).
    from: from ?? quarterStart(/^\d{4}-\d{2}-\d{2}$/.test(end) ? end : today),
    to: end,
    ...(mode ? { mode } : {}),
    ...(partner ? { partner } : {}),
  };
}

const filtersSeed = z
  .object({
    from: isoDate,
    to: isoDate,
    mode: z
      .string()
      .refine((mode) => mode === "live" || mode === "test", { error: "must be live or test" })
      .optional(),
  })
  .refine((s) => s.from <= s.to, { message: "must not be before seed.from", path: ["to"] });

/** The filters the figures take; a bad date, an end before the start or an unknown mode is refused (a CommandError naming the field). */
export function regulatorFilters(values: RegulatorValues): RegulatorFilters {
  const seed = parseWith(filtersSeed, { from: values.from, to: values.to, ...(values.mode ? { mode: values.mode } : {}) });
  const mode: Mode = seed.mode === "test" ? "test" : "live";
  return { period: { from: seed.from, to: seed.to }, scope: { mode, ...(values.partner ? { partnerId: values.partner } : {}) } };
}

/** A product's name, the rows' label; "All products" for the lines over every product. */
const productLabel = (code: string | null) => (code === null ? "All products" : productName(code));

const BAND_TEXT: Record<AgeBand, string> = {
  "0-15": "0–15 days",
  "16-30": "16–30 days",
  "31-45": "31–45 days",
  "46-60": "46–60 days",
  "over-60": "Over 60 days",
};
const bandLabel = (band: AgeBand | null) => (band === null ? "All ages" : BAND_TEXT[band]);

export const NOT_RECORDED = "Not recorded (rejected before reasons were kept)";
const reasonLabel = (reason: ReasonLine["reason"]) => (reason === null ? NOT_RECORDED : REJECTION_REASONS[reason]);

/** The product codes of some lines (the all-products line left out), by product name. */
const productsOf = (lines: readonly { productCode: string | null }[]) =>
  [...new Set(lines.flatMap((l) => (l.productCode === null ? [] : [l.productCode])))].sort((a, b) => productName(a).localeCompare(productName(b)));

const DAY_SECONDS = 86_400;
/** A share, or null when there is nothing to share (no claims decided). */
const share = (part: number, whole: number) => (whole ? part / whole : null);

type Column = { heading: string; kind: CellKind };
const openColumns = (dueSoonDays: number): Column[] => [
  { heading: "Open claims", kind: "count" },
  { heading: "Within time", kind: "count" },
  { heading: `Due within ${dueSoonDays} days`, kind: "count" },
  { heading: "Overdue", kind: "count" },
  { heading: "Reserve (NGN)", kind: "money" },
];
const openCells = (l: AgeingLine) => [l.claims, l.withinTime, l.dueSoon, l.overdue, l.reserveKobo];
const noOpen = (productCode: string | null, band: AgeBand | null): AgeingLine => ({
  productCode,
  band,
  claims: 0,
  withinTime: 0,
  dueSoon: 0,
  overdue: 0,
  reserveKobo: 0,
});

/** The ageing's line of a product and band (noughts when there is none). */
function ageingLineOf(report: ClaimsReport, productCode: string | null, band: AgeBand | null): AgeingLine {
  return report.ageing.lines.find((l) => l.productCode === productCode && l.band === band) ?? noOpen(productCode, band);
}

const SETTLEMENT_COLUMNS: Column[] = [
  { heading: "Product", kind: "text" },
  { heading: "Claims paid", kind: "count" },
  { heading: "Median (days)", kind: "days" },
  { heading: "90th percentile (days)", kind: "days" },
  { heading: "Median (hours)", kind: "hours" },
  { heading: "90th percentile (hours)", kind: "hours" },
  { heading: "Paid after the deadline", kind: "count" },
  { heading: "Late interest (NGN)", kind: "money" },
];
const settlementCells = (l: SettlementLine) => {
  const paid = l.paid > 0;
  return [
    productLabel(l.productCode),
    l.paid,
    paid ? l.medianSeconds / DAY_SECONDS : null,
    paid ? l.p90Seconds / DAY_SECONDS : null,
    paid ? l.medianSeconds / 3600 : null,
    paid ? l.p90Seconds / 3600 : null,
    l.late,
    l.lateInterestKobo,
  ];
};

/** The lines of every product (by name), then the line over every product. */
function productsThenAll<L extends { productCode: string | null }>(lines: readonly L[], none: (productCode: string | null) => L): L[] {
  const all = lines.find((l) => l.productCode === null) ?? none(null);
  return [...productsOf(lines).map((code) => lines.find((l) => l.productCode === code)!), all];
}

/** Reasons in the documented list's order, then the rejections without one; every reason for all products, only those used for a product. */
function reasonLines(report: ClaimsReport, productCode: string | null): ReasonLine[] {
  const found = report.rejections.reasons.filter((r) => r.productCode === productCode);
  const listed = (Object.keys(REJECTION_REASONS) as (keyof typeof REJECTION_REASONS)[]).map(
    (reason) => found.find((r) => r.reason === reason) ?? { productCode, reason, rejected: 0 },
  );
  const unrecorded = found.find((r) => r.reason === null);
  const lines = [...listed, ...(unrecorded ? [unrecorded] : [])];
  return productCode === null ? lines : lines.filter((l) => l.rejected > 0);
}

/** What the report covers, in a file's name: the mode, and the partner's name when one is chosen. */
const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

export interface RegulatorSheets {
  ageing: Sheet;
  "settlement-times": Sheet;
  "rejection-rates": Sheet;
  "rejection-reasons": Sheet;
}

/** The four tables as the files hold them: every product's lines (by name), then the lines over every product. */
export function regulatorSheets(report: ClaimsReport, filters: RegulatorFilters, partnerName?: string): RegulatorSheets {
  const { from, to } = filters.period;
  const whose = [filters.scope.mode, ...(partnerName ? [slug(partnerName)] : [])].join("-");
  const period = `${day(from)} to ${day(to)}`;
  const ageingRows = [...productsOf(report.ageing.lines), null].flatMap((code) => {
    const bands = AGE_BANDS.map((b) => ageingLineOf(report, code, b.key)).filter((l) => code === null || l.claims > 0);
    return [...bands, ageingLineOf(report, code, null)].map((l) => [productLabel(code), bandLabel(l.band), ...openCells(l)]);
  });
  const reasonRows = [...productsOf(report.rejections.reasons), null].flatMap((code) => {
    const lines = reasonLines(report, code);
    const total = lines.reduce((sum, l) => sum + l.rejected, 0);
    return lines.map((l) => [productLabel(code), reasonLabel(l.reason), l.rejected, share(l.rejected, total)]);
  });
  return {
    ageing: {
      title: `Open claims by product and age, ${day(report.ageing.asOf)}`,
      filename: `claims-ageing-${whose}-${report.ageing.asOf}`,
      sheetName: "Open claims by age",
      columns: [{ heading: "Product", kind: "text" }, { heading: "Age since notification", kind: "text" }, ...openColumns(report.ageing.dueSoonDays)],
      rows: ageingRows,
    },
    "settlement-times": {
      title: `Settlement times by product, claims paid ${period}`,
      filename: `claims-settlement-times-${whose}-${from}-to-${to}`,
      sheetName: "Settlement times",
      columns: SETTLEMENT_COLUMNS,
      rows: productsThenAll(report.settlement, (productCode) => ({ productCode, paid: 0, medianSeconds: 0, p90Seconds: 0, late: 0, lateInterestKobo: 0 })).map(
        settlementCells,
      ),
    },
    "rejection-rates": {
      title: `Rejection rates by product, claims decided ${period}`,
      filename: `claims-rejection-rates-${whose}-${from}-to-${to}`,
      sheetName: "Rejection rates",
      columns: [
        { heading: "Product", kind: "text" },
        { heading: "Claims decided", kind: "count" },
        { heading: "Rejected", kind: "count" },
        { heading: "Rejection rate (%)", kind: "percent" },
      ],
      rows: productsThenAll(report.rejections.decisions, (productCode) => ({ productCode, decided: 0, rejected: 0 })).map((l) => [
        productLabel(l.productCode),
        l.decided,
        l.rejected,
        share(l.rejected, l.decided),
      ]),
    },
    "rejection-reasons": {
      title: `Rejections by reason, claims decided ${period}`,
      filename: `claims-rejection-reasons-${whose}-${from}-to-${to}`,
      sheetName: "Rejection reasons",
      columns: [
        { heading: "Product", kind: "text" },
        { heading: "Reason", kind: "text" },
        { heading: "Rejections", kind: "count" },
        { heading: "Share of the product's rejections (%)", kind: "percent" },
      ],
      rows: reasonRows,
    },
  };
}

/** The workbook of the four tables: its file's name. */
export const workbookName = (filters: RegulatorFilters, partnerName?: string) =>
  `claims-for-the-regulator-${[filters.scope.mode, ...(partnerName ? [slug(partnerName)] : [])].join("-")}-${filters.period.from}-to-${filters.period.to}`;

/** A sheet's table as the page shows it, the first column naming each row. */
const tableOf = (sheet: Sheet, caption = sheet.title): ReportTable => ({ caption, columns: sheet.columns, rows: sheet.rows });

/** The page's view of the figures: what they cover in words, the charts, the tables beside them, and the downloads. */
export function regulatorView(
  report: ClaimsReport,
  filters: RegulatorFilters,
  sheets: RegulatorSheets,
  links: { csv(table: RegulatorTable): string; xlsx: string },
  partnerName?: string,
): RegulatorReportView {
  const { from, to } = filters.period;
  const whose = `${filters.scope.mode === "live" ? "Live" : "Test"} business of ${partnerName ?? "every partner"}`;
  const asOf = day(report.ageing.asOf);
  const dueSoon = report.ageing.dueSoonDays;
  const allBands = [...AGE_BANDS.map((b) => ageingLineOf(report, null, b.key)), ageingLineOf(report, null, null)];
  const products = productsOf(report.ageing.lines);
  const settlementLines = report.settlement.filter((l) => l.productCode !== null && l.paid > 0);
  const decisionLines = report.rejections.decisions.filter((l) => l.productCode !== null && l.decided > 0);
  const allReasons = reasonLines(report, null);
  const rejectedInAll = allReasons.reduce((sum, l) => sum + l.rejected, 0);
  const ageingChart: ChartProps = {
    id: "chart-ageing",
    title: "Open claims by age",
    description: `Every product's open claims on ${asOf}, by days since they were notified.`,
    labelHeading: "Age since notification",
    valueHeading: "Open claims",
    unit: "count",
    points: allBands.slice(0, -1).map((l) => ({ label: bandLabel(l.band), value: l.claims })),
    empty: `No claim is open on ${asOf}.`,
    tableBeside: true,
  };
  const settlementChart: ChartProps = {
    id: "chart-settlement",
    title: "Days from notification to money received",
    description: "The median and the 90th percentile of each product's claims paid in the period.",
    labelHeading: "Product",
    valueHeading: "Median",
    unit: "days",
    extra: [{ heading: "90th percentile", unit: "days" }],
    points: [...settlementLines]
      .sort((a, b) => productName(a.productCode!).localeCompare(productName(b.productCode!)))
      .map((l) => ({ label: productLabel(l.productCode), value: l.medianSeconds / DAY_SECONDS, extra: [l.p90Seconds / DAY_SECONDS] })),
    empty: "No claim was paid in the period.",
    tableBeside: true,
  };
  const ratesChart: ChartProps = {
    id: "chart-rejection-rates",
    title: "Rejection rate by product",
    description: "The share of each product's claims decided in the period that were rejected.",
    labelHeading: "Product",
    valueHeading: "Rejection rate",
    unit: "percent",
    points: [...decisionLines]
      .sort((a, b) => productName(a.productCode!).localeCompare(productName(b.productCode!)))
      .map((l) => ({ label: productLabel(l.productCode), value: l.rejected / l.decided })),
    empty: "No claim was decided in the period.",
    tableBeside: true,
  };
  const reasonsChart: ChartProps = {
    id: "chart-rejection-reasons",
    title: "Rejections by reason",
    description: "Every product's claims rejected in the period, by the reason given.",
    labelHeading: "Reason",
    valueHeading: "Rejections",
    unit: "count",
    points: allReasons.map((l) => ({ label: reasonLabel(l.reason), value: l.rejected })),
    empty: "No claim was rejected in the period.",
    tableBeside: true,
  };
  const open = openColumns(dueSoon);
  return {
    covers: `${whose}. Open claims as they stand today, ${asOf}; claims paid and decided from ${day(from)} to ${day(to)}.`,
    xlsxHref: links.xlsx,
    ageing: {
      chart: ageingChart,
      bands: {
        caption: `Every product's open claims by age, ${asOf}`,
        columns: [{ heading: "Age since notification", kind: "text" }, ...open],
        rows: allBands.map((l) => [bandLabel(l.band), ...openCells(l)]),
      },
      products: {
        caption: `Open claims by product, ${asOf}`,
        columns: [{ heading: "Product", kind: "text" }, ...open],
        rows: [...products, null].map((code) => [productLabel(code), ...openCells(ageingLineOf(report, code, null))]),
      },
      csvHref: links.csv("ageing"),
      dueSoonDays: dueSoon,
    },
    settlement: { chart: settlementChart, table: tableOf(sheets["settlement-times"]), csvHref: links.csv("settlement-times") },
    rejections: {
      ratesChart,
      rates: tableOf(sheets["rejection-rates"]),
      ratesCsvHref: links.csv("rejection-rates"),
      reasonsChart,
      reasons: {
        caption: "Every product's rejections by reason",
        columns: [
          { heading: "Reason", kind: "text" },
          { heading: "Rejections", kind: "count" },
          { heading: "Share of rejections (%)", kind: "percent" },
        ],
        rows: allReasons.map((l) => [reasonLabel(l.reason), l.rejected, share(l.rejected, rejectedInAll)]),
      },
      reasonsCsvHref: links.csv("rejection-reasons"),
    },
  };
}
