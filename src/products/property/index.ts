/** Property covers: all risk (allr) and fire and burglary (firb), an annual rate on the sum insured pro-rated by duration. */
import { z } from "zod";
import { parseWith } from "../../core/validation";
import { PHOTOS, REPAIR_ESTIMATE, sumInsuredFrom } from "../claims";
import { SANDBOX_INSURERS } from "../insurers";
import { durationField, MONTHLY_DURATIONS, nameField, productFamily } from "../shared";
import type { ProductFamily } from "../types";
import { propertyForms } from "./form";
import { type PropertyIssuance, premisesFacts, propertyFacts, propertyPolicy } from "./policy";
import { ALL_RISK, FIRE_AND_BURGLARY, type PropertyCover, propertyPremiumKobo, sumInsured } from "./pricing";

const propertySeed = z.object({ sumInsured, insrncDrtn: durationField(MONTHLY_DURATIONS) });

function propertyFamily(ctgry: string, name: string, covers: readonly PropertyCover[], issuance: PropertyIssuance): ProductFamily {
  return productFamily({
    ctgry,
    name,
    types: covers,
    quote(cover, seed) {
      const { sumInsured, insrncDrtn } = parseWith(propertySeed, seed);
      return { premiumKobo: propertyPremiumKobo(cover, sumInsured, insrncDrtn), duration: insrncDrtn, basis: { sumInsured, insrncDrtn } };
    },
    // Not in spec 2.3: who is insured and where the property is.
    consumerRequirements: (_cover, consumerClass) => [nameField(consumerClass), "phoneNo", "eMail", "addrss.addrss"],
    policy: propertyPolicy(ctgry, covers, issuance),
    cancellation: { kind: "pro-rata", feePercent: 10 },
    claims: {
      ...sumInsuredFrom("sumInsured", "the sum insured"),
      // A theft or burglary is reported to the police; a fire to the fire service; either way the loss is shown and priced.
      documents: () => [
        PHOTOS,
        { key: "police_or_fire_report", label: "A police report (theft, burglary) or a fire service report (fire)" },
        { key: "proof_of_ownership", label: "Proof of ownership or purchase of what was lost" },
        REPAIR_ESTIMATE,
      ],
    },
    insurer: SANDBOX_INSURERS.nem,
    // A changed sum insured or description (and, for a building, its address).
    endorsement: { fields: () => (issuance.premises ? ["sumInsured", "description", "premisesAddress"] : ["sumInsured", "description"]) },
    forms: propertyForms(ctgry, covers, issuance),
    schemas: () => ({ quote: propertySeed, insrncDrtn: durationField(MONTHLY_DURATIONS), addtnlFact: issuance.premises ? premisesFacts : propertyFacts }),
  });
}

// All risk follows portable items wherever they go; fire and burglary insures the contents of one building.
export const allRisk = propertyFamily("allr", "All risk", ALL_RISK, { premises: false });
export const fireAndBurglary = propertyFamily("firb", "Fire and burglary", FIRE_AND_BURGLARY, { premises: true });
