/** The complaints report as tables: the page draws them, the CSVs and the workbook hold the same rows. */
import { z } from "zod";
import type { ReportTableView } from "../../../views/complaints/report";
import { naira } from "../../../views/format";
import { toNaira } from "../../core/money";
import type { Mode } from "../../core/principal";
import { isoDate, parseWith } from "../../core/validation";
import { productName } from "../../products";
import { watToday } from "../../products/policy-helpers";
import { COMPLAINT_CATEGORIES, type ComplaintCategory } from "./categories";
import { AGE_BANDS, type ComplaintFigures, type ComplaintsReport, type ComplaintsReportScope } from "./report";

export const REPORT_PATH = "/admin/reports/complaints";
export const REPORT_TABLES = ["summary", "ageing", "categories", "products", "partners"] as const;
export type ReportTable = (typeof REPORT_TABLES)[number];

/** One table: headings, and rows of text, counts and naira amounts (in kobo until drawn or written). */
export interface ReportSheet {
  name: string;
  columns: { heading: string; kind: "text" | "count" | "money" }[];
  rows: (string | number)[][];
}

const periodSeed = z
  .strictObject({ from: isoDate, to: isoDate, mode: z.enum(["test", "live"]) })
  .refine((s) => s.from <= s.to, { message: "must not be before the start of the period", path: ["to"] });

/** The first day of the quarter of `today`. */
const quarterStart = (today: string) => `${today.slice(0, 4)}-${String(Math.floor((Number(today.slice(5, 7)) - 1) / 3) * 3 + 1).padStart(2, "0")}-01`;

/** The filters as typed, defaults filled in: to today, from the first day of the quarter, live complaints. */
export function reportValues(query: Record<string, string | undefined>, now: Date) {
  const today = watToday(now);
  const to = query.to?.trim() || today;
  return { from: query.from?.trim() || quarterStart(/^\d{4}-\d{2}-\d{2}$/.test(to) ? to : today), to, mode: query.mode?.trim() || "live" };
}

/** The typed filters as a report's scope; a refusal names the field (seed.from, seed.to, seed.mode). */
export const reportScope = (values: { from: string; to: string; mode: string }): ComplaintsReportScope =>
  parseWith(periodSeed, values) as { from: string; to: string; mode: Mode };

const FIGURE_COLUMNS: ReportSheet["columns"] = [
  { heading: "Received", kind: "count" },
  { heading: "Resolved", kind: "count" },
  { heading: "Resolved within the deadline", kind: "count" },
  { heading: "Upheld", kind: "count" },
  { heading: "Partly upheld", kind: "count" },
  { heading: "Not upheld", kind: "count" },
  { heading: "Withdrawn", kind: "count" },
  { heading: "Redress (₦)", kind: "money" },
  { heading: "Open at the end", kind: "count" },
];

const figureCells = (f: ComplaintFigures) => [
  f.received,
  f.resolved,
  f.resolvedInTime,
  f.upheld,
  f.partlyUpheld,
  f.notUpheld,
  f.withdrawn,
  f.redressKobo,
  f.open,
];

const grouped = (name: string, heading: string, lines: (ComplaintFigures & { key: string | null })[], label: (key: string | null) => string): ReportSheet => ({
  name,
  columns: [{ heading, kind: "text" }, ...FIGURE_COLUMNS],
  rows: lines.map((l) => [label(l.key), ...figureCells(l)]),
});

export function reportSheets(report: ComplaintsReport, partnerNames: ReadonlyMap<string, string>): Record<ReportTable, ReportSheet> {
  return {
    summary: {
      name: "Summary",
      columns: [{ heading: "Period", kind: "text" }, ...FIGURE_COLUMNS],
      rows: [[`${report.scope.from} to ${report.scope.to}`, ...figureCells(report.totals)]],
    },
    ageing: {
      name: "Open by age",
      columns: [
        { heading: "Open for", kind: "text" },
        { heading: "Complaints", kind: "count" },
      ],
      rows: report.ageing.map((a) => [AGE_BANDS.find((b) => b.key === a.band)!.label, a.open]),
    },
    categories: grouped("By category", "Category", report.byCategory, (k) => COMPLAINT_CATEGORIES[k as ComplaintCategory] ?? String(k)),
    products: grouped("By product", "Product", report.byProduct, (k) => (k ? productName(k) : "No policy named")),
    partners: grouped("By partner", "Partner", report.byPartner, (k) => partnerNames.get(k ?? "") ?? String(k)),
  };
}

/** A sheet as the page draws it: counts as numbers, money in naira. */
export const tableView = (sheet: ReportSheet, csvHref: string): ReportTableView => ({
  title: sheet.name,
  csvHref,
  columns: sheet.columns.map((c) => ({ heading: c.heading, numeric: c.kind !== "text" })),
  rows: sheet.rows.map((cells) => cells.map((v, i) => (sheet.columns[i]!.kind === "money" ? naira(Number(v)) : String(v)))),
});

/** A cell as the files hold it: money in naira. */
export const fileCell = (sheet: ReportSheet, value: string | number, index: number) =>
  sheet.columns[index]!.kind === "money" ? toNaira(Number(value)) : value;
