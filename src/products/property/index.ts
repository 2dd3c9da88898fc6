/** Property covers: all risk (allr) and fire and burglary (firb), an annual rate on the sum insured pro-rated by duration. */
import { z } from "zod";
import { parseWith } from "../../core/validation";
import { MONTHLY_DURATIONS, MONTHS_COVERED, durationField, nameField, percentOf, requireType, wholeNairaInKobo } from "../shared";
import type { ConsumerClass, ProductFamily, ProductType } from "../types";

interface PropertyCover extends ProductType {
  annualRatePercent: number;
  /** Applies to the premium actually quoted (after pro-rating). */
  minimumNaira: number;
}

// Not shown in the spec: chosen values. All risk covers portable items anywhere, so it costs more.
const ALL_RISK = [{ code: "stnd", name: "All risk", annualRatePercent: 1.5, minimumNaira: 5000 }] as const satisfies readonly PropertyCover[];
const FIRE_AND_BURGLARY = [
  { code: "stnd", name: "Fire and burglary", annualRatePercent: 0.3, minimumNaira: 3000 },
] as const satisfies readonly PropertyCover[];

const propertySeed = z.object({ sumInsured: z.number().positive(), insrncDrtn: durationField(MONTHLY_DURATIONS) });

function propertyFamily(ctgry: string, name: string, covers: readonly PropertyCover[]): ProductFamily {
  return {
    ctgry,
    name,
    types: covers,
    premiumUnit: "naira",
    quote(type, seed) {
      const cover = requireType(covers, ctgry, type);
      const { sumInsured, insrncDrtn } = parseWith(propertySeed, seed);
      const annual = percentOf(sumInsured, cover.annualRatePercent);
      const naira = Math.max((annual * MONTHS_COVERED[insrncDrtn]) / 12, cover.minimumNaira);
      return { premiumKobo: wholeNairaInKobo(naira), duration: insrncDrtn, basis: { sumInsured, insrncDrtn } };
    },
    consumerRequirements(type: string, consumerClass: ConsumerClass) {
      requireType(covers, ctgry, type);
      // Not in spec 2.3: who is insured and where the property is.
      return [nameField(consumerClass), "phoneNo", "eMail", "addrss.addrss"];
    },
  };
}

export const allRisk = propertyFamily("allr", "All risk", ALL_RISK);
export const fireAndBurglary = propertyFamily("firb", "Fire and burglary", FIRE_AND_BURGLARY);
