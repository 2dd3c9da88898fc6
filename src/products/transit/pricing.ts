/** Goods in transit within Nigeria (gtrn-stnd): what is sold and how it is priced, for quote and issuance alike. */
import { MAX_INSURED_NAIRA, nairaAmount } from "../../core/money";
import { percentOf, wholeNairaInKobo } from "../shared";
import type { ProductType } from "../types";

export const TRANSIT_TYPES = [{ code: "stnd", name: "Goods in transit (domestic, Nigeria)" }] as const satisfies readonly ProductType[];

/**
 * Not shown in the spec; chosen values. Larger consignments pay a lower rate; each tier's
 * minimum equals the top of the tier below so the premium never drops as value rises.
 */
const TRANSIT_TIERS: readonly { upToNaira: number; ratePercent: number; minimumNaira: number }[] = [
  { upToNaira: 1_000_000, ratePercent: 1, minimumNaira: 2_500 },
  { upToNaira: 5_000_000, ratePercent: 0.75, minimumNaira: 10_000 },
  { upToNaira: 20_000_000, ratePercent: 0.5, minimumNaira: 37_500 },
  { upToNaira: 50_000_000, ratePercent: 0.4, minimumNaira: 100_000 },
];
/** Largest consignment insured per transit; above it the insurer underwrites by hand. */
export const MAX_TRANSIT_VALUE_NAIRA = 50_000_000;

/** Declared goods value in naira: the same limits whether quoted (seed.goodsValue) or insured (addtnlFact.goodsValue). */
export const insurableGoodsValue = nairaAmount({ max: MAX_INSURED_NAIRA }).refine((naira) => naira <= MAX_TRANSIT_VALUE_NAIRA, {
  error: (issue) => `must be at most ${MAX_TRANSIT_VALUE_NAIRA} naira, the maximum insurable value per transit; received ${String(issue.input)}`,
});

/** The premium of a consignment already validated by `insurableGoodsValue`: the tier's rate, never below its minimum. */
export function transitPremiumKobo(goodsValue: number): number {
  const tier = TRANSIT_TIERS.find((t) => goodsValue <= t.upToNaira)!;
  return wholeNairaInKobo(Math.max(percentOf(goodsValue, tier.ratePercent), tier.minimumNaira));
}
