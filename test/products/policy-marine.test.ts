import { describe, expect, test } from "bun:test";
import { findProduct } from "../../src/products";
import type { InsuredConsumer, PolicyContext } from "../../src/products/types";
import { refusal } from "./support";

/** 10:00 WAT on 10 March 2026. */
const NOW = new Date("2026-03-10T09:00:00Z");
const person: InsuredConsumer = {
  class: "h",
  profile: { class: "h", name: { first: "Adaeze", last: "Okafor" }, taxId: "TIN-1" },
  documents: ["socialID.image"],
};
const company: InsuredConsumer = { class: "o", profile: { class: "o", name: { brand: "Okafor Exports Ltd" }, rc: "RC123456" }, documents: ["cac02", "cac07"] };
const contextOf = (consumer: InsuredConsumer): PolicyContext => ({ consumer, now: NOW });

const valid = (): Record<string, unknown> => ({
  items: [
    { description: "Cashew nuts", quantity: 100, value: 3_000_000 },
    { description: "Sesame seeds", quantity: 50, value: 2_000_000 },
  ],
  goodsValue: 5_000_000,
  goodsDscrptn: "Agricultural produce",
  voyage: [{ origin: "Lagos" }, { destination: "Rotterdam" }],
  proformaInvoice: "PI-2026-0042",
  proformaDate: "2026-03-09",
});
const director = { DrctrName: "Chukwuma Okafor", DrctrDob: "1975-06-01" };
const withFacts = (changes: Record<string, unknown>) => ({ ...valid(), ...changes });
const without = (field: string) => {
  const facts = valid();
  delete facts[field];
  return facts;
};

function rulesOf(code: string) {
  const { family, type } = findProduct(code);
  const terms = (addtnlFact: unknown, insrncDrtn: unknown = "3m", consumer = person) =>
    family.policy.terms(type, { addtnlFact, insrncDrtn }, contextOf(consumer));
  const refused = (addtnlFact: unknown, insrncDrtn: unknown = "3m", consumer = person) => refusal(() => terms(addtnlFact, insrncDrtn, consumer));
  /** The automatic decision, on terms as the database gives them back (facts through JSON). */
  const decline = (addtnlFact: unknown, consumer = person) => {
    const t = terms(addtnlFact, "3m", consumer);
    return family.policy.declineReason(type, { ...t, facts: JSON.parse(JSON.stringify(t.facts)) }, contextOf(consumer), { deviceAlreadyInsured: false });
  };
  return { family, type, terms, refused, decline };
}

const mexx = rulesOf("mexx-stnd-1111");
const mrnn = rulesOf("mrnn-stnd-1111");

