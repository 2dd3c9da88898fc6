/** Device warranties: phone screen protection (phnn) and laptop warranty (lapt), fixed premiums per tier. */
import { z } from "zod";
import { parseWith } from "../../core/validation";
import { SANDBOX_INSURERS } from "../insurers";
import { durationField, nameField, productFamily } from "../shared";
import type { ProductFamily } from "../types";
import { deviceForms } from "./form";
import { type DeviceIdentifier, deviceFacts, devicePolicy, IMEI, SERIAL_NUMBER } from "./policy";
import { DEVICE_DURATIONS, type DeviceTier, devicePremiumKobo, LAPTOP_TIERS, PHONE_TIERS } from "./tiers";

const deviceSeed = z.object({ insrncDrtn: durationField(DEVICE_DURATIONS) });

function deviceFamily(ctgry: string, name: string, tiers: readonly DeviceTier[], identifier: DeviceIdentifier): ProductFamily {
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
    insurer: SANDBOX_INSURERS.axaMansard,
    // A replacement device: the cover moves to it (a device holds one policy at a time).
    endorsement: { fields: () => ["brand", "model", "uIdnt"] },
    forms: deviceForms(identifier),
    schemas: () => ({ quote: deviceSeed, insrncDrtn: durationField(DEVICE_DURATIONS), addtnlFact: facts }),
  });
}

// Spec 2.5: uIdnt is the IMEI for phones, the serial number for laptops.
export const phone = deviceFamily("phnn", "Phone screen protection", PHONE_TIERS, IMEI);
export const laptop = deviceFamily("lapt", "Laptop warranty", LAPTOP_TIERS, SERIAL_NUMBER);
