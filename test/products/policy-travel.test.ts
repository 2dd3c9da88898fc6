import { describe, expect, test } from "bun:test";
import { travel } from "../../src/products/travel";
import type { PolicyContext, PolicyTerms, QuoteOnFile } from "../../src/products/types";
import { refusal } from "./support";

/** 10:00 WAT on 10 March 2026. */
const NOW = new Date("2026-03-10T09:00:00Z");
/** 35 on the departure date below. */
const DOB = "1990-05-20";

function quoteOnFile(seed: Record<string, unknown>): QuoteOnFile {
  const { premiumKobo, duration, basis } = travel.quote("stnd", seed);
  return { premiumKobo, duration, basis, createdAt: NOW };
}
const GERMANY_7D = { insrncDrtn: "7d", destination: "Germany", planType: "individual" };

function contextWith(options: { dob?: string; quote?: Record<string, unknown> | null } = {}): PolicyContext {
  const quote = options.quote === null ? undefined : quoteOnFile(options.quote ?? GERMANY_7D);
  return {
    consumer: {
      class: "h",
      profile: { class: "h", name: { first: "Chidi", last: "Okafor" }, gender: "m", dob: { date: options.dob ?? DOB } },
      documents: [],
    },
    latestQuote: quote,
    now: NOW,
  };
}

const trip = (): Record<string, unknown> => ({
  planType: "individual",
  destination: "Germany",
  departureDate: "2026-03-20",
  returnDate: "2026-03-25",
  passportNo: "A12345678",
  occupation: "Engineer",
  nokName: "Ngozi Okafor",
  nokRelationship: "Sister",
  nokPhone: "+2348030000001",
});
const passenger = (changes: Record<string, unknown> = {}) => ({ firstName: "Ada", lastName: "Okafor", dob: "2015-06-01", passportNo: "B7654321", ...changes });
const familyTrip = () => ({
  ...trip(),
  planType: "family",
  passengers: [passenger(), passenger({ firstName: "Obi", dob: "2012-01-15", passportNo: "B7654322" })],
});
const FAMILY_7D = { ...GERMANY_7D, planType: "family" };

/** A request for `insrncDrtn` (default 7d, as quoted) against `context`. */
const terms = (addtnlFact: unknown, insrncDrtn: unknown = "7d", context = contextWith()) => travel.policy.terms("stnd", { insrncDrtn, addtnlFact }, context);
const refused = (addtnlFact: unknown, insrncDrtn: unknown = "7d", context = contextWith()) => refusal(() => terms(addtnlFact, insrncDrtn, context));
const refusedWithoutDuration = (addtnlFact: unknown) => refusal(() => travel.policy.terms("stnd", { addtnlFact }, contextWith()));
const withTrip = (changes: Record<string, unknown>) => ({ ...trip(), ...changes });
/** The insurer's answer, on terms as the database gives them back (facts through JSON). */
const decline = (t: PolicyTerms, context = contextWith()) =>
  travel.policy.declineReason("stnd", { ...t, facts: JSON.parse(JSON.stringify(t.facts)) }, context, { deviceAlreadyInsured: false });

