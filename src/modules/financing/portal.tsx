import { Elysia } from "elysia";
import {
  FinanceForm,
  type FinancePolicySummary,
  LapseRun,
  type LapseRunState,
  type PaymentFormState,
  PlanDetail,
  PlanList,
  type PlanRow,
  PlanRows,
  type PlanView,
} from "../../../views/financing/financing";
import { CommandError } from "../../core/errors";
import { toKobo } from "../../core/money";
import type { AppDeps } from "../../http/context";
import { formValues, page, problemOf } from "../../portal/page";
import { portalSession } from "../../portal/session";
import { wireValue } from "../../products/forms";
import { watToday } from "../../products/policy-helpers";
import type { Viewer } from "../accounts/service";
import { recordAudit } from "../audit/service";
import { partnerNames } from "../partners/service";
import { productName } from "../policies/presenter";
import { findPolicyByReference } from "../policies/service";
import { addDays } from "./schedule";
import { PLAN_STATUSES, type PlanStatus } from "./schema";
import { financeSeed, installmentSeed, lapseSeed, PLAN_LIMITS, parseFinancingSeed, planRequestFrom, planSeed } from "./seeds";
import {
  financedKobo,
  financePremium,
  listPlans,
  outstandingKobo,
  type PlanDetail as PlanRecordDetail,
  type PlanSummary,
  planDetail,
  recordInstallment,
  runLapse,
} from "./service";

const PAGE_SIZE = 25;

const text = (value: string | undefined) => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
};

const number = (value: string | undefined) => wireValue({ kind: "number", path: "n", label: "n" }, value);
const integer = (value: string | undefined) => wireValue({ kind: "integer", path: "n", label: "n" }, value);

/** Leave out what was not given, so the seeds say "is required" rather than seeing a blank. */
const given = (seed: Record<string, unknown>) => Object.fromEntries(Object.entries(seed).filter(([, v]) => v !== undefined));

/** A plan number from a URL, as the JSON surface reads it (any case); null when it cannot be one. */
function planNoOf(raw: string): string | null {
  try {
    return parseFinancingSeed(planSeed, { planNo: decodeURIComponent(raw) }).planNo;
  } catch {
    return null;
  }
}

/** A domain refusal (not found) as "nothing here"; anything else is a fault and goes on up. */
const refusedAsNull = (error: unknown): null => {
  if (error instanceof CommandError) return null;
  throw error;
};

const statusOf = (value: string | undefined): PlanStatus | undefined =>
  (PLAN_STATUSES as readonly string[]).includes(value ?? "") ? (value as PlanStatus) : undefined;

