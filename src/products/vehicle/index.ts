/** Motor insurance: third-party (flat rate) and comprehensive (share of the vehicle's value). */
import { z } from "zod";
import { parseWith } from "../../core/validation";
import { durationField, nameField, percentOf, requireType, wholeNairaInKobo, requiredFor } from "../shared";
import type { ConsumerClass, ProductFamily, ProductType, Quote } from "../types";

const VEHICLE_TYPES = [
  { code: "tprt", name: "Vehicle, third-party" },
  { code: "cmpr", name: "Vehicle, comprehensive" },
] as const satisfies readonly ProductType[];

/** Spec 2.4 indicative rates. */
const THIRD_PARTY_ANNUAL_NAIRA = 15000;
const COMPREHENSIVE_ANNUAL_PERCENT = 5;
/** Spec 8: smallest insurable value for comprehensive cover. */
export const MIN_VEHICLE_VALUE_NAIRA = 500000;

const VEHICLE_DURATIONS = ["7d", "1m", "3m", "6m", "1y"] as const;
type VehicleDuration = (typeof VEHICLE_DURATIONS)[number];

/**
 * Short-period scale (share of the annual premium). The spec gives only annual rates; short
 * covers cost proportionally more, as is usual for motor short-period tables.
 */
export const SHORT_PERIOD_SCALE: Readonly<Record<VehicleDuration, number>> = {
  "7d": 0.1,
  "1m": 0.15,
  "3m": 0.35,
  "6m": 0.6,
  "1y": 1,
};

const thirdPartySeed = z.object({ insrncDrtn: durationField(VEHICLE_DURATIONS) });
const comprehensiveSeed = thirdPartySeed.extend({
  vhclValueForInsrnc: z.number().min(MIN_VEHICLE_VALUE_NAIRA),
});

function quotePremium(type: string, seed: unknown): Quote {
  const { code } = requireType(VEHICLE_TYPES, "vhcl", type);
  if (code === "tprt") {
    const { insrncDrtn } = parseWith(thirdPartySeed, seed);
    const naira = THIRD_PARTY_ANNUAL_NAIRA * SHORT_PERIOD_SCALE[insrncDrtn];
    return { premiumKobo: wholeNairaInKobo(naira), duration: insrncDrtn, basis: { insrncDrtn } };
  }
  const { insrncDrtn, vhclValueForInsrnc } = parseWith(comprehensiveSeed, seed);
  const naira = percentOf(vhclValueForInsrnc, COMPREHENSIVE_ANNUAL_PERCENT) * SHORT_PERIOD_SCALE[insrncDrtn];
  return { premiumKobo: wholeNairaInKobo(naira), duration: insrncDrtn, basis: { insrncDrtn, vhclValueForInsrnc } };
}

function consumerRequirements(type: string, consumerClass: ConsumerClass): readonly string[] {
  const { code } = requireType(VEHICLE_TYPES, "vhcl", type);
  // Spec 2.3's list is written for people: a company has no gender or date of birth.
  const thirdParty = ["type", "class", nameField(consumerClass), "gender", "dob.date", "addrss.addrss", "phoneNo", "eMail"];
  return requiredFor(consumerClass, code === "cmpr" ? [...thirdParty, "socialID.type", "socialID.id", "socialID.image"] : thirdParty);
}

export const vehicle: ProductFamily = {
  ctgry: "vhcl",
  name: "Vehicle",
  types: VEHICLE_TYPES,
  premiumUnit: "naira",
  quote: quotePremium,
  consumerRequirements,
};
