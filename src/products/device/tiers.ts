/** Device warranty tiers and their fixed premiums (spec 2.4), and what each tier covers (spec 2.5). */
import { naira } from "../forms";
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

/** A phone tier also covers one band of device values (spec 2.5). */
export interface PhoneTier extends DeviceTier {
  /** The most a phone of the tier may be worth, in naira: the band starts one naira above the tier below. */
  deviceValueTo: number;
}

/** Spec 2.5: kept back from every approved phone claim, in percent. */
export const PHONE_EXCESS_PERCENT = 10;

const PHONE_COVER = `Accidental screen damage (drop, impact, pressure), in Nigeria only; ${PHONE_EXCESS_PERCENT}% excess per claim`;

/** Bands of spec 2.5, lowest first; premiums of spec 2.4 (flx1 and flx2; flx3 is not shown and keeps the same 6m = half-year pattern). */
const PHONE_BANDS = [
  { code: "flx1", level: "basic", deviceValueTo: 200_000, premiumNaira: { "6m": 3600, "1y": 7200 } },
  { code: "flx2", level: "standard", deviceValueTo: 500_000, premiumNaira: { "6m": 10800, "1y": 21600 } },
  { code: "flx3", level: "premium", deviceValueTo: 1_500_000, premiumNaira: { "6m": 32400, "1y": 64800 } },
] as const;

/** Each tier named by its band, "Phone screen protection, standard (phones worth ₦200,001 to ₦500,000)", so the figures are written once. */
export const PHONE_TIERS: readonly PhoneTier[] = PHONE_BANDS.map(({ level, ...band }, i) => {
  const below = PHONE_BANDS[i - 1];
  const worth = below ? `${naira(below.deviceValueTo + 1)} to ${naira(band.deviceValueTo)}` : `up to ${naira(band.deviceValueTo)}`;
  return { ...band, name: `Phone screen protection, ${level} (phones worth ${worth})`, covers: PHONE_COVER };
});

/** Spec 2.4: annual figures; the 6m premium is not shown and is set at 55% of annual. */
export const LAPTOP_TIERS = [
  { code: "flx1", name: "Laptop warranty, basic", premiumNaira: { "6m": 26400, "1y": 48000 }, covers: "Accidental damage, liquid spill, electrical surge" },
  { code: "flx2", name: "Laptop warranty, comprehensive", premiumNaira: { "6m": 39600, "1y": 72000 }, covers: "Full damage, plus theft" },
] as const satisfies readonly DeviceTier[];

export const devicePremiumKobo = (tier: DeviceTier, duration: DeviceDuration): number => wholeNairaInKobo(tier.premiumNaira[duration]);
