/** Motor insurance: third-party (flat rate) and comprehensive (share of the vehicle's value). */
import { z } from "zod";
import { parseWith } from "../../core/validation";
import { PHOTOS, POLICE_REPORT, REPAIR_ESTIMATE, sumInsuredFrom } from "../claims";
import { SANDBOX_INSURERS } from "../insurers";
import { durationField, nameField, productFamily, requiredFor } from "../shared";
import type { ConsumerClass, ProductFamily, ProductType, Quote } from "../types";
import { vehicleForms } from "./form";
import { comprehensiveFacts, vehicleFacts, vehiclePolicy } from "./policy";
import { comprehensivePremiumKobo, insuredVehicleValue, thirdPartyPremiumKobo, VEHICLE_DURATIONS, VEHICLE_TYPES } from "./pricing";

const thirdPartySeed = z.object({ insrncDrtn: durationField(VEHICLE_DURATIONS) });
const comprehensiveSeed = thirdPartySeed.extend({ vhclValueForInsrnc: insuredVehicleValue });

function quotePremium({ code }: ProductType, seed: unknown): Quote {
  if (code === "tprt") {
    const { insrncDrtn } = parseWith(thirdPartySeed, seed);
    return { premiumKobo: thirdPartyPremiumKobo(insrncDrtn), duration: insrncDrtn, basis: { insrncDrtn } };
  }
  const { insrncDrtn, vhclValueForInsrnc } = parseWith(comprehensiveSeed, seed);
  return {
    premiumKobo: comprehensivePremiumKobo(insrncDrtn, vhclValueForInsrnc),
    duration: insrncDrtn,
    basis: { insrncDrtn, vhclValueForInsrnc },
  };
}

function consumerRequirements({ code }: ProductType, consumerClass: ConsumerClass): readonly string[] {
  // Spec 2.3's list is written for people: a company has no gender or date of birth.
  const thirdParty = ["type", "class", nameField(consumerClass), "gender", "dob.date", "addrss.addrss", "phoneNo", "eMail"];
  return requiredFor(consumerClass, code === "cmpr" ? [...thirdParty, "socialID.type", "socialID.id", "socialID.image"] : thirdParty);
}

export const vehicle: ProductFamily = productFamily({
  ctgry: "vhcl",
  name: "Vehicle",
  types: VEHICLE_TYPES,
  quote: quotePremium,
  consumerRequirements,
  policy: vehiclePolicy,
  cancellation: { kind: "pro-rata", feePercent: 10 },
  // Comprehensive cover insures the vehicle's value; third-party cover names none, so takes the general ceiling.
  claims: {
    ...sumInsuredFrom("vhclValueForInsrnc", "the insured value of the vehicle"),
    documents: (type) => [
      POLICE_REPORT,
      PHOTOS,
      { key: "drivers_licence", label: "The driver's licence" },
      ...(type.code === "cmpr" ? [REPAIR_ESTIMATE] : [{ key: "third_party_claim", label: "The third party's claim and their repair estimate" }]),
    ],
  },
  insurer: SANDBOX_INSURERS.leadway,
  // A new plate (re-registration); comprehensive cover also a new insured value, which an administrator reviews.
  endorsement: {
    fields: (type) => (type === "cmpr" ? ["rgstrtId", "vhclValueForInsrnc"] : ["rgstrtId"]),
    reviewed: (_type, changed) => changed.includes("vhclValueForInsrnc"),
  },
  forms: vehicleForms,
  schemas({ code }) {
    const comprehensive = code === "cmpr";
    return {
      quote: comprehensive ? comprehensiveSeed : thirdPartySeed,
      insrncDrtn: durationField(VEHICLE_DURATIONS),
      addtnlFact: comprehensive ? comprehensiveFacts : vehicleFacts,
    };
  },
});
