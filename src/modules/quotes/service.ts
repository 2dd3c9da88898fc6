import { newId } from "../../core/ids";
import type { Executor } from "../../db/client";
import { insertCommitted } from "../../db/group-commit";
import { findProduct, wirePremium } from "../../products";
import { quotes } from "./schema";

export interface StoredQuote {
  id: string;
  productCode: string;
  premiumKobo: number;
  /** The premium as the wire shows it: whole naira, or kobo for credit life. */
  prmm: number;
  duration?: string;
}

/** `dump ipck_<product_code>*PRMM`: price the seed with the product's rule and keep the quote for issuance to compare against. */
export async function quotePremium(db: Executor, partnerId: string, productCode: string, seed: unknown, now = new Date()): Promise<StoredQuote> {
  const product = findProduct(productCode);
  const quote = product.family.quote(product.type, seed ?? {});
  const id = newId();
  const row = {
    id,
    partnerId,
    productCode: product.code,
    premiumKobo: quote.premiumKobo,
    duration: quote.duration ?? null,
    basis: quote.basis,
    createdAt: now,
  };
  await insertCommitted(db, [{ table: quotes, row }]);
  return { id, productCode: product.code, premiumKobo: quote.premiumKobo, prmm: wirePremium(product.family, quote.premiumKobo), duration: quote.duration };
}
