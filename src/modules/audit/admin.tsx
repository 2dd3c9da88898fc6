import { Elysia } from "elysia";
import { AuditPage, AuditRows } from "../../../views/admin/admin";
import type { AppDeps } from "../../http/context";
import { moreHref } from "../../portal/kit";
import { page } from "../../portal/page";
import { portalSession } from "../../portal/session";
import { partnerNames } from "../partners/service";
import { auditRow } from "./presenter";
import { listAudit } from "./service";

/** The audit log pages by 50 entries, twice the other lists. */
const AUDIT_PAGE_SIZE = 50;

/** The operator's audit log: who did what, newest first. */
export const auditAdmin = (deps: AppDeps) => {
  const db = deps.database.db;
  return new Elysia({ name: "admin-audit" }).use(portalSession(deps)).get(
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
