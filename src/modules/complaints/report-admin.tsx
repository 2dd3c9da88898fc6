import { type AnyElysia, Elysia } from "elysia";
import ExcelJS from "exceljs";
import { ComplaintsReportPage } from "../../../views/complaints/report";
import type { AppDeps } from "../../http/context";
import { csvDownload, csvOrRefusal } from "../../portal/export";
import { exportHref } from "../../portal/kit";
import { page, problemOf } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { partnerNames } from "../partners";
import { complaintsReport } from "./report";
import { fileCell, REPORT_PATH, REPORT_TABLES, type ReportSheet, reportScope, reportSheets, reportValues, tableView } from "./report-presenter";

const XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const NAIRA_FORMAT = '"₦"#,##0.00';

const csvOf = (sheet: ReportSheet, filename: string) =>
  csvDownload({
    filename,
    columns: sheet.columns.map((c) => c.heading),
    // The report is already aggregated: one page of it.
    page: async () => ({ items: sheet.rows, nextCursor: null }),
    rows: async (rows) => rows.map((cells) => cells.map((v, i) => fileCell(sheet, v, i))),
  });

/** The tables as one workbook, a worksheet each, bold frozen headings and naira formats (a few dozen rows: written in memory). */
async function workbookOf(sheets: readonly ReportSheet[], filename: string): Promise<Response> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = "Insurance partner service";
  for (const sheet of sheets) {
    const worksheet = workbook.addWorksheet(sheet.name.slice(0, 31), { views: [{ state: "frozen", ySplit: 1 }] });
    worksheet.columns = sheet.columns.map((c) => ({
      header: c.heading,
      width: c.kind === "text" ? 32 : 16,
      style: c.kind === "money" ? { numFmt: NAIRA_FORMAT } : {},
    }));
    worksheet.getRow(1).font = { bold: true };
    for (const cells of sheet.rows) worksheet.addRow(cells.map((v, i) => fileCell(sheet, v, i)));
  }
  return new Response(await workbook.xlsx.writeBuffer(), {
    headers: { "content-type": XLSX_MIME, "content-disposition": `attachment; filename="${filename}.xlsx"`, "cache-control": "no-store" },
  });
}

/** The operator's complaints report: the page, each table as CSV, and the tables as one workbook. */
export const complaintsReportAdmin = (deps: AppDeps) => {
  const db = deps.database.db;
  const shell = (viewer: PortalViewer, csrf: string) => ({ title: "Complaints report", active: "complaints-report", viewer, csrf });
  /** The report the query asks for, as tables; a refused filter throws its CommandError. */
  async function sheetsOf(query: Record<string, string | undefined>) {
    const values = reportValues(query, new Date());
    const scope = reportScope(values);
    const report = await complaintsReport(db, scope);
    return {
      values,
      scope,
      sheets: reportSheets(
        report,
        await partnerNames(
          db,
          report.byPartner.map((l) => l.key),
        ),
      ),
    };
  }
  const fileName = (scope: { from: string; to: string; mode: string }, table?: string) =>
    `complaints-${scope.mode}-${scope.from}-to-${scope.to}${table ? `-${table}` : ""}`;

  let routes: AnyElysia = new Elysia({ name: "admin-complaints-report" }).use(portalSession(deps)).get(
    REPORT_PATH,
    async ({ viewer, csrf, request, query, set }) => {
      const props = { action: REPORT_PATH, resolutionDays: deps.config.COMPLAINT_RESOLUTION_DAYS };
      try {
        const { values, sheets } = await sheetsOf(query);
        const tables = REPORT_TABLES.map((t) => tableView(sheets[t], exportHref(`${REPORT_PATH}/${t}.csv`, values)));
        return page(
          request,
          shell(viewer, csrf),
          <ComplaintsReportPage {...props} values={values} tables={tables} xlsxHref={exportHref(`${REPORT_PATH}.xlsx`, values)} />,
        );
      } catch (error) {
        // A refused filter is shown beside its field, and no figures are drawn.
        const problem = problemOf(error);
        set.status = 400;
        return page(request, shell(viewer, csrf), <ComplaintsReportPage {...props} values={reportValues(query, new Date())} problem={problem} />);
      }
    },
    { portal: "admin" },
  );
  for (const table of REPORT_TABLES)
    routes = routes.get(
      `${REPORT_PATH}/${table}.csv`,
      ({ query, set }) =>
        csvOrRefusal(set, async () => {
          const { scope, sheets } = await sheetsOf(query);
          return csvOf(sheets[table], fileName(scope, table));
        }),
      { portal: "admin" },
    );
  return routes.get(
    `${REPORT_PATH}.xlsx`,
    ({ query, set }) =>
      csvOrRefusal(set, async () => {
        const { scope, sheets } = await sheetsOf(query);
        return workbookOf(
          REPORT_TABLES.map((t) => sheets[t]),
          fileName(scope),
        );
      }),
    { portal: "admin" },
  );
};
