import { z } from "zod";
import { currency, naira, wireTimestamp } from "../../core/answers";
import { command, refusal } from "../../core/registry";
import { watTimestamp } from "../../core/time";
import { topUpWallet } from "./service";

/** The seed of `wallet topup`; the portal's top-up form is validated by it too (same words). */
export const topUpSeed = z.strictObject({
  /** Naira, at most two decimals (kobo). */
  amount: z
    .number()
    .positive()
    .max(1_000_000_000)
    .refine((n) => Number.isInteger(Math.round(n * 100)) && Math.abs(Math.round(n * 100) - n * 100) < 1e-6, "must have at most two decimals (kobo)"),
  reference: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, "must be 1-64 letters, digits, dots, hyphens or underscores"),
});

const REFERENCE_REUSED = refusal(409, "seed.reference <reference> was already used for a top-up of <amount> naira", "the same reference with another amount");
const topUp = { amount: 50000, reference: "bank-ref-001" };

export const walletCommands = [
  command({
    grammar: "wallet topup",
    pattern: /^wallet topup$/,
    who: "partner",
    seed: topUpSeed,
    summary: "Credit the prepaid wallet once per reference; a repeat returns the first result.",
    answer: z.object({ reference: z.string(), amount: naira(), balance: naira("The balance after this top-up, naira"), currency, tmstmp: wireTimestamp }),
    errors: [REFERENCE_REUSED, refusal(400, "seed.amount must have at most two decimals (kobo)")],
    examples: [
      { name: "topup", title: "Fund the wallet that live premiums are paid from", cmmnd: "wallet topup", seed: topUp, answer: { ...topUp, balance: 50000, currency: "NGN", tmstmp: "{{timestamp}}" } },
      {
        name: "topup-again",
        title: "The same top-up again: the first answer, nothing credited twice",
        cmmnd: "wallet topup",
        seed: topUp,
        after: ["topup"],
        answer: { ...topUp, balance: 50000, currency: "NGN", tmstmp: "{{topup.tmstmp}}" },
      },
      { name: "topup-conflict", title: "The same reference with another amount", cmmnd: "wallet topup", seed: { ...topUp, amount: 60000 }, after: ["topup"], refusal: REFERENCE_REUSED },
    ],
    async handler(ctx, _params, seed) {
      const { entry } = await topUpWallet(ctx.db, ctx.principal.partnerId, { amountKobo: Math.round(seed.amount * 100), reference: seed.reference }, ctx.now());
      return {
        // A top-up entry always carries its reference.
        reference: entry.reference!,
        amount: entry.amountKobo / 100,
        balance: entry.balanceAfterKobo / 100,
        currency: "NGN" as const,
        tmstmp: watTimestamp(entry.createdAt),
      };
    },
  }),
];