describe("marine terms", () => {
  test.each([
    ["mexx-stnd-1111", "approve"],
    ["mrnn-stnd-1111", "manual"],
    ["mrnn-cmpr-1111", "manual"],
  ])("%s: the quote's premium, cover from today for insrncDrtn, live route %s", (code, liveRoute) => {
    const { family, type, terms } = rulesOf(code);
    const t = terms(valid(), "3m");
    expect(t.premiumKobo).toBe(family.quote(type, { goodsValue: 5_000_000, insrncDrtn: "3m" }).premiumKobo);
    expect(t.duration).toBe("3m");
    // Midnight WAT of 10 March to midnight WAT of 10 June.
    expect(t.coverStart).toEqual(new Date("2026-03-09T23:00:00Z"));
    expect(t.coverEnd).toEqual(new Date("2026-06-09T23:00:00Z"));
    expect(t.liveRoute).toBe(liveRoute as "approve" | "manual");
    expect(t.facts).toEqual({ insrncDrtn: "3m", ...valid(), coverStartDate: "2026-03-10" });
    expect(t.printed).toEqual([
      ["Goods", "Agricultural produce"],
      ["Goods value", "₦5,000,000.00"],
      ["Voyage", "Lagos → Rotterdam"],
    ]);
  });

  test("premiums follow each cover's rate and minimum", () => {
    expect(mexx.terms(withFacts({ goodsValue: 10_000_000 })).premiumKobo).toBe(2_500_000);
    expect(mexx.terms(withFacts({ goodsValue: 1_000_000 })).premiumKobo).toBe(500_000);
    expect(rulesOf("mrnn-cmpr-1111").terms(withFacts({ goodsValue: 10_000_000 })).premiumKobo).toBe(5_000_000);
  });

  test.each(["1m", "3m", "6m", "1y"])("insrncDrtn %s sets the cover end", (insrncDrtn) => {
    const ends = { "1m": "2026-04-09T23:00:00Z", "3m": "2026-06-09T23:00:00Z", "6m": "2026-09-09T23:00:00Z", "1y": "2027-03-09T23:00:00Z" } as const;
    expect(mrnn.terms(valid(), insrncDrtn).coverEnd).toEqual(new Date(ends[insrncDrtn as keyof typeof ends]));
  });

  test("insrncDrtn is required and one of 1m, 3m, 6m, 1y", () => {
    const missing = refusal(() => mexx.family.policy.terms(mexx.type, { addtnlFact: valid() }, contextOf(person)));
    expect(missing.field).toBe("seed.insrncDrtn");
    expect(missing.message).toBe("seed.insrncDrtn is required");
    const error = mexx.refused(valid(), "7d");
    expect(error.field).toBe("seed.insrncDrtn");
    expect(error.message).toBe('seed.insrncDrtn must be one of "1m", "3m", "6m", "1y"; received "7d"');
  });

  test("coverStartDate: a later date moves the cover; the past and other formats are refused", () => {
    const t = mexx.terms(withFacts({ coverStartDate: "2026-04-01" }), "1m");
    expect(t.coverStart).toEqual(new Date("2026-03-31T23:00:00Z"));
    expect(t.coverEnd).toEqual(new Date("2026-04-30T23:00:00Z"));
    expect(t.facts.coverStartDate).toBe("2026-04-01");
    const past = mexx.refused(withFacts({ coverStartDate: "2026-03-09" }));
    expect(past.field).toBe("seed.addtnlFact.coverStartDate");
    expect(past.message).toBe('seed.addtnlFact.coverStartDate must not be in the past: cover can start today (2026-03-10) or later; received "2026-03-09"');
    expect(mexx.refused(withFacts({ coverStartDate: "01-04-2026" })).message).toBe("seed.addtnlFact.coverStartDate must be a date in the form YYYY-MM-DD");
  });

  test("addtnlFact is required", () => {
    expect(mexx.refused(undefined).message).toBe("seed.addtnlFact is required for this product");
  });

  test.each(["items", "goodsValue", "goodsDscrptn", "voyage", "proformaInvoice", "proformaDate"])("%s is required", (field) => {
    const error = mrnn.refused(without(field));
    expect(error.status).toBe(400);
    expect(error.field).toBe(`seed.addtnlFact.${field}`);
    expect(error.message).toBe(`seed.addtnlFact.${field} is required`);
  });

  test.each([
    ["no entries", [], "seed.addtnlFact.items", "seed.addtnlFact.items must have at least one entry"],
    ["not an array", { description: "Cashew", quantity: 1, value: 5 }, "seed.addtnlFact.items", "seed.addtnlFact.items must be an array; received an object"],
    ["no description", [{ quantity: 1, value: 5 }], "seed.addtnlFact.items[0].description", "seed.addtnlFact.items[0].description is required"],
    [
      "a fractional quantity",
      [{ description: "Cashew", quantity: 1.5, value: 5 }],
      "seed.addtnlFact.items[0].quantity",
      "seed.addtnlFact.items[0].quantity must be a JSON integer; received a number",
    ],
    [
      "a zero quantity",
      [{ description: "Cashew", quantity: 0, value: 5 }],
      "seed.addtnlFact.items[0].quantity",
      "seed.addtnlFact.items[0].quantity must be at least 1; received 0",
    ],
    [
      "a quantity as a string",
      [{ description: "Cashew", quantity: "3", value: 5 }],
      "seed.addtnlFact.items[0].quantity",
      "seed.addtnlFact.items[0].quantity must be a JSON number, not a string (send 3 without quotes)",
    ],
    [
      "a value as a string",
      [{ description: "Cashew", quantity: 1, value: "5000000" }],
      "seed.addtnlFact.items[0].value",
      "seed.addtnlFact.items[0].value must be a JSON number, not a string (send 5000000 without quotes)",
    ],
    [
      "a zero value",
      [{ description: "Cashew", quantity: 1, value: 0 }],
      "seed.addtnlFact.items[0].value",
      "seed.addtnlFact.items[0].value must be more than 0; received 0",
    ],
    [
      "an unknown item field",
      [{ description: "Cashew", quantity: 1, value: 5, hsCode: "0801" }],
      "seed.addtnlFact.items[0]",
      "seed.addtnlFact.items[0] has unknown field: hsCode",
    ],
  ])("items: %s is refused", (_name, items, field, message) => {
    const error = mexx.refused(withFacts({ items }));
    expect(error.field).toBe(field);
    expect(error.message).toBe(message);
  });

  test("goodsValue is a JSON number above 0", () => {
    const error = mexx.refused(withFacts({ goodsValue: "5000000" }));
    expect(error.field).toBe("seed.addtnlFact.goodsValue");
    expect(error.message).toContain("not a string");
    expect(mexx.refused(withFacts({ goodsValue: -1 })).message).toContain("seed.addtnlFact.goodsValue must be more than 0");
  });

  test.each([
    ["one entry", [{ origin: "Lagos" }], "seed.addtnlFact.voyage", "must have at least 2 entries"],
    [
      "an entry with two keys",
      [{ origin: "Lagos", destination: "Rotterdam" }, { destination: "Rotterdam" }],
      "seed.addtnlFact.voyage[0]",
      'must be an object with exactly one key, "origin" or "destination"; received keys origin, destination',
    ],
    ["an array entry", [{ origin: "Lagos" }, ["Rotterdam"]], "seed.addtnlFact.voyage[1]", "received an array"],
    [
      "no origin",
      [{ destination: "Antwerp" }, { destination: "Rotterdam" }],
      "seed.addtnlFact.voyage",
      'must include an "origin" entry and a "destination" entry',
    ],
    [
      "a city as a number",
      [{ origin: "Lagos" }, { destination: 7 }],
      "seed.addtnlFact.voyage[1].destination",
      "must be a string naming the place; received an integer",
    ],
  ])("voyage: %s is refused", (_name, voyage, field, rule) => {
    const error = mrnn.refused(withFacts({ voyage }));
    expect(error.field).toBe(field);
    expect(error.message).toStartWith(`${field} `);
    expect(error.message).toContain(rule);
  });

  test("voyage: several ports in order are kept", () => {
    const voyage = [{ origin: "Apapa" }, { origin: "Onne" }, { destination: "Antwerp" }, { destination: "Rotterdam" }];
    const t = mexx.terms(withFacts({ voyage }));
    expect(t.facts.voyage).toEqual(voyage);
    expect(t.printed).toContainEqual(["Voyage", "Apapa → Onne → Antwerp → Rotterdam"]);
  });

  test("proformaDate is YYYY-MM-DD and not in the future; proformaInvoice is not a URL", () => {
    expect(mexx.refused(withFacts({ proformaDate: "2026-03-11" })).message).toBe(
      'seed.addtnlFact.proformaDate must not be in the future; received "2026-03-11"',
    );
    expect(mexx.refused(withFacts({ proformaDate: "2026/03/09" })).message).toBe("seed.addtnlFact.proformaDate must be a date in the form YYYY-MM-DD");
    expect(mexx.refused(withFacts({ proformaInvoice: "https://example.com/pi.pdf" })).field).toBe("seed.addtnlFact.proformaInvoice");
  });

  test("director details: accepted for an organisation, refused for an individual, dob in the past", () => {
    const t = mexx.terms(withFacts(director), "3m", company);
    expect(t.facts).toMatchObject(director);
    const individual = mexx.refused(withFacts({ DrctrName: "Chukwuma Okafor" }));
    expect(individual.field).toBe("seed.addtnlFact.DrctrName");
    expect(individual.message).toBe("seed.addtnlFact.DrctrName is for organisation consumers only: this consumer is an individual (class h); omit it");
    expect(mexx.refused(withFacts({ DrctrDob: "1975-06-01" })).field).toBe("seed.addtnlFact.DrctrDob");
    expect(mexx.refused(withFacts({ ...director, DrctrDob: "2026-03-10" }), "3m", company).message).toBe(
      'seed.addtnlFact.DrctrDob must be a date in the past; received "2026-03-10"',
    );
    expect(mexx.refused(withFacts({ ...director, DrctrDob: "1975-6-1" }), "3m", company).message).toBe(
      "seed.addtnlFact.DrctrDob must be a date in the form YYYY-MM-DD",
    );
  });

  test("unknown fields are refused", () => {
    expect(mexx.refused(withFacts({ coverStart: "2026-04-01" })).message).toBe("seed.addtnlFact has unknown field: coverStart");
  });
});

