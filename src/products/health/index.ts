/** Health cover sold per insurer: the product type is the insurer code (hlth-<insurer_code>-1111). */
import { z } from "zod";
import { badRequest } from "../../core/errors";
import { parseWith } from "../../core/validation";
import { WITHOUT_SUM_INSURED } from "../claims";
import { durationField, MONTHLY_DURATIONS, personRequirements, productFamily, requireType } from "../shared";
import type { ProductFamily, ProductType } from "../types";
import { healthForms } from "./form";
import { HEALTH_INSURERS, type Hospital } from "./insurers";
import { healthFacts, healthPolicy } from "./policy";
import { healthPremiumKobo } from "./pricing";

export { HEALTH_INSURERS } from "./insurers";

const HEALTH_TYPES: readonly ProductType[] = HEALTH_INSURERS.map((insurer) => ({ code: insurer.code, name: `Health, ${insurer.name}` }));

const healthSeed = z.object({ insrncDrtn: durationField(MONTHLY_DURATIONS) });

/** A hospital of an insurer's network, tagged with the insurer so one flat list can serve every insurer. */
export interface NetworkHospital extends Hospital {
  insurer: string;
  insurerName: string;
}

/** Hospitals for `dump hlth_*HSPTLS`: of every insurer, or only of the one named. */
export function listHospitals(insurerCode?: string): NetworkHospital[] {
  let insurers = HEALTH_INSURERS;
  if (insurerCode !== undefined) {
    insurers = HEALTH_INSURERS.filter((i) => i.code === insurerCode);
    if (insurers.length === 0)
      throw badRequest(`health insurer not recognised: "${insurerCode}" is not one of ${HEALTH_INSURERS.map((i) => i.code).join(", ")}`, "seed.insurer");
  }
  return insurers.flatMap((i) => i.hospitals.map((h) => ({ insurer: i.code, insurerName: i.name, ...h })));
}

export const health: ProductFamily = productFamily({
  ctgry: "hlth",
  name: "Health",
  types: HEALTH_TYPES,
  quote(_insurer, seed) {
    const { insrncDrtn } = parseWith(healthSeed, seed);
    return { premiumKobo: healthPremiumKobo(insrncDrtn), duration: insrncDrtn, basis: { insrncDrtn } };
  },
  // Not in spec 2.3: an insurer enrols a person, so ask what travel asks (who, age, sex, where).
  consumerRequirements: (_insurer, consumerClass) => personRequirements(consumerClass),
  policy: healthPolicy,
  cancellation: { kind: "pro-rata", feePercent: 10 },
  claims: {
    ...WITHOUT_SUM_INSURED,
    documents: () => [
      { key: "medical_report", label: "The hospital's medical report" },
      { key: "hospital_bill", label: "The itemised hospital bill" },
      { key: "receipts", label: "Receipts of what was paid" },
    ],
  },
  // Each HMO underwrites its own cover: the type is the insurer.
  insurer({ code }) {
    const { name } = requireType(HEALTH_INSURERS, "hlth", code);
    return { code, name };
  },
  // Another hospital of the insurer's network.
  endorsement: { fields: () => ["hospital"] },
  forms: healthForms,
  schemas: () => ({ quote: healthSeed, insrncDrtn: durationField(MONTHLY_DURATIONS), addtnlFact: healthFacts }),
});
