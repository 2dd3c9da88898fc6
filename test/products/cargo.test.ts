import { describe, expect, test } from "bun:test";
import { findProduct } from "../../src/products";
import { prmm, quoteRefusal } from "./support";

describe("marine: 0.25% of goodsValue, minimum 5000 (mexx-stnd, mrnn-stnd)", () => {
  test.each(["mexx-stnd-1111", "mrnn-stnd-1111"])("%s", (code) => {
    expect(prmm(code, { goodsValue: 10_000_000, insrncDrtn: "1y" })).toBe(25_000);
    expect(prmm(code, { goodsValue: 2_000_000, insrncDrtn: "1m" })).toBe(5_000);
    // Below the minimum.
    expect(prmm(code, { goodsValue: 1_000_000, insrncDrtn: "3m" })).toBe(5_000);
    expect(prmm(code, { goodsValue: 1, insrncDrtn: "6m" })).toBe(5_000);
    expect(prmm(code, { goodsValue: 3_000_100, insrncDrtn: "6m" })).toBe(7_500);
  });

  test("the duration does not change the premium; it is kept in the basis", () => {
    const { family, type } = findProduct("mrnn-stnd-1111");
    for (const insrncDrtn of ["1m", "3m", "6m", "1y"])
      expect(family.quote(type, { goodsValue: 4_000_000, insrncDrtn })).toEqual({
        premiumKobo: 1_000_000,
        duration: insrncDrtn,
        basis: { goodsValue: 4_000_000, insrncDrtn },
      });
  });

  test("mrnn-cmpr (ICC A, chosen): 0.5%, minimum 10000", () => {
    expect(prmm("mrnn-cmpr-1111", { goodsValue: 10_000_000, insrncDrtn: "1y" })).toBe(50_000);
    expect(prmm("mrnn-cmpr-1111", { goodsValue: 1_000_000, insrncDrtn: "1y" })).toBe(10_000);
  });

  test("mexx has no comprehensive type", () => {
    expect(quoteRefusal("mexx-cmpr-1111", { goodsValue: 1, insrncDrtn: "1y" }).message).toStartWith("product specified not supported");
  });

  test("goodsValue must be a JSON number above 0; insrncDrtn 1m/3m/6m/1y required", () => {
    const asString = quoteRefusal("mexx-stnd-1111", { goodsValue: "1000000", insrncDrtn: "1y" });
    expect(asString.field).toBe("seed.goodsValue");
    expect(asString.message).toContain("must be a JSON number, not a string");
    expect(quoteRefusal("mexx-stnd-1111", { goodsValue: 0, insrncDrtn: "1y" }).message).toContain("must be more than 0");
    expect(quoteRefusal("mrnn-stnd-1111", { goodsValue: 1_000_000 }).message).toBe("seed.insrncDrtn is required");
    expect(quoteRefusal("mrnn-stnd-1111", { goodsValue: 1_000_000, insrncDrtn: "7d" }).field).toBe("seed.insrncDrtn");
  });
});

describe("gtrn-stnd-1111: tiers by goodsValue (chosen)", () => {
  test.each([
    [100_000, 2_500],
    [250_000, 2_500],
    [750_000, 7_500],
    [1_000_000, 10_000],
    [1_000_001, 10_000],
    [2_000_000, 15_000],
    [5_000_000, 37_500],
    [5_000_001, 37_500],
    [10_000_000, 50_000],
    [20_000_000, 100_000],
    [20_000_001, 100_000],
    [30_000_000, 120_000],
    [50_000_000, 200_000],
    [123_456.78, 2_500],
    [654_321.55, 6_543],
  ])("goodsValue %d → %d", (goodsValue, naira) => {
    expect(prmm("gtrn-stnd-1111", { goodsValue })).toBe(naira);
  });

  test("the premium never drops as the value rises", () => {
    let previous = 0;
    for (let goodsValue = 50_000; goodsValue <= 50_000_000; goodsValue += 50_000) {
      const naira = prmm("gtrn-stnd-1111", { goodsValue });
      expect(naira).toBeGreaterThanOrEqual(previous);
      previous = naira;
    }
  });

  test("no duration; the basis keeps goodsValue", () => {
    const { family, type } = findProduct("gtrn-stnd-1111");
    expect(family.quote(type, { goodsValue: 750_000, insrncDrtn: "1y" })).toEqual({ premiumKobo: 750_000, basis: { goodsValue: 750_000 } });
  });

  test("above the maximum insurable value is refused", () => {
    const error = quoteRefusal("gtrn-stnd-1111", { goodsValue: 50_000_001 });
    expect(error.field).toBe("seed.goodsValue");
    expect(error.message).toContain("maximum insurable value");
  });

  test("goodsValue as a string is refused naming the field", () => {
    const error = quoteRefusal("gtrn-stnd-1111", { goodsValue: "500000" });
    expect(error.field).toBe("seed.goodsValue");
    expect(error.message).toBe("seed.goodsValue must be a JSON number, not a string (send 500000 without quotes)");
  });

  test("goodsValue is required and above 0", () => {
    expect(quoteRefusal("gtrn-stnd-1111", {}).message).toBe("seed.goodsValue is required");
    expect(quoteRefusal("gtrn-stnd-1111", { goodsValue: -5 }).message).toContain("must be more than 0");
  });
});
