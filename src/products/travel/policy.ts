/**
 * Issuing travel cover (spec 2.5): the trip the partner quoted, priced with the quote's rule at
 * the traveller's real age on departure, covered from departureDate.
 */
import { z } from "zod";
import { badRequest } from "../../core/errors";
import { isoDate, parseWith, phoneNumber, text } from "../../core/validation";
import { ageOn, coverEnd, parseFacts, watMidnight, watToday } from "../policy-helpers";
import { requireType } from "../shared";
import type { InsuredConsumer, PolicyRules, PolicyTerms, QuoteOnFile } from "../types";
import { consumerBirthDate, factError } from "../vehicle/issuance";
import { POLICY_FIELDS, type TravelPlan, travelDestination, travelPlan, travelPremiumKobo } from "./pricing";
import { MAX_TRAVELER_AGE, MULTI_TRIP_DURATIONS, PLAN_TYPES, TRAVEL_TYPES } from "./tables";

const PRODUCT_CODE = "ltix-stnd-1111";

import { DAY_MS } from "../../core/time";

/** Chosen: a family plan covers the primary traveller and at most this many family members. */
const MAX_PASSENGERS = 10;

const NEXT_OF_KIN = ["nokName", "nokRelationship", "nokPhone"] as const;
const PASSENGER_NEEDS = ["firstName", "lastName", "dob", "passportNo"] as const;

/** Stored uppercase so "a12345678" and "A12345678" are one passport. */
const passportNumber = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{5,20}$/, "must be the passport number: 5 to 20 letters and digits, no spaces, e.g. A12345678");

const passenger = z.strictObject({
  firstName: text(100),
  lastName: text(100),
  dob: isoDate,
  passportNo: passportNumber,
  gender: z.enum(["m", "f"]).optional(),
  occupation: text(100).optional(),
});

// Strict: a misspelt optional field (nokAdress, middlename) would otherwise be dropped silently.
export const travelFacts = z.strictObject({
  planType: z.enum(PLAN_TYPES),
  // Worded by travelDestination, as in the quote (spec 7: "destination is not provided" …).
  destination: z.string().optional(),
  departureDate: isoDate,
  returnDate: isoDate,
  passportNo: passportNumber,
  occupation: text(100),
  nokName: text(200),
  nokRelationship: text(50),
  nokPhone: phoneNumber,
  middleName: text(100).optional(),
  nokAddress: text(500).optional(),
  isHajj: z.boolean().optional(),
  passengers: z.array(passenger).min(1).max(MAX_PASSENGERS).optional(),
});
type SentFacts = z.output<typeof travelFacts>;
type TravelFacts = Omit<SentFacts, "destination" | "isHajj"> & { insrncDrtn: string; destination: string; isHajj: boolean };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Spec 7 words these refusals itself, so they are checked before the field types. */
function refuseBySpec(sent: Record<string, unknown>): void {
  const missingKin = NEXT_OF_KIN.filter((field) => sent[field] === undefined);
  if (missingKin.length)
    throw badRequest(
      `missing next of kin: seed.addtnlFact lacks ${missingKin.join(", ")}; nokName, nokRelationship and nokPhone are all required`,
      `seed.addtnlFact.${missingKin[0]}`,
    );
  if (!Array.isArray(sent.passengers)) return;
  sent.passengers.forEach((entry, i) => {
    if (!isRecord(entry)) return;
    const missing = PASSENGER_NEEDS.filter((field) => entry[field] === undefined);
    if (missing.length)
      throw badRequest(
        `missing passenger fields: seed.addtnlFact.passengers[${i}] lacks ${missing.join(", ")}; each passenger needs firstName, lastName, dob and passportNo`,
        `seed.addtnlFact.passengers[${i}].${missing[0]}`,
      );
  });
}

