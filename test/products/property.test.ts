import { describe, expect, test } from "bun:test";
import { findProduct } from "../../src/products";
import { prmm, quoteRefusal } from "./support";

// Chosen values: all risk 1.5% a year (minimum 5000), fire and burglary 0.3% a year (minimum 3000), pro-rated by month.
describe("allr-stnd-1111 and firb-stnd-1111", () => {
  test.each([
    ["allr-stnd-1111", 1_000_000, "1y", 15_000],
    ["allr-stnd-1111", 1_000_000, "6m", 7_500],
    ["allr-stnd-1111", 1_000_000, "3m", 5_000],
    ["allr-stnd-1111", 1_000_000, "1m", 5_000],
    ["allr-stnd-1111", 12_000_000, "1m", 15_000],
    ["allr-stnd-1111", 100_000, "1y", 5_000],
    ["firb-stnd-1111", 20_000_000, "1y", 60_000],
    ["firb-stnd-1111", 20_000_000, "6m", 30_000],
    ["firb-stnd-1111", 20_000_000, "3m", 15_000],
    ["firb-stnd-1111", 20_000_000, "1m", 5_000],
    ["firb-stnd-1111", 500_000, "1y", 3_000],
    ["firb-stnd-1111", 1_234_567, "1y", 3_704],
  ])("%s sumInsured %d for %s → %d", (code, sumInsured, insrncDrtn, naira) => {
    expect(prmm(code, { sumInsured, insrncDrtn })).toBe(naira);
  });

  test("the basis keeps sumInsured and insrncDrtn", () => {
    const { family, type } = findProduct("firb-stnd-1111");
    expect(family.quote(type, { sumInsured: 20_000_000, insrncDrtn: "1y" })).toEqual({
      premiumKobo: 6_000_000,
      duration: "1y",
      basis: { sumInsured: 20_000_000, insrncDrtn: "1y" },
    });
  });

  test.each(["allr-stnd-1111", "firb-stnd-1111"])("%s seed errors", (code) => {
    const asString = quoteRefusal(code, { sumInsured: "800000", insrncDrtn: "1y" });
    expect(asString.field).toBe("seed.sumInsured");
    expect(asString.message).toContain("not a string");
    expect(quoteRefusal(code, { insrncDrtn: "1y" }).message).toBe("seed.sumInsured is required");
    expect(quoteRefusal(code, { sumInsured: 800_000 }).message).toBe("seed.insrncDrtn is required");
    expect(quoteRefusal(code, { sumInsured: 800_000, insrncDrtn: "7d" }).field).toBe("seed.insrncDrtn");
  });
});
