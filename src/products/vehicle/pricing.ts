/** Motor premiums (spec 2.4): third-party at a flat annual rate, comprehensive at a share of the vehicle's value. */
import { MAX_INSURED_NAIRA, nairaAmount } from "../../core/money";
import { percentOf, wholeNairaInKobo } from "../shared";
import type { ProductType } from "../types";

export const VEHICLE_TYPES = [
  { code: "tprt", name: "Vehicle, third-party" },
  { code: "cmpr", name: "Vehicle, comprehensive" },
] as const satisfies readonly ProductType[];

/** Spec 2.4 indicative rates. */
const THIRD_PARTY_ANNUAL_NAIRA = 15000;
const COMPREHENSIVE_ANNUAL_PERCENT = 5;
/** Spec 8: smallest insurable value for comprehensive cover. */
const MIN_VEHICLE_VALUE_NAIRA = 500000;

/** Spec 2.5 and 8: the durations motor cover is sold for. */
export const VEHICLE_DURATIONS = ["7d", "1m", "3m", "6m", "1y"] as const;
export type VehicleDuration = (typeof VEHICLE_DURATIONS)[number];

/**
 * Short-period scale (share of the annual premium). The spec gives only annual rates; short
 * covers cost proportionally more, as is usual for motor short-period tables.
 */
const SHORT_PERIOD_SCALE: Readonly<Record<VehicleDuration, number>> = {
  "7d": 0.1,
  "1m": 0.15,
  "3m": 0.35,
  "6m": 0.6,
  "1y": 1,
};

/** vhclValueForInsrnc, in the quote seed and in the policy's addtnlFact alike. */
export const insuredVehicleValue = nairaAmount({ max: MAX_INSURED_NAIRA }).min(MIN_VEHICLE_VALUE_NAIRA);

export function thirdPartyPremiumKobo(duration: VehicleDuration): number {
  return wholeNairaInKobo(THIRD_PARTY_ANNUAL_NAIRA * SHORT_PERIOD_SCALE[duration]);
}

export function comprehensivePremiumKobo(duration: VehicleDuration, insuredValueNaira: number): number {
  return wholeNairaInKobo(percentOf(insuredValueNaira, COMPREHENSIVE_ANNUAL_PERCENT) * SHORT_PERIOD_SCALE[duration]);
}
