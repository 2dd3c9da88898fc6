import type { AuditRow } from "../../../views/admin/admin";
import type { AuditRecord } from "./service";

/** An entry as the log shows it: the partner by name, the details as compact JSON (none: blank). */
export const auditRow =
  (partnerNames: Map<string, string>) =>
  (entry: AuditRecord): AuditRow => ({
    at: entry.at,
    actor: entry.actor,
    partnerName: entry.partnerId ? (partnerNames.get(entry.partnerId) ?? "") : "",
    action: entry.action,
    subject: entry.subject,
    details: Object.keys(entry.details).length ? JSON.stringify(entry.details) : "",
  });
