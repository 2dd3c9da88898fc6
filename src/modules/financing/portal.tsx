import { Elysia } from "elysia";
import { FinanceForm, type PaymentFormState, PlanDetail, PlanList, PlanRows } from "../../../views/financing/financing";
import type { FormProblem } from "../../../views/portal/ui";
import { CommandError } from "../../core/errors";
import type { AppDeps } from "../../http/context";
import { csvDownload } from "../../portal/export";
import { notFound, redirectTo, refusedAsNull } from "../../portal/kit";
import { listAnswer } from "../../portal/list";
import { formValues, page, problemOf } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { watToday } from "../../products/policy-helpers";
import { findPolicyByReference } from "../policies";
import { recordInstallment } from "./installments";
import { financeSeedFrom, installmentSeedFrom, PLAN_LIMITS, type PlanDetail as PlanDetailRecord, paymentRequestFrom, planNoOf, planRequestFrom } from "./model";
import { financePremium, listPlans, planDetail } from "./plans";
import {
  financePolicySummary,
  PLAN_CSV_COLUMNS,
  partnerHref,
  paymentOutcome,
  planConsumer,
  planCsvRow,
  planFiltersOf,
  planList,
  planRow,
  planView,
} from "./presenter";
import { addDays } from "./schedule";

const NO_PLAN = "No financing plan with this number on your account.";
const INTRO = "A consumer pays a policy's premium as a down payment and installments. A missed installment past its grace days lapses the plan and the policy.";

/** The partner's financing pages: the plans, a new plan, a plan with its payment form. */
export const financingPortal = (deps: AppDeps) => {
  const db = deps.database.db;
  const shell = (viewer: PortalViewer, csrf: string, title: string) => ({ title, active: "financing", viewer, csrf });
  const planOf = (viewer: PortalViewer, raw: string) => {
    const planNo = planNoOf(raw);
    return planNo ? planDetail(db, { partnerId: viewer.partnerId }, planNo).catch(refusedAsNull) : null;
  };

  const financeForm = async (viewer: PortalViewer, csrf: string, values: Record<string, string | undefined>, problem?: FormProblem) => (
    <FinanceForm
      values={values}
      problem={problem}
      csrf={csrf}
      policy={financePolicySummary(values.policy?.trim() ? await findPolicyByReference(db, viewer.partnerId, values.policy.trim()) : null)}
      defaultGraceDays={deps.config.FINANCING_GRACE_DAYS}
      latestFirstDue={addDays(watToday(new Date()), PLAN_LIMITS.firstDueWithinDays)}
    />
  );

  const detail = async (plan: PlanDetailRecord, csrf: string, extra: { created?: boolean; state?: PaymentFormState } = {}) => (
    <PlanDetail
      plan={planView(plan, await planConsumer(db, plan, "partner"), null)}
      csrf={csrf}
      backHref="/portal/financing"
      created={extra.created}
      payment={{ action: `${partnerHref(plan.planNo)}/installments`, state: extra.state ?? { values: {} } }}
    />
  );

  return new Elysia({ name: "portal-financing" })
    .use(portalSession(deps))
    .get(
      "/portal/financing",
      (ctx) =>
        listAnswer(
          ctx,
          planList(db, { partnerId: ctx.viewer.partnerId }, "/portal/financing", (items) => items.map((p) => planRow(p, partnerHref(p.planNo)))),
          {
            shell: shell(ctx.viewer, ctx.csrf, "Financing"),
            rows: (list) => <PlanRows rows={list.rows} more={list.more} />,
            page: (list) => <PlanList title="Premium financing" action="/portal/financing" list={list} intro={INTRO} exportHref={list.exportHref} />,
          },
        ),
      { portal: "partner" },
    )
    .get(
      "/portal/financing.csv",
      ({ viewer, query }) =>
        csvDownload({
          filename: `financing-${watToday(new Date())}`,
          columns: PLAN_CSV_COLUMNS,
          page: (limit, cursor) => listPlans(db, { partnerId: viewer.partnerId }, planFiltersOf(query), { limit, cursor }),
          rows: async (items) => items.map((p) => planCsvRow(p)),
        }),
      { portal: "partner" },
    )
    .get(
      "/portal/financing/new",
      async ({ viewer, csrf, request, query }) => {
        const values = { policy: query.policy?.trim() || undefined, downPayment: "0", installments: "3", frequency: "monthly" };
        return page(request, shell(viewer, csrf, "Finance a premium"), await financeForm(viewer, csrf, values));
      },
      { portal: "partner" },
    )
    .post(
      "/portal/financing",
      async ({ viewer, csrf, request, body, set }) => {
        const values = formValues(body);
        try {
          const planRequest = planRequestFrom(financeSeedFrom(values), deps.config.FINANCING_GRACE_DAYS);
          const plan = await financePremium(db, viewer.partnerId, viewer.mode, planRequest, new Date(), viewer);
          return redirectTo(request, set, `${partnerHref(plan.planNo)}?created=1`);
        } catch (error) {
          const problem = problemOf(error);
          set.status = error instanceof CommandError ? error.status : 400;
          return page(request, shell(viewer, csrf, "Finance a premium"), await financeForm(viewer, csrf, values, problem));
        }
      },
      { portal: "partner" },
    )
    .get(
      "/portal/financing/:planNo",
      async ({ viewer, csrf, request, params, query, set }) => {
        const plan = await planOf(viewer, params.planNo);
        if (!plan) return page(request, shell(viewer, csrf, "Not found"), notFound(set, NO_PLAN));
        return page(request, shell(viewer, csrf, `Plan ${plan.planNo}`), await detail(plan, csrf, { created: !!query.created }));
      },
      { portal: "partner" },
    )
    .post(
      "/portal/financing/:planNo/installments",
      async ({ viewer, csrf, request, params, body, set }) => {
        const plan = await planOf(viewer, params.planNo);
        if (!plan) return page(request, shell(viewer, csrf, "Not found"), notFound(set, NO_PLAN));
        const current = () => planDetail(db, { partnerId: viewer.partnerId }, plan.planNo);
        const title = `Plan ${plan.planNo}`;
        const values = formValues(body);
        try {
          const payment = paymentRequestFrom(installmentSeedFrom(plan.planNo, values));
          const result = await recordInstallment(db, viewer.partnerId, viewer.mode, payment, new Date(), viewer);
          // A new payment clears the form; a repeat keeps what was typed.
          const state = { values: result.applied ? {} : values, outcome: paymentOutcome(result) };
          return page(request, shell(viewer, csrf, title), await detail(await current(), csrf, { state }));
        } catch (error) {
          const problem = problemOf(error);
          set.status = error instanceof CommandError ? error.status : 400;
          return page(request, shell(viewer, csrf, title), await detail(await current(), csrf, { state: { values, problem } }));
        }
      },
      { portal: "partner" },
    );
};
