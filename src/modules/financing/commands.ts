import { z } from "zod";
import { toNaira as naira } from "../../core/money";
import { watTimestamp } from "../../core/time";
import { BLANK_FIELD, currency, naira as nairaField, UNKNOWN_FIELD, wireDate, wireTimestamp } from "../../http/answers";
import { ADMIN_ONLY, type CommandContext, command, refusal } from "../../http/registry";
import { watToday } from "../../products/policy-helpers";
import { keyActor } from "../audit";
import { financeLoanExamples, ONE_PLAN, OVERPAID, planStatusExamples, recordInstallmentExamples, runLapseExamples } from "./examples";
import { earlierPayment, type PaymentResult, recordInstallment } from "./installments";
import { runLapse } from "./lapse";
import {
  financeSeed,
  installmentSeed,
  lapseSeed,
  type PaymentRequest,
  type PlanDetail,
  type PlanRequest,
  parseFinancingSeed,
  paymentRequestFrom,
  planRequestFrom,
  planSeed,
} from "./model";
import { earlierPlan, financePremium, outstandingKobo, planDetail } from "./plans";
import { FREQUENCIES, PLAN_STATUSES } from "./schema";
import { wirePayment, wirePlanTerms, wireSchedule } from "./wire";

// ─── The reference: answers and refusals (examples.ts has the examples) ─────────────────────

const planNumber = z.string().meta({ description: "The plan number (FIN-<year>-<10 characters>)" });
const planTerms = {
  planNo: planNumber,
  policy: z.string().meta({ description: "The policy's transaction reference" }),
  status: z.enum(PLAN_STATUSES),
  premium: nairaField("The policy's premium, naira"),
  downPayment: nairaField(),
  financed: nairaField("premium less downPayment"),
  installments: z.int(),
  frequency: z.enum(FREQUENCIES),
  graceDays: z.int().meta({ description: "Days after a due date before the plan lapses" }),
};
const nextDueDate = wireDate.nullable().meta({ description: "The oldest unpaid installment's due date; null when everything is paid" });

const planRequestOf = (ctx: CommandContext, raw: unknown): PlanRequest =>
  planRequestFrom(parseFinancingSeed(financeSeed, raw), ctx.config.FINANCING_GRACE_DAYS);

const planAnswer = (plan: PlanDetail) => ({
  ...wirePlanTerms(plan),
  currency: "NGN" as const,
  schedule: wireSchedule(plan.installments),
  nextDueDate: plan.nextDueDate,
  tmstmp: watTimestamp(plan.createdAt),
});

const paymentRequestOf = (raw: unknown): PaymentRequest => paymentRequestFrom(parseFinancingSeed(installmentSeed, raw));

const paymentAnswer = ({ planNo, payment }: PaymentResult) => ({
  ...wirePayment(planNo, payment),
  currency: "NGN" as const,
  tmstmp: watTimestamp(payment.createdAt),
});

const PLAN_UNKNOWN = refusal(404, "seed.planNo: no financing plan <planNo> for this partner");
const OTHER_MODE = refusal(
  403,
  "policy <tx_id> was issued in <mode> mode: its premium is financed and paid with a <mode> key, and this key runs in <mode> mode",
  "a test key on a live policy's plan, or a live key on a test one",
);

