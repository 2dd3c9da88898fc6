/** The quote command's seed, one variant per product code sold, built from each family's own schemas. */
import type { SeedVariant } from "../../http/registry";
import { productCodeOf, productFamilies } from "../../products";

/** The quote command's seed: one variant per product, named in the command string. */
export const quoteSeedVariants = (): readonly SeedVariant[] =>
  productFamilies.flatMap((family) =>
    family.types.map((type) => {
      const code = productCodeOf(family, type);
      return { key: code, cmmnd: `dump ipck_${code}*PRMM`, seed: family.schemas(type.code).quote };
    }),
  );
