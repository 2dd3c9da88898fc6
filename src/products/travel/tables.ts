/** Travel premium tables (naira), spec 2.4, figures exactly as published. */
import type { ProductType } from "../types";

export const TRAVEL_TYPES = [{ code: "stnd", name: "International travel" }] as const satisfies readonly ProductType[];

export const STANDARD_DURATIONS = ["7d", "15d", "30d", "62d", "92d", "6m", "12m"] as const;
export type StandardDuration = (typeof STANDARD_DURATIONS)[number];

export const HAJJ_DURATIONS = ["15d", "25d", "45d"] as const;
export type HajjDuration = (typeof HAJJ_DURATIONS)[number];

export const PLAN_TYPES = ["individual", "family"] as const;
export type PlanType = (typeof PLAN_TYPES)[number];

/** Zones of the standard table; Hajj and Umrah has its own table. */
export type StandardZone = "schengen" | "area1" | "area2";

type PlanRates = Readonly<Record<PlanType, number>>;

export const STANDARD_PREMIUM_NAIRA: Readonly<Record<StandardDuration, Readonly<Record<StandardZone, PlanRates>>>> = {
  "7d": { schengen: { individual: 5072, family: 10144 }, area1: { individual: 5480, family: 10960 }, area2: { individual: 7524, family: 15048 } },
  "15d": { schengen: { individual: 8516, family: 17470 }, area1: { individual: 8220, family: 16440 }, area2: { individual: 9582, family: 19166 } },
  "30d": { schengen: { individual: 14934, family: 29868 }, area1: { individual: 13004, family: 26008 }, area2: { individual: 15744, family: 31488 } },
  "62d": { schengen: { individual: 22260, family: 44520 }, area1: { individual: 19846, family: 39692 }, area2: { individual: 23268, family: 46534 } },
  "92d": { schengen: { individual: 27332, family: 54664 }, area1: { individual: 30110, family: 60220 }, area2: { individual: 30806, family: 61612 } },
  "6m": { schengen: { individual: 37476, family: 74952 }, area1: { individual: 36272, family: 72542 }, area2: { individual: 40374, family: 80748 } },
  "12m": { schengen: { individual: 45366, family: 90732 }, area1: { individual: 45172, family: 90346 }, area2: { individual: 58176, family: 116352 } },
};

/** Maximum insurable age (spec 8). */
export const MAX_TRAVELER_AGE = 80;

/** Standard table loadings by age of the primary traveler: the highest band whose `from` is reached applies. */
export const AGE_LOADINGS: readonly { from: number; to: number; factor: number }[] = [
  { from: 0, to: 69, factor: 1 },
  { from: 70, to: 75, factor: 2 },
  { from: 76, to: 80, factor: 2.5 },
];

export type HajjAgeBand = "0-18" | "19-75" | "76-80";

export const HAJJ_AGE_BANDS: readonly { from: number; to: number; band: HajjAgeBand }[] = [
  { from: 0, to: 18, band: "0-18" },
  { from: 19, to: 75, band: "19-75" },
  { from: 76, to: 80, band: "76-80" },
];

export const HAJJ_PREMIUM_NAIRA: Readonly<Record<HajjDuration, Readonly<Record<HajjAgeBand, number>>>> = {
  "15d": { "0-18": 1828, "19-75": 4752, "76-80": 9504 },
  "25d": { "0-18": 2976, "19-75": 7736, "76-80": 15470 },
  "45d": { "0-18": 5440, "19-75": 14144, "76-80": 28288 },
};

/** Spec 2.4: the 6m and 12m covers are multi-trip: cover runs the whole period, not only the declared trip. */
export const MULTI_TRIP_DURATIONS: readonly StandardDuration[] = ["6m", "12m"];
