/**
 * The product catalogue: every family, product-code parsing and the wire form of a premium.
 * Adding a product: write its folder and list its family here.
 */
import { badRequest } from "../core/errors";
import { quoted } from "../core/validation";
import { sumInsuredIn } from "./claims";
import { creditLife } from "./credit-life";
import { laptop, phone } from "./device";
import { health } from "./health";
import { loanGuaranty } from "./loan-guaranty";
import { marineExport, marineImport } from "./marine";
import { allRisk, fireAndBurglary } from "./property";
import { transit } from "./transit";
import { travel } from "./travel";
import type { ClaimedPolicy, ProductFamily, ProductType } from "./types";
import { vehicle } from "./vehicle";

export { listHospitals } from "./health";
export type { ProductFamily } from "./types";

/** Spec 1 and 9: the package segment is always 1111. */
export const PACKAGE = "1111";

export const productFamilies: readonly ProductFamily[] = [
  vehicle,
  phone,
  laptop,
  travel,
  transit,
  health,
  loanGuaranty,
  creditLife,
  marineExport,
  marineImport,
  allRisk,
  fireAndBurglary,
];

export interface Product {
  family: ProductFamily;
  /** The wire type code within the family, e.g. "tprt" or a health insurer code: what `family.quote` takes. */
  type: string;
  /** The type's catalogue entry (human name, deprecation). */
  productType: ProductType;
  /** The full product code, e.g. "vhcl-tprt-1111". */
  code: string;
}

const notSupported = (reason: string, field?: string) => badRequest(`product specified not supported: ${reason}`, field);

/**
 * Parse `<ctgry>-<type>-<pckg>` (spec 1). Any unknown part is a 400 "product specified not
 * supported" (spec 7); `field` names where the code came from when it was a seed field.
 */
export function findProduct(code: string, field?: string): Product {
  const parts = code.split("-");
  if (parts.length !== 3) throw notSupported(`${quoted(code)} is not a product code of the form <ctgry>-<type>-${PACKAGE}`, field);
  const [ctgry, typeCode, pckg] = parts as [string, string, string];
  const family = productFamilies.find((f) => f.ctgry === ctgry);
  if (!family) throw notSupported(`no product category ${quoted(ctgry)}`, field);
  const productType = family.types.find((t) => t.code === typeCode);
  if (!productType) throw notSupported(`${ctgry} has no type ${quoted(typeCode)}`, field);
  if (pckg !== PACKAGE) throw notSupported(`package ${quoted(pckg)} does not exist; pckg is always ${PACKAGE}`, field);
  return { family, type: productType.code, productType, code };
}

/** A policy's sum insured in kobo, as its family's claim rule reads it; null for a product insured without one (third-party vehicle, laptop, travel, health). */
export function sumInsuredKobo(policy: ClaimedPolicy): number | null {
  const { family, type } = findProduct(policy.productCode);
  return sumInsuredIn(family.claims.ceiling(type, policy));
}

/** Every product code sold, including one hlth-<insurer>-1111 per health insurer. */
/** A product's code: its family's category, its type and the one package (spec 2.4), e.g. vhcl-tprt-1111. */
export const productCodeOf = (family: Pick<ProductFamily, "ctgry">, type: { code: string }): string => `${family.ctgry}-${type.code}-${PACKAGE}`;

export function allProductCodes(): string[] {
  return productFamilies.flatMap((family) => family.types.map((type) => productCodeOf(family, type)));
}

/** Products whose cover runs with time (their refunds are pro-rata): the ones that come up for renewal, and are reminded of it. */
export const renewableProductCodes = (): string[] => allProductCodes().filter((code) => findProduct(code).family.cancellation.kind === "pro-rata");

/** Products whose policies name a registered vehicle (`policy.registeredVehicle`): once approved, they are published to the vehicle registry. */
export const vehicleRegistryProductCodes = (): string[] => allProductCodes().filter((code) => findProduct(code).family.policy.registeredVehicle !== undefined);

/** The `prmm` of a quote response: whole naira, except kobo for credit life (spec 2.4). */
export function wirePremium(family: ProductFamily, premiumKobo: number): number {
  return family.premiumUnit === "kobo" ? premiumKobo : Math.round(premiumKobo / 100);
}

/** A product as people name it: "Vehicle, third-party"; the family first only where the type's name leaves it out ("Credit life: Keyman insurance"). */
export function productName(code: string): string {
  const { family, productType } = findProduct(code);
  return productType.name.startsWith(family.name) ? productType.name : `${family.name}: ${productType.name}`;
}
