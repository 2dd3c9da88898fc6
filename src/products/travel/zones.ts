/** Destination countries and their travel zone (spec 2.4 "Travel zones"). */
import type { StandardZone } from "./tables";

const COUNTRY_OF_ORIGIN = "Nigeria";
export const HAJJ_COUNTRY = "Saudi Arabia";

const ZONE_COUNTRIES: Readonly<Record<StandardZone, readonly string[]>> = {
  schengen: [
    "Austria",
    "Belgium",
    "Czech Republic",
    "Denmark",
    "Estonia",
    "Finland",
    "France",
    "Germany",
    "Greece",
    "Hungary",
    "Iceland",
    "Italy",
    "Latvia",
    "Liechtenstein",
    "Lithuania",
    "Luxembourg",
    "Malta",
    "Netherlands",
    "Norway",
    "Poland",
    "Portugal",
    "Slovakia",
    "Slovenia",
    "Spain",
    "Sweden",
    "Switzerland",
  ],
  area1: ["Ghana", "Kenya", "Saudi Arabia", "South Africa", "United Arab Emirates", "United Kingdom"],
  area2: ["Canada", "Japan", "United States"],
};

/** Common other names integrators send, mapped to the spec's country name. */
const ALIASES: Readonly<Record<string, string>> = {
  uk: "United Kingdom",
  "great britain": "United Kingdom",
  britain: "United Kingdom",
  england: "United Kingdom",
  "united kingdom of great britain and northern ireland": "United Kingdom",
  us: "United States",
  usa: "United States",
  "united states of america": "United States",
  america: "United States",
  uae: "United Arab Emirates",
  emirates: "United Arab Emirates",
  ksa: "Saudi Arabia",
  "kingdom of saudi arabia": "Saudi Arabia",
  czechia: "Czech Republic",
  holland: "Netherlands",
  "the netherlands": "Netherlands",
  "federal republic of nigeria": COUNTRY_OF_ORIGIN,
};

/** Case, surrounding spaces, repeated spaces and dots ("U.K.") do not matter. */
const normalise = (name: string): string => name.trim().toLowerCase().replace(/\./g, "").replace(/\s+/g, " ");

const BY_NAME = new Map<string, { country: string; zone: StandardZone }>();
for (const [zone, countries] of Object.entries(ZONE_COUNTRIES) as [StandardZone, readonly string[]][])
  for (const country of countries) BY_NAME.set(normalise(country), { country, zone });

export const SUPPORTED_DESTINATIONS: readonly string[] = [...BY_NAME.values()].map((d) => d.country).sort();

export type Destination = { kind: "origin"; country: string } | { kind: "zone"; country: string; zone: StandardZone } | { kind: "unknown" };

/** Resolve what the integrator typed to a spec country and its zone. */
export function travelZone(destination: string): Destination {
  const key = normalise(destination);
  const name = ALIASES[key] ?? destination;
  if (normalise(name) === normalise(COUNTRY_OF_ORIGIN)) return { kind: "origin", country: COUNTRY_OF_ORIGIN };
  const found = BY_NAME.get(normalise(name));
  return found ? { kind: "zone", ...found } : { kind: "unknown" };
}
