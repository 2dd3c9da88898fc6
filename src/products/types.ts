/**
 * The contract every product family module fulfils. Adding a product touches one folder:
 * src/products/<family>/ exports a ProductFamily and src/products/index.ts lists it.
 */

/** How `prmm` is expressed on the wire: whole naira, or kobo (credit life). */
export type PremiumUnit = "naira" | "kobo";

export type ConsumerClass = "h" | "o";

export interface Quote {
  /** Premium in integer kobo (money is kobo everywhere inside the service). */
  premiumKobo: number;
  /** Cover duration the premium is for (wire code such as "1y"), when the product has one. */
  duration?: string;
  /** The normalised seed the premium was computed from; stored with the quote so issuance can compare. */
  basis: Record<string, unknown>;
}

export interface ProductType {
  /** Wire type code, e.g. "tprt". */
  code: string;
  /** Human name, e.g. "Vehicle, third-party". */
  name: string;
  deprecated?: boolean;
}

export interface ProductFamily {
  /** Wire category, e.g. "vhcl". */
  ctgry: string;
  name: string;
  types: readonly ProductType[];
  premiumUnit: PremiumUnit;
  /**
   * Validate a raw quote seed (unknown JSON) and price it for `type`.
   * Throws CommandError with the spec's wording (400 unless the spec names another status).
   */
  quote(type: string, seed: unknown): Quote;
  /**
   * Consumer fields (dotted wire paths such as "name.first", "dob.date", "socialID.image")
   * that must be present on the stored consumer before a policy of `type` can be issued
   * for a consumer of this class. Spec section 2.3.
   */
  consumerRequirements(type: string, consumerClass: ConsumerClass): readonly string[];
}