/** A family plan lists the family members travelling with the primary traveller; an individual plan has none. */
function checkPassengers(facts: SentFacts, today: string): void {
  if (facts.planType === "family" && !facts.passengers)
    throw badRequest(
      "missing passenger fields: seed.addtnlFact.passengers is required for a family plan; list each family member travelling, with firstName, lastName, dob and passportNo",
      "seed.addtnlFact.passengers",
    );
  if (facts.planType === "individual" && facts.passengers)
    throw factError(
      "passengers",
      "is for family plans only: an individual plan covers the primary traveller alone; omit it, or quote and insure planType family",
    );
  facts.passengers?.forEach((p, i) => {
    if (p.dob > today) throw factError(`passengers[${i}].dob`, `must be a date of birth in the past; received "${p.dob}"`);
  });
}

/** Spec 2.5: insrncDrtn (and what else priced the quote) must match the partner's latest quote. */
function checkAgainstQuote(quote: QuoteOnFile | undefined, plan: TravelPlan, country: string): void {
  if (!quote)
    throw badRequest(
      `quote the product first (dump ipck_${PRODUCT_CODE}*PRMM): travel cover must match a quote, and there is none on file for ${PRODUCT_CODE}`,
      "seed.insrncDrtn",
    );
  const compared: [field: string, quoted: unknown, sent: unknown][] = [
    ["seed.insrncDrtn", quote.duration ?? quote.basis.insrncDrtn, plan.insrncDrtn],
    [POLICY_FIELDS.destination, quote.basis.destination, country],
    [POLICY_FIELDS.planType, quote.basis.planType, plan.planType],
    ["seed.addtnlFact.isHajj", quote.basis.isHajj ?? false, plan.isHajj],
  ];
  for (const [field, quoted, sent] of compared)
    if (quoted !== sent)
      throw badRequest(
        `${field} must match the quote: the latest quote of ${PRODUCT_CODE} is for ${JSON.stringify(quoted)}; received ${JSON.stringify(sent)} (quote again to change it)`,
        field,
      );
}

/** The cover period: from departure to the end of the return day, or the whole period of a multi-trip cover. */
function coverPeriod(facts: SentFacts, plan: TravelPlan, today: string): { coverStart: Date; coverEnd: Date } {
  const { departureDate, returnDate } = facts;
  if (departureDate < today)
    throw factError("departureDate", `must not be in the past: cover can start today (${today}) or later; received "${departureDate}"`);
  if (returnDate <= departureDate) throw factError("returnDate", `must be after departureDate ("${departureDate}"); received "${returnDate}"`);
  const coverStart = watMidnight(departureDate);
  const tripEnd = new Date(watMidnight(returnDate).getTime() + DAY_MS);
  const periodEnd = coverEnd(coverStart, plan.insrncDrtn);
  if (tripEnd > periodEnd) {
    const tripDays = Math.round((tripEnd.getTime() - coverStart.getTime()) / DAY_MS);
    const lastDay = watToday(new Date(periodEnd.getTime() - 1));
    throw factError(
      "returnDate",
      `is after the cover ends: the trip from ${departureDate} to ${returnDate} lasts ${tripDays} days, and ${plan.insrncDrtn} cover from ` +
        `${departureDate} ends on ${lastDay}; quote a longer insrncDrtn`,
    );
  }
  const multiTrip = !plan.isHajj && MULTI_TRIP_DURATIONS.includes(plan.insrncDrtn);
  return { coverStart, coverEnd: multiTrip ? periodEnd : tripEnd };
}

/** The primary traveller is the consumer (spec 2.3 requires dob.date for travel). */
function travellerBirthDate(consumer: InsuredConsumer): string {
  const dob = consumerBirthDate(consumer);
  if (!dob) throw badRequest("the consumer has no dob.date: travel cover is priced by the traveller's age; add it with prfl entity (same eMail)");
  return dob;
}

function travellerName(consumer: InsuredConsumer, middleName: string | undefined): string {
  const name = (consumer.profile.name ?? {}) as { first?: string; last?: string; brand?: string };
  return [name.first, middleName, name.last].filter(Boolean).join(" ") || (name.brand ?? "");
}

