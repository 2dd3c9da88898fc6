/** Financing plans as the portal's pages show them: rows, the plan page's view model, a payment's outcome, the lapse run, the list with its paging. */

import type { FinancePolicySummary, LapseRunState, PlanRow, PlanView } from "../../../views/financing/financing";
import { PLAN_STATUS_TEXT } from "../../../views/financing/financing";
import { day } from "../../../views/format";
import type { ConfirmStepProps } from "../../../views/portal/confirm";
import type { CsvValue } from "../../core/csv";
import { toNaira } from "../../core/money";
import { lastCoverDay, watTimestamp } from "../../core/time";
import type { Database } from "../../db/client";
import type { ListQuery, ListSource } from "../../portal/list";
import { productName } from "../../products";
import { watToday } from "../../products/policy-helpers";
import { consumerNamesOf, wireConsumerId } from "../consumers";
import { type PolicyRecord, policiesByIds } from "../policies";
import type { PaymentResult } from "./installments";
import type { LapsedPlan } from "./lapse";
import { type PlanDetail, type PlanSummary, planStatusOf } from "./model";
import { financedKobo, listPlans, outstandingKobo, type PlanFilters } from "./plans";
import type { PlanStatus } from "./schema";

export const partnerHref = (planNo: string) => `/portal/financing/${planNo}`;
export const adminHref = (planNo: string) => `/admin/financing/${planNo}`;

export const planRow = (plan: PlanSummary, href: string, partnerName?: string): PlanRow => ({
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

/** Whose plan it is: the insured consumer of its policy, linked to their page on the viewer's surface. */
export async function planConsumer(db: Database, plan: PlanSummary, surface: "partner" | "admin"): Promise<PlanView["consumer"]> {
  const [policy] = await policiesByIds(db, [plan.policyId]);
  if (!policy) return undefined;
  const name = (await consumerNamesOf(db, [policy.consumerId])).get(policy.consumerId);
  if (name === undefined) return undefined;
  return { name, href: surface === "admin" ? `/admin/consumers/${policy.consumerId}` : `/portal/consumers/${wireConsumerId(policy.consumerId)}` };
}

/** Everything a plan page shows; the operator also sees whose plan it is. */
export function planView(plan: PlanDetail, consumer: PlanView["consumer"], admin: { partnerName: string } | null): PlanView {
  return {
    planNo: plan.planNo,
    consumer,
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

/** What a recorded payment did (or, for a repeated reference, what the first one did). */
export const paymentOutcome = ({ applied, payment }: PaymentResult) => ({
  applied,
  reference: payment.reference,
  amountKobo: payment.amountKobo,
  paidOn: payment.paidOn,
  outstandingAfterKobo: payment.outstandingAfterKobo,
  nextDueDateAfter: payment.nextDueDateAfter,
  recordedAt: payment.createdAt,
});

/** The plans a lapse run lapsed, each linking to the operator's plan page. */
/** Before a lapse run: how many plans it lapses and what that does. */
export const lapseStep = (asOf: string, due: number): Pick<ConfirmStepProps, "heading" | "consequences" | "button"> => {
  const plans = due === 1 ? "1 plan" : `${due} plans`;
  return {
    heading: `Lapse ${plans} as of ${day(asOf)}?`,
    consequences: [
      `${due === 1 ? "This plan's" : "Each plan's"} oldest unpaid installment is past its grace days on ${day(asOf)}.`,
      "Each lapses with its policy: the cover stops and the partner is told. A lapsed policy can be reinstated within 30 days by paying the installments due.",
    ],
    button: `Lapse ${plans}`,
  };
};

export const lapseResult = (asOf: string, lapsed: LapsedPlan[], names: Map<string, string>): NonNullable<LapseRunState["result"]> => ({
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
});

/** The policy a new plan is for: its premium and the last day its cover reaches. */
export function financePolicySummary(policy: PolicyRecord | null): FinancePolicySummary | undefined {
  if (!policy) return undefined;
  return {
    reference: policy.reference,
    productName: productName(policy.productCode),
    premiumKobo: policy.premiumKobo,
    coverLastDay: lastCoverDay(policy.coverEnd),
  };
}

/** The plans a list's query selects (its status; any other is no filter). */
export const planFiltersOf = (query: ListQuery): PlanFilters => ({ status: planStatusOf(query.status) });

/** The plans of `scope` (its page at `path`) with the query's status filter. */
export const planList = (
  db: Database,
  scope: { partnerId?: string },
  path: string,
  rows: (items: PlanSummary[]) => PlanRow[] | Promise<PlanRow[]>,
): ListSource<{ status?: PlanStatus }, PlanFilters, PlanSummary, PlanRow> => ({
  path,
  values: (query) => ({ status: planStatusOf(query.status) }),
  filters: planFiltersOf,
  fetch: (filters, paging) => listPlans(db, scope, filters, paging),
  rows,
});

/** The columns of a financing CSV (the operator's adds the partner first). */
export const PLAN_CSV_COLUMNS = [
  "Plan number",
  "Policy",
  "Status",
  "Note",
  "Premium (NGN)",
  "Down payment (NGN)",
  "Financed (NGN)",
  "Paid (NGN)",
  "Outstanding (NGN)",
  "Installments",
  "Frequency",
  "Next due date",
  "Created (WAT)",
  "Closed (WAT)",
] as const;

export const planCsvRow = (p: PlanSummary, partner?: string): CsvValue[] => [
  ...(partner === undefined ? [] : [partner]),
  p.planNo,
  p.policyReference,
  PLAN_STATUS_TEXT[p.status],
  p.statusNote,
  toNaira(p.premiumKobo),
  toNaira(p.downPaymentKobo),
  toNaira(financedKobo(p)),
  toNaira(p.downPaymentKobo + p.paidKobo),
  toNaira(outstandingKobo(p)),
  p.installmentCount,
  p.frequency,
  p.nextDueDate,
  watTimestamp(p.createdAt),
  p.closedAt ? watTimestamp(p.closedAt) : null,
];
