import { describe, expect, test } from "bun:test";
import { findProduct } from "../../src/products";
import { creditLife } from "../../src/products/credit-life";
import { prmm, quoteRefusal } from "./support";

describe("credit life (crlt): a share of loanAmount, in kobo", () => {
  test.each([
    ["crlt-sme1-1111", 50_000_000, 500_000],
    ["crlt-psnl-1111", 50_000_000, 500_000],
    ["crlt-kymn-1111", 50_000_000, 250_000],
    ["crlt-mrtg-1111", 50_000_000, 425_000],
    ["crlt-mrtg-1111", 100_000_000, 850_000],
    ["crlt-sme1-1111", 1_000_000_000, 10_000_000],
    // Rounded to whole kobo, half up: 0.85% of 12345 = 104.9325; 0.5% of 12345 = 61.725; 1% of 150 = 1.5.
    ["crlt-mrtg-1111", 12_345, 105],
    ["crlt-kymn-1111", 12_345, 62],
    ["crlt-psnl-1111", 150, 2],
  ])("%s loanAmount %d kobo → prmm %d kobo", (code, loanAmount, kobo) => {
    expect(prmm(code, { loanAmount })).toBe(kobo);
  });

  test("premium and prmm are both kobo", () => {
    const { family, type } = findProduct("crlt-sme1-1111");
    expect(family.quote(type, { loanAmount: 50_000_000 })).toEqual({ premiumKobo: 500_000, basis: { loanAmount: 50_000_000 } });
  });

  test.each([
    ["an empty seed", {}],
    ["a null loanAmount", { loanAmount: null }],
    ["no seed", undefined],
  ])("%s → 406 loanAmount not provided", (_name, seed) => {
    const error = quoteRefusal("crlt-psnl-1111", seed);
    expect(error.status).toBe(406);
    expect(error.message).toBe("loanAmount not provided");
    expect(error.field).toBe("seed.loanAmount");
  });

  test("loanAmount sent as a string is refused naming the field", () => {
    const error = quoteRefusal("crlt-sme1-1111", { loanAmount: "50000000" });
    expect(error.field).toBe("seed.loanAmount");
    expect(error.message).toContain("must be a JSON number, not a string");
  });

  test("loanAmount must be positive", () => {
    expect(quoteRefusal("crlt-sme1-1111", { loanAmount: 0 }).message).toContain("seed.loanAmount must be more than 0");
  });

  test("unknown credit life type → 400 product specified not supported", () => {
    expect(quoteRefusal("crlt-auto-1111", { loanAmount: 1 }).status).toBe(400);
    const error = (() => {
      try {
        creditLife.quote("auto", { loanAmount: 1 });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toContain("product specified not supported");
  });
});

describe("lrgg-stnd-1111 (deprecated): LoanAmount x 0.5% x LoanTenure", () => {
  test.each([
    [1_000_000, 12, 60_000],
    [500_000, 6, 15_000],
    [100_000, 1, 500],
    // Rounded to whole naira: 0.5% of 1234.5 x 3 = 18.5175.
    [1_234.5, 3, 19],
    [333_333, 7, 11_667],
  ])("LoanAmount %d for %d months → %d", (LoanAmount, LoanTenure, naira) => {
    expect(prmm("lrgg-stnd-1111", { LoanAmount, LoanTenure })).toBe(naira);
  });

  test("both fields are required", () => {
    expect(quoteRefusal("lrgg-stnd-1111", { LoanTenure: 12 }).message).toBe("seed.LoanAmount is required");
    expect(quoteRefusal("lrgg-stnd-1111", { LoanAmount: 100_000 }).message).toBe("seed.LoanTenure is required");
  });

  test("numbers sent as strings are refused naming the field", () => {
    expect(quoteRefusal("lrgg-stnd-1111", { LoanAmount: "100000", LoanTenure: 12 }).field).toBe("seed.LoanAmount");
    const tenure = quoteRefusal("lrgg-stnd-1111", { LoanAmount: 100_000, LoanTenure: "12" });
    expect(tenure.field).toBe("seed.LoanTenure");
    expect(tenure.message).toContain("not a string");
  });

  test("LoanTenure is a whole number of months, at least 1", () => {
    expect(quoteRefusal("lrgg-stnd-1111", { LoanAmount: 100_000, LoanTenure: 1.5 }).message).toContain("must be a JSON integer");
    expect(quoteRefusal("lrgg-stnd-1111", { LoanAmount: 100_000, LoanTenure: 0 }).message).toContain("at least 1");
  });
});