describe("ltix-stnd-1111 terms", () => {
  test("a valid request: the quote's premium at the traveller's age, cover from departure to the end of the return day", () => {
    const t = terms(trip());
    expect(t.premiumKobo).toBe(travel.quote("stnd", { ...GERMANY_7D, travelerAge: 35 }).premiumKobo);
    expect(t.premiumKobo).toBe(507_200);
    expect(t.duration).toBe("7d");
    expect(t.coverStart).toEqual(new Date("2026-03-19T23:00:00Z"));
    expect(t.coverEnd).toEqual(new Date("2026-03-25T23:00:00Z"));
    expect(t.liveRoute).toBe("insurer");
    expect(t.deviceId).toBeUndefined();
    expect(t.facts).toEqual({ insrncDrtn: "7d", ...trip(), isHajj: false });
    expect(t.printed).toEqual([
      ["Traveller", "Chidi Okafor, born 1990-05-20, passport A12345678"],
      ["Destination", "Germany"],
      ["Plan", "Individual"],
      ["Trip", "departs 2026-03-20, returns 2026-03-25"],
      ["Next of kin", "Ngozi Okafor (Sister), +2348030000001"],
    ]);
  });

  test("facts are normalised: the spec's country name, uppercase passport, optional fields kept", () => {
    const t = terms(withTrip({ destination: " germany ", passportNo: "a12345678", middleName: "Emeka", nokAddress: "5 Allen Avenue, Ikeja" }));
    expect(t.facts).toMatchObject({ destination: "Germany", passportNo: "A12345678", middleName: "Emeka", nokAddress: "5 Allen Avenue, Ikeja", isHajj: false });
    expect(t.printed[0]).toEqual(["Traveller", "Chidi Emeka Okafor, born 1990-05-20, passport A12345678"]);
  });

  test.each([
    ["1956-03-21", 69, 1],
    ["1956-03-20", 70, 2],
    ["1950-03-21", 75, 2],
    ["1950-03-20", 76, 2.5],
    ["1945-03-21", 80, 2.5],
  ])("born %s: %d on departure pays the table rate x%p", (dob, age, factor) => {
    const t = terms(trip(), "7d", contextWith({ dob }));
    expect(t.premiumKobo).toBe(travel.quote("stnd", { ...GERMANY_7D, travelerAge: age }).premiumKobo);
    expect(t.premiumKobo).toBe(507_200 * factor);
  });

  test("over 80 on departure → age exceeds limit", () => {
    const error = refused(trip(), "7d", contextWith({ dob: "1945-03-20" }));
    expect(error.status).toBe(400);
    expect(error.message).toBe(
      "age exceeds limit: the traveller (dob.date 1945-03-20) is 81 on departureDate 2026-03-20, over the maximum insurable age of 80",
    );
    expect(error.field).toBe("seed.addtnlFact.departureDate");
  });

  test("a family plan: the family rate, passengers stored and printed", () => {
    const context = contextWith({ quote: FAMILY_7D });
    const t = terms(familyTrip(), "7d", context);
    expect(t.premiumKobo).toBe(travel.quote("stnd", FAMILY_7D).premiumKobo);
    expect(t.premiumKobo).toBe(1_014_400);
    expect(t.facts.passengers).toEqual(familyTrip().passengers);
    expect(t.printed).toContainEqual(["Plan", "Family, 3 travellers"]);
    expect(t.printed).toContainEqual(["Passenger 1", "Ada Okafor, born 2015-06-01, passport B7654321"]);
    expect(t.printed).toContainEqual(["Passenger 2", "Obi Okafor, born 2012-01-15, passport B7654322"]);
  });

  test("multi-trip 6m and 12m: cover runs the whole period from departure", () => {
    for (const [insrncDrtn, end] of [
      ["6m", "2026-09-19T23:00:00Z"],
      ["12m", "2027-03-19T23:00:00Z"],
    ] as const) {
      const t = terms(withTrip({ returnDate: "2026-04-10" }), insrncDrtn, contextWith({ quote: { ...GERMANY_7D, insrncDrtn } }));
      expect(t.premiumKobo).toBe(travel.quote("stnd", { ...GERMANY_7D, insrncDrtn }).premiumKobo);
      expect(t.coverEnd).toEqual(new Date(end));
    }
  });

  test("departing today is allowed", () => {
    const t = terms(withTrip({ departureDate: "2026-03-10", returnDate: "2026-03-12" }));
    expect(t.coverStart).toEqual(new Date("2026-03-09T23:00:00Z"));
  });
});