describe("marine automatic decisions (spec 7)", () => {
  test("a consistent request is approved, for a person or a company with its forms and director", () => {
    expect(mexx.decline(valid())).toBeNull();
    expect(mrnn.decline(withFacts(director), company)).toBeNull();
  });

  test("goodsValue differing from the sum of item values is declined, not refused", () => {
    const reason = mexx.decline(withFacts({ goodsValue: 4_000_000 }));
    expect(reason).toBe("Marine goodsValue differs from the sum of item values: goodsValue is ₦4,000,000.00 but the items add up to ₦5,000,000.00.");
    expect(mrnn.decline(withFacts({ goodsValue: 5_000_000.01 }))).toContain("differs from the sum of item values");
  });

  test("item values are summed to the kobo, without float noise", () => {
    const items = [
      { description: "A", quantity: 1, value: 0.1 },
      { description: "B", quantity: 1, value: 0.2 },
    ];
    expect(mexx.decline(withFacts({ items, goodsValue: 0.3 }))).toBeNull();
  });

  test("an organisation's unreadable company documents are declined", () => {
    for (const documents of [["cac02"], ["cac07"], []]) {
      const reason = mrnn.decline(withFacts(director), { ...company, documents });
      expect(reason).toStartWith("Unreadable company documents:");
      for (const form of ["cac02", "cac07"].filter((f) => !documents.includes(f))) expect(reason).toContain(form);
    }
  });

  test("an organisation without director details is declined", () => {
    expect(mexx.decline(valid(), company)).toBe("Missing director details for an organisation: DrctrName and DrctrDob must be given for a company consumer.");
    expect(mexx.decline(withFacts({ DrctrName: "Chukwuma Okafor" }), company)).toBe(
      "Missing director details for an organisation: DrctrDob must be given for a company consumer.",
    );
  });
});

test("certificates (spec 2.6): export DOCX, import PDF, both inline", () => {
  expect(mexx.family.policy.certificate("stnd")).toEqual({ type: "docx", delivery: "inline" });
  expect(mrnn.family.policy.certificate("stnd")).toEqual({ type: "pdf", delivery: "inline" });
  expect(mrnn.family.policy.certificate("cmpr")).toEqual({ type: "pdf", delivery: "inline" });
});

test("mexx has no comprehensive type at issuance either", () => {
  expect(refusal(() => mexx.family.policy.terms("cmpr", { insrncDrtn: "3m", addtnlFact: valid() }, contextOf(person))).message).toStartWith(
    "product specified not supported",
  );
});
