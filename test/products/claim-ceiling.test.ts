/**
 * The most a claim may ask for on each product, and on what basis, and each product's excess
 * (docs/claims.md, "Ceilings"): pinned for every product code sold, so moving the rules between
 * folders cannot change a figure or a word.
 */
import { describe, expect, test } from "bun:test";
import { claimCeiling, settlement } from "../../src/modules/claims/rules";
import { allProductCodes } from "../../src/products";

/** A representative policy's facts per category: every figure a ceiling could read, in the units the facts keep. */
const FACTS: Readonly<Record<string, Record<string, unknown>>> = {
  vhcl: { insrncDrtn: "1y", brand: "Toyota", vhclValueForInsrnc: 5_000_000 },
  // Third-party cover has no insured value (spec 2.5).
  "vhcl-tprt-1111": { insrncDrtn: "1y", brand: "Toyota" },
  phnn: { insrncDrtn: "1y", brand: "Samsung", model: "Galaxy A54" },
  lapt: { insrncDrtn: "1y", brand: "HP", model: "EliteBook 840" },
  ltix: { insrncDrtn: "7d", destination: "Germany", planType: "individual" },
  gtrn: { goodsValue: 750_000.5, goodsType: "elct" },
  hlth: { insrncDrtn: "1y", hospital: "Reddington Hospital" },
  lrgg: { LoanAmount: 2_000_000, LoanTenure: 12 },
  crlt: { loanAmount: 50_000_001, loanTenure: 12 },
  mexx: { goodsValue: 5_000_000, insrncDrtn: "3m" },
  mrnn: { goodsValue: 5_000_000, insrncDrtn: "3m" },
  allr: { sumInsured: 1_200_000, insrncDrtn: "1y" },
  firb: { sumInsured: 30_000_000, insrncDrtn: "1y" },
};

const general = { kobo: 10_000_000_000, basis: "the most any claim may ask for" };
const goods = (kobo: number) => ({ kobo, basis: "the declared value of the goods (goodsValue)" });
const phoneBand = (code: string, naira: number) => ({ kobo: naira * 100, basis: `the top of the device value band of ${code}` });

const CEILINGS: Readonly<Record<string, { kobo: number; basis: string }>> = {
  "vhcl-tprt-1111": general,
  "vhcl-cmpr-1111": { kobo: 500_000_000, basis: "the insured value of the vehicle (vhclValueForInsrnc)" },
  "phnn-flx1-1111": phoneBand("phnn-flx1-1111", 200_000),
  "phnn-flx2-1111": phoneBand("phnn-flx2-1111", 500_000),
  "phnn-flx3-1111": phoneBand("phnn-flx3-1111", 1_500_000),
  "lapt-flx1-1111": general,
  "lapt-flx2-1111": general,
  "ltix-stnd-1111": general,
  "gtrn-stnd-1111": goods(75_000_050),
  "hlth-axam-1111": general,
  "hlth-hygn-1111": general,
  "hlth-rlnc-1111": general,
  "hlth-avon-1111": general,
  "lrgg-stnd-1111": { kobo: 200_000_000, basis: "the loan amount (LoanAmount)" },
  // Credit life's loanAmount is kobo already (spec 2.4).
  "crlt-sme1-1111": { kobo: 50_000_001, basis: "the loan amount (loanAmount)" },
  "crlt-psnl-1111": { kobo: 50_000_001, basis: "the loan amount (loanAmount)" },
  "crlt-kymn-1111": { kobo: 50_000_001, basis: "the loan amount (loanAmount)" },
  "crlt-mrtg-1111": { kobo: 50_000_001, basis: "the loan amount (loanAmount)" },
  "mexx-stnd-1111": goods(500_000_000),
  "mrnn-stnd-1111": goods(500_000_000),
  "mrnn-cmpr-1111": goods(500_000_000),
  "allr-stnd-1111": { kobo: 120_000_000, basis: "the sum insured (sumInsured)" },
  "firb-stnd-1111": { kobo: 3_000_000_000, basis: "the sum insured (sumInsured)" },
};

/** Products whose ceiling is a figure of the policy: without it, the general ceiling applies. */
const FROM_FACTS = ["vhcl", "gtrn", "lrgg", "crlt", "mexx", "mrnn", "allr", "firb"];

const category = (code: string) => code.split("-")[0]!;
const factsOf = (code: string) => FACTS[code] ?? FACTS[category(code)]!;

describe("claim ceilings", () => {
  test("every product sold has a pinned ceiling", () => {
    expect(Object.keys(CEILINGS).sort()).toEqual(allProductCodes().sort());
  });

  test.each(Object.entries(CEILINGS))("%s → its ceiling and basis", (productCode, ceiling) => {
    expect(claimCeiling({ productCode, facts: factsOf(productCode) })).toEqual(ceiling);
  });

  test.each(allProductCodes().filter((code) => FROM_FACTS.includes(category(code))))("%s without its figure → the general ceiling", (productCode) => {
    expect(claimCeiling({ productCode, facts: {} })).toEqual(general);
  });

  test.each(allProductCodes().filter((code) => FROM_FACTS.includes(category(code))))("%s with its figure as a string → the general ceiling", (productCode) => {
    const facts = Object.fromEntries(Object.entries(factsOf(productCode)).map(([key, value]) => [key, String(value)]));
    expect(claimCeiling({ productCode, facts })).toEqual(general);
  });
});

describe("excess", () => {
  test.each(allProductCodes())("%s", (productCode) => {
    // Phone cover (spec 2.5): 10 % per claim, half up to the kobo; every other product: none.
    const expected = category(productCode) === "phnn" ? { excessKobo: 1_235, payableKobo: 11_110 } : { excessKobo: 0, payableKobo: 12_345 };
    expect(settlement(productCode, 12_345)).toEqual(expected);
  });
});
