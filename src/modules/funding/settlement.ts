/**
 * How a funding settles (docs/funding.md), whoever's word it is: the provider's (a callback, the
 * background check) or an administrator's. Each acts on the funding row locked, so the first
 * outcome stands and a funding is credited once at most.
 */
import { eq } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { formatNaira, toNaira } from "../../core/money";
import { storableText } from "../../core/validation";
import type { Executor } from "../../db/client";
import { recordEvent } from "../events";
import { creditWallet, type WalletEntry } from "../wallet";
import type { PaymentResult, ProviderPayment } from "./provider";
import { type FundingStatus, type fundingConfirmations, walletFundings } from "./schema";

export type Funding = typeof walletFundings.$inferSelect;
export type FundingConfirmation = typeof fundingConfirmations.$inferSelect;

/** Test-key top-ups are recorded as fundings of this pseudo-provider: credited at once, never in the live wallet. */
export const TEST_PROVIDER = "test";

export const paymentOf = (funding: Funding): Required<ProviderPayment> => ({
  fundingId: funding.id,
  reference: funding.reference,
  amountKobo: funding.amountKobo,
  providerReference: funding.providerReference,
});

export type CallbackOutcome = "credited" | "repeat" | "held" | "failed" | "ignored" | "rejected";

type Settlement = Exclude<PaymentResult, { status: "pending" }>;

/**
 * What a provider's word does to a funding whose row the caller holds locked. Only a pending
 * funding moves (a failure after a success, a repeat, anything after a manual decision: "repeat");
 * money arriving for an expired funding is held, as is an amount other than the one asked for.
 */
export async function settleLocked(
  tx: Executor,
  funding: Funding,
  result: Settlement,
  by: "callback" | "check" | "manual",
  now: Date,
): Promise<CallbackOutcome> {
  const late = funding.status === "expired";
  if (funding.status !== "pending" && !(late && result.status === "paid")) return "repeat";
  if (result.status === "failed") {
    // The provider's own words: kept, whatever they hold.
    await moveTo(tx, funding, { status: "failed", statusNote: storableText(result.reason), settledBy: by }, now);
    return "failed";
  }
  if (result.amountKobo === funding.amountKobo && !late) {
    await credit(tx, funding, result.amountKobo, by, now);
    return "credited";
  }
  const statusNote = late
    ? `${formatNaira(result.amountKobo)} arrived after the funding expired`
    : `${formatNaira(result.amountKobo)} arrived for a top-up of ${formatNaira(funding.amountKobo)}`;
  await moveTo(tx, funding, { status: "held", statusNote, receivedKobo: result.amountKobo, settledBy: by }, now);
  return "held";
}

export async function credit(tx: Executor, funding: Funding, amountKobo: number, by: string, now: Date): Promise<WalletEntry> {
  const entry = await creditWallet(tx, funding.partnerId, { amountKobo, reference: funding.reference }, now);
  await tx
    .update(walletFundings)
    .set({ status: "credited", receivedKobo: amountKobo, walletEntryId: entry.id, settledBy: by, settledAt: now })
    .where(eq(walletFundings.id, funding.id));
  return entry;
}

const STATUS_EVENTS: Partial<Record<FundingStatus, string>> = {
  held: "wallet.funding_held",
  failed: "wallet.funding_failed",
  expired: "wallet.funding_expired",
};

/** A funding that ends without a credit (or waits for an administrator), with its event. */
export async function moveTo(
  tx: Executor,
  funding: Funding,
  change: { status: "held" | "failed" | "expired"; statusNote: string; receivedKobo?: number; settledBy?: string },
  now: Date,
) {
  await tx
    .update(walletFundings)
    .set({ ...change, settledAt: change.status === "held" ? null : now })
    .where(eq(walletFundings.id, funding.id));
  await recordEvent(
    tx,
    {
      partnerId: funding.partnerId,
      type: STATUS_EVENTS[change.status]!,
      payload: {
        reference: funding.reference,
        amount: toNaira(funding.amountKobo),
        ...(change.receivedKobo !== undefined ? { received: toNaira(change.receivedKobo) } : {}),
        note: change.statusNote,
      },
    },
    now,
  );
}

export async function lockFunding(tx: Executor, fundingId: string): Promise<Funding> {
  const [funding] = await tx.select().from(walletFundings).where(eq(walletFundings.id, fundingId)).for("update");
  if (!funding) throw new CommandError(404, "no such funding");
  return funding;
}

/** Plain words of a status, for refusals. */
export const STATUS_WORDS: Record<FundingStatus, string> = {
  pending: "waiting for payment",
  credited: "credited",
  held: "held for review",
  failed: "failed",
  expired: "expired",
};
