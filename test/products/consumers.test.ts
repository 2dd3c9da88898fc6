import { describe, expect, test } from "bun:test";
import { allProductCodes, findProduct } from "../../src/products";

const needs = (code: string, consumerClass: "h" | "o") => {
  const { family, type } = findProduct(code);
  return family.consumerRequirements(type, consumerClass);
};

const VEHICLE_TPRT = ["type", "class", "name.first", "gender", "dob.date", "addrss.addrss", "phoneNo", "eMail"];
const SOCIAL_ID = ["socialID.type", "socialID.id", "socialID.image"];
const BORROWER = ["name.first", "phoneNo", "eMail", "dob.date", "gender", "addrss.addrss"];

describe("consumer requirements per family (spec 2.3)", () => {
  test.each([
    ["vhcl-tprt-1111", VEHICLE_TPRT],
    ["vhcl-cmpr-1111", [...VEHICLE_TPRT, ...SOCIAL_ID]],
    ["gtrn-stnd-1111", ["class", "name.first", "name.last", "phoneNo", "eMail"]],
    ["crlt-sme1-1111", BORROWER],
    ["crlt-mrtg-1111", BORROWER],
    ["lrgg-stnd-1111", BORROWER],
    ["phnn-flx1-1111", ["name.first", "phoneNo", "eMail"]],
    ["lapt-flx2-1111", ["name.first", "phoneNo", "eMail"]],
    ["ltix-stnd-1111", ["name.first", "phoneNo", "eMail", "gender", "dob.date", "addrss.addrss"]],
    ["mexx-stnd-1111", ["class", "name.first", "name.last", ...SOCIAL_ID, "taxId", "addrss.addrss", "phoneNo", "eMail"]],
    ["mrnn-cmpr-1111", ["class", "name.first", "name.last", ...SOCIAL_ID, "taxId", "addrss.addrss", "phoneNo", "eMail"]],
    // Not in spec 2.3: chosen.
    ["hlth-axam-1111", ["name.first", "phoneNo", "eMail", "gender", "dob.date", "addrss.addrss"]],
    ["allr-stnd-1111", ["name.first", "phoneNo", "eMail", "addrss.addrss"]],
    ["firb-stnd-1111", ["name.first", "phoneNo", "eMail", "addrss.addrss"]],
  ])("%s, individual", (code, fields) => {
    expect(needs(code, "h")).toEqual(fields);
  });

  test("organisations are named by name.brand", () => {
    expect(needs("vhcl-cmpr-1111", "o")).toEqual(["type", "class", "name.brand", "addrss.addrss", "phoneNo", "eMail", ...SOCIAL_ID]);
    expect(needs("gtrn-stnd-1111", "o")).toEqual(["class", "name.brand", "phoneNo", "eMail"]);
    expect(needs("crlt-kymn-1111", "o")).toEqual(["name.brand", "phoneNo", "eMail", "addrss.addrss"]);
    expect(needs("phnn-flx3-1111", "o")).toEqual(["name.brand", "phoneNo", "eMail"]);
  });

  test("marine organisations give company documents instead of a personal id", () => {
    const fields = ["class", "name.brand", "rc", "cac02", "cac07", "taxId", "addrss.addrss", "phoneNo", "eMail"];
    expect(needs("mexx-stnd-1111", "o")).toEqual(fields);
    expect(needs("mrnn-stnd-1111", "o")).toEqual(fields);
  });

  test("no family asks for a field that is not a consumer field of spec 2.3", () => {
    const known = new Set([
      "type",
      "class",
      "name.first",
      "name.last",
      "name.middle",
      "name.brand",
      "gender",
      "dob.date",
      "dob.proof",
      "addrss.addrss",
      "phoneNo",
      "eMail",
      "ntnlty",
      "stateOfOrigin",
      "mrtlStatus",
      "socialID.type",
      "socialID.id",
      "socialID.image",
      "taxId",
      "rc",
      "cac02",
      "cac07",
    ]);
    for (const code of allProductCodes())
      for (const consumerClass of ["h", "o"] as const) for (const field of needs(code, consumerClass)) expect(known.has(field)).toBe(true);
  });
});
