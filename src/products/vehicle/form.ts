/** The portal's vehicle forms: the quote and insure seeds of spec 2.4 and 2.5, one input per field. */
import { durationOptions } from "../forms";
import type { FormField, ProductForms } from "../types";
import { VEHICLE_DURATIONS } from "./pricing";

const duration: FormField = { kind: "select", path: "insrncDrtn", label: "Cover duration", required: true, options: durationOptions(VEHICLE_DURATIONS) };
const insuredValue = (path: string): FormField => ({
  kind: "number",
  path,
  label: "Insured value of the vehicle (₦)",
  required: true,
  hint: "At least ₦500,000: the premium is 5% of it per year.",
});

export function vehicleForms(type: string): ProductForms {
  const comprehensive = type === "cmpr";
  return {
    quote: comprehensive ? [insuredValue("vhclValueForInsrnc"), duration] : [duration],
    policy: [
      duration,
      { kind: "text", path: "addtnlFact.brand", label: "Make", required: true, hint: "e.g. Toyota" },
      { kind: "text", path: "addtnlFact.model", label: "Model", required: true, hint: "e.g. Corolla" },
      { kind: "text", path: "addtnlFact.year", label: "Year of manufacture", required: true, hint: "4 digits, e.g. 2018" },
      { kind: "text", path: "addtnlFact.chsssId", label: "Chassis number / VIN", required: true },
      { kind: "text", path: "addtnlFact.engineId", label: "Engine number", required: true },
      {
        kind: "plate",
        path: "addtnlFact.rgstrtId",
        label: "Registration plate",
        required: true,
        hint: "As on the plate, e.g. LND 123 AB: spaces and hyphens do not matter",
      },
      ...(comprehensive
        ? [
            insuredValue("addtnlFact.vhclValueForInsrnc"),
            {
              kind: "document",
              path: "addtnlFact.proofOfOwnrsh",
              label: "Proof of ownership",
              hint: "Optional. PDF or image. With it the policy is approved at once; without it an administrator reviews it.",
            } satisfies FormField,
          ]
        : []),
    ],
  };
}
