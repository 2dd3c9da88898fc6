import { describe, expect, test } from "bun:test";
import { allProductCodes, findProduct, listHospitals, PACKAGE, productFamilies, wirePremium } from "../../src/products";
import { creditLife } from "../../src/products/credit-life";
import { vehicle } from "../../src/products/vehicle";
import { refusal } from "./support";

describe("product catalogue", () => {
  test("every product of spec 1 has a code, plus one health code per insurer", () => {
    const codes = allProductCodes();
    for (const code of [
      "vhcl-tprt-1111",
      "vhcl-cmpr-1111",
      "phnn-flx1-1111",
      "phnn-flx2-1111",
      "phnn-flx3-1111",
      "lapt-flx1-1111",
      "lapt-flx2-1111",
      "ltix-stnd-1111",
      "gtrn-stnd-1111",
      "lrgg-stnd-1111",
      "crlt-sme1-1111",
      "crlt-psnl-1111",
      "crlt-kymn-1111",
      "crlt-mrtg-1111",
      "mexx-stnd-1111",
      "mrnn-stnd-1111",
      "mrnn-cmpr-1111",
      "allr-stnd-1111",
      "firb-stnd-1111",
    ])
      expect(codes).toContain(code);
    const health = codes.filter((c) => c.startsWith("hlth-"));
    expect(health.length).toBeGreaterThanOrEqual(4);
    for (const code of health) expect(code).toMatch(/^hlth-[a-z]{4}-1111$/);
    expect(codes.length).toBe(19 + health.length);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.every((c) => c.endsWith(`-${PACKAGE}`))).toBe(true);
  });

  test("each ctgry is one family; mexx and mrnn are families of their own", () => {
    const ctgries = productFamilies.map((f) => f.ctgry);
    expect(new Set(ctgries).size).toBe(ctgries.length);
    expect(ctgries).toEqual(expect.arrayContaining(["mexx", "mrnn", "crlt", "lrgg", "hlth", "allr", "firb"]));
  });

  test("findProduct answers the family, wire type and code", () => {
    const product = findProduct("vhcl-cmpr-1111");
    expect(product.family).toBe(vehicle);
    expect(product.type).toBe("cmpr");
    expect(product.productType.name).toBe("Vehicle, comprehensive");
    expect(product.code).toBe("vhcl-cmpr-1111");
    expect(findProduct("lrgg-stnd-1111").productType.deprecated).toBe(true);
  });

  test.each([
    ["an unknown category", "xxxx-stnd-1111"],
    ["an unknown type", "vhcl-zzzz-1111"],
    ["a type of another family", "crlt-tprt-1111"],
    ["package 2222", "vhcl-tprt-2222"],
    ["a health insurer that does not exist", "hlth-nope-1111"],
    ["a code without parts", "vhcl"],
    ["a code with too many parts", "vhcl-tprt-1111-1111"],
    ["an empty code", ""],
  ])("%s → 400 product specified not supported", (_name, code) => {
    const error = refusal(() => findProduct(code));
    expect(error.status).toBe(400);
    expect(error.message).toStartWith("product specified not supported");
  });

  test("findProduct names the field the code came from, when given", () => {
    expect(refusal(() => findProduct("vhcl-tprt-2222", "seed.pckg")).field).toBe("seed.pckg");
  });

  test("a family refuses a type it does not sell, with the same wording", () => {
    const error = refusal(() => vehicle.quote("zzzz", { insrncDrtn: "1y" }));
    expect(error.status).toBe(400);
    expect(error.message).toContain("product specified not supported");
    expect(refusal(() => vehicle.consumerRequirements("zzzz", "h")).message).toContain("product specified not supported");
  });

  test("wirePremium: whole naira, except kobo for credit life", () => {
    expect(wirePremium(vehicle, 1_500_000)).toBe(15000);
    expect(wirePremium(creditLife, 500_000)).toBe(500_000);
    expect(creditLife.premiumUnit).toBe("kobo");
    expect(productFamilies.filter((f) => f.premiumUnit === "kobo").map((f) => f.ctgry)).toEqual(["crlt"]);
  });
});

describe("health hospital lists (dump hlth_*HSPTLS)", () => {
  test("every insurer has about five hospitals with name, address, city and state", () => {
    const insurers = allProductCodes()
      .filter((c) => c.startsWith("hlth-"))
      .map((c) => c.split("-")[1]!);
    const all = listHospitals();
    for (const insurer of insurers) {
      const own = listHospitals(insurer);
      expect(own.length).toBeGreaterThanOrEqual(5);
      expect(own.every((h) => h.insurer === insurer)).toBe(true);
      for (const h of own) for (const key of ["name", "address", "city", "state", "insurerName"] as const) expect(h[key]).not.toBe("");
    }
    expect(all.length).toBe(insurers.reduce((n, i) => n + listHospitals(i).length, 0));
  });

  test("an unknown insurer is refused naming the known ones", () => {
    const error = refusal(() => listHospitals("nope"));
    expect(error.status).toBe(400);
    expect(error.message).toContain("health insurer not recognised");
    expect(error.message).toContain("axam");
  });
});
