/** The portal's property forms: the fields src/products/property/policy.ts chose (spec 2.5 does not show them). */
import { durationSelect, naira } from "../forms";
import { MONTHLY_DURATIONS, requireType } from "../shared";
import type { FormField, ProductForms } from "../types";
import type { PropertyIssuance } from "./policy";
import type { PropertyCover } from "./pricing";

const duration = durationSelect(MONTHLY_DURATIONS);

export function propertyForms(ctgry: string, covers: readonly PropertyCover[], issuance: PropertyIssuance): (type: string) => ProductForms {
  return (type) => {
    const cover = requireType(covers, ctgry, type);
    const sumInsured = (path: string): FormField => ({
      kind: "number",
      path,
      label: "Sum insured (₦)",
      required: true,
      hint: `The full value insured. The premium is ${cover.annualRatePercent}% of it a year, for the months covered, at least ${naira(cover.minimumNaira)}.`,
    });
    // Fire and burglary insures a building's contents; all risk, portable items wherever they go.
    const insured = issuance.premises
      ? { label: "Property insured", hint: "e.g. Shop stock and fittings" }
      : { label: "Items insured", hint: "e.g. Laptop, camera and two phones" };
    return {
      quote: [sumInsured("sumInsured"), duration],
      policy: [
        duration,
        sumInsured("addtnlFact.sumInsured"),
        { kind: "textarea", path: "addtnlFact.description", required: true, ...insured },
        ...(issuance.premises
          ? [
              {
                kind: "textarea",
                path: "addtnlFact.premisesAddress",
                label: "Address of the premises",
                hint: "Optional: the consumer's address when blank.",
              } satisfies FormField,
            ]
          : []),
      ],
    };
  };
}
