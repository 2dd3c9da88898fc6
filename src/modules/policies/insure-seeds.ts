/**
 * Every product's wire seeds for the reference, built from each family's own schemas
 * (ProductFamily.schemas): the quote seed, and the whole insure seed of spec 2.5 around the
 * product's addtnlFact. The insure command documents its seed as one variant per product (the
 * quote command's are src/products/seeds.ts: the insure seed needs the policy's own fields).
 */
import { z } from "zod";
import type { SeedVariant } from "../../http/registry";
import { PACKAGE, type ProductFamily, productCodeOf, productFamilies } from "../../products";
import type { ProductForms, ProductType } from "../../products/types";
import { webHookUrl } from "./model";
import { transactionReference } from "./reference";

/** addtnlFact.webHook (spec 2.5): the insure seed's own rule, described for the reference. */
const webHook = webHookUrl.meta({ description: "Optional: your URL for this policy's events (signed with your default webhook secret), instead of polling" });

export interface ProductReference {
  code: string;
  family: ProductFamily;
  productType: ProductType;
  /** Seed of `dump ipck_<code>*PRMM`. */
  quote: z.ZodType;
  /** Seed of `entt_<consumer_id>: insure` for this product. */
  insure: z.ZodType;
  forms: ProductForms;
}

function productReference(family: ProductFamily, productType: ProductType): ProductReference {
  const code = productCodeOf(family, productType);
  const schemas = family.schemas(productType.code);
  const insure = z.strictObject({
    ctgry: z.literal(family.ctgry),
    type: z.literal(productType.code),
    pckg: z.literal(PACKAGE),
    id: transactionReference,
    ...(schemas.insrncDrtn ? { insrncDrtn: schemas.insrncDrtn } : {}),
    addtnlFact: schemas.addtnlFact.extend({ webHook: webHook.optional() }),
  });
  return { code, family, productType, quote: schemas.quote, insure, forms: family.forms(productType.code) };
}

let cached: readonly ProductReference[] | undefined;

/** Every product code sold (one per health insurer too), in the catalogue's order. */
export function productReferences(): readonly ProductReference[] {
  cached ??= productFamilies.flatMap((family) => family.types.map((type) => productReference(family, type)));
  return cached;
}

/** The insure command's seed: one variant per product, told apart by ctgry and type. */
export const insureSeedVariants = (): readonly SeedVariant[] => productReferences().map((p) => ({ key: p.code, seed: p.insure }));