export const financingCommands = [
  command({
    grammar: "payment financeLoan",
    pattern: /^payment financeLoan$/,
    who: "partner",
    summary: "Finance a policy's premium: down payment and 2-12 weekly, biweekly or monthly installments; answers the schedule.",
    documentedSeed: financeSeed,
    answer: z.object({
      ...planTerms,
      currency,
      schedule: z.array(z.object({ number: z.int(), dueDate: wireDate, amount: nairaField() })),
      nextDueDate,
      tmstmp: wireTimestamp,
    }),
    errors: [
      refusal(404, "seed.policy: no policy <tx_id> of this partner"),
      OTHER_MODE,
      ONE_PLAN,
      refusal(409, "policy <tx_id> <was declined|has lapsed|was cancelled|has expired>: only approved or pending policies can be financed"),
      refusal(400, "seed.downPayment must be less than the premium of policy <tx_id> (<premium> naira), or nothing is left to finance; received <amount>"),
      refusal(400, "seed.firstDueDate <date> is in the past: the first installment must be due today (<date>) or later"),
      refusal(400, "seed.firstDueDate <date> is too far ahead: the first installment must be due within 62 days (by <date>)"),
      refusal(
        400,
        "seed.installments: the last of <n> <frequency> installments would be due <date>, after the cover of policy <tx_id> ends on <date>; <advice>",
      ),
      BLANK_FIELD,
      UNKNOWN_FIELD,
    ],
    examples: financeLoanExamples,
    async handler(ctx, _params, raw) {
      const plan = await financePremium(ctx.db, ctx.principal.partnerId, ctx.principal.mode, planRequestOf(ctx, raw), ctx.now());
      return planAnswer(plan);
    },
    async recover(ctx, _params, raw) {
      const plan = await earlierPlan(ctx.db, ctx.principal.partnerId, planRequestOf(ctx, raw));
      return plan && planAnswer(plan);
    },
  }),
  command({
    grammar: "payment recordInstallment",
    pattern: /^payment recordInstallment$/,
    who: "partner",
    summary: "Record an installment payment once per reference (oldest installments first); a repeat returns the first result.",
    documentedSeed: installmentSeed,
    answer: z.object({
      planNo: planNumber,
      reference: z.string(),
      amount: nairaField(),
      paidAt: wireDate.meta({ description: "The day the consumer paid" }),
      outstanding: nairaField("What remains to be paid after this payment"),
      paidInstallments: z.int(),
      nextDueDate,
      status: z.enum(["active", "completed"]),
      currency,
      tmstmp: wireTimestamp,
    }),
    errors: [
      PLAN_UNKNOWN,
      OTHER_MODE,
      OVERPAID,
      refusal(409, "plan <planNo> is completed: every installment is paid and nothing is outstanding"),
      refusal(409, "plan <planNo> <has lapsed|was cancelled> and takes no more payments (<statusNote>)"),
      refusal(409, "seed.reference <reference> was already used for a payment of <amount> naira on plan <planNo>"),
      refusal(400, "seed.paidAt <date> is in the future (today is <date>)"),
      BLANK_FIELD,
    ],
    examples: recordInstallmentExamples,
    async handler(ctx, _params, raw) {
      return paymentAnswer(await recordInstallment(ctx.db, ctx.principal.partnerId, ctx.principal.mode, paymentRequestOf(raw), ctx.now()));
    },
    async recover(ctx, _params, raw) {
      const earlier = await earlierPayment(ctx.db, ctx.principal.partnerId, paymentRequestOf(raw));
      return earlier && paymentAnswer(earlier);
    },
  }),
  command({
    grammar: "payment runLapse",
    pattern: /^payment runLapse$/,
    who: "admin",
    summary: "Lapse every plan whose oldest unpaid installment is past its grace days, and its policy (administrator; also runs in the background).",
    documentedSeed: lapseSeed,
    answer: z.object({
      asOf: wireDate,
      lapsed: z.array(
        z.object({ planNo: planNumber, policy: z.string(), partnerId: z.uuid(), missedInstallment: z.int(), dueDate: wireDate, statusNote: z.string() }),
      ),
      count: z.int(),
    }),
    errors: [ADMIN_ONLY],
    examples: runLapseExamples,
    async handler(ctx, _params, raw) {
      const seed = parseFinancingSeed(lapseSeed, raw);
      const asOf = seed.asOf ?? watToday(ctx.now());
      const lapsed = await runLapse(ctx.db, asOf, ctx.now(), { mode: ctx.principal.mode, actor: keyActor(ctx.principal) });
      return {
        asOf,
        lapsed: lapsed.map((p) => ({
          planNo: p.planNo,
          policy: p.policyReference,
          partnerId: p.partnerId,
          missedInstallment: p.missedInstallment,
          dueDate: p.dueDate,
          statusNote: p.statusNote,
        })),
        count: lapsed.length,
      };
    },
  }),
  command({
    grammar: "payment status",
    pattern: /^payment status$/,
    who: "partner",
    summary: "A financing plan with its schedule, what is paid and outstanding, and every recorded payment.",
    documentedSeed: planSeed,
    answer: z.object({
      ...planTerms,
      statusNote: z.string().optional(),
      currency,
      paid: nairaField("Installments paid so far"),
      outstanding: nairaField(),
      nextDueDate,
      schedule: z.array(z.object({ number: z.int(), dueDate: wireDate, amount: nairaField(), paid: nairaField(), paidTmstmp: wireTimestamp.optional() })),
      payments: z.array(z.object({ reference: z.string(), amount: nairaField(), paidAt: wireDate, tmstmp: wireTimestamp })),
      tmstmp: wireTimestamp,
      closedTmstmp: wireTimestamp.optional(),
    }),
    errors: [PLAN_UNKNOWN],
    examples: planStatusExamples,
    async handler(ctx, _params, raw) {
      const seed = parseFinancingSeed(planSeed, raw);
      const plan = await planDetail(ctx.db, { partnerId: ctx.principal.partnerId }, seed.planNo);
      return {
        ...wirePlanTerms(plan),
        ...(plan.statusNote ? { statusNote: plan.statusNote } : {}),
        currency: "NGN" as const,
        paid: naira(plan.paidKobo),
        outstanding: naira(outstandingKobo(plan)),
        nextDueDate: plan.nextDueDate,
        schedule: plan.installments.map((i) => ({
          number: i.number,
          dueDate: i.dueDate,
          amount: naira(i.amountKobo),
          paid: naira(i.paidKobo),
          ...(i.paidAt ? { paidTmstmp: watTimestamp(i.paidAt) } : {}),
        })),
        payments: plan.payments.map((p) => ({ reference: p.reference, amount: naira(p.amountKobo), paidAt: p.paidOn, tmstmp: watTimestamp(p.createdAt) })),
        tmstmp: watTimestamp(plan.createdAt),
        ...(plan.closedAt ? { closedTmstmp: watTimestamp(plan.closedAt) } : {}),
      };
    },
  }),
];
