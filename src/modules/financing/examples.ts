/**
 * The examples of the financing commands (CommandExample, src/http/registry.ts): the requests and answers
 * of /docs and /openapi.json, which test/reference.test.ts sends to the app. The refusals they show
 * are declared here too, and listed in their commands' errors.
 */
import { type CommandExample, refusal } from "../../http/registry";

export const OVERPAID = refusal(409, "seed.amount <amount> naira is more than the <outstanding> naira outstanding on plan <planNo>");
export const ONE_PLAN = refusal(409, "policy <tx_id> already has financing plan <planNo>: one plan per policy");

const weekly = { policy: "{{policy.id}}", downPayment: 3000, installments: 4, frequency: "weekly", firstDueDate: "{{today+7}}" };
const planTermsShown = {
  planNo: "{{plan.planNo}}",
  policy: "{{policy.id}}",
  status: "active",
  premium: 15000,
  downPayment: 3000,
  financed: 12000,
  installments: 4,
  frequency: "weekly",
  graceDays: 7,
};
const dueDates = ["{{today+7}}", "{{today+14}}", "{{today+21}}", "{{today+28}}"];
const firstInstallment = { planNo: "{{plan.planNo}}", amount: 3000, reference: "inst-001" };

/** payment financeLoan */
export const financeLoanExamples: readonly CommandExample[] = [
  {
    name: "plan",
    title: "Finance the vehicle premium: 3,000 naira down, four weekly installments",
    cmmnd: "payment financeLoan",
    seed: weekly,
    answer: {
      ...planTermsShown,
      planNo: "{{planNo}}",
      currency: "NGN",
      schedule: dueDates.map((dueDate, i) => ({ number: i + 1, dueDate, amount: 3000 })),
      nextDueDate: "{{today+7}}",
      tmstmp: "{{timestamp}}",
    },
  },
  { name: "plan-again", title: "A second plan for the same policy", cmmnd: "payment financeLoan", seed: weekly, after: ["plan"], refusal: ONE_PLAN },
];

/** payment recordInstallment */
export const recordInstallmentExamples: readonly CommandExample[] = [
  {
    name: "installment",
    title: "The first installment, paid today",
    cmmnd: "payment recordInstallment",
    seed: firstInstallment,
    answer: {
      ...firstInstallment,
      paidAt: "{{today}}",
      outstanding: 9000,
      paidInstallments: 1,
      nextDueDate: "{{today+14}}",
      status: "active",
      currency: "NGN",
      tmstmp: "{{timestamp}}",
    },
  },
  {
    name: "installment-too-much",
    title: "More than is outstanding",
    cmmnd: "payment recordInstallment",
    seed: { ...firstInstallment, amount: 20000, reference: "inst-002" },
    refusal: OVERPAID,
  },
];

/** payment runLapse */
export const runLapseExamples: readonly CommandExample[] = [
  {
    name: "lapse",
    title: "Today's run, when no plan is overdue",
    cmmnd: "payment runLapse",
    seed: { asOf: "{{today}}" },
    answer: { asOf: "{{today}}", lapsed: [], count: 0 },
  },
];

/** payment status */
export const planStatusExamples: readonly CommandExample[] = [
  {
    name: "plan-status",
    title: "The plan after its first installment",
    cmmnd: "payment status",
    seed: { planNo: "{{plan.planNo}}" },
    after: ["installment"],
    answer: {
      ...planTermsShown,
      currency: "NGN",
      paid: 3000,
      outstanding: 9000,
      nextDueDate: "{{today+14}}",
      schedule: dueDates.map((dueDate, i) => ({
        number: i + 1,
        dueDate,
        amount: 3000,
        paid: i === 0 ? 3000 : 0,
        ...(i === 0 ? { paidTmstmp: "{{installment.tmstmp}}" } : {}),
      })),
      payments: [{ reference: "inst-001", amount: 3000, paidAt: "{{today}}", tmstmp: "{{installment.tmstmp}}" }],
      tmstmp: "{{plan.tmstmp}}",
    },
  },
];
