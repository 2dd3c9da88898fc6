import { expect } from "bun:test";
import { CommandError } from "../../src/core/errors";
import { findProduct, wirePremium } from "../../src/products";

/** Quote a product by its code and answer the wire `prmm` (whole naira, or kobo for credit life). */
export function prmm(code: string, seed: unknown): number {
  const { family, type } = findProduct(code);
  const { premiumKobo } = family.quote(type, seed);
  expect(Number.isInteger(premiumKobo)).toBe(true);
  return wirePremium(family, premiumKobo);
}

/** The CommandError `run` throws (failing the test when it throws nothing or something else). */
export function refusal(run: () => unknown): CommandError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CommandError);
    return error as CommandError;
  }
  throw new Error("expected a CommandError, but nothing was thrown");
}

/** The refusal quoting `code` with `seed` gives. */
export const quoteRefusal = (code: string, seed: unknown): CommandError => refusal(() => prmm(code, seed));
