import { describe, expect, test } from "bun:test";
import { findProduct } from "../../src/products";
import type { PolicyContext } from "../../src/products/types";
import { refusal } from "./support";

const { family, type } = findProduct("gtrn-stnd-1111");
/** 10:00 WAT on 10 March 2026. */
const NOW = new Date("2026-03-10T09:00:00Z");
const context: PolicyContext = {
  consumer: { class: "h", profile: { class: "h", name: { first: "Adaeze", last: "Okafor" } }, documents: [] },
  now: NOW,
};

const valid = (): Record<string, unknown> => ({
  goodsType: "elct",
  goodsDscrptn: "Laptops and phones",
  goodsValue: 750_000,
  voyage: [{ origin: "Lagos" }, { destination: "Abuja" }],
  dprtrDateTime: "2026-03-11 08:00:00",
  estmtdArrvlDateTime: "2026-03-12 18:00:00",
  proformaInvoice: "PI-2026-0099",
  proformaDate: "2026-03-10",
});
const withFacts = (changes: Record<string, unknown>) => ({ ...valid(), ...changes });
const without = (field: string) => {
  const facts = valid();
  delete facts[field];
  return facts;
};

const terms = (addtnlFact: unknown, insrncDrtn?: unknown) => family.policy.terms(type, { addtnlFact, insrncDrtn }, context);
const refused = (addtnlFact: unknown, insrncDrtn?: unknown) => refusal(() => terms(addtnlFact, insrncDrtn));
/** The insurer's answer, on terms as the database gives them back (facts through JSON). */
function decline(addtnlFact: unknown): string | null {
  const t = terms(addtnlFact);
  return family.policy.declineReason(type, { ...t, facts: JSON.parse(JSON.stringify(t.facts)) }, context, { deviceAlreadyInsured: false });
}

