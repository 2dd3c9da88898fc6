/** Device warranty tiers and their fixed premiums (spec 2.4), and what each tier covers (spec 2.5). */
import { wholeNairaInKobo } from "../shared";
import type { ProductType } from "../types";

/** Spec 2.5 and 8: device and laptop covers run 6m or 1y. */
export const DEVICE_DURATIONS = ["6m", "1y"] as const;
export type DeviceDuration = (typeof DEVICE_DURATIONS)[number];

export interface DeviceTier extends ProductType {
  /** Premium in naira per cover duration. */
  premiumNaira: Readonly<Record<DeviceDuration, number>>;
  /** The cover as the certificate states it. */
  covers: string;
}

const PHONE_COVER = "Accidental screen damage (drop, impact, pressure), in Nigeria only; 10% excess per claim";

/** Spec 2.4: flx1 and flx2 figures; flx3 is not shown and keeps the same 6m = half-year pattern. */
export const PHONE_TIERS = [
  { code: "flx1", name: "Phone screen protection, basic (phones worth up to ₦200,000)", premiumNaira: { "6m": 3600, "1y": 7200 }, covers: PHONE_COVER },
  {
    code: "flx2",
    name: "Phone screen protection, standard (phones worth ₦200,001 to ₦500,000)",
    premiumNaira: { "6m": 10800, "1y": 21600 },
    covers: PHONE_COVER,
  },
  {
    code: "flx3",
    name: "Phone screen protection, premium (phones worth ₦500,001 to ₦1,500,000)",
    premiumNaira: { "6m": 32400, "1y": 64800 },
    covers: PHONE_COVER,
  },
] as const satisfies readonly DeviceTier[];

/** Spec 2.4: annual figures; the 6m premium is not shown and is set at 55% of annual. */
export const LAPTOP_TIERS = [
  { code: "flx1", name: "Laptop warranty, basic", premiumNaira: { "6m": 26400, "1y": 48000 }, covers: "Accidental damage, liquid spill, electrical surge" },
  { code: "flx2", name: "Laptop warranty, comprehensive", premiumNaira: { "6m": 39600, "1y": 72000 }, covers: "Full damage, plus theft" },
] as const satisfies readonly DeviceTier[];

export const devicePremiumKobo = (tier: DeviceTier, duration: DeviceDuration): number => wholeNairaInKobo(tier.premiumNaira[duration]);
