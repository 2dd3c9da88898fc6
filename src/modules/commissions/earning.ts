/**
 * What a live policy earns its partner, and gives back (docs/commissions.md). Every function runs in
 * the caller's transaction, next to the premium's own ledger line, so a commission is never written
 * without its premium or its refund.
 */
import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import type { PolicyRecord } from "../policies";
import { type CommissionLine, postCommissions, walletEntries } from "../wallet";
import { percentText } from "./model";
import { commissionRates } from "./schema";

type Earner = Pick<PolicyRecord, "id" | "partnerId" | "productCode" | "mode">;

/**
 * The rates in force now for these partners' products, in their order: a partner's own rate when it
 * has one, else the product's; 0 when neither is set. One query for any number of them (a batch of decisions).
 */
async function ratesFor(db: Executor, earners: readonly Pick<Earner, "partnerId" | "productCode">[]): Promise<number[]> {
  const productCodes = [...new Set(earners.map((e) => e.productCode))];
  const partnerIds = [...new Set(earners.map((e) => e.partnerId))];
  const rows = await db
    .select({ productCode: commissionRates.productCode, partnerId: commissionRates.partnerId, basisPoints: commissionRates.rateBasisPoints })
    .from(commissionRates)
    .where(and(inArray(commissionRates.productCode, productCodes), or(inArray(commissionRates.partnerId, partnerIds), isNull(commissionRates.partnerId))));
  const rateOf = (partnerId: string | null, productCode: string) => rows.find((r) => r.partnerId === partnerId && r.productCode === productCode)?.basisPoints;
  return earners.map(({ partnerId, productCode }) => rateOf(partnerId, productCode) ?? rateOf(null, productCode) ?? 0);
}

/** The rate in force for the partner's product now: its own rate when it has one, else the product's; 0 when neither is set. */
export async function rateFor(db: Executor, partnerId: string, productCode: string): Promise<number> {
  return (await ratesFor(db, [{ partnerId, productCode }]))[0]!;
}

/** `amount × numerator / denominator` in whole kobo, half a kobo rounded up (amounts are positive), exact in BigInt. */
export function shareOf(amountKobo: number, numerator: number, denominator: number): number {
  const scaled = BigInt(amountKobo) * BigInt(numerator);
  const whole = BigInt(denominator);
  return Number((scaled * 2n + whole) / (whole * 2n));
}

/** The commission on `premiumKobo` at `basisPoints`, to the kobo. */
export const commissionOn = (premiumKobo: number, basisPoints: number) => shareOf(premiumKobo, basisPoints, 10_000);

async function commissionLines(tx: Executor, policyId: string) {
  return tx
    .select({ kind: walletEntries.kind, amountKobo: walletEntries.amountKobo, rateBasisPoints: walletEntries.rateBasisPoints })
    .from(walletEntries)
    .where(and(eq(walletEntries.policyId, policyId), sql`${walletEntries.kind} in ('commission', 'commission_reversal')`))
    .orderBy(walletEntries.createdAt, walletEntries.id);
}

/** The commission line of `premiumKobo` earned at `basisPoints`; none when it comes to nothing. */
function earned(policy: Earner, premiumKobo: number, basisPoints: number): CommissionLine[] {
  const amountKobo = commissionOn(premiumKobo, basisPoints);
  return amountKobo > 0
    ? [{ partnerId: policy.partnerId, policyId: policy.id, kind: "commission", amountKobo, rateBasisPoints: basisPoints, reference: percentText(basisPoints) }]
    : [];
}

/**
 * Live policies approved for the first time (at issuance, by the insurer or by an administrator)
 * earn their premium × the rate in force now, all in one statement. Test-mode policies earn nothing.
 */
export async function earnOnApproval(tx: Executor, approved: readonly (Earner & Pick<PolicyRecord, "premiumKobo">)[], now: Date): Promise<void> {
  const live = approved.filter((policy) => policy.mode === "live");
  if (!live.length) return;
  const rates = await ratesFor(tx, live);
  await postCommissions(
    tx,
    live.flatMap((policy, i) => earned(policy, policy.premiumKobo, rates[i]!)),
    now,
  );
}

/**
 * More premium charged on an approved live policy (a change that costs more, a reinstatement paying
 * its refund back) earns at the rate the policy first earned at — its first commission line's
 * rate — not today's: a policy that earned nothing earns nothing more.
 */
export async function earnOnExtraPremium(tx: Executor, policy: Earner, extraKobo: number, now: Date): Promise<void> {
  if (policy.mode !== "live" || extraKobo <= 0) return;
  const basisPoints = (await commissionLines(tx, policy.id)).find((line) => line.kind === "commission")?.rateBasisPoints;
  if (basisPoints) await postCommissions(tx, earned(policy, extraKobo, basisPoints), now);
}

/**
 * Premium refunded on an approved live policy gives back the same share of what it earned:
 * net commission × refund / the premium before the refund, rounded as commissionOn, never more than
 * the net earned (a refund of the whole premium gives back exactly all of it). Written right after
 * the refund's credit, so the wallet always covers it (a rate is at most 100 %).
 */
export async function reverseOnRefund(tx: Executor, policy: Earner, refundKobo: number, premiumBeforeKobo: number, now: Date): Promise<void> {
  if (policy.mode !== "live" || refundKobo <= 0) return;
  const lines = await commissionLines(tx, policy.id);
  const earnedKobo = lines.reduce((sum, line) => sum + line.amountKobo, 0);
  if (earnedKobo <= 0) return;
  const amountKobo = refundKobo >= premiumBeforeKobo ? earnedKobo : Math.min(earnedKobo, shareOf(earnedKobo, refundKobo, premiumBeforeKobo));
  const rateBasisPoints = lines.find((line) => line.kind === "commission")?.rateBasisPoints ?? 0;
  if (amountKobo > 0)
    await postCommissions(
      tx,
      [
        {
          partnerId: policy.partnerId,
          policyId: policy.id,
          kind: "commission_reversal",
          amountKobo: -amountKobo,
          rateBasisPoints,
          reference: percentText(rateBasisPoints),
        },
      ],
      now,
    );
}