describe("travel dates", () => {
  test("departure in the past is refused", () => {
    const error = refused(withTrip({ departureDate: "2026-03-09" }));
    expect(error.field).toBe("seed.addtnlFact.departureDate");
    expect(error.message).toBe('seed.addtnlFact.departureDate must not be in the past: cover can start today (2026-03-10) or later; received "2026-03-09"');
  });

  test.each(["2026-03-19", "2026-03-20"])("return %s, not after departure 2026-03-20, is refused", (returnDate) => {
    const error = refused(withTrip({ returnDate }));
    expect(error.field).toBe("seed.addtnlFact.returnDate");
    expect(error.message).toBe(`seed.addtnlFact.returnDate must be after departureDate ("2026-03-20"); received "${returnDate}"`);
  });

  test("the trip must fit the cover: 7d covers a trip of 7 days, not 8 or 10", () => {
    expect(terms(withTrip({ returnDate: "2026-03-26" })).coverEnd).toEqual(new Date("2026-03-26T23:00:00Z"));
    const error = refused(withTrip({ returnDate: "2026-03-29" }));
    expect(error.field).toBe("seed.addtnlFact.returnDate");
    expect(error.message).toBe(
      "seed.addtnlFact.returnDate is after the cover ends: the trip from 2026-03-20 to 2026-03-29 lasts 10 days, and 7d cover from 2026-03-20 ends on 2026-03-26; quote a longer insrncDrtn",
    );
    expect(refused(withTrip({ returnDate: "2026-03-27" })).message).toContain("lasts 8 days");
  });

  test("a multi-trip cover also bounds the declared trip", () => {
    const error = refused(withTrip({ returnDate: "2026-09-20" }), "6m", contextWith({ quote: { ...GERMANY_7D, insrncDrtn: "6m" } }));
    expect(error.message).toContain("ends on 2026-09-19");
  });

  test.each(["departureDate", "returnDate"])("%s must be YYYY-MM-DD and a real date", (field) => {
    expect(refused(withTrip({ [field]: "20/03/2026" })).message).toBe(`seed.addtnlFact.${field} must be a date in the form YYYY-MM-DD`);
    expect(refused(withTrip({ [field]: "2026-02-30" })).message).toBe(`seed.addtnlFact.${field} is not a real calendar date`);
  });
});

describe("travel must match the quote (spec 2.5)", () => {
  test("no quote on file → quote the product first", () => {
    const error = refused(trip(), "7d", contextWith({ quote: null }));
    expect(error.status).toBe(400);
    expect(error.message).toStartWith("quote the product first (dump ipck_ltix-stnd-1111*PRMM)");
  });

  test("another duration", () => {
    const error = refused(trip(), "15d");
    expect(error.field).toBe("seed.insrncDrtn");
    expect(error.message).toBe(
      'seed.insrncDrtn must match the quote: the latest quote of ltix-stnd-1111 is for "7d"; received "15d" (quote again to change it)',
    );
  });

  test("another destination (compared as the spec's country name)", () => {
    expect(terms(withTrip({ destination: "GERMANY" })).facts.destination).toBe("Germany");
    const error = refused(withTrip({ destination: "France" }));
    expect(error.field).toBe("seed.addtnlFact.destination");
    expect(error.message).toContain('must match the quote: the latest quote of ltix-stnd-1111 is for "Germany"; received "France"');
  });

  test("another plan type", () => {
    const error = refused(familyTrip());
    expect(error.field).toBe("seed.addtnlFact.planType");
    expect(error.message).toContain("must match the quote");
  });

  test("Hajj against a standard quote", () => {
    const context = contextWith({ quote: { insrncDrtn: "15d", destination: "Saudi Arabia", planType: "individual" } });
    const error = refused(withTrip({ destination: "Saudi Arabia", isHajj: true, returnDate: "2026-03-30" }), "15d", context);
    expect(error.field).toBe("seed.addtnlFact.isHajj");
    expect(error.message).toContain("must match the quote: the latest quote of ltix-stnd-1111 is for false; received true");
  });
});

