import { Elysia } from "elysia";
import { AuditPage, AuditRows } from "../../../views/admin/admin";
import type { AppDeps } from "../../http/context";
import { csvDownload } from "../../portal/export";
import { moreHref } from "../../portal/kit";
import { page } from "../../portal/page";
import { portalSession } from "../../portal/session";
import { watToday } from "../../products/policy-helpers";
import type { ServiceFacts } from "../manifest";
import { AUDIT_CSV_COLUMNS, auditCsvRow, auditRow } from "./presenter";
import { listAudit } from "./service";

/** The audit log pages by 50 entries, twice the other lists. */
const AUDIT_PAGE_SIZE = 50;

/** The operator's audit log: who did what, newest first. */
export const auditAdmin = (deps: AppDeps, { partnerNames }: ServiceFacts) => {
  const db = deps.database.db;
  return new Elysia({ name: "admin-audit" })
    .use(portalSession(deps))
    .get(
      "/admin/audit.csv",
      () =>
        csvDownload({
          filename: `audit-${watToday(new Date())}`,
          columns: AUDIT_CSV_COLUMNS,
          page: (limit, cursor) => listAudit(db, {}, { limit, cursor }),
          rows: async (items) => {
            const names = await partnerNames(
              db,
              items.flatMap((entry) => (entry.partnerId ? [entry.partnerId] : [])),
            );
            return items.map((entry) => auditCsvRow(auditRow(names)(entry)));
          },
        }),
      { portal: "admin" },
    )
    .get(
      "/admin/audit",
      async ({ viewer, csrf, request, query }) => {
        const list = await listAudit(db, {}, { limit: AUDIT_PAGE_SIZE, cursor: query.cursor || undefined });
        const names = await partnerNames(
          db,
          list.items.flatMap((entry) => (entry.partnerId ? [entry.partnerId] : [])),
        );
        const rows = list.items.map(auditRow(names));
        const more = moreHref("/admin/audit", {}, list.nextCursor);
        if (query.rows) return <AuditRows rows={rows} more={more} />;
        return page(request, { title: "Audit log", active: "audit", viewer, csrf }, <AuditPage rows={rows} more={more} />);
      },
      { portal: "admin" },
    );
};
