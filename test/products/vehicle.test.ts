import { describe, expect, test } from "bun:test";
import { vehicle } from "../../src/products/vehicle";
import { prmm, quoteRefusal } from "./support";

describe("vhcl-tprt-1111: 15000 naira per year", () => {
  test.each([
    ["1y", 15000],
    // Chosen short-period scale: 7d 10%, 1m 15%, 3m 35%, 6m 60% of annual.
    ["6m", 9000],
    ["3m", 5250],
    ["1m", 2250],
    ["7d", 1500],
  ])("%s → %d", (insrncDrtn, naira) => {
    expect(prmm("vhcl-tprt-1111", { insrncDrtn })).toBe(naira);
  });

  test("insrncDrtn is required and limited to 7d, 1m, 3m, 6m, 1y", () => {
    expect(quoteRefusal("vhcl-tprt-1111", {}).message).toBe("seed.insrncDrtn is required");
    const error = quoteRefusal("vhcl-tprt-1111", { insrncDrtn: "12m" });
    expect(error.status).toBe(400);
    expect(error.field).toBe("seed.insrncDrtn");
    expect(error.message).toContain('"7d", "1m", "3m", "6m", "1y"');
  });

  test("a missing seed is refused naming it", () => {
    expect(quoteRefusal("vhcl-tprt-1111", undefined).field).toBe("seed");
  });
});

describe("vhcl-cmpr-1111: 5% of vhclValueForInsrnc per year", () => {
  test.each([
    [4_000_000, "1y", 200_000],
    [500_000, "1y", 25_000],
    [500_000, "6m", 15_000],
    [1_000_000, "7d", 5_000],
    [2_345_678.9, "1y", 117_284],
  ] as const)("value %d for %s → %d", (vhclValueForInsrnc, insrncDrtn, naira) => {
    expect(prmm("vhcl-cmpr-1111", { vhclValueForInsrnc, insrncDrtn })).toBe(naira);
  });

  test("the basis keeps the insured value", () => {
    expect(vehicle.quote("cmpr", { vhclValueForInsrnc: 900_000, insrncDrtn: "3m", extra: 1 })).toEqual({
      premiumKobo: 1_575_000,
      duration: "3m",
      basis: { insrncDrtn: "3m", vhclValueForInsrnc: 900_000 },
    });
  });

  test("below the 500000 minimum is refused naming the field and the minimum", () => {
    const error = quoteRefusal("vhcl-cmpr-1111", { vhclValueForInsrnc: 499_999, insrncDrtn: "1y" });
    expect(error.status).toBe(400);
    expect(error.field).toBe("seed.vhclValueForInsrnc");
    expect(error.message).toBe("seed.vhclValueForInsrnc must be at least 500000; received 499999");
  });

  test("vhclValueForInsrnc sent as a string is refused naming the field", () => {
    const error = quoteRefusal("vhcl-cmpr-1111", { vhclValueForInsrnc: "4000000", insrncDrtn: "1y" });
    expect(error.field).toBe("seed.vhclValueForInsrnc");
    expect(error.message).toContain("must be a JSON number, not a string");
  });

  test("vhclValueForInsrnc is required for comprehensive", () => {
    expect(quoteRefusal("vhcl-cmpr-1111", { insrncDrtn: "1y" }).message).toBe("seed.vhclValueForInsrnc is required");
  });
});
