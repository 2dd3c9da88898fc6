/** The underwriters as the bordereaux see them: every product's insurer (its family names it), and the products each one carries. */
import { CommandError } from "../../core/errors";
import { allProductCodes, findProduct } from "../../products";
import type { Insurer } from "../../products/types";

/** The insurer that underwrites a product code. */
export function insurerOf(productCode: string): Insurer {
  const { family, type } = findProduct(productCode);
  return family.insurer(type);
}

/** Every insurer some product is sold with, by name. */
export function underwriters(): Insurer[] {
  const byCode = new Map(allProductCodes().map((code) => [insurerOf(code).code, insurerOf(code)]));
  return [...byCode.values()].toSorted((a, b) => a.name.localeCompare(b.name));
}

/** The insurer of `code`, or a refusal naming the field (the admin page's picker). */
export function underwriter(code: string | undefined): Insurer {
  const insurer = underwriters().find((i) => i.code === code);
  if (!insurer)
    throw new CommandError(400, code ? `insurer "${code}" is not one the service sells through` : "insurer is required: choose an insurer", "insurer");
  return insurer;
}

/** The product codes `insurer` underwrites: the bordereau's filter. */
export const productCodesOf = (insurer: Insurer): string[] => allProductCodes().filter((code) => insurerOf(code).code === insurer.code);
