import { z } from "zod";
import { command } from "../../core/registry";
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

export const walletCommands = [
  command({
    grammar: "wallet topup",
    pattern: /^wallet topup$/,
    who: "partner",
    seed: topUpSeed,
    summary: "Credit the prepaid wallet once per reference; a repeat returns the first result.",
    async handler(ctx, _params, seed) {
      const { entry } = await topUpWallet(ctx.db, ctx.principal.partnerId, { amountKobo: Math.round(seed.amount * 100), reference: seed.reference }, ctx.now());
      return {
        reference: entry.reference,
        amount: entry.amountKobo / 100,
        balance: entry.balanceAfterKobo / 100,
        currency: "NGN",
        tmstmp: watTimestamp(entry.createdAt),
      };
    },
  }),
];
