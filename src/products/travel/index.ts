/** International travel (ltix-stnd): table premiums by zone, plan and duration; Hajj and Umrah has its own table. */
import { z } from "zod";
import { badRequest } from "../../core/errors";
import { parseWith } from "../../core/validation";
import { WITHOUT_SUM_INSURED } from "../claims";
import { SANDBOX_INSURERS } from "../insurers";
import { personRequirements, productFamily } from "../shared";
import type { ProductFamily, ProductType, Quote } from "../types";
import { travelForms } from "./form";
import { travelFacts, travelPolicy } from "./policy";
import { QUOTE_FIELDS, travelDestination, travelPlan, travelPremiumKobo } from "./pricing";
import { HAJJ_DURATIONS, MAX_TRAVELER_AGE, PLAN_TYPES, STANDARD_DURATIONS, TRAVEL_TYPES } from "./tables";
import { SUPPORTED_DESTINATIONS } from "./zones";

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

// What travelDestination, travelPlan and travelerAgeOf enforce once travelSeed has parsed, for the reference.
const destinationRule = z.string().meta({
  description: `The country travelled to, any case (also common names such as UK, USA, UAE): ${SUPPORTED_DESTINATIONS.join(", ")}. Not Nigeria, the country of origin.`,
});
const durationRule = z.enum([...new Set([...STANDARD_DURATIONS, ...HAJJ_DURATIONS])]).meta({
  description: `Standard plans: ${STANDARD_DURATIONS.join(", ")}; Hajj and Umrah: ${HAJJ_DURATIONS.join(", ")}`,
});
const travelerAgeRule = z.int().min(0).max(MAX_TRAVELER_AGE).meta({ description: "Age of the primary traveller in years; 35 when omitted" });

function travelerAgeOf(age: number | undefined): number {
  if (age === undefined) return DEFAULT_TRAVELER_AGE;
  if (!Number.isInteger(age) || age < 0) throw badRequest(`seed.travelerAge must be a whole number of years, 0 or more; received ${age}`, "seed.travelerAge");
  if (age > MAX_TRAVELER_AGE)
    throw badRequest(`age exceeds limit: travelerAge ${age} is over the maximum insurable age of ${MAX_TRAVELER_AGE}`, "seed.travelerAge");
  return age;
}

function quotePremium(_type: ProductType, seed: unknown): Quote {
  const input = parseWith(travelSeed, seed);
  const destination = travelDestination(input.destination, QUOTE_FIELDS);
  const travelerAge = travelerAgeOf(input.travelerAge);
  const isHajj = input.isHajj ?? false;
  const plan = travelPlan({ insrncDrtn: input.insrncDrtn, destination, planType: input.planType, isHajj }, QUOTE_FIELDS);
  return {
    premiumKobo: travelPremiumKobo(plan, travelerAge),
    duration: plan.insrncDrtn,
    basis: {
      insrncDrtn: plan.insrncDrtn,
      destination: destination.country,
      zone: plan.zone,
      planType: plan.planType,
      travelerAge,
      isHajj,
    },
  };
}

export const travel: ProductFamily = productFamily({
  ctgry: "ltix",
  name: "International travel",
  types: TRAVEL_TYPES,
  quote: quotePremium,
  consumerRequirements: (_type, consumerClass) => personRequirements(consumerClass),
  policy: travelPolicy,
  // One trip: once the traveller has departed the risk has run.
  cancellation: { kind: "until-risk-starts", feePercent: 10, start: "the traveller departed" },
  claims: {
    ...WITHOUT_SUM_INSURED,
    documents: () => [
      { key: "travel_document", label: "The passport page and the boarding pass or ticket" },
      { key: "medical_report", label: "A medical report, or the carrier's report of the delay or lost baggage" },
      { key: "receipts", label: "Receipts of what was paid" },
    ],
  },
  insurer: SANDBOX_INSURERS.axaMansard,
  // A renewed passport, moved dates, another next of kin: before departure only.
  endorsement: {
    fields: () => ["passportNo", "departureDate", "returnDate", "nokName", "nokRelationship", "nokPhone", "nokAddress"],
    coverFields: ["departureDate", "returnDate"],
    beforeCoverStarts: true,
  },
  forms: travelForms,
  schemas: () => ({
    quote: travelSeed.extend({ insrncDrtn: durationRule, destination: destinationRule, travelerAge: travelerAgeRule.optional() }),
    insrncDrtn: durationRule,
    addtnlFact: travelFacts.extend({ destination: destinationRule }),
  }),
});