describe("Hajj and Umrah", () => {
  const HAJJ_15D = { insrncDrtn: "15d", destination: "Saudi Arabia", planType: "individual", isHajj: true };
  const pilgrimage = (changes: Record<string, unknown> = {}) =>
    withTrip({ destination: "Saudi Arabia", isHajj: true, departureDate: "2026-05-20", returnDate: "2026-06-03", ...changes });

  test("priced with the Hajj table at the pilgrim's age", () => {
    const t = terms(pilgrimage(), "15d", contextWith({ quote: HAJJ_15D }));
    expect(t.premiumKobo).toBe(travel.quote("stnd", { ...HAJJ_15D, travelerAge: 36 }).premiumKobo);
    expect(t.premiumKobo).toBe(475_200);
    expect(t.coverEnd).toEqual(new Date("2026-06-03T23:00:00Z"));
    expect(t.facts.isHajj).toBe(true);
    expect(t.printed).toContainEqual(["Destination", "Saudi Arabia (Hajj and Umrah)"]);
  });

  test("only to Saudi Arabia", () => {
    const error = refused(pilgrimage({ destination: "Kenya" }), "15d", contextWith({ quote: HAJJ_15D }));
    expect(error.field).toBe("seed.addtnlFact.destination");
    expect(error.message).toBe('Hajj and Umrah cover is only for destination Saudi Arabia; received "Kenya"');
  });

  test("no family plans", () => {
    const error = refused(pilgrimage({ planType: "family", passengers: [passenger()] }), "15d", contextWith({ quote: HAJJ_15D }));
    expect(error.field).toBe("seed.addtnlFact.planType");
    expect(error.message).toStartWith("family plans are not available for Hajj and Umrah");
  });

  test("Hajj durations only with isHajj; standard durations never with it", () => {
    const standard = refused(pilgrimage(), "7d", contextWith({ quote: HAJJ_15D }));
    expect(standard.field).toBe("seed.insrncDrtn");
    expect(standard.message).toStartWith("invalid duration for plan: Hajj and Umrah cover is sold for 15d, 25d, 45d");
    const hajjOnly = refused(withTrip({ destination: "Saudi Arabia" }), "25d");
    expect(hajjOnly.message).toStartWith("invalid duration for plan: standard travel cover is sold for");
    expect(refused(trip(), "1y").message).toStartWith("invalid duration for plan");
  });
});

