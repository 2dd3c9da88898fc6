/**
 * A bordereau as a file: CSV (the portal's exports' writer) or an XLSX worksheet (exceljs) with a
 * bold, frozen header row, naira number formats, real dates and a totals row. The XLSX is written
 * with exceljs's streaming writer, each row committed as it is written, into the response's stream.
 */
import { PassThrough, Readable, type Writable } from "node:stream";
import ExcelJS from "exceljs";
import { toNaira } from "../../core/money";
import { csvDownload } from "../../portal/export";
import type { BordereauSheet } from "./presenter";

type Cell = string | number | null;

/** A cell as the files hold it: money in naira (the spreadsheet's format shows two decimals; the kobo were exact). */
const fileValue = (kind: BordereauSheet["columns"][number]["kind"], value: Cell): Cell =>
  kind === "money" && typeof value === "number" ? toNaira(value) : value;

export function bordereauCsv(sheet: BordereauSheet): Promise<Response> {
  const lines = [...sheet.rows, sheet.totals];
  return csvDownload({
    filename: sheet.filename,
    columns: sheet.columns.map((c) => c.heading),
    // A month's bordereau is already read (a keyset page at a time): one page of it.
    page: async () => ({ items: lines, nextCursor: null }),
    rows: async (items) => items.map((cells) => cells.map((value, index) => fileValue(sheet.columns[index]!.kind, value))),
  });
}

/** Naira with thousands separators; negatives (refunds, reversed commission) in red with their minus. */
const NAIRA_FORMAT = '"₦"#,##0.00;[Red]-"₦"#,##0.00';
const DAY_FORMAT = "dd mmm yyyy";
const XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** A day column's cell: the date itself (midnight UTC of the Nigerian day), so spreadsheets sort and filter it as a date. */
const xlsxValue = (kind: BordereauSheet["columns"][number]["kind"], value: Cell): Cell | Date =>
  kind === "day" && typeof value === "string" ? new Date(`${value}T00:00:00Z`) : fileValue(kind, value);

/** Write `sheet` as an XLSX workbook into `output`, a row at a time. */
async function writeBordereauXlsx(sheet: BordereauSheet, output: Writable): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  workbook.creator = "Insurance partner service";
  // Sheet names are at most 31 characters.
  const worksheet = workbook.addWorksheet(sheet.filename.slice(0, 31), { views: [{ state: "frozen", ySplit: 1 }] });
  worksheet.columns = sheet.columns.map((column) => ({
    header: column.heading,
    width: column.kind === "text" ? 24 : column.kind === "day" ? 14 : 20,
    style: column.kind === "money" ? { numFmt: NAIRA_FORMAT } : column.kind === "day" ? { numFmt: DAY_FORMAT } : {},
  }));
  worksheet.getRow(1).font = { bold: true };
  worksheet.getRow(1).commit();
  for (const cells of sheet.rows) worksheet.addRow(cells.map((value, index) => xlsxValue(sheet.columns[index]!.kind, value))).commit();
  const totals = worksheet.addRow(sheet.totals.map((value, index) => xlsxValue(sheet.columns[index]!.kind, value)));
  totals.font = { bold: true };
  totals.commit();
  worksheet.commit();
  await workbook.commit();
}

export function bordereauXlsx(sheet: BordereauSheet): Response {
  const output = new PassThrough();
  writeBordereauXlsx(sheet, output).catch((error: Error) => output.destroy(error));
  return new Response(Readable.toWeb(output) as unknown as ReadableStream<Uint8Array>, {
    headers: {
      "content-type": XLSX_MIME,
      "content-disposition": `attachment; filename="${sheet.filename}.xlsx"`,
      "cache-control": "no-store",
    },
  });
}
