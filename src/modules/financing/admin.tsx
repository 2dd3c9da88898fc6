import { Elysia } from "elysia";
import { LapseRun, type LapseRunState, PlanDetail, PlanList, type PlanRow, PlanRows } from "../../../views/financing/financing";
import { ConfirmStep } from "../../../views/portal/confirm";
import { CommandError } from "../../core/errors";
import type { AppDeps } from "../../http/context";
import { confirmation } from "../../portal/confirm";
import { csvDownload } from "../../portal/export";
import { notFound, refusedAsNull } from "../../portal/kit";
import { type ListPage, listAnswer, listPage, partnerScopeOf, withPartnerFilter } from "../../portal/list";
import { formValues, page, problemOf } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { watToday } from "../../products/policy-helpers";
import { partnerChoices, partnerNames, rowsWithPartner } from "../partners";
import { plansDueForLapse, runLapse } from "./lapse";
import { lapseSeedFrom, planNoOf } from "./model";
import { listPlans, planDetail } from "./plans";
import { adminHref, lapseResult, lapseStep, PLAN_CSV_COLUMNS, planConsumer, planCsvRow, planFiltersOf, planList, planRow, planView } from "./presenter";

/** The operator's financing pages: every partner's plans with "Run lapse now", and any plan. */
export const financingAdmin = (deps: AppDeps) => {
  const db = deps.database.db;
  const shell = (viewer: PortalViewer, csrf: string, title: string) => ({ title, active: "financing", viewer, csrf });

  const plans = withPartnerFilter((scope) =>
    planList(db, scope, "/admin/financing", (items) => rowsWithPartner(db, items, (p, partnerName) => planRow(p, adminHref(p.planNo), partnerName))),
  );
  const adminList = async (csrf: string, list: ListPage<{ status?: string; partner?: string }, PlanRow>, lapse: LapseRunState) => (
    <PlanList
      title="All partners' financing plans"
      action="/admin/financing"
      list={list}
      partners={await partnerChoices(db)}
      lapse={{ csrf, state: lapse, today: watToday(new Date()) }}
      exportHref={list.exportHref}
    />
  );

  return new Elysia({ name: "admin-financing" })
    .use(portalSession(deps))
    .get(
      "/admin/financing",
      (ctx) =>
        listAnswer(ctx, plans, {
          shell: shell(ctx.viewer, ctx.csrf, "Financing"),
          rows: (list) => <PlanRows rows={list.rows} more={list.more} withPartner />,
          page: (list) => adminList(ctx.csrf, list, { values: {} }),
        }),
      { portal: "admin" },
    )
    .get(
      "/admin/financing.csv",
      ({ query }) =>
        csvDownload({
          filename: `financing-${watToday(new Date())}`,
          columns: ["Partner", ...PLAN_CSV_COLUMNS],
          page: (limit, cursor) => listPlans(db, partnerScopeOf(query), planFiltersOf(query), { limit, cursor }),
          rows: (items) => rowsWithPartner(db, items, planCsvRow),
        }),
      { portal: "admin" },
    )
    .post(
      "/admin/financing/lapse",
      async ({ viewer, csrf, request, body, set }) => {
        const values = formValues(body);
        let state: LapseRunState;
        try {
          const now = new Date();
          const asOf = lapseSeedFrom(values).asOf ?? watToday(now);
          // Lapsing stops consumers' cover: asked first, with how many plans (a run with nothing to lapse just says so).
          const due = await plansDueForLapse(db, asOf);
          const step = confirmation(csrf, "financing.lapse", asOf, due);
          if (due > 0 && !step.given(values))
            return page(
              request,
              shell(viewer, csrf, "Financing"),
              <ConfirmStep
                id="lapse-run"
                level={request.headers.get("hx-request") === "true" ? 2 : 1}
                {...lapseStep(asOf, due)}
                action="/admin/financing/lapse"
                csrf={csrf}
                fields={{ asOf: values.asOf, ...step.fields }}
                danger
                back={{ label: "Do not lapse them", href: "/admin/financing" }}
              />,
            );
          const lapsed = await runLapse(db, asOf, now, { actor: viewer });
          state = { values, result: lapseResult(asOf, lapsed, await partnerNames(db)) };
        } catch (error) {
          state = { values, problem: problemOf(error) };
          set.status = error instanceof CommandError ? error.status : 400;
        }
        // htmx swaps the run's card; without htmx the whole page comes back with the list as it is now.
        if (request.headers.get("hx-request") === "true") return <LapseRun csrf={csrf} state={state} today={watToday(new Date())} />;
        return page(request, shell(viewer, csrf, "Financing"), await adminList(csrf, await listPage(plans, {}), state));
      },
      { portal: "admin" },
    )
    .get(
      "/admin/financing/:planNo",
      async ({ viewer, csrf, request, params, set }) => {
        const planNo = planNoOf(params.planNo);
        const plan = planNo ? await planDetail(db, {}, planNo).catch(refusedAsNull) : null;
        if (!plan) return page(request, shell(viewer, csrf, "Not found"), notFound(set, "No such financing plan."));
        const names = await partnerNames(db);
        return page(
          request,
          shell(viewer, csrf, `Plan ${plan.planNo}`),
          <PlanDetail
            plan={planView(plan, await planConsumer(db, plan, "admin"), { partnerName: names.get(plan.partnerId) ?? "" })}
            csrf={csrf}
            backHref="/admin/financing"
          />,
        );
      },
      { portal: "admin" },
    );
};
