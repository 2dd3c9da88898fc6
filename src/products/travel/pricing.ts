/**
 * The travel rules a quote and a policy share (spec 2.4, 7): where the traveller goes, which
 * table and duration apply, and the premium. Refusals name the field where each request carries it.
 */
import { badRequest } from "../../core/errors";
import { wholeNairaInKobo } from "../shared";
import {
  AGE_LOADINGS,
  HAJJ_AGE_BANDS,
  HAJJ_DURATIONS,
  HAJJ_PREMIUM_NAIRA,
  type HajjDuration,
  type PlanType,
  STANDARD_DURATIONS,
  STANDARD_PREMIUM_NAIRA,
  type StandardDuration,
  type StandardZone,
} from "./tables";
import { HAJJ_COUNTRY, SUPPORTED_DESTINATIONS, travelZone } from "./zones";

/** Wire paths of the priced facts: top-level seed fields in a quote, addtnlFact fields in a policy request. */
export interface TravelFields {
  destination: string;
  planType: string;
  insrncDrtn: string;
}

export const QUOTE_FIELDS: TravelFields = { destination: "seed.destination", planType: "seed.planType", insrncDrtn: "seed.insrncDrtn" };
export const POLICY_FIELDS: TravelFields = {
  destination: "seed.addtnlFact.destination",
  planType: "seed.addtnlFact.planType",
  insrncDrtn: "seed.insrncDrtn",
};

export interface TravelDestination {
  /** The spec's country name. */
  country: string;
  zone: StandardZone;
  /** As the partner typed it (trimmed), for messages. */
  typed: string;
}

/** The table, zone and duration a request is priced with. */
export type TravelPlan =
  | { isHajj: false; insrncDrtn: StandardDuration; zone: StandardZone; planType: PlanType }
  | { isHajj: true; insrncDrtn: HajjDuration; zone: "hajj"; planType: "individual" };

const isOneOf = <T extends string>(list: readonly T[], value: string): value is T => (list as readonly string[]).includes(value);

/** Spec 7's destination refusals, in its words. */
export function travelDestination(destination: string | undefined, fields: TravelFields): TravelDestination {
  const typed = destination?.trim();
  if (!typed) throw badRequest(`destination is not provided: ${fields.destination} is required`, fields.destination);
  const found = travelZone(typed);
  if (found.kind === "origin") throw badRequest(`Nigeria is the country of origin: ${fields.destination} must be the country travelled to`, fields.destination);
  if (found.kind === "unknown")
    throw badRequest(`destination country not recognised: "${typed}" is not one of ${SUPPORTED_DESTINATIONS.join(", ")}`, fields.destination);
  return { country: found.country, zone: found.zone, typed };
}

const invalidDuration = (insrncDrtn: string, plan: string, allowed: readonly string[], field: string) =>
  badRequest(`invalid duration for plan: ${plan} cover is sold for ${allowed.join(", ")}; received "${insrncDrtn}"`, field);

/** Hajj and Umrah: Saudi Arabia only, its own durations, and per-person rates only (spec 2.4, 2.5). */
export function travelPlan(
  request: { insrncDrtn: string; destination: TravelDestination; planType: PlanType; isHajj: boolean },
  fields: TravelFields,
): TravelPlan {
  const { insrncDrtn, destination, planType } = request;
  if (!request.isHajj) {
    if (!isOneOf(STANDARD_DURATIONS, insrncDrtn)) throw invalidDuration(insrncDrtn, "standard travel", STANDARD_DURATIONS, fields.insrncDrtn);
    return { isHajj: false, insrncDrtn, zone: destination.zone, planType };
  }
  if (destination.country !== HAJJ_COUNTRY)
    throw badRequest(`Hajj and Umrah cover is only for destination ${HAJJ_COUNTRY}; received "${destination.typed}"`, fields.destination);
  // The Hajj table has only per-person rates, so each pilgrim takes an individual plan.
  if (planType !== "individual")
    throw badRequest(`family plans are not available for Hajj and Umrah: ${fields.planType} must be individual, one plan per pilgrim`, fields.planType);
  if (!isOneOf(HAJJ_DURATIONS, insrncDrtn)) throw invalidDuration(insrncDrtn, "Hajj and Umrah", HAJJ_DURATIONS, fields.insrncDrtn);
  return { isHajj: true, insrncDrtn, zone: "hajj", planType };
}

/** The premium for a traveller of `travelerAge` (0 to 80: callers refuse other ages in their own words). */
export function travelPremiumKobo(plan: TravelPlan, travelerAge: number): number {
  const inBand = (band: { from: number; to: number }) => travelerAge >= band.from && travelerAge <= band.to;
  if (plan.isHajj) {
    const { band } = HAJJ_AGE_BANDS.find(inBand)!;
    return wholeNairaInKobo(HAJJ_PREMIUM_NAIRA[plan.insrncDrtn][band]);
  }
  const { factor } = AGE_LOADINGS.find(inBand)!;
  return wholeNairaInKobo(STANDARD_PREMIUM_NAIRA[plan.insrncDrtn][plan.zone][plan.planType] * factor);
}
