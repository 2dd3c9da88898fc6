import { resolve } from "node:path";
import { Elysia } from "elysia";
import { ApprovalQueue, PendingPolicyRow } from "../../../views/admin/admin";
import { ReviewDesk, type ReviewDeskProps, ReviewPage, VehicleChecks } from "../../../views/admin/review";
import { PolicyDetail, PolicyList, PolicyRows, PolicyStatusBlock } from "../../../views/policies/policies";
import type { FormProblem } from "../../../views/portal/ui";
import { CommandError } from "../../core/errors";
import { normaliseUuid } from "../../core/ids";
import { parseWith } from "../../core/validation";
import type { AppDeps } from "../../http/context";
import { csvDownload, csvOrRefusal } from "../../portal/export";
import { download, notFound, redirectTo } from "../../portal/kit";
import { listAnswer } from "../../portal/list";
import { formValues, page, problemOf } from "../../portal/page";
import { portalSession } from "../../portal/session";
import { watToday } from "../../products/policy-helpers";
import { consumerDocument, DOCUMENT_FIELDS, wireConsumerId } from "../consumers";
import { configuredRegistry, vinDecoderAt } from "../enrichment";
import type { ServiceFacts } from "../manifest";
import { partnerChoices, partnerNames } from "../partners";
import type { PolicyRecord } from "../policies";
import { hasCertificate, listPolicies, policiesByIds, reviewForm } from "../policies";
import {
  certificateDownload,
  POLICY_CSV_COLUMNS,
  pendingRow,
  policyCsvRows,
  policyList,
  policyListFilters,
  policyRows,
  policyView,
  productOptions,
  reviewDeskView,
  reviewDone,
  vehicleChecksView,
} from "./presenter";
import { reviewPolicyById } from "./review";

