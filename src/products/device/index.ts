/** Device warranties: phone screen protection (phnn) and laptop warranty (lapt), fixed premiums per tier. */
import { z } from "zod";
import { parseWith } from "../../core/validation";
import { durationField, nameField, requireType, wholeNairaInKobo } from "../shared";
import type { ConsumerClass, ProductFamily, ProductType } from "../types";

const DEVICE_DURATIONS = ["6m", "1y"] as const;
type DeviceDuration = (typeof DEVICE_DURATIONS)[number];

interface DeviceTier extends ProductType {
  /** Premium in naira per cover duration. */
  premiumNaira: Readonly<Record<DeviceDuration, number>>;
}

/** Spec 2.4: flx1 and flx2 figures; flx3 is not shown and keeps the same 6m = half-year pattern. */
const PHONE_TIERS = [
  { code: "flx1", name: "Phone screen protection, basic (device up to 200000 naira)", premiumNaira: { "6m": 3600, "1y": 7200 } },
  { code: "flx2", name: "Phone screen protection, standard (device 200001-500000 naira)", premiumNaira: { "6m": 10800, "1y": 21600 } },
  { code: "flx3", name: "Phone screen protection, premium (device 500001-1500000 naira)", premiumNaira: { "6m": 32400, "1y": 64800 } },
] as const satisfies readonly DeviceTier[];

/** Spec 2.4: annual figures; the 6m premium is not shown and is set at 55% of annual. */
const LAPTOP_TIERS = [
  { code: "flx1", name: "Laptop warranty, basic", premiumNaira: { "6m": 26400, "1y": 48000 } },
  { code: "flx2", name: "Laptop warranty, comprehensive", premiumNaira: { "6m": 39600, "1y": 72000 } },
] as const satisfies readonly DeviceTier[];

const deviceSeed = z.object({ insrncDrtn: durationField(DEVICE_DURATIONS) });

function deviceFamily(ctgry: string, name: string, tiers: readonly DeviceTier[]): ProductFamily {
  return {
    ctgry,
    name,
    types: tiers,
    premiumUnit: "naira",
    quote(type, seed) {
      const tier = requireType(tiers, ctgry, type);
      const { insrncDrtn } = parseWith(deviceSeed, seed);
      return { premiumKobo: wholeNairaInKobo(tier.premiumNaira[insrncDrtn]), duration: insrncDrtn, basis: { insrncDrtn } };
    },
    consumerRequirements(type: string, consumerClass: ConsumerClass) {
      requireType(tiers, ctgry, type);
      // Spec 2.3: name, phone and e-mail only; dob and address are not required.
      return [nameField(consumerClass), "phoneNo", "eMail"];
    },
  };
}

export const phone = deviceFamily("phnn", "Phone screen protection", PHONE_TIERS);
export const laptop = deviceFamily("lapt", "Laptop warranty", LAPTOP_TIERS);
