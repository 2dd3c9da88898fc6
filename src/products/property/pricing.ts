/** Property premiums: an annual rate on the sum insured, pro-rated by duration, never below a minimum. */
import { MAX_INSURED_NAIRA, nairaAmount } from "../../core/money";
import { MONTHS_COVERED, type MonthlyDuration, percentOf, wholeNairaInKobo } from "../shared";
import type { ProductType } from "../types";

export interface PropertyCover extends ProductType {
  annualRatePercent: number;
  /** Applies to the premium actually quoted (after pro-rating). */
  minimumNaira: number;
}

// Not shown in the spec: chosen values. All risk covers portable items anywhere, so it costs more.
export const ALL_RISK = [{ code: "stnd", name: "All risk", annualRatePercent: 1.5, minimumNaira: 5000 }] as const satisfies readonly PropertyCover[];
export const FIRE_AND_BURGLARY = [
  { code: "stnd", name: "Fire and burglary", annualRatePercent: 0.3, minimumNaira: 3000 },
] as const satisfies readonly PropertyCover[];

/** sumInsured, naira, in the quote seed and in the policy's addtnlFact alike (spec 7 lists it among the JSON numbers). */
export const sumInsured = nairaAmount({ max: MAX_INSURED_NAIRA });

export function propertyPremiumKobo(cover: PropertyCover, sumInsuredNaira: number, duration: MonthlyDuration): number {
  const annual = percentOf(sumInsuredNaira, cover.annualRatePercent);
  return wholeNairaInKobo(Math.max((annual * MONTHS_COVERED[duration]) / 12, cover.minimumNaira));
}
