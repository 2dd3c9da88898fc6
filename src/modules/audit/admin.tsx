import { Elysia } from "elysia";
import { AuditPage, AuditRows } from "../../../views/admin/admin";
import type { AppDeps } from "../../http/context";
import { page } from "../../portal/page";
import { portalSession } from "../../portal/session";
import { partnerNames } from "../partners/service";
import { listAudit } from "./service";

/** The operator's audit log: who did what, newest first. */
export const auditAdmin = (deps: AppDeps) => {
  const db = deps.database.db;
  return new Elysia({ name: "admin-audit" }).use(portalSession(deps)).get(
    "/admin/audit",
    async ({ viewer, csrf, request, query }) => {
      const list = await listAudit(db, {}, { limit: 50, cursor: query.cursor || undefined });
      const names = await partnerNames(
        db,
        list.items.flatMap((entry) => (entry.partnerId ? [entry.partnerId] : [])),
      );
      const rows = list.items.map((entry) => ({
        at: entry.at,
        actor: entry.actor,
        partnerName: entry.partnerId ? (names.get(entry.partnerId) ?? "") : "",
        action: entry.action,
        subject: entry.subject,
        details: Object.keys(entry.details).length ? JSON.stringify(entry.details) : "",
      }));
      const more = list.nextCursor ? `/admin/audit?rows=1&cursor=${list.nextCursor}` : null;
      if (query.rows) return <AuditRows rows={rows} more={more} />;
      return page(request, { title: "Audit log", active: "audit", viewer, csrf }, <AuditPage rows={rows} more={more} />);
    },
    { portal: "admin" },
  );
};
