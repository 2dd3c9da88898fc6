/**
 * A report's tables as files: CSV (the portal's exports' writer) or an XLSX workbook (exceljs) of one
 * worksheet per table, each with a bold, frozen header row, number formats (naira, counts, days,
 * percentages), real dates and its totals row. The XLSX is written with exceljs's streaming writer,
 * each row committed as it is written, into the response's stream.
 */
import { PassThrough, Readable, type Writable } from "node:stream";
import ExcelJS from "exceljs";
import { toNaira } from "../../core/money";
import { csvDownload } from "../../portal/export";
import type { CellKind, Sheet } from "./presenter";

type Cell = string | number | null;

/** `value` rounded to `places` decimals (half away from zero, as a spreadsheet rounds). */
const rounded = (value: number, places: number) => Math.sign(value) * (Math.round(Math.abs(value) * 10 ** places) / 10 ** places);

/**
 * A cell as the files hold it: money in naira (the spreadsheet's format shows two decimals; the kobo
 * were exact), days to two decimals, hours to one, a share as a percentage to two decimals.
 */
const fileValue = (kind: CellKind, value: Cell): Cell => {
  if (typeof value !== "number") return value;
  if (kind === "money") return toNaira(value);
  if (kind === "days") return rounded(value, 2);
  if (kind === "hours") return rounded(value, 1);
  if (kind === "percent") return rounded(value * 100, 2);
  return value;
};

export function sheetCsv(sheet: Sheet): Promise<Response> {
  const lines = sheet.totals ? [...sheet.rows, sheet.totals] : sheet.rows;
  return csvDownload({
    filename: sheet.filename,
    columns: sheet.columns.map((c) => c.heading),
    // A report's table is already read (aggregated, or a keyset page at a time): one page of it.
    page: async () => ({ items: lines, nextCursor: null }),
    rows: async (items) => items.map((cells) => cells.map((value, index) => fileValue(sheet.columns[index]!.kind, value))),
  });
}

/** Naira with thousands separators; negatives (refunds, reversed commission) in red with their minus. */
const NAIRA_FORMAT = '"₦"#,##0.00;[Red]-"₦"#,##0.00';
const FORMATS: Record<CellKind, string | undefined> = {
  text: undefined,
  day: "dd mmm yyyy",
  money: NAIRA_FORMAT,
  count: "#,##0",
  days: "0.00",
  hours: "0.0",
  percent: "0.00",
};
const WIDTHS: Record<CellKind, number> = { text: 24, day: 14, money: 20, count: 14, days: 14, hours: 14, percent: 14 };
const XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** A day column's cell: the date itself (midnight UTC of the Nigerian day), so spreadsheets sort and filter it as a date. */
const xlsxValue = (kind: CellKind, value: Cell): Cell | Date =>
  kind === "day" && typeof value === "string" ? new Date(`${value}T00:00:00Z`) : fileValue(kind, value);

/** Write `sheets` as an XLSX workbook into `output`, a worksheet each, a row at a time. */
async function writeWorkbook(sheets: readonly Sheet[], output: Writable): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  workbook.creator = "Insurance partner service";
  for (const sheet of sheets) {
    // Sheet names are at most 31 characters.
    const worksheet = workbook.addWorksheet((sheet.sheetName ?? sheet.filename).slice(0, 31), { views: [{ state: "frozen", ySplit: 1 }] });
    worksheet.columns = sheet.columns.map((column) => {
      const numFmt = FORMATS[column.kind];
      return { header: column.heading, width: WIDTHS[column.kind], style: numFmt ? { numFmt } : {} };
    });
    worksheet.getRow(1).font = { bold: true };
    worksheet.getRow(1).commit();
    for (const cells of sheet.rows) worksheet.addRow(cells.map((value, index) => xlsxValue(sheet.columns[index]!.kind, value))).commit();
    if (sheet.totals) {
      const totals = worksheet.addRow(sheet.totals.map((value, index) => xlsxValue(sheet.columns[index]!.kind, value)));
      totals.font = { bold: true };
      totals.commit();
    }
    worksheet.commit();
  }
  await workbook.commit();
}

/** `sheets` as one XLSX download named `filename` (without its extension), streamed as it is written. */
export function workbookXlsx(filename: string, sheets: readonly Sheet[]): Response {
  const output = new PassThrough();
  writeWorkbook(sheets, output).catch((error: Error) => output.destroy(error));
  return new Response(Readable.toWeb(output) as unknown as ReadableStream<Uint8Array>, {
    headers: {
      "content-type": XLSX_MIME,
      "content-disposition": `attachment; filename="${filename}.xlsx"`,
      "cache-control": "no-store",
    },
  });
}