function printedLines(facts: TravelFacts, consumer: InsuredConsumer): PolicyTerms["printed"] {
  const passengers = facts.passengers ?? [];
  return [
    ["Traveller", `${travellerName(consumer, facts.middleName)}, born ${travellerBirthDate(consumer)}, passport ${facts.passportNo}`],
    ["Destination", facts.isHajj ? `${facts.destination} (Hajj and Umrah)` : facts.destination],
    ["Plan", facts.planType === "family" ? `Family, ${passengers.length + 1} travellers` : "Individual"],
    ["Trip", `departs ${facts.departureDate}, returns ${facts.returnDate}`],
    ...passengers.map((p, i) => [`Passenger ${i + 1}`, `${p.firstName} ${p.lastName}, born ${p.dob}, passport ${p.passportNo}`] as const),
    ["Next of kin", `${facts.nokName} (${facts.nokRelationship}), ${facts.nokPhone}`],
  ];
}

const durationText = z.string();

export const travelPolicy: PolicyRules = {
  comparesWithQuote: true,
  terms(type, request, { consumer, latestQuote, now }) {
    requireType(TRAVEL_TYPES, "ltix", type);
    // Which durations apply depends on isHajj: travelPlan says "invalid duration for plan", as the quote does.
    const insrncDrtn = parseWith(durationText, request.insrncDrtn, "seed.insrncDrtn");
    if (isRecord(request.addtnlFact)) refuseBySpec(request.addtnlFact);
    const sent = parseFacts(travelFacts, request.addtnlFact);

    const destination = travelDestination(sent.destination, POLICY_FIELDS);
    const isHajj = sent.isHajj ?? false;
    const plan = travelPlan({ insrncDrtn, destination, planType: sent.planType, isHajj }, POLICY_FIELDS);
    checkAgainstQuote(latestQuote, plan, destination.country);
    const today = watToday(now);
    checkPassengers(sent, today);
    const period = coverPeriod(sent, plan, today);

    // Spec 2.4: the primary traveller's age sets the tier; here it is the real age on departure, not the quote's assumption.
    const dob = travellerBirthDate(consumer);
    const travellerAge = ageOn(dob, period.coverStart);
    if (travellerAge > MAX_TRAVELER_AGE)
      throw badRequest(
        `age exceeds limit: the traveller (dob.date ${dob}) is ${travellerAge} on departureDate ${sent.departureDate}, over the maximum insurable age of ${MAX_TRAVELER_AGE}`,
        "seed.addtnlFact.departureDate",
      );

    const facts: TravelFacts = { insrncDrtn: plan.insrncDrtn, ...sent, destination: destination.country, isHajj };
    return {
      premiumKobo: travelPremiumKobo(plan, travellerAge),
      duration: plan.insrncDrtn,
      ...period,
      facts,
      liveRoute: "insurer",
      printed: printedLines(facts, consumer),
    };
  },

  // Spec 8: 80 is the maximum insurable age, for every traveller a family plan covers (the primary traveller's is
  // refused at issuance, but the consumer's dob.date may have been corrected before the insurer decides).
  declineReason(_type, terms, { consumer }) {
    const facts = terms.facts as TravelFacts;
    const departure = watMidnight(facts.departureDate);
    const travellers = [
      { who: "the primary traveller", dob: consumerBirthDate(consumer) },
      ...(facts.passengers ?? []).map((p, i) => ({ who: `passenger ${i + 1} (${p.firstName} ${p.lastName})`, dob: p.dob })),
    ];
    for (const { who, dob } of travellers) {
      if (dob === undefined) continue;
      const age = ageOn(dob, departure);
      if (age > MAX_TRAVELER_AGE)
        return `Age exceeds limit: ${who}, born ${dob}, is ${age} on the departure date ${facts.departureDate}; the maximum insurable age is ${MAX_TRAVELER_AGE}.`;
    }
    return null;
  },

  // Spec 2.6: travel answers with a hosted certificate link (certUrl); the document is a PDF.
  certificate() {
    return { type: "pdf", delivery: "hosted" };
  },
};
