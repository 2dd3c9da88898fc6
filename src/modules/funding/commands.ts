import { z } from "zod";
import { toNaira } from "../../core/money";
import { watTimestamp } from "../../core/time";
import { currency, naira, wireTimestamp } from "../../http/answers";
import { command, refusal } from "../../http/registry";
import { topUpRequestFrom, topUpSeed } from "../wallet";
import { REFERENCE_REUSED, topupExamples } from "./examples";
import { paymentProvider } from "./providers";
import { FUNDING_STATUSES } from "./schema";
import { earlierTopUpState, startFunding, type TopUpState, testTopUp } from "./top-ups";

const OTHER_MODE = refusal(409, "seed.reference <reference> was already used for a <mode>-mode top-up", "a reference used with the other kind of key");

/** `wallet topup`'s answer: the top-up as it stands (credited with the balance after it; pending with how to pay). */
function topUpAnswer(state: TopUpState) {
  const { funding, entry } = state;
  const base = { reference: funding?.reference ?? entry!.reference!, amount: toNaira(funding?.amountKobo ?? entry!.amountKobo), currency: "NGN" as const };
  if (state.testBalanceKobo !== undefined && funding)
    return { ...base, status: "credited" as const, balance: toNaira(state.testBalanceKobo), tmstmp: watTimestamp(funding.createdAt) };
  if (entry) return { ...base, status: "credited" as const, balance: toNaira(entry.balanceAfterKobo), tmstmp: watTimestamp(entry.createdAt) };
  const f = funding!;
  if (f.status !== "pending") return { ...base, status: f.status, ...(f.statusNote ? { note: f.statusNote } : {}), tmstmp: watTimestamp(f.createdAt) };
  const instruction = f.instruction as { method: "bank_transfer"; bank: string; accountNumber: string; accountName: string };
  return {
    ...base,
    status: "pending" as const,
    payment: {
      method: "bank_transfer" as const,
      bank: instruction.bank,
      accountNumber: instruction.accountNumber,
      accountName: instruction.accountName,
      amount: toNaira(f.amountKobo),
      expires: watTimestamp(f.expiresAt),
    },
    tmstmp: watTimestamp(f.createdAt),
  };
}

export const fundingCommands = [
  command({
    grammar: "wallet topup",
    pattern: /^wallet topup$/,
    who: "partner",
    seed: topUpSeed,
    summary:
      "Fund the prepaid wallet once per reference. Live: a pending funding with how to pay, credited when the payment provider confirms it " +
      "(the sandbox provider pays at once unless the reference asks otherwise: docs/funding.md). Test: credited at once as a specimen, never " +
      "in the live wallet. A repeat answers the top-up as it stands.",
    answer: z.object({
      reference: z.string(),
      amount: naira("The amount asked for, naira"),
      status: z
        .enum(FUNDING_STATUSES)
        .meta({ description: "pending (waiting for the money), credited, held (another amount arrived: an administrator decides), failed, expired" }),
      balance: naira("Credited: the balance after this top-up, naira (test keys: the test balance)").optional(),
      currency,
      payment: z
        .object({
          method: z.literal("bank_transfer"),
          bank: z.string(),
          accountNumber: z.string(),
          accountName: z.string(),
          amount: naira("What to transfer, naira"),
          expires: wireTimestamp,
        })
        .optional()
        .meta({ description: "Pending: how to pay, and until when" }),
      note: z.string().optional().meta({ description: "Held, failed or expired: why, in words" }),
      tmstmp: wireTimestamp,
    }),
    errors: [REFERENCE_REUSED, OTHER_MODE, refusal(400, "seed.amount must have at most two decimals (kobo)")],
    examples: topupExamples,
    async handler(ctx, _params, seed) {
      const { partnerId, mode } = ctx.principal;
      const request = topUpRequestFrom(seed);
      const state =
        mode === "test"
          ? await testTopUp(ctx.db, partnerId, request, ctx.now())
          : await startFunding(ctx.db, paymentProvider(ctx.config), partnerId, request, ctx.now());
      return topUpAnswer(state);
    },
    async recover(ctx, _params, seed) {
      const state = await earlierTopUpState(
        ctx.db,
        paymentProvider(ctx.config),
        ctx.principal.partnerId,
        topUpRequestFrom(seed),
        ctx.principal.mode,
        ctx.now(),
      );
      return state && topUpAnswer(state);
    },
  }),
];
