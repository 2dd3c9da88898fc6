/** Device warranties: phone screen protection (phnn) and laptop warranty (lapt), fixed premiums per tier. */
import { z } from "zod";
import { parseWith } from "../../core/validation";
import { REPAIR_ESTIMATE, WITHOUT_SUM_INSURED } from "../claims";
import { SANDBOX_INSURERS } from "../insurers";
import { durationField, nameField, productFamily, wholeNairaInKobo } from "../shared";
import type { ClaimRule, ProductFamily } from "../types";
import { deviceForms } from "./form";
import { type DeviceIdentifier, deviceFacts, devicePolicy, IMEI, SERIAL_NUMBER } from "./policy";
import { DEVICE_DURATIONS, type DeviceTier, devicePremiumKobo, LAPTOP_TIERS, PHONE_EXCESS_PERCENT, PHONE_TIERS, type PhoneTier } from "./tiers";

const deviceSeed = z.object({ insrncDrtn: durationField(DEVICE_DURATIONS) });

function deviceFamily<T extends DeviceTier>(
  ctgry: string,
  name: string,
  tiers: readonly T[],
  identifier: DeviceIdentifier,
  claims: ClaimRule<T>,
): ProductFamily {
  const facts = deviceFacts(identifier);
  return productFamily({
    ctgry,
    name,
    types: tiers,
    quote(tier, seed) {
      const { insrncDrtn } = parseWith(deviceSeed, seed);
      return { premiumKobo: devicePremiumKobo(tier, insrncDrtn), duration: insrncDrtn, basis: { insrncDrtn } };
    },
    // Spec 2.3: name, phone and e-mail only; dob and address are not required.
    consumerRequirements: (_tier, consumerClass) => [nameField(consumerClass), "phoneNo", "eMail"],
    policy: devicePolicy(ctgry, tiers, identifier, facts),
    cancellation: { kind: "pro-rata", feePercent: 10 },
    claims,
    insurer: SANDBOX_INSURERS.axaMansard,
    // A replacement device: the cover moves to it (a device holds one policy at a time).
    endorsement: { fields: () => ["brand", "model", "uIdnt"] },
    forms: deviceForms(identifier),
    schemas: () => ({ quote: deviceSeed, insrncDrtn: durationField(DEVICE_DURATIONS), addtnlFact: facts }),
  });
}

/** Spec 2.5: a phone is insured for the top of its tier's value band, and each claim keeps back the excess. */
const phoneClaims: ClaimRule<PhoneTier> = {
  ceiling: (tier, { productCode }) => ({ kobo: wholeNairaInKobo(tier.deviceValueTo), basis: `the top of the device value band of ${productCode}` }),
  excessPercent: PHONE_EXCESS_PERCENT,
  documents: () => [DEVICE_PHOTOS, { key: "repair_estimate", label: "A repair estimate from an authorised service centre" }, PROOF_OF_PURCHASE],
};

/** The device's damage shown with its IMEI or serial number, and that it was the insured's. */
const DEVICE_PHOTOS = { key: "photos", label: "Photographs of the damaged device showing its IMEI or serial number" };
const PROOF_OF_PURCHASE = { key: "proof_of_purchase", label: "Proof of purchase of the device" };

// Spec 2.5: uIdnt is the IMEI for phones, the serial number for laptops.
export const phone = deviceFamily("phnn", "Phone screen protection", PHONE_TIERS, IMEI, phoneClaims);
export const laptop = deviceFamily("lapt", "Laptop warranty", LAPTOP_TIERS, SERIAL_NUMBER, {
  ...WITHOUT_SUM_INSURED,
  // Laptop flx2 covers theft too (spec 2.5): a police report for a theft.
  documents: () => [DEVICE_PHOTOS, REPAIR_ESTIMATE, PROOF_OF_PURCHASE, { key: "police_report", label: "A police report, for a theft" }],
});
