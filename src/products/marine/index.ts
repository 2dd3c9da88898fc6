/** Marine cargo: export (mexx) and import (mrnn), a share of the cargo value with a minimum premium. */
import { z } from "zod";
import { parseWith } from "../../core/validation";
import { MONTHLY_DURATIONS, durationField, percentOf, requireType, wholeNairaInKobo } from "../shared";
import type { ConsumerClass, ProductFamily, ProductType } from "../types";

interface MarineCover extends ProductType {
  ratePercent: number;
  minimumNaira: number;
}

/** Spec 2.4: 0.25% of cargo value, minimum 5000 naira. */
const BASIC_CARGO = { ratePercent: 0.25, minimumNaira: 5000 };

const EXPORT_COVERS = [{ code: "stnd", name: "Marine export", ...BASIC_CARGO }] as const satisfies readonly MarineCover[];
const IMPORT_COVERS = [
  { code: "stnd", name: "Marine import, basic (ICC C)", ...BASIC_CARGO },
  // Not shown in the spec: ICC A (all risks) is priced at twice ICC C.
  { code: "cmpr", name: "Marine import, comprehensive (ICC A)", ratePercent: 0.5, minimumNaira: 10000 },
] as const satisfies readonly MarineCover[];

const marineSeed = z.object({ goodsValue: z.number().positive(), insrncDrtn: durationField(MONTHLY_DURATIONS) });

/** Spec 2.3: marine asks for identity and tax documents, differently for people and companies. */
const MARINE_CONSUMER: Readonly<Record<ConsumerClass, readonly string[]>> = {
  h: ["class", "name.first", "name.last", "socialID.type", "socialID.id", "socialID.image", "taxId", "addrss.addrss", "phoneNo", "eMail"],
  o: ["class", "name.brand", "rc", "cac02", "cac07", "taxId", "addrss.addrss", "phoneNo", "eMail"],
};

function marineFamily(ctgry: string, name: string, covers: readonly MarineCover[]): ProductFamily {
  return {
    ctgry,
    name,
    types: covers,
    premiumUnit: "naira",
    quote(type, seed) {
      const cover = requireType(covers, ctgry, type);
      const { goodsValue, insrncDrtn } = parseWith(marineSeed, seed);
      // The rate is per consignment (of cargo value), so the duration does not change it.
      const naira = Math.max(percentOf(goodsValue, cover.ratePercent), cover.minimumNaira);
      return { premiumKobo: wholeNairaInKobo(naira), duration: insrncDrtn, basis: { goodsValue, insrncDrtn } };
    },
    consumerRequirements(type, consumerClass) {
      requireType(covers, ctgry, type);
      return MARINE_CONSUMER[consumerClass];
    },
  };
}

export const marineExport = marineFamily("mexx", "Marine export", EXPORT_COVERS);
export const marineImport = marineFamily("mrnn", "Marine import", IMPORT_COVERS);
