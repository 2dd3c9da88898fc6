import { Elysia } from "elysia";
import { ApprovalQueue, PendingPolicyRow, type PendingRow } from "../../../views/admin/admin";
import { PolicyDetail, PolicyList, PolicyRows, PolicyStatusBlock } from "../../../views/policies/policies";
import { CommandError } from "../../core/errors";
import { normaliseUuid } from "../../core/ids";
import type { AppDeps } from "../../http/context";
import { formValues, page, problemOf } from "../../portal/page";
import { portalSession } from "../../portal/session";
import { recordAudit } from "../audit/service";
import { consumerName } from "../consumers/presenter";
import { findConsumer, wireConsumerId } from "../consumers/service";
import { partnerNames } from "../partners/service";
import { certificateDownload, listQuery, policyFilters, policyRows, policyView, productName, productOptions } from "./presenter";
import { listPolicies, policiesByIds, reviewPolicyById } from "./service";
import type { PolicyRecord } from "./types";

const PAGE_SIZE = 25;

/** The operator's pages for policies: the approvals queue, every partner's transactions, any policy's detail. */
export const policyAdmin = (deps: AppDeps) => {
  const db = deps.database.db;
  const hrefOf = (p: PolicyRecord) => `/admin/policies/${p.id}`;

  async function pendingRow(policy: PolicyRecord, names: Map<string, string>): Promise<PendingRow> {
    const consumer = await findConsumer(db, policy.partnerId, policy.consumerId);
    return {
      id: policy.id,
      reference: policy.reference,
      partnerName: names.get(policy.partnerId) ?? "",
      consumerName: consumer ? consumerName(consumer.profile) : "—",
      productName: productName(policy.productCode),
      premiumKobo: policy.premiumKobo,
      createdAt: policy.createdAt,
      href: hrefOf(policy),
    };
  }

  const policyById = async (id: string) => {
    const uuid = normaliseUuid(id);
    return uuid ? ((await policiesByIds(db, [uuid]))[0] ?? null) : null;
  };

  return new Elysia({ name: "admin-policies" })
    .use(portalSession(deps))
    .get(
      "/admin",
      async ({ viewer, csrf, request }) => {
        const pending = await listPolicies(db, {}, { status: "p", route: "manual" }, { limit: 100 });
        const names = await partnerNames(
          db,
          pending.items.map((p) => p.partnerId),
        );
        const rows = await Promise.all(pending.items.reverse().map((p) => pendingRow(p, names)));
        return page(request, { title: "Approvals", active: "approvals", viewer, csrf }, <ApprovalQueue rows={rows} csrf={csrf} />);
      },
      { portal: "admin" },
    )
    .post(
      "/admin/policies/:id/review",
      async ({ viewer, csrf, params, body, set, request }) => {
        const form = formValues(body);
        const policy = await policyById(params.id);
        if (!policy) {
          set.status = 404;
          return <p class="problem">No such policy.</p>;
        }
        const names = await partnerNames(db, [policy.partnerId]);
        try {
          const status = form.decision === "d" ? "d" : "a";
          const now = new Date();
          const decided = await reviewPolicyById(db, policy.id, { status, note: form.statusNote?.trim() || undefined, by: `admin:${viewer.email}` }, now);
          await recordAudit(
            db,
            viewer,
            {
              action: status === "a" ? "policy.approve" : "policy.decline",
              subject: decided.reference,
              partnerId: decided.partnerId,
              details: { statusNote: decided.statusNote, policyNo: decided.policyNo },
            },
            now,
          );
          const row = await pendingRow(decided, names);
          const done =
            status === "a" ? `Approved ${decided.reference}: policy number ${decided.policyNo}.` : `Declined ${decided.reference}: ${decided.statusNote}.`;
          if (!request.headers.get("hx-request")) {
            set.headers.location = "/admin";
            set.status = 303;
            return "";
          }
          return <PendingPolicyRow row={row} csrf={csrf} done={done} />;
        } catch (error) {
          set.status = error instanceof CommandError ? error.status : 500;
          return <PendingPolicyRow row={await pendingRow(policy, names)} csrf={csrf} problem={problemOf(error)} />;
        }
      },
      { portal: "admin" },
    )
    .get(
      "/admin/policies",
      async ({ viewer, csrf, request, query }) => {
        const { filters, values } = policyFilters(query);
        const list = await listPolicies(db, {}, filters, { limit: PAGE_SIZE, cursor: query.cursor || undefined });
        const names = await partnerNames(
          db,
          list.items.map((p) => p.partnerId),
        );
        const rows = (await policyRows(db, list.items, hrefOf)).map((row, i) => ({ ...row, partnerName: names.get(list.items[i]!.partnerId) }));
        const more = list.nextCursor ? `/admin/policies?${listQuery(values, list.nextCursor)}` : null;
        if (query.rows) return <PolicyRows rows={rows} more={more} withPartner />;
        return page(
          request,
          { title: "Transactions", active: "policies", viewer, csrf },
          <PolicyList
            title="All partners' transactions"
            action="/admin/policies"
            rows={rows}
            more={more}
            filters={values}
            products={productOptions()}
            withPartner
          />,
        );
      },
      { portal: "admin" },
    )
    .get(
      "/admin/policies/:id",
      async ({ viewer, csrf, request, params, set }) => {
        const policy = await policyById(params.id);
        if (!policy) {
          set.status = 404;
          return page(request, { title: "Not found", active: "policies", viewer, csrf }, <p class="problem">No such policy.</p>);
        }
        const view = await policyView(db, deps.config, policy, hrefOf(policy), `/admin/consumers?q=${encodeURIComponent(wireConsumerId(policy.consumerId))}`);
        return page(request, { title: `Policy ${policy.reference}`, active: "policies", viewer, csrf }, <PolicyDetail policy={view} />);
      },
      { portal: "admin" },
    )
    .get(
      "/admin/policies/:id/status",
      async ({ params, set }) => {
        const policy = await policyById(params.id);
        if (!policy) {
          set.status = 404;
          return "";
        }
        return <PolicyStatusBlock policy={await policyView(db, deps.config, policy, hrefOf(policy), "")} />;
      },
      { portal: "admin" },
    )
    .get(
      "/admin/policies/:id/certificate",
      async ({ params, set }) => {
        const policy = await policyById(params.id);
        if (policy?.status !== "a") {
          set.status = 404;
          return "no certificate";
        }
        return certificateDownload(db, deps.config, policy, set);
      },
      { portal: "admin" },
    );
};