/** The operator's pages for policies: the approvals queue, every partner's transactions, any policy's detail. */
export const policyAdmin = (deps: AppDeps, { policyLifecycle }: ServiceFacts) => {
  const db = deps.database.db;
  const hrefOf = (p: PolicyRecord) => `/admin/policies/${p.id}`;
  /** Every partner's policies as the list's rows, each with its partner's name. */
  const rowsOf = async (items: PolicyRecord[]) =>
    policyRows(
      db,
      items,
      hrefOf,
      await partnerNames(
        db,
        items.map((p) => p.partnerId),
      ),
    );
  const registry = configuredRegistry(deps.config);

  const policyById = async (id: string) => {
    const uuid = normaliseUuid(id);
    return uuid ? ((await policiesByIds(db, [uuid]))[0] ?? null) : null;
  };

  /** The oldest policy waiting for review other than `exceptId`: where the desk goes next. */
  const nextInQueue = async (exceptId: string) => {
    const pending = await listPolicies(db, {}, { status: "p", route: "manual" }, { limit: 100 });
    const next = pending.items.reverse().find((p) => p.id !== exceptId);
    return next ? hrefOf(next) : undefined;
  };

  const awaitsReview = (policy: PolicyRecord) => policy.status === "p" && policy.route === "manual";

  /** A policy as the operator reads it: one waiting for review waits for them (also in the status block's reloads), not for "the insurer". */
  const adminPolicyView = async (policy: PolicyRecord, consumerHref: string) => {
    const view = await policyView(db, deps.config, policyLifecycle, policy, hrefOf(policy), consumerHref);
    if (awaitsReview(policy)) view.pendingText = "Waiting for your review.";
    return view;
  };

  /** What the desk shows of a pending policy (on its page, and again with a refusal). */
  const deskProps = async (
    policy: PolicyRecord,
    csrf: string,
    extra: { values?: Record<string, string | undefined>; problem?: FormProblem } = {},
  ): Promise<ReviewDeskProps> => {
    const names = await partnerNames(db, [policy.partnerId]);
    const consumerHref = `/admin/consumers/${wireConsumerId(policy.consumerId)}`;
    const view = await reviewDeskView(db, policy, hrefOf(policy), names.get(policy.partnerId) ?? "", consumerHref, await nextInQueue(policy.id));
    return { ...view, now: new Date(), csrf, values: extra.values ?? {}, problem: extra.problem };
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
        const rows = await Promise.all(pending.items.reverse().map((p) => pendingRow(db, p, names, hrefOf(p))));
        return page(request, { title: "Approvals", active: "approvals", viewer, csrf }, <ApprovalQueue rows={rows} csrf={csrf} />);
      },
      { portal: "admin" },
    )
    .post(
      "/admin/policies/:id/review",
      async ({ viewer, csrf, params, body, set, request }) => {
        const policy = await policyById(params.id);
        if (!policy) return notFound(set, "No such policy.");
        const names = await partnerNames(db, [policy.partnerId]);
        const values = formValues(body);
        // From the review desk: the next policy in the queue once decided, the desk again with the refusal.
        const fromDesk = values.from === "desk";
        try {
          const { decision, statusNote } = parseWith(reviewForm, values);
          const review = { status: decision, note: statusNote, noteField: "statusNote", by: `admin:${viewer.email}` };
          const decided = await reviewPolicyById(db, viewer, policy.id, review, new Date());
          if (fromDesk) return redirectTo(request, set, (await nextInQueue(decided.id)) ?? "/admin");
          // htmx swaps the decided row in place; a plain form goes back to the queue.
          if (!request.headers.get("hx-request")) return redirectTo(request, set, "/admin");
          return <PendingPolicyRow row={await pendingRow(db, decided, names, hrefOf(decided))} csrf={csrf} done={reviewDone(decided)} />;
        } catch (error) {
          set.status = error instanceof CommandError ? error.status : 500;
          if (fromDesk) return <ReviewDesk {...(await deskProps(policy, csrf, { values, problem: problemOf(error) }))} />;
          return <PendingPolicyRow row={await pendingRow(db, policy, names, hrefOf(policy))} csrf={csrf} problem={problemOf(error)} />;
        }
      },
      { portal: "admin" },
    )
    .get(
      "/admin/policies.csv",
      ({ query, set }) =>
        csvOrRefusal(set, () => {
          const filters = policyListFilters({}, query);
          return csvDownload({
            filename: `transactions-${watToday(new Date())}`,
            columns: ["Partner", ...POLICY_CSV_COLUMNS],
            page: (limit, cursor) => listPolicies(db, {}, filters, { limit, cursor }),
            rows: async (items) =>
              policyCsvRows(
                db,
                items,
                await partnerNames(
                  db,
                  items.map((p) => p.partnerId),
                ),
              ),
          });
        }),
      { portal: "admin" },
    )
    .get(
      "/admin/policies",
      (ctx) =>
        listAnswer(ctx, policyList(db, {}, "/admin/policies", rowsOf), {
          shell: { title: "Transactions", active: "policies", viewer: ctx.viewer, csrf: ctx.csrf },
          rows: (list) => <PolicyRows rows={list.rows} more={list.more} withPartner />,
          page: async (list) => (
            <PolicyList
              title="All partners' transactions"
              action="/admin/policies"
              rows={list.rows}
              more={list.more}
              filters={list.values}
              count={list.count}
              problem={list.problem}
              products={productOptions()}
              partners={await partnerChoices(db)}
              exportHref={list.exportHref}
            />
          ),
        }),
      { portal: "admin" },
    )
    .get(
      "/admin/policies/:id",
      async ({ viewer, csrf, request, params, set }) => {
        const policy = await policyById(params.id);
        if (!policy) return page(request, { title: "Not found", active: "policies", viewer, csrf }, notFound(set, "No such policy."));
        const view = await adminPolicyView(policy, `/admin/consumers?q=${encodeURIComponent(wireConsumerId(policy.consumerId))}`);
        // A policy waiting for the operator is decided here: the desk, with the risk above the decision, not a page that waits for itself.
        if (awaitsReview(policy))
          return page(request, { title: view.title, active: "approvals", viewer, csrf }, <ReviewPage policy={view} desk={await deskProps(policy, csrf)} />);
        return page(request, { title: view.title, active: "policies", viewer, csrf }, <PolicyDetail policy={view} />);
      },
      { portal: "admin" },
    )
    .get(
      "/admin/policies/:id/status",
      async ({ params, set }) => {
        const policy = await policyById(params.id);
        if (!policy) {
          // An empty fragment: the polling block has nothing to show.
          set.status = 404;
          return "";
        }
        return <PolicyStatusBlock policy={await adminPolicyView(policy, "")} />;
      },
      { portal: "admin" },
    )
    .get(
      "/admin/policies/:id/registry",
      async ({ params, set }) => {
        const policy = await policyById(params.id);
        const verdicts = policy ? await vehicleChecksView(db, registry, vinDecoderAt(resolve(deps.config.VIN_DATABASE)), policy, new Date()) : null;
        if (!verdicts) {
          set.status = 404;
          return "";
        }
        return <VehicleChecks verdicts={verdicts} />;
      },
      { portal: "admin" },
    )
    .get(
      "/admin/consumers/:id/documents/:field",
      async ({ params, set }) => {
        const consumerId = normaliseUuid(params.id);
        const file = consumerId && (DOCUMENT_FIELDS as readonly string[]).includes(params.field) ? await consumerDocument(db, consumerId, params.field) : null;
        if (!file) {
          set.status = 404;
          return "no such document";
        }
        // Opened in the browser (images and PDFs); the type was sniffed from the bytes when stored.
        return download(file, "inline");
      },
      { portal: "admin" },
    )
    .get(
      "/admin/policies/:id/certificate",
      async ({ params, set }) => {
        const policy = await policyById(params.id);
        if (!policy || !hasCertificate(policy)) {
          set.status = 404;
          return "no certificate";
        }
        return certificateDownload(db, deps.config, policy, set);
      },
      { portal: "admin" },
    );
};
