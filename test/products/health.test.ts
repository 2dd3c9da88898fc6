import { describe, expect, test } from "bun:test";
import { allProductCodes } from "../../src/products";
import { health } from "../../src/products/health";
import { prmm, quoteRefusal } from "./support";

const healthCodes = allProductCodes().filter((c) => c.startsWith("hlth-"));

describe("hlth-<insurer>-1111: 1250 per month, 7500 for 6m, 15000 for 1y", () => {
  test.each(healthCodes)("%s", (code) => {
    expect(prmm(code, { insrncDrtn: "1m" })).toBe(1250);
    expect(prmm(code, { insrncDrtn: "3m" })).toBe(3750);
    expect(prmm(code, { insrncDrtn: "6m" })).toBe(7500);
    expect(prmm(code, { insrncDrtn: "1y" })).toBe(15000);
  });

  test("the seeded insurers", () => {
    expect(health.types.map((t) => t.code)).toEqual(["axam", "hygn", "rlnc", "avon"]);
  });

  test("insrncDrtn limited to 1m, 3m, 6m, 1y", () => {
    const error = quoteRefusal("hlth-axam-1111", { insrncDrtn: "12m" });
    expect(error.field).toBe("seed.insrncDrtn");
    expect(error.message).toContain('"1m", "3m", "6m", "1y"');
  });

  test("an unknown insurer is not a product", () => {
    const error = quoteRefusal("hlth-zzzz-1111", { insrncDrtn: "1y" });
    expect(error.status).toBe(400);
    expect(error.message).toStartWith("product specified not supported");
  });
});
