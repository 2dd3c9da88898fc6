/**
 * Claims on a cancelled policy (docs/lifecycle.md, "Claims after a cancellation"). A cancellation
 * within the cooling-off gave all of the premium back: the policy counts as never bought and takes
 * no claim. Any other cancellation gave back premium for cover not used; a claim approved on the
 * policy afterwards shows the cover was used, so its approval takes that refund back, once.
 */
import { eq } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { toNaira as naira } from "../../core/money";
import type { Executor } from "../../db/client";
import { earnOnExtraPremium } from "../commissions";
import type { PolicyRecord } from "../policies";
import { type CancellationRecord, cancellationOf, policies, policyCancellations } from "../policies";
import { payPremiumFor } from "../wallet";

/** Refuse (409) a claim on a policy whose cancellation in force was within the cooling-off, whatever the incident's date. */
export async function refuseAfterCoolingOff(db: Executor, policy: PolicyRecord): Promise<void> {
  if (policy.status !== "c") return;
  const cancellation = await cancellationOf(db, policy.id);
  if (cancellation?.basis === "cooling-off")
    throw new CommandError(
      409,
      `policy ${policy.reference} was cancelled from ${cancellation.effectiveDate} within its cooling-off, all of its premium refunded: ` +
        "it counts as never bought and takes no claim, for any incident",
    );
}

/** The cancellation whose refund approving a claim on the policy takes back: the one in force, while some of its refund is not taken back yet. */
export async function refundToTakeBack(db: Executor, policyId: string): Promise<CancellationRecord | null> {
  const cancellation = await cancellationOf(db, policyId);
  return cancellation && cancellation.refundKobo > cancellation.refundTakenBackKobo ? cancellation : null;
}

/**
 * In an approval's transaction: lock the claim's policy (the row a cancellation and a reinstatement
 * lock first, so one at the same moment is seen, never missed), then take back the refund of its
 * cancellation in force — debited from the partner's wallet with the commission that refund gave
 * back earned again (live policies: 402, changing nothing, when the wallet is short) — and record
 * it on the cancellation, so it is taken once and a reinstatement no longer pays it back.
 * Returns the amount taken back (0: nothing to take).
 */
export async function takeBackRefund(tx: Executor, claim: { id: string; claimNo: string; policyId: string }, now: Date): Promise<number> {
  const [policy] = await tx.select().from(policies).where(eq(policies.id, claim.policyId)).for("update");
  const cancellation = await refundToTakeBack(tx, claim.policyId);
  if (!policy || !cancellation) return 0;
  const owedKobo = cancellation.refundKobo - cancellation.refundTakenBackKobo;
  if (policy.mode === "live") {
    const short = (balanceKobo: number) =>
      `approving claim ${claim.claimNo} takes back the refund of ${naira(owedKobo)} naira that policy ${policy.reference} received when it was cancelled, ` +
      `and the partner's wallet holds ${naira(balanceKobo)} naira: approve it once the partner has topped up`;
    await payPremiumFor(tx, { partnerId: policy.partnerId, policyId: policy.id, premiumKobo: owedKobo, now, short }, []);
    await earnOnExtraPremium(tx, policy, owedKobo, now);
  }
  await tx
    .update(policyCancellations)
    .set({ refundTakenBackKobo: cancellation.refundKobo, refundTakenBackAt: now, refundTakenBackClaimId: claim.id })
    .where(eq(policyCancellations.id, cancellation.id));
  return owedKobo;
}
