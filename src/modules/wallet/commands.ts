import { z } from "zod";
import { currency, naira, wireTimestamp } from "../../core/answers";
import { toNaira } from "../../core/money";
import { command, refusal } from "../../core/registry";
import { watTimestamp } from "../../core/time";
import { topUpRequestFrom, topUpSeed } from "./model";
import { earlierTopUp, topUpWallet, type WalletEntry } from "./service";

const REFERENCE_REUSED = refusal(409, "seed.reference <reference> was already used for a top-up of <amount> naira", "the same reference with another amount");
const topUp = { amount: 50000, reference: "bank-ref-001" };

const topUpAnswer = (entry: WalletEntry) => ({
  // A top-up entry always carries its reference.
  reference: entry.reference!,
  amount: toNaira(entry.amountKobo),
  balance: toNaira(entry.balanceAfterKobo),
  currency: "NGN" as const,
  tmstmp: watTimestamp(entry.createdAt),
});

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
      {
        name: "topup",
        title: "Fund the wallet that live premiums are paid from",
        cmmnd: "wallet topup",
        seed: topUp,
        answer: { ...topUp, balance: 50000, currency: "NGN", tmstmp: "{{timestamp}}" },
      },
      {
        name: "topup-again",
        title: "The same top-up again: the first answer, nothing credited twice",
        cmmnd: "wallet topup",
        seed: topUp,
        after: ["topup"],
        answer: { ...topUp, balance: 50000, currency: "NGN", tmstmp: "{{topup.tmstmp}}" },
      },
      {
        name: "topup-conflict",
        title: "The same reference with another amount",
        cmmnd: "wallet topup",
        seed: { ...topUp, amount: 60000 },
        after: ["topup"],
        refusal: REFERENCE_REUSED,
      },
    ],
    async handler(ctx, _params, seed) {
      const { entry } = await topUpWallet(ctx.db, ctx.principal.partnerId, topUpRequestFrom(seed), ctx.now());
      return topUpAnswer(entry);
    },
    async recover(ctx, _params, seed) {
      const entry = await earlierTopUp(ctx.db, ctx.principal.partnerId, topUpRequestFrom(seed));
      return entry && topUpAnswer(entry);
    },
  }),
];
