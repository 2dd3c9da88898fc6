/** The portal's health forms: insrncDrtn, and for the policy a hospital of the insurer's network (src/products/health/policy.ts). */
import { durationSelect } from "../forms";
import { MONTHLY_DURATIONS, requireType } from "../shared";
import type { ProductForms } from "../types";
import { HEALTH_INSURERS } from "./insurers";

const duration = durationSelect(MONTHLY_DURATIONS);

/** The product type is the insurer code: its own network is the list to choose from. */
export function healthForms(type: string): ProductForms {
  const insurer = requireType(HEALTH_INSURERS, "hlth", type);
  return {
    quote: [duration],
    policy: [
      duration,
      {
        kind: "select",
        path: "addtnlFact.hospital",
        label: "Hospital",
        required: true,
        options: insurer.hospitals.map((h) => ({ value: h.name, label: `${h.name}, ${h.address}, ${h.city}` })),
        hint: `The member's hospital in ${insurer.name}'s network.`,
      },
    ],
  };
}