describe("travel validation", () => {
  test.each(["nokName", "nokRelationship", "nokPhone"])("%s missing → missing next of kin", (field) => {
    const facts = trip();
    delete facts[field];
    const error = refused(facts);
    expect(error.status).toBe(400);
    expect(error.field).toBe(`seed.addtnlFact.${field}`);
    expect(error.message).toBe(`missing next of kin: seed.addtnlFact lacks ${field}; nokName, nokRelationship and nokPhone are all required`);
  });

  test("all next of kin missing are named together", () => {
    const { nokName, nokRelationship, nokPhone, ...facts } = trip();
    expect(refused(facts).message).toStartWith("missing next of kin: seed.addtnlFact lacks nokName, nokRelationship, nokPhone");
  });

  test("nokPhone in international format", () => {
    for (const nokPhone of ["08030000001", "+23408030000001"]) expect(refused(withTrip({ nokPhone })).field).toBe("seed.addtnlFact.nokPhone");
  });

  test("family plan: passengers required, each with firstName, lastName, dob, passportNo", () => {
    const context = contextWith({ quote: FAMILY_7D });
    const { passengers, ...noPassengers } = familyTrip();
    const none = refused(noPassengers, "7d", context);
    expect(none.field).toBe("seed.addtnlFact.passengers");
    expect(none.message).toStartWith("missing passenger fields: seed.addtnlFact.passengers is required for a family plan");
    for (const field of ["firstName", "lastName", "dob", "passportNo"]) {
      const entry: Record<string, unknown> = passenger();
      delete entry[field];
      const error = refused({ ...familyTrip(), passengers: [passenger(), entry] }, "7d", context);
      expect(error.field).toBe(`seed.addtnlFact.passengers[1].${field}`);
      expect(error.message).toBe(
        `missing passenger fields: seed.addtnlFact.passengers[1] lacks ${field}; each passenger needs firstName, lastName, dob and passportNo`,
      );
    }
    expect(refused({ ...familyTrip(), passengers: [] }, "7d", context).message).toBe("seed.addtnlFact.passengers must have at least 1 entries");
  });

  test("passenger optional fields: gender m/f, occupation; dob in the past", () => {
    const context = contextWith({ quote: FAMILY_7D });
    const t = terms({ ...familyTrip(), passengers: [passenger({ gender: "f", occupation: "Student" })] }, "7d", context);
    expect(t.facts.passengers).toEqual([passenger({ gender: "f", occupation: "Student" })]);
    expect(refused({ ...familyTrip(), passengers: [passenger({ gender: "female" })] }, "7d", context).field).toBe("seed.addtnlFact.passengers[0].gender");
    const unborn = refused({ ...familyTrip(), passengers: [passenger({ dob: "2026-03-11" })] }, "7d", context);
    expect(unborn.field).toBe("seed.addtnlFact.passengers[0].dob");
    expect(unborn.message).toContain("must be a date of birth in the past");
  });

  test("an individual plan takes no passengers", () => {
    const error = refused(withTrip({ passengers: [passenger()] }));
    expect(error.field).toBe("seed.addtnlFact.passengers");
    expect(error.message).toContain("is for family plans only");
  });

  test("destination: the quote's refusals, in the spec's words", () => {
    const { destination, ...noDestination } = trip();
    expect(refused(noDestination).message).toBe("destination is not provided: seed.addtnlFact.destination is required");
    const origin = refused(withTrip({ destination: "Nigeria" }));
    expect(origin.message).toStartWith("Nigeria is the country of origin");
    expect(origin.field).toBe("seed.addtnlFact.destination");
    expect(refused(withTrip({ destination: "Atlantis" })).message).toStartWith('destination country not recognised: "Atlantis"');
  });

  test.each(["planType", "departureDate", "returnDate", "passportNo", "occupation"])("%s is required", (field) => {
    const facts = trip();
    delete facts[field];
    expect(refused(facts).message).toBe(`seed.addtnlFact.${field} is required`);
  });

  test("types: isHajj a JSON boolean, planType an enum, insrncDrtn a string, passport letters and digits", () => {
    expect(refused(withTrip({ isHajj: "true" })).message).toBe("seed.addtnlFact.isHajj must be a JSON boolean (true or false); received a string");
    expect(refused(withTrip({ planType: "couple" })).message).toContain('must be one of "individual", "family"');
    expect(refused(trip(), 7).message).toBe("seed.insrncDrtn must be a string; received an integer");
    expect(refusedWithoutDuration(trip()).message).toBe("seed.insrncDrtn is required");
    expect(refused(withTrip({ passportNo: "A123-456" })).message).toContain("must be the passport number");
  });

  test("no addtnlFact, or unknown fields, are refused", () => {
    expect(refused(undefined).field).toBe("seed.addtnlFact");
    expect(refused(withTrip({ travelerAge: 40 })).message).toContain("unknown field: travelerAge");
  });
});

describe("travel insurer decision and certificate", () => {
  test("travellers within the age limit are not declined", () => {
    expect(decline(terms(trip()))).toBeNull();
    const context = contextWith({ quote: FAMILY_7D });
    expect(decline(terms(familyTrip(), "7d", context), context)).toBeNull();
  });

  test("a family member over 80 on departure → age exceeds limit", () => {
    const context = contextWith({ quote: FAMILY_7D });
    const t = terms({ ...familyTrip(), passengers: [passenger(), passenger({ firstName: "Nnamdi", dob: "1944-01-01" })] }, "7d", context);
    expect(decline(t, context)).toBe(
      "Age exceeds limit: passenger 2 (Nnamdi Okafor), born 1944-01-01, is 82 on the departure date 2026-03-20; the maximum insurable age is 80.",
    );
  });

  test("a primary traveller whose dob.date was corrected past the limit before the insurer decides", () => {
    const t = terms(trip());
    expect(decline(t, contextWith({ dob: "1940-01-01" }))).toStartWith("Age exceeds limit: the primary traveller, born 1940-01-01, is 86");
  });

  test("certificate: hosted PDF (certUrl, spec 2.6)", () => {
    expect(travel.policy.certificate("stnd")).toEqual({ type: "pdf", delivery: "hosted" });
  });
});