describe("gtrn-stnd-1111 terms", () => {
  test("a valid request: the quote's premium, cover from departure to estimated arrival, insurer route", () => {
    const t = terms(valid());
    expect(t.premiumKobo).toBe(family.quote(type, { goodsValue: 750_000 }).premiumKobo);
    expect(t.premiumKobo).toBe(750_000);
    expect(t.duration).toBeUndefined();
    expect(t.coverStart).toEqual(new Date("2026-03-11T07:00:00Z"));
    expect(t.coverEnd).toEqual(new Date("2026-03-12T17:00:00Z"));
    expect(t.liveRoute).toBe("insurer");
    expect(t.facts).toEqual(valid());
    expect(t.printed).toEqual([
      ["Goods", "Laptops and phones (electronics)"],
      ["Goods value", "₦750,000.00"],
      ["Voyage", "Lagos → Abuja"],
      ["Departure", "2026-03-11 08:00:00 WAT"],
      ["Estimated arrival", "2026-03-12 18:00:00 WAT"],
      ["Proforma invoice", "PI-2026-0099 of 2026-03-10"],
    ]);
  });

  test.each([100_000, 1_000_001, 654_321.55, 20_000_000, 50_000_000])("goodsValue %d is priced by the quote's tiers", (goodsValue) => {
    expect(terms(withFacts({ goodsValue })).premiumKobo).toBe(family.quote(type, { goodsValue }).premiumKobo);
  });

  test("text is stored trimmed; the voyage order is kept", () => {
    const t = terms(withFacts({ goodsDscrptn: "  Laptops  ", voyage: [{ destination: " Abuja " }, { origin: "Lagos" }] }));
    expect(t.facts.goodsDscrptn).toBe("Laptops");
    expect(t.facts.voyage).toEqual([{ destination: "Abuja" }, { origin: "Lagos" }]);
  });

  test("insrncDrtn is refused: the trip's dates are the cover", () => {
    const error = refused(valid(), "1m");
    expect(error.status).toBe(400);
    expect(error.field).toBe("seed.insrncDrtn");
    expect(error.message).toContain("must be omitted for goods in transit");
  });

  test("addtnlFact is required", () => {
    expect(refused(undefined).message).toBe("seed.addtnlFact is required for this product");
  });

  test.each(["goodsType", "goodsDscrptn", "goodsValue", "voyage", "dprtrDateTime", "estmtdArrvlDateTime", "proformaInvoice", "proformaDate"])(
    "%s is required",
    (field) => {
      const error = refused(without(field));
      expect(error.status).toBe(400);
      expect(error.field).toBe(`seed.addtnlFact.${field}`);
      expect(error.message).toBe(`seed.addtnlFact.${field} is required`);
    },
  );

  test("goodsValue is a JSON number, above 0, within the quote's maximum", () => {
    const asString = refused(withFacts({ goodsValue: "750000" }));
    expect(asString.field).toBe("seed.addtnlFact.goodsValue");
    expect(asString.message).toBe("seed.addtnlFact.goodsValue must be a JSON number, not a string (send 750000 without quotes)");
    expect(refused(withFacts({ goodsValue: 0 })).message).toContain("seed.addtnlFact.goodsValue must be more than 0");
    const tooMuch = refused(withFacts({ goodsValue: 50_000_001 }));
    expect(tooMuch.field).toBe("seed.addtnlFact.goodsValue");
    expect(tooMuch.message).toContain("must be at most 50000000 naira, the maximum insurable value per transit");
  });

  test("goodsType is one of the spec's codes", () => {
    const error = refused(withFacts({ goodsType: "food" }));
    expect(error.field).toBe("seed.addtnlFact.goodsType");
    expect(error.message).toBe('seed.addtnlFact.goodsType must be one of "gnrl", "elct", "frd", "txtl", "appl", "fod", "bldg", "tool"; received "food"');
    for (const goodsType of ["gnrl", "elct", "frd", "txtl", "appl", "fod", "bldg", "tool"])
      expect(terms(withFacts({ goodsType })).facts.goodsType).toBe(goodsType);
  });

  test.each([
    ["dprtrDateTime", "2026-03-11T08:00:00", "must be a date and time in the form YYYY-MM-DD HH:MM:SS"],
    ["dprtrDateTime", "2026-03-11", "must be a date and time in the form YYYY-MM-DD HH:MM:SS"],
    ["estmtdArrvlDateTime", "2026-02-30 08:00:00", "is not a real date and time"],
    ["estmtdArrvlDateTime", "2026-03-12 25:00:00", "is not a real date and time"],
    ["proformaDate", "10/03/2026", "must be a date in the form YYYY-MM-DD"],
    ["proformaDate", "2026-02-29", "is not a real calendar date"],
  ])("%s %p is refused", (field, value, rule) => {
    const error = refused(withFacts({ [field]: value }));
    expect(error.field).toBe(`seed.addtnlFact.${field}`);
    expect(error.message).toBe(`seed.addtnlFact.${field} ${rule}`);
  });

  test.each([
    ["not an array", { origin: "Lagos", destination: "Abuja" }, "seed.addtnlFact.voyage", "must be an array; received an object"],
    ["one entry", [{ origin: "Lagos" }], "seed.addtnlFact.voyage", "must have at least 2 entries"],
    [
      "a string entry",
      ["Lagos", { destination: "Abuja" }],
      "seed.addtnlFact.voyage[0]",
      'must be an object with exactly one key, "origin" or "destination"; received a string',
    ],
    [
      "an entry with both keys",
      [{ origin: "Lagos", destination: "Abuja" }, { destination: "Abuja" }],
      "seed.addtnlFact.voyage[0]",
      "received keys origin, destination",
    ],
    ["another key", [{ origin: "Lagos" }, { to: "Abuja" }], "seed.addtnlFact.voyage[1]", "received key to"],
    ["an empty entry", [{ origin: "Lagos" }, {}], "seed.addtnlFact.voyage[1]", "received an empty object"],
    [
      "a number as the city",
      [{ origin: 42 }, { destination: "Abuja" }],
      "seed.addtnlFact.voyage[0].origin",
      "must be a string naming the place; received an integer",
    ],
    ["no destination", [{ origin: "Lagos" }, { origin: "Ibadan" }], "seed.addtnlFact.voyage", 'must include an "origin" entry and a "destination" entry'],
    [
      "a stop too many",
      [{ origin: "Lagos" }, { destination: "Abuja" }, { destination: "Kano" }],
      "seed.addtnlFact.voyage",
      "must have exactly 2 entries for goods in transit",
    ],
    [
      "the same city twice",
      [{ origin: "Lagos" }, { destination: " LAGOS " }],
      "seed.addtnlFact.voyage",
      'must name different cities as origin and destination; both are "LAGOS"',
    ],
    ["the same city, spaced differently", [{ origin: "Port  Harcourt" }, { destination: "port harcourt" }], "seed.addtnlFact.voyage", "different cities"],
  ])("voyage: %s is refused", (_name, voyage, field, rule) => {
    const error = refused(withFacts({ voyage }));
    expect(error.status).toBe(400);
    expect(error.field).toBe(field);
    expect(error.message).toStartWith(field);
    expect(error.message).toContain(rule);
  });

  test("arrival must follow departure, within 30 days", () => {
    for (const estmtdArrvlDateTime of ["2026-03-11 08:00:00", "2026-03-11 07:59:59"]) {
      const error = refused(withFacts({ estmtdArrvlDateTime }));
      expect(error.field).toBe("seed.addtnlFact.estmtdArrvlDateTime");
      expect(error.message).toContain('must be after dprtrDateTime ("2026-03-11 08:00:00")');
    }
    expect(terms(withFacts({ estmtdArrvlDateTime: "2026-04-10 08:00:00" })).coverEnd).toEqual(new Date("2026-04-10T07:00:00Z"));
    const tooLong = refused(withFacts({ estmtdArrvlDateTime: "2026-04-10 08:00:01" }));
    expect(tooLong.field).toBe("seed.addtnlFact.estmtdArrvlDateTime");
    expect(tooLong.message).toContain("must be at most 30 days after dprtrDateTime");
  });

  test("departure may be at most an hour in the past (now is 10:00 WAT)", () => {
    expect(terms(withFacts({ dprtrDateTime: "2026-03-10 09:00:00" })).coverStart).toEqual(new Date("2026-03-10T08:00:00Z"));
    const error = refused(withFacts({ dprtrDateTime: "2026-03-10 08:59:59" }));
    expect(error.field).toBe("seed.addtnlFact.dprtrDateTime");
    expect(error.message).toBe(
      'seed.addtnlFact.dprtrDateTime must not be in the past: goods already on the road cannot be insured; received "2026-03-10 08:59:59", now is 2026-03-10 10:00:00 WAT',
    );
  });

  test("proformaInvoice is a reference, not a URL", () => {
    for (const proformaInvoice of ["https://drive.example.com/invoice.pdf", "www.example.com/inv/42", "HTTP://x.ng/1"]) {
      const error = refused(withFacts({ proformaInvoice }));
      expect(error.field).toBe("seed.addtnlFact.proformaInvoice");
      expect(error.message).toBe("seed.addtnlFact.proformaInvoice must be the invoice reference number, not a URL");
    }
    expect(terms(withFacts({ proformaInvoice: "INV/2026/0042" })).facts.proformaInvoice).toBe("INV/2026/0042");
  });

  test("proformaDate may be today but not later", () => {
    expect(terms(withFacts({ proformaDate: "2026-03-10" })).facts.proformaDate).toBe("2026-03-10");
    const error = refused(withFacts({ proformaDate: "2026-03-11" }));
    expect(error.field).toBe("seed.addtnlFact.proformaDate");
    expect(error.message).toBe('seed.addtnlFact.proformaDate must not be in the future; received "2026-03-11"');
  });

  test("text fields are strings; unknown fields are refused", () => {
    expect(refused(withFacts({ goodsDscrptn: 42 })).message).toBe("seed.addtnlFact.goodsDscrptn must be a string; received an integer");
    expect(refused(withFacts({ proformaInvoice: 42 })).field).toBe("seed.addtnlFact.proformaInvoice");
    expect(refused(withFacts({ goodsQuantity: 3 })).message).toBe("seed.addtnlFact has unknown field: goodsQuantity");
  });
});

