/** Goods in transit within Nigeria (gtrn-stnd): a rate and minimum per tier of declared goods value. */
import { z } from "zod";
import { badRequest } from "../../core/errors";
import { parseWith } from "../../core/validation";
import { percentOf, requireType, wholeNairaInKobo } from "../shared";
import type { ConsumerClass, ProductFamily, ProductType, Quote } from "../types";

const TRANSIT_TYPES = [{ code: "stnd", name: "Goods in transit (domestic, Nigeria)" }] as const satisfies readonly ProductType[];

/**
 * Not shown in the spec; chosen values. Larger consignments pay a lower rate; each tier's
 * minimum equals the top of the tier below so the premium never drops as value rises.
 */
export const TRANSIT_TIERS: readonly { upToNaira: number; ratePercent: number; minimumNaira: number }[] = [
  { upToNaira: 1_000_000, ratePercent: 1, minimumNaira: 2_500 },
  { upToNaira: 5_000_000, ratePercent: 0.75, minimumNaira: 10_000 },
  { upToNaira: 20_000_000, ratePercent: 0.5, minimumNaira: 37_500 },
  { upToNaira: 50_000_000, ratePercent: 0.4, minimumNaira: 100_000 },
];
/** Largest consignment insured per transit; above it the insurer underwrites by hand. */
export const MAX_TRANSIT_VALUE_NAIRA = 50_000_000;

const transitSeed = z.object({ goodsValue: z.number().positive() });

function quotePremium(type: string, seed: unknown): Quote {
  requireType(TRANSIT_TYPES, "gtrn", type);
  const { goodsValue } = parseWith(transitSeed, seed);
  const tier = TRANSIT_TIERS.find((t) => goodsValue <= t.upToNaira);
  if (!tier)
    throw badRequest(
      `seed.goodsValue must be at most ${MAX_TRANSIT_VALUE_NAIRA} naira, the maximum insurable value per transit; received ${goodsValue}`,
      "seed.goodsValue",
    );
  const naira = Math.max(percentOf(goodsValue, tier.ratePercent), tier.minimumNaira);
  // No insrncDrtn: cover runs from departure to estimated arrival (spec 2.5).
  return { premiumKobo: wholeNairaInKobo(naira), basis: { goodsValue } };
}

export const transit: ProductFamily = {
  ctgry: "gtrn",
  name: "Goods in transit",
  types: TRANSIT_TYPES,
  premiumUnit: "naira",
  quote: quotePremium,
  consumerRequirements(type: string, consumerClass: ConsumerClass) {
    requireType(TRANSIT_TYPES, "gtrn", type);
    // Spec 2.3 names first and last name; an organisation has only its brand name.
    const names = consumerClass === "o" ? ["name.brand"] : ["name.first", "name.last"];
    return ["class", ...names, "phoneNo", "eMail"];
  },
};
