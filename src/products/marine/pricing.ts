/** Marine cargo covers and their price: a share of the cargo value with a minimum premium, for quote and issuance alike. */
import { percentOf, wholeNairaInKobo } from "../shared";
import type { ProductType } from "../types";

export interface MarineCover extends ProductType {
  ratePercent: number;
  minimumNaira: number;
}

/** Spec 2.4: 0.25% of cargo value, minimum 5000 naira. */
const BASIC_CARGO = { ratePercent: 0.25, minimumNaira: 5000 };

export const EXPORT_COVERS = [{ code: "stnd", name: "Marine export", ...BASIC_CARGO }] as const satisfies readonly MarineCover[];
export const IMPORT_COVERS = [
  { code: "stnd", name: "Marine import, basic (ICC C)", ...BASIC_CARGO },
  // Not shown in the spec: ICC A (all risks) is priced at twice ICC C.
  { code: "cmpr", name: "Marine import, comprehensive (ICC A)", ratePercent: 0.5, minimumNaira: 10000 },
] as const satisfies readonly MarineCover[];

/** The rate is per consignment (of cargo value), so the duration does not change it. */
export function cargoPremiumKobo(cover: MarineCover, goodsValue: number): number {
  return wholeNairaInKobo(Math.max(percentOf(goodsValue, cover.ratePercent), cover.minimumNaira));
}