describe("gtrn-stnd-1111 insurer decision (spec 7: goods in an excluded category)", () => {
  test("ordinary goods are approved", () => {
    for (const goodsDscrptn of ["Laptops and phones", "Glass bottles", "Porcelain plates", "Artisan tools", "Gasoline pumps", "Chemistry textbooks"])
      expect(decline(withFacts({ goodsDscrptn }))).toBeNull();
  });

  test.each([
    ["Gas cylinders for restaurants", "gas cylinders"],
    ["1 GAS CYLINDER", "gas cylinders"],
    ["Industrial chemicals", "chemicals"],
    ["Ceramic tiles, 40 cartons", "ceramic tiles"],
    ["Bonds and other financial instruments", "financial instruments"],
    ["Kitchen glassware", "glassware"],
    ["Mining explosives", "explosives"],
    ["Gold jewellery", "jewellery"],
    ["Silver jewelry", "jewellery"],
    ["Framed artwork", "artwork"],
    ["Art works for an exhibition", "artwork"],
    ["Perishables (fresh fish)", "perishables"],
  ])("%p is declined as %s", (goodsDscrptn, name) => {
    const reason = decline(withFacts({ goodsDscrptn }));
    expect(reason).toStartWith("Goods in an excluded category:");
    expect(reason).toContain(`names ${name}`);
    expect(reason).toContain(`"${goodsDscrptn}"`);
  });

  test("every excluded category found is named", () => {
    expect(decline(withFacts({ goodsDscrptn: "Chemicals and glassware" }))).toContain("names chemicals and glassware, which goods in transit cover excludes");
  });
});

test("certificate: a PDF returned inline (chosen)", () => {
  expect(family.policy.certificate(type)).toEqual({ type: "pdf", delivery: "inline" });
});
