/** International travel (ltix-stnd): table premiums by zone, plan and duration; Hajj and Umrah has its own table. */
import { z } from "zod";
import { badRequest } from "../../core/errors";
import { parseWith } from "../../core/validation";
import { nameField, requireType, wholeNairaInKobo } from "../shared";
import type { ConsumerClass, ProductFamily, ProductType, Quote } from "../types";
import {
  AGE_LOADINGS,
  HAJJ_AGE_BANDS,
  HAJJ_DURATIONS,
  HAJJ_PREMIUM_NAIRA,
  MAX_TRAVELER_AGE,
  PLAN_TYPES,
  STANDARD_DURATIONS,
  STANDARD_PREMIUM_NAIRA,
  type HajjDuration,
  type PlanType,
  type StandardDuration,
} from "./tables";
import { HAJJ_COUNTRY, SUPPORTED_DESTINATIONS, travelZone } from "./zones";

export { travelZone } from "./zones";
export type { TravelZone } from "./tables";

const TRAVEL_TYPES = [{ code: "stnd", name: "International travel" }] as const satisfies readonly ProductType[];

/** Spec 2.4: travelerAge defaults to 35 when omitted. */
const DEFAULT_TRAVELER_AGE = 35;

// destination, travelerAge and insrncDrtn are checked by hand below: the spec words those refusals itself.
const travelSeed = z.object({
  insrncDrtn: z.string(),
  destination: z.string().optional(),
  planType: z.enum(PLAN_TYPES),
  travelerAge: z.number().optional(),
  isHajj: z.boolean().optional(),
});

const isOneOf = <T extends string>(list: readonly T[], value: string): value is T => (list as readonly string[]).includes(value);

function travelerAgeOf(age: number | undefined): number {
  if (age === undefined) return DEFAULT_TRAVELER_AGE;
  if (!Number.isInteger(age) || age < 0)
    throw badRequest(`seed.travelerAge must be a whole number of years, 0 or more; received ${age}`, "seed.travelerAge");
  if (age > MAX_TRAVELER_AGE)
    throw badRequest(`age exceeds limit: travelerAge ${age} is over the maximum insurable age of ${MAX_TRAVELER_AGE}`, "seed.travelerAge");
  return age;
}

const invalidDuration = (insrncDrtn: string, plan: string, allowed: readonly string[]) =>
  badRequest(`invalid duration for plan: ${plan} cover is sold for ${allowed.join(", ")}; received "${insrncDrtn}"`, "seed.insrncDrtn");

function hajjPremiumNaira(insrncDrtn: string, planType: PlanType, travelerAge: number): number {
  // The Hajj table has only per-person rates, so each pilgrim takes an individual plan.
  if (planType !== "individual")
    throw badRequest("family plans are not available for Hajj and Umrah: seed.planType must be individual, one plan per pilgrim", "seed.planType");
  if (!isOneOf<HajjDuration>(HAJJ_DURATIONS, insrncDrtn)) throw invalidDuration(insrncDrtn, "Hajj and Umrah", HAJJ_DURATIONS);
  const { band } = HAJJ_AGE_BANDS.find((b) => travelerAge >= b.from && travelerAge <= b.to)!;
  return HAJJ_PREMIUM_NAIRA[insrncDrtn][band];
}

function quotePremium(type: string, seed: unknown): Quote {
  requireType(TRAVEL_TYPES, "ltix", type);
  const input = parseWith(travelSeed, seed);

  const typed = input.destination?.trim();
  if (!typed) throw badRequest("destination is not provided: seed.destination is required", "seed.destination");
  const destination = travelZone(typed);
  if (destination.kind === "origin")
    throw badRequest("Nigeria is the country of origin: seed.destination must be the country travelled to", "seed.destination");
  if (destination.kind === "unknown")
    throw badRequest(
      `destination country not recognised: "${typed}" is not one of ${SUPPORTED_DESTINATIONS.join(", ")}`,
      "seed.destination",
    );

  const travelerAge = travelerAgeOf(input.travelerAge);
  const isHajj = input.isHajj ?? false;
  const { insrncDrtn, planType } = input;
  let naira: number;
  if (isHajj) {
    if (destination.country !== HAJJ_COUNTRY)
      throw badRequest(`Hajj and Umrah cover is only for destination ${HAJJ_COUNTRY}; received "${typed}"`, "seed.destination");
    naira = hajjPremiumNaira(insrncDrtn, planType, travelerAge);
  } else {
    if (!isOneOf<StandardDuration>(STANDARD_DURATIONS, insrncDrtn)) throw invalidDuration(insrncDrtn, "standard travel", STANDARD_DURATIONS);
    const { factor } = AGE_LOADINGS.find((l) => travelerAge >= l.from && travelerAge <= l.to)!;
    naira = STANDARD_PREMIUM_NAIRA[insrncDrtn][destination.zone][planType] * factor;
  }

  return {
    premiumKobo: wholeNairaInKobo(naira),
    duration: insrncDrtn,
    basis: {
      insrncDrtn,
      destination: destination.country,
      zone: isHajj ? "hajj" : destination.zone,
      planType,
      travelerAge,
      isHajj,
    },
  };
}

export const travel: ProductFamily = {
  ctgry: "ltix",
  name: "International travel",
  types: TRAVEL_TYPES,
  premiumUnit: "naira",
  quote: quotePremium,
  consumerRequirements(type: string, consumerClass: ConsumerClass) {
    requireType(TRAVEL_TYPES, "ltix", type);
    return [nameField(consumerClass), "phoneNo", "eMail", "gender", "dob.date", "addrss.addrss"];
  },
};
