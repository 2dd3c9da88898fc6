import { type AnyElysia, Elysia } from "elysia";
import { type BordereauPreview, ReportsPage } from "../../../views/reporting/reporting";
import { CommandError } from "../../core/errors";
import type { AppDeps } from "../../http/context";
import { csvOrRefusal } from "../../portal/export";
import { exportHref } from "../../portal/kit";
import { page, problemOf } from "../../portal/page";
import type { PortalViewer } from "../../portal/session";
import { portalSession } from "../../portal/session";
import { currentWatMonth } from "../enrichment";
import { sheetCsv, workbookXlsx } from "./files";
import { underwriter, underwriters } from "./insurers";
import { BORDEREAU_TEXT, type BordereauKind, type BordereauSheet, claimsSheet, monthOptions, premiumSheet } from "./presenter";
import { claimsBordereau, premiumBordereau } from "./service";

const INTRO: Record<BordereauKind, string> = {
  premium: "Every live policy written, cancelled or changed in the month, from the wallet ledger: the insurer is owed the net.",
  claims: "Every claim reported in the month on the insurer's live policies, with what it holds in reserve and what was paid.",
};

/** The operator's insurer bordereaux: the month and insurer picker with both previews, and each as CSV and XLSX. */
export const reportingAdmin = (deps: AppDeps) => {
  const db = deps.database.db;
  const shell = (viewer: PortalViewer, csrf: string) => ({ title: "Insurer bordereaux", active: "reports", viewer, csrf });

  /** A bordereau of the month and insurer asked for; a month or insurer refused is a 400 naming its field. */
  async function sheetOf(kind: BordereauKind, query: { month?: string; insurer?: string }): Promise<BordereauSheet> {
    const insurer = underwriter(query.insurer);
    const month = query.month ?? "";
    return kind === "premium" ? premiumSheet(await premiumBordereau(db, insurer, month)) : claimsSheet(await claimsBordereau(db, insurer, month));
  }

  const preview = (kind: BordereauKind, sheet: BordereauSheet, filters: { month?: string; insurer?: string }): BordereauPreview => ({
    id: kind,
    title: sheet.title,
    intro: INTRO[kind],
    columns: sheet.columns,
    rows: sheet.rows,
    totals: sheet.totals,
    csvHref: exportHref(`/admin/reports/${kind}.csv`, filters),
    xlsxHref: exportHref(`/admin/reports/${kind}.xlsx`, filters),
    empty: `Nothing on the ${BORDEREAU_TEXT[kind].toLowerCase()} for this month.`,
  });

  // The loop below adds four routes: typed loosely, as a chain this long is too deep for tsc.
  let routes: AnyElysia = new Elysia({ name: "admin-reporting" }).use(portalSession(deps)).get(
    "/admin/reports",
    async ({ viewer, csrf, request, query, set }) => {
      const now = new Date();
      const values = { month: query.month ?? currentWatMonth(now), insurer: query.insurer };
      const props = {
        months: monthOptions(now, values.month),
        insurers: underwriters().map((i) => ({ value: i.code, label: i.name })),
        values,
      };
      // Nothing asked yet: the picker alone.
      if (query.insurer === undefined) return page(request, shell(viewer, csrf), <ReportsPage {...props} />);
      try {
        const filters = { month: values.month, insurer: values.insurer };
        const previews = [preview("premium", await sheetOf("premium", filters), filters), preview("claims", await sheetOf("claims", filters), filters)];
        return page(request, shell(viewer, csrf), <ReportsPage {...props} previews={previews} />);
      } catch (error) {
        const problem = problemOf(error);
        set.status = error instanceof CommandError ? error.status : 400;
        return page(request, shell(viewer, csrf), <ReportsPage {...props} problem={problem} />);
      }
    },
    { portal: "admin" },
  );
  for (const kind of ["premium", "claims"] as const)
    routes = routes
      .get(`/admin/reports/${kind}.csv`, ({ query, set }) => csvOrRefusal(set, async () => sheetCsv(await sheetOf(kind, query))), { portal: "admin" })
      .get(
        `/admin/reports/${kind}.xlsx`,
        ({ query, set }) =>
          csvOrRefusal(set, async () => {
            const sheet = await sheetOf(kind, query);
            return workbookXlsx(sheet.filename, [sheet]);
          }),
        {
          portal: "admin",
        },
      );
  return routes;
};