/** Premium financing (partner pages) and running the lapse (admin page). */
export const financingPortal = (deps: AppDeps) => {
  const db = deps.database.db;
  const partnerHref = (planNo: string) => `/portal/financing/${planNo}`;
  const adminHref = (planNo: string) => `/admin/financing/${planNo}`;

  const planRow = (plan: PlanSummary, href: string, partnerName?: string): PlanRow => ({
    planNo: plan.planNo,
    href,
    policy: plan.policyReference,
    partnerName,
    status: plan.status,
    premiumKobo: plan.premiumKobo,
    financedKobo: financedKobo(plan),
    outstandingKobo: outstandingKobo(plan),
    nextDueDate: plan.nextDueDate,
    createdAt: plan.createdAt,
  });

  function planView(plan: PlanRecordDetail, admin: { partnerName: string } | null): PlanView {
    return {
      planNo: plan.planNo,
      policy: plan.policyReference,
      policyHref: admin ? `/admin/policies/${plan.policyId}` : `/portal/policies/${encodeURIComponent(plan.policyReference)}`,
      partnerName: admin?.partnerName,
      status: plan.status,
      statusNote: plan.statusNote,
      premiumKobo: plan.premiumKobo,
      downPaymentKobo: plan.downPaymentKobo,
      financedKobo: financedKobo(plan),
      paidKobo: plan.paidKobo,
      outstandingKobo: outstandingKobo(plan),
      installmentCount: plan.installmentCount,
      frequency: plan.frequency,
      graceDays: plan.graceDays,
      nextDueDate: plan.nextDueDate,
      createdAt: plan.createdAt,
      closedAt: plan.closedAt,
      installments: plan.installments.map((i) => ({ number: i.number, dueDate: i.dueDate, amountKobo: i.amountKobo, paidKobo: i.paidKobo, paidAt: i.paidAt })),
      payments: plan.payments.map((p) => ({ reference: p.reference, amountKobo: p.amountKobo, paidOn: p.paidOn, createdAt: p.createdAt })),
      today: watToday(new Date()),
    };
  }

  async function planList(scope: { partnerId?: string }, query: Record<string, string | undefined>, base: string, row: (p: PlanSummary) => PlanRow) {
    const status = statusOf(query.status);
    const list = await listPlans(db, scope, { status }, { limit: PAGE_SIZE, cursor: text(query.cursor) });
    const more = list.nextCursor ? `${base}?${new URLSearchParams({ ...(status ? { status } : {}), rows: "1", cursor: list.nextCursor })}` : null;
    return { status, rows: list.items.map(row), more };
  }

  async function policySummary(viewer: Viewer, reference: string | undefined): Promise<FinancePolicySummary | undefined> {
    const policy = reference ? await findPolicyByReference(db, viewer.partnerId, reference) : null;
    if (!policy) return undefined;
    return {
      reference: policy.reference,
      productName: productName(policy.productCode),
      premiumKobo: policy.premiumKobo,
      coverLastDay: watToday(new Date(policy.coverEnd.getTime() - 1)),
    };
  }

  const financeForm = async (viewer: Viewer, csrf: string, values: Record<string, string | undefined>, problem?: ReturnType<typeof problemOf>) => (
    <FinanceForm
      values={values}
      problem={problem}
      csrf={csrf}
      policy={await policySummary(viewer, text(values.policy))}
      defaultGraceDays={deps.config.FINANCING_GRACE_DAYS}
      latestFirstDue={addDays(watToday(new Date()), PLAN_LIMITS.firstDueWithinDays)}
    />
  );

  const partnerDetail = (plan: PlanRecordDetail, csrf: string, extra: { created?: boolean; state?: PaymentFormState } = {}) => (
    <PlanDetail
      plan={planView(plan, null)}
      csrf={csrf}
      backHref="/portal/financing"
      created={extra.created}
      payment={{ action: `${partnerHref(plan.planNo)}/installments`, state: extra.state ?? { values: {} } }}
    />
  );

  const notFound = (set: { status?: unknown }) => {
    set.status = 404;
    return <p class="problem">No financing plan with this number on your account.</p>;
  };

  async function adminPage(csrf: string, query: Record<string, string | undefined>, lapse: LapseRunState) {
    const names = await partnerNames(db);
    const list = await planList({}, query, "/admin/financing", (p) => planRow(p, adminHref(p.planNo), names.get(p.partnerId) ?? ""));
    return (
      <PlanList
        title="All partners' financing plans"
        action="/admin/financing"
        rows={list.rows}
        more={list.more}
        status={list.status}
        withPartner
        lapse={{ csrf, state: lapse, today: watToday(new Date()) }}
      />
    );
  }

  return (
    new Elysia({ name: "portal-financing" })
      .use(portalSession(deps))
      // ─── Partner pages ───────────────────────────────────────────────────────────────────────
      .get(
        "/portal/financing",
        async ({ viewer, csrf, request, query }) => {
          const list = await planList({ partnerId: viewer.partnerId }, query, "/portal/financing", (p) => planRow(p, partnerHref(p.planNo)));
          if (query.rows) return <PlanRows rows={list.rows} more={list.more} />;
          return page(
            request,
            { title: "Financing", active: "financing", viewer, csrf },
            <PlanList
              title="Premium financing"
              action="/portal/financing"
              rows={list.rows}
              more={list.more}
              status={list.status}
              intro="A consumer pays a policy's premium as a down payment and installments. A missed installment past its grace days lapses the plan and the policy."
            />,
          );
        },
        { portal: "partner" },
      )
      .get(
        "/portal/financing/new",
        async ({ viewer, csrf, request, query }) =>
          page(
            request,
            { title: "Finance a premium", active: "financing", viewer, csrf },
            await financeForm(viewer, csrf, { policy: text(query.policy), downPayment: "0", installments: "3", frequency: "monthly" }),
          ),
        { portal: "partner" },
      )
      .post(
        "/portal/financing",
        async ({ viewer, csrf, request, body, set }) => {
          const values = formValues(body);
          try {
            const seed = parseFinancingSeed(
              financeSeed,
              given({
                policy: text(values.policy),
                downPayment: number(values.downPayment),
                installments: integer(values.installments),
                frequency: text(values.frequency),
                firstDueDate: text(values.firstDueDate),
                graceDays: integer(values.graceDays),
              }),
            );
            const now = new Date();
            const plan = await financePremium(db, viewer.partnerId, viewer.mode, planRequestFrom(seed, deps.config.FINANCING_GRACE_DAYS), now);
            await recordAudit(
              db,
              viewer,
              {
                action: "financing.create",
                subject: plan.planNo,
                details: { policy: plan.policyReference, financedKobo: financedKobo(plan), installments: plan.installmentCount, frequency: plan.frequency },
              },
              now,
            );
            const location = `${partnerHref(plan.planNo)}?created=1`;
            if (request.headers.get("hx-request")) set.headers["hx-redirect"] = location;
            else {
              set.headers.location = location;
              set.status = 303;
            }
            return "";
          } catch (error) {
            const problem = problemOf(error);
            set.status = error instanceof CommandError ? error.status : 400;
            return page(request, { title: "Finance a premium", active: "financing", viewer, csrf }, await financeForm(viewer, csrf, values, problem));
          }
        },
        { portal: "partner" },
      )
      .get(
        "/portal/financing/:planNo",
        async ({ viewer, csrf, request, params, query, set }) => {
          const planNo = planNoOf(params.planNo);
          const plan = planNo ? await planDetail(db, { partnerId: viewer.partnerId }, planNo).catch(refusedAsNull) : null;
          if (!plan) return page(request, { title: "Not found", active: "financing", viewer, csrf }, notFound(set));
          return page(request, { title: `Plan ${plan.planNo}`, active: "financing", viewer, csrf }, partnerDetail(plan, csrf, { created: !!query.created }));
        },
        { portal: "partner" },
      )
      .post(
        "/portal/financing/:planNo/installments",
        async ({ viewer, csrf, request, params, body, set }) => {
          const planNo = planNoOf(params.planNo);
          const scope = { partnerId: viewer.partnerId };
          const plan = planNo ? await planDetail(db, scope, planNo).catch(refusedAsNull) : null;
          if (!plan) return page(request, { title: "Not found", active: "financing", viewer, csrf }, notFound(set));
          const shell = { title: `Plan ${plan.planNo}`, active: "financing", viewer, csrf };
          const values = formValues(body);
          try {
            const seed = parseFinancingSeed(
              installmentSeed,
              given({ planNo: plan.planNo, amount: number(values.amount), reference: text(values.reference), paidAt: text(values.paidAt) }),
            );
            const now = new Date();
            const { payment, applied } = await recordInstallment(
              db,
              viewer.partnerId,
              viewer.mode,
              { planNo: seed.planNo, amountKobo: toKobo(seed.amount), reference: seed.reference, paidOn: seed.paidAt },
              now,
            );
            if (applied)
              await recordAudit(
                db,
                viewer,
                {
                  action: "financing.record_installment",
                  subject: plan.planNo,
                  details: { reference: payment.reference, amountKobo: payment.amountKobo, outstandingAfterKobo: payment.outstandingAfterKobo },
                },
                now,
              );
            const outcome = {
              applied,
              reference: payment.reference,
              amountKobo: payment.amountKobo,
              paidOn: payment.paidOn,
              outstandingAfterKobo: payment.outstandingAfterKobo,
              nextDueDateAfter: payment.nextDueDateAfter,
              recordedAt: payment.createdAt,
            };
            // A new payment clears the form; a repeat keeps what was typed.
            return page(request, shell, partnerDetail(await planDetail(db, scope, plan.planNo), csrf, { state: { values: applied ? {} : values, outcome } }));
          } catch (error) {
            const problem = problemOf(error);
            set.status = error instanceof CommandError ? error.status : 400;
            return page(request, shell, partnerDetail(await planDetail(db, scope, plan.planNo), csrf, { state: { values, problem } }));
          }
        },
        { portal: "partner" },
      )
      // ─── The operator's pages ────────────────────────────────────────────────────────────────
      .get(
        "/admin/financing",
        async ({ viewer, csrf, request, query }) => {
          if (query.rows) {
            const names = await partnerNames(db);
            const list = await planList({}, query, "/admin/financing", (p) => planRow(p, adminHref(p.planNo), names.get(p.partnerId) ?? ""));
            return <PlanRows rows={list.rows} more={list.more} withPartner />;
          }
          return page(request, { title: "Financing", active: "financing", viewer, csrf }, await adminPage(csrf, query, { values: {} }));
        },
        { portal: "admin" },
      )
      .post(
        "/admin/financing/lapse",
        async ({ viewer, csrf, request, body, set }) => {
          const values = formValues(body);
          const today = () => watToday(new Date());
          let state: LapseRunState;
          try {
            const seed = parseFinancingSeed(lapseSeed, given({ asOf: text(values.asOf) }));
            const now = new Date();
            const asOf = seed.asOf ?? watToday(now);
            const lapsed = await runLapse(db, asOf, now);
            await recordAudit(
              db,
              viewer,
              { action: "financing.run_lapse", subject: asOf, partnerId: null, details: { asOf, count: lapsed.length, plans: lapsed.map((p) => p.planNo) } },
              now,
            );
            const names = await partnerNames(db);
            state = {
              values,
              result: {
                asOf,
                lapsed: lapsed.map((p) => ({
                  planNo: p.planNo,
                  planHref: adminHref(p.planNo),
                  partnerName: names.get(p.partnerId) ?? "",
                  policy: p.policyReference,
                  missedInstallment: p.missedInstallment,
                  dueDate: p.dueDate,
                  statusNote: p.statusNote,
                })),
              },
            };
          } catch (error) {
            state = { values, problem: problemOf(error) };
            set.status = error instanceof CommandError ? error.status : 400;
          }
          // htmx swaps the run's card; without htmx the whole page comes back with the list as it is now.
          if (request.headers.get("hx-request") === "true") return <LapseRun csrf={csrf} state={state} today={today()} />;
          return page(request, { title: "Financing", active: "financing", viewer, csrf }, await adminPage(csrf, {}, state));
        },
        { portal: "admin" },
      )
      .get(
        "/admin/financing/:planNo",
        async ({ viewer, csrf, request, params, set }) => {
          const planNo = planNoOf(params.planNo);
          const plan = planNo ? await planDetail(db, {}, planNo).catch(refusedAsNull) : null;
          if (!plan) {
            set.status = 404;
            return page(request, { title: "Not found", active: "financing", viewer, csrf }, <p class="problem">No such financing plan.</p>);
          }
          const names = await partnerNames(db);
          return page(
            request,
            { title: `Plan ${plan.planNo}`, active: "financing", viewer, csrf },
            <PlanDetail plan={planView(plan, { partnerName: names.get(plan.partnerId) ?? "" })} csrf={csrf} backHref="/admin/financing" />,
          );
        },
        { portal: "admin" },
      )
  );
};
