import { Elysia } from "elysia";
import { AuditPage, type AuditRow, AuditRows } from "../../../views/admin/admin";
import type { Database } from "../../db/client";
import type { AppDeps } from "../../http/context";
import { csvDownload, csvOrRefusal } from "../../portal/export";
import { type ListSource, listAnswer } from "../../portal/list";
import { portalSession } from "../../portal/session";
import { watToday } from "../../products/policy-helpers";
import type { ServiceFacts } from "../manifest";
import {
  ACTION_CHOICES,
  AUDIT_CSV_COLUMNS,
  type AuditFilterValues,
  auditCsvRow,
  auditFiltersOf,
  auditFilterValues,
  auditRow,
  type PolicyName,
  policiesNamed,
  policyKey,
  SUBJECT_CHOICES,
} from "./presenter";
import { type AuditFilters, type AuditRecord, countAudit, listAudit } from "./service";

/** The audit log pages by 50 entries, twice the other lists. */
const AUDIT_PAGE_SIZE = 50;
/** Counted up to this many; past it the page says "more than". */
const COUNT_CAP = 1_000;

/**
 * The operator's audit log: who did what, newest first, filtered by account, who, what, what about
 * and days, with the count of what the filters select; its CSV is every entry they select. A policy
 * is linked by its page and named by its number through the service facts (the policies module sits
 * above this one); every other subject's page is found from its kind and stored key.
 */
export const auditAdmin = (deps: AppDeps, { partnerNames, policiesByReference }: ServiceFacts) => {
  const db: Database = deps.database.db;

  /** A batch of entries as rows: partner names and the policies they name, read once for the batch. */
  async function rowsOf(items: AuditRecord[]) {
    const [names, named] = await Promise.all([
      partnerNames(
        db,
        items.flatMap((entry) => (entry.partnerId ? [entry.partnerId] : [])),
      ),
      policiesByReference(db, policiesNamed(items)),
    ]);
    const policies = new Map<string, PolicyName>(named.map((policy) => [policyKey(policy.partnerId, policy.reference), policy]));
    return items.map(auditRow(names, policies));
  }

  const source: ListSource<AuditFilterValues, AuditFilters, AuditRecord, AuditRow> = {
    path: "/admin/audit",
    pageSize: AUDIT_PAGE_SIZE,
    values: auditFilterValues,
    filters: auditFiltersOf,
    fetch: (filters, paging) => listAudit(db, filters, paging),
    count: async (filters) => {
      const n = await countAudit(db, filters, COUNT_CAP);
      return { count: Math.min(n, COUNT_CAP), more: n > COUNT_CAP };
    },
    rows: rowsOf,
  };

  return new Elysia({ name: "admin-audit" })
    .use(portalSession(deps))
    .get(
      "/admin/audit.csv",
      ({ query, set }) =>
        csvOrRefusal(set, () => {
          const filters = auditFiltersOf(query);
          return csvDownload({
            filename: `audit-${watToday(new Date())}`,
            columns: AUDIT_CSV_COLUMNS,
            page: (limit, cursor) => listAudit(db, filters, { limit, cursor }),
            rows: async (items) => (await rowsOf(items)).map(auditCsvRow),
          });
        }),
      { portal: "admin" },
    )
    .get(
      "/admin/audit",
      (ctx) =>
        listAnswer(ctx, source, {
          shell: { title: "Audit log", active: "audit", viewer: ctx.viewer, csrf: ctx.csrf },
          rows: (list) => <AuditRows rows={list.rows} more={list.more} />,
          page: async (list) => {
            const partners = [...(await partnerNames(db)).entries()].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label));
            return (
              <AuditPage
                rows={list.rows}
                more={list.more}
                choices={{ partners, actions: ACTION_CHOICES, subjects: SUBJECT_CHOICES }}
                values={{ ...list.values }}
                problem={list.problem}
                exportHref={list.exportHref}
                total={{ count: list.count, one: "entry", many: "entries", filtered: Object.values(list.values).some(Boolean) }}
              />
            );
          },
        }),
      { portal: "admin" },
    );
};
