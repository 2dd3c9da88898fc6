/** The portal's travel forms: the quote and insure seeds of spec 2.4 and 2.5, family members as a group. */
import { durationOptions } from "../forms";
import type { DurationCode } from "../shared";
import type { FormField, ProductForms } from "../types";
import { HAJJ_DURATIONS, MAX_TRAVELER_AGE, MULTI_TRIP_DURATIONS, PLAN_TYPES, type PlanType, STANDARD_DURATIONS } from "./tables";
import { SUPPORTED_DESTINATIONS } from "./zones";

/** travel/policy.ts keeps its MAX_PASSENGERS private; test/products/forms.test.ts pins this to the rules' limit. */
const MAX_PASSENGERS = 10;

const STANDARD: ReadonlySet<DurationCode> = new Set(STANDARD_DURATIONS);
const HAJJ: ReadonlySet<DurationCode> = new Set(HAJJ_DURATIONS);
const MULTI_TRIP: ReadonlySet<DurationCode> = new Set(MULTI_TRIP_DURATIONS);

/** Which table a duration is sold from: 15d is in both, and isHajj decides. */
function durationNote(code: DurationCode): string {
  if (!STANDARD.has(code)) return " (Hajj and Umrah only)";
  if (HAJJ.has(code)) return " (standard, or Hajj and Umrah)";
  return MULTI_TRIP.has(code) ? " (multi-trip)" : "";
}

// One select for both tables: the standard durations, then the Hajj-only ones.
const duration = (hint: string): FormField => ({
  kind: "select",
  path: "insrncDrtn",
  label: "Cover duration",
  required: true,
  options: durationOptions([...STANDARD_DURATIONS, ...HAJJ_DURATIONS.filter((code) => !STANDARD.has(code))]).map(({ value, label }) => ({
    value,
    label: `${label}${durationNote(value)}`,
  })),
  hint,
});

const PLAN_LABELS: Readonly<Record<PlanType, string>> = { individual: "Individual", family: "Family" };

const destination = (path: string, hint: string): FormField => ({
  kind: "select",
  path,
  label: "Destination country",
  required: true,
  options: SUPPORTED_DESTINATIONS.map((country) => ({ value: country, label: country })),
  hint,
});
const planType = (path: string, hint: string): FormField => ({
  kind: "select",
  path,
  label: "Plan",
  required: true,
  options: PLAN_TYPES.map((value) => ({ value, label: PLAN_LABELS[value] })),
  hint,
});
const hajj = (path: string, hint: string): FormField => ({ kind: "checkbox", path, label: "Hajj or Umrah trip", hint });

const HAJJ_RULE = "Saudi Arabia only, individual plans only, 15, 25 or 45 days.";
const AS_QUOTED = "As in the quote.";

const FORMS: ProductForms = {
  quote: [
    duration("Hajj and Umrah durations need the Hajj or Umrah box ticked."),
    destination("destination", "Priced by zone: Schengen, Area 1 or Area 2."),
    planType("planType", "Family covers the traveller and the family members travelling with them."),
    {
      kind: "integer",
      path: "travelerAge",
      label: "Age of the main traveller (years)",
      hint: `Optional: 35 when blank. At most ${MAX_TRAVELER_AGE}. The policy is priced at the age on the consumer's date of birth.`,
    },
    hajj("isHajj", HAJJ_RULE),
  ],
  policy: [
    duration(AS_QUOTED),
    destination("addtnlFact.destination", AS_QUOTED),
    planType("addtnlFact.planType", AS_QUOTED),
    hajj("addtnlFact.isHajj", `${AS_QUOTED} ${HAJJ_RULE}`),
    { kind: "date", path: "addtnlFact.departureDate", label: "Departure date", required: true, hint: "Today or later: cover starts on this day." },
    {
      kind: "date",
      path: "addtnlFact.returnDate",
      label: "Return date",
      required: true,
      hint: "After the departure date; the trip must fit in the cover duration.",
    },
    {
      kind: "text",
      path: "addtnlFact.passportNo",
      label: "Main traveller's passport number",
      required: true,
      hint: "5 to 20 letters and digits, e.g. A12345678",
    },
    { kind: "text", path: "addtnlFact.middleName", label: "Main traveller's middle name", hint: "Optional; printed on the certificate." },
    { kind: "text", path: "addtnlFact.occupation", label: "Main traveller's occupation", required: true },
    { kind: "text", path: "addtnlFact.nokName", label: "Next of kin: full name", required: true },
    { kind: "text", path: "addtnlFact.nokRelationship", label: "Next of kin: relationship", required: true, hint: "e.g. Sister" },
    { kind: "text", path: "addtnlFact.nokPhone", label: "Next of kin: phone number", required: true, hint: "+234 followed by 10 digits, e.g. +2348030000001" },
    { kind: "textarea", path: "addtnlFact.nokAddress", label: "Next of kin: address", hint: "Optional." },
    {
      kind: "group",
      path: "addtnlFact.passengers",
      label: "Family members travelling with the main traveller",
      itemLabel: "Family member",
      min: 1,
      max: MAX_PASSENGERS,
      showWhen: { path: "addtnlFact.planType", equals: "family" },
      fields: [
        { kind: "text", path: "firstName", label: "First name", required: true },
        { kind: "text", path: "lastName", label: "Last name", required: true },
        { kind: "date", path: "dob", label: "Date of birth", required: true },
        { kind: "text", path: "passportNo", label: "Passport number", required: true, hint: "5 to 20 letters and digits" },
        {
          kind: "select",
          path: "gender",
          label: "Gender",
          options: [
            { value: "m", label: "Male" },
            { value: "f", label: "Female" },
          ],
          hint: "Optional.",
        },
        { kind: "text", path: "occupation", label: "Occupation", hint: "Optional." },
      ],
    },
  ],
};

export const travelForms = (): ProductForms => FORMS;
