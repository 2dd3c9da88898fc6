import { type AnyElysia, Elysia } from "elysia";
import { RegulatorPage } from "../../../views/reporting/claims-regulator";
import type { AppDeps } from "../../http/context";
import { csvOrRefusal } from "../../portal/export";
import { exportHref } from "../../portal/kit";
import type { ListQuery } from "../../portal/list";
import { page, problemOf } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { watToday } from "../../products/policy-helpers";
import { partnerChoices } from "../partners";
import {
  REGULATOR_PATH,
  REGULATOR_TABLES,
  type RegulatorFilters,
  regulatorFilters,
  regulatorSheets,
  regulatorValues,
  regulatorView,
  TABLE_PART,
  workbookName,
} from "./claims-presenter";
import { type ClaimsReportPart, claimsReport } from "./claims-report";
import { sheetCsv, workbookXlsx } from "./files";

/** The operator's view of claims for the regulator: the page with its charts and tables, each table as CSV, and the four as one workbook. */
export const regulatorAdmin = (deps: AppDeps) => {
  const db = deps.database.db;
  const { CLAIM_DUE_SOON_DAYS: dueSoonDays, CLAIM_SETTLEMENT_DAYS: settlementDays } = deps.config;
  const shell = (viewer: PortalViewer, csrf: string) => ({ title: "Claims for the regulator", active: "regulator", viewer, csrf });

  /** The filters as typed; a partner id that is no partner's is no filter (as on the operator's lists). */
  async function valuesOf(query: ListQuery, now: Date) {
    const partners = await partnerChoices(db);
    const { partner, ...values } = regulatorValues(query, now);
    const chosen = partners.find((p) => p.value === partner);
    return { values: chosen ? { ...values, partner: chosen.value } : values, partners, partnerName: chosen?.label };
  }

  /** The figures the filters ask for (those of `parts`, all by default); a refused filter throws its CommandError. */
  async function figures(chosen: Awaited<ReturnType<typeof valuesOf>>, now: Date, parts?: readonly ClaimsReportPart[]) {
    const filters: RegulatorFilters = regulatorFilters(chosen.values);
    const report = await claimsReport(db, filters, watToday(now), dueSoonDays, parts);
    return { filters, report, sheets: regulatorSheets(report, filters, chosen.partnerName) };
  }

  let routes: AnyElysia = new Elysia({ name: "admin-regulator" }).use(portalSession(deps)).get(
    REGULATOR_PATH,
    async ({ viewer, csrf, request, query, set }) => {
      const now = new Date();
      const chosen = await valuesOf(query, now);
      const { values, partners, partnerName } = chosen;
      const props = { action: REGULATOR_PATH, values: { ...values }, partners, settlementDays };
      try {
        const { filters, report, sheets } = await figures(chosen, now);
        const links = { csv: (table: string) => exportHref(`${REGULATOR_PATH}/${table}.csv`, values), xlsx: exportHref(`${REGULATOR_PATH}.xlsx`, values) };
        return page(request, shell(viewer, csrf), <RegulatorPage {...props} report={regulatorView(report, filters, sheets, links, partnerName)} />);
      } catch (error) {
        // A refused filter is shown beside its field, and no figures are drawn.
        const problem = problemOf(error);
        set.status = 400;
        return page(request, shell(viewer, csrf), <RegulatorPage {...props} problem={problem} />);
      }
    },
    { portal: "admin" },
  );
  for (const table of REGULATOR_TABLES)
    routes = routes.get(
      `${REGULATOR_PATH}/${table}.csv`,
      ({ query, set }) =>
        csvOrRefusal(set, async () => {
          const now = new Date();
          return sheetCsv((await figures(await valuesOf(query, now), now, [TABLE_PART[table]])).sheets[table]);
        }),
      { portal: "admin" },
    );
  return routes.get(
    `${REGULATOR_PATH}.xlsx`,
    ({ query, set }) =>
      csvOrRefusal(set, async () => {
        const now = new Date();
        const chosen = await valuesOf(query, now);
        const { filters, sheets } = await figures(chosen, now);
        return workbookXlsx(
          workbookName(filters, chosen.partnerName),
          REGULATOR_TABLES.map((table) => sheets[table]),
        );
      }),
    { portal: "admin" },
  );
};
