import type { z } from "zod";
import { refuseBlankFields } from "../../core/blank";
import { command } from "../../core/registry";
import { watTimestamp } from "../../core/time";
import { parseWith } from "../../core/validation";
import { watToday } from "../../products/policy-helpers";
import { financeSeed, installmentSeed, lapseSeed, planSeed, toKobo } from "./seeds";
import { financePremium, outstandingKobo, planDetail, recordInstallment, runLapse } from "./service";
import { naira, wirePayment, wirePlanTerms, wireSchedule } from "./wire";

/** Blank or null fields are 406 as everywhere else (docs/decisions.md), then the seed's shape. */
function parseSeed<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  refuseBlankFields(raw);
  return parseWith(schema, raw ?? {});
}

export const financingCommands = [
  command({
    grammar: "payment financeLoan",
    pattern: /^payment financeLoan$/,
    who: "partner",
    summary: "Finance a policy's premium: down payment and 2-12 weekly, biweekly or monthly installments; answers the schedule.",
    async handler(ctx, _params, raw) {
      const seed = parseSeed(financeSeed, raw);
      const plan = await financePremium(
        ctx.db,
        ctx.principal.partnerId,
        {
          policyReference: seed.policy,
          downPaymentKobo: toKobo(seed.downPayment),
          installmentCount: seed.installments,
          frequency: seed.frequency,
          firstDueDate: seed.firstDueDate,
          graceDays: seed.graceDays ?? ctx.config.FINANCING_GRACE_DAYS,
        },
        ctx.now(),
      );
      return {
        ...wirePlanTerms(plan),
        currency: "NGN",
        schedule: wireSchedule(plan.installments),
        nextDueDate: plan.nextDueDate,
        tmstmp: watTimestamp(plan.createdAt),
      };
    },
  }),
  command({
    grammar: "payment recordInstallment",
    pattern: /^payment recordInstallment$/,
    who: "partner",
    summary: "Record an installment payment once per reference (oldest installments first); a repeat returns the first result.",
    async handler(ctx, _params, raw) {
      const seed = parseSeed(installmentSeed, raw);
      const { planNo, payment } = await recordInstallment(
        ctx.db,
        ctx.principal.partnerId,
        { planNo: seed.planNo, amountKobo: toKobo(seed.amount), reference: seed.reference, paidOn: seed.paidAt },
        ctx.now(),
      );
      return { ...wirePayment(planNo, payment), currency: "NGN", tmstmp: watTimestamp(payment.createdAt) };
    },
  }),
  command({
    grammar: "payment runLapse",
    pattern: /^payment runLapse$/,
    who: "admin",
    summary: "Lapse every plan whose oldest unpaid installment is past its grace days, and its policy (administrator; also runs in the background).",
    async handler(ctx, _params, raw) {
      const seed = parseSeed(lapseSeed, raw);
      const asOf = seed.asOf ?? watToday(ctx.now());
      const lapsed = await runLapse(ctx.db, asOf, ctx.now());
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
    async handler(ctx, _params, raw) {
      const seed = parseSeed(planSeed, raw);
      const plan = await planDetail(ctx.db, { partnerId: ctx.principal.partnerId }, seed.planNo);
      return {
        ...wirePlanTerms(plan),
        ...(plan.statusNote ? { statusNote: plan.statusNote } : {}),
        currency: "NGN",
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
