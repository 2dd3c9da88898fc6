/**
 * Portal forms: what a browser submits, turned into seeds by src/products/forms.ts, must be the JSON
 * seeds the wire takes, and be judged by the same rules with the same words.
 */
import { describe, expect, test } from "bun:test";
import type { CommandError } from "../../src/core/errors";
import { allProductCodes, findProduct } from "../../src/products";
import {
  durationOptions,
  durationSelect,
  inputForField,
  inputName,
  naira,
  policySeedFromForm,
  type SubmittedValues,
  seedFromForm,
  wireValue,
} from "../../src/products/forms";
import { HEALTH_INSURERS } from "../../src/products/health";
import { SUPPORTED_DESTINATIONS } from "../../src/products/travel/zones";
import type { FormEntry, FormField, FormGroup, InsuredConsumer, PolicyContext, ProductForms } from "../../src/products/types";
import { PNG_BASE64 } from "../support/harness";
import { fullConsumer, productCases, watDate } from "../support/policies";
import { refusal } from "./support";

type Seed = Record<string, unknown>;
type Which = "quote" | "policy";
const WHICH: readonly Which[] = ["quote", "policy"];

/** A request as a browser submits it, and the JSON seeds of test/support/policies.ts it must become. */
interface Scenario {
  name: string;
  code: string;
  consumer: InsuredConsumer;
  values: Record<Which, SubmittedValues>;
  json: Record<Which, Seed>;
  /**
   * Optional inputs this request's other values make necessary (a large loan's medical clearance, a
   * Hajj duration's isHajj): left blank, the rules refuse, naming the input mapped to.
   */
  needs?: Readonly<Record<string, string>>;
}

const person: InsuredConsumer = { class: "h", profile: fullConsumer(), documents: ["socialID.image"] };
const company: InsuredConsumer = {
  class: "o",
  profile: { class: "o", name: { brand: "Okafor Exports Ltd" }, rc: "RC123456", taxId: "TIN-1", addrss: { addrss: "4 Wharf Road, Apapa, Lagos" } },
  documents: ["cac02", "cac07"],
};

const IMEI = "490154203237518";
const SERIAL = "5CD1234567";
const firstHospital = (type: string) => HEALTH_INSURERS.find((i) => i.code === type)!.hospitals[0]!.name;

const cargo = (): SubmittedValues => ({
  insrncDrtn: "3m",
  "addtnlFact.items.0.description": "Cashew nuts",
  "addtnlFact.items.0.quantity": "100",
  "addtnlFact.items.0.value": "3000000",
  "addtnlFact.items.1.description": "Sesame seeds",
  "addtnlFact.items.1.quantity": "50",
  "addtnlFact.items.1.value": "2000000",
  "addtnlFact.goodsValue": "5000000",
  "addtnlFact.goodsDscrptn": "Agricultural produce",
  "addtnlFact.voyage.0.origin": "Lagos",
  "addtnlFact.voyage.1.destination": "Rotterdam",
  "addtnlFact.proformaInvoice": "PI-2026-0042",
  "addtnlFact.proformaDate": watDate(),
  "addtnlFact.coverStartDate": "",
  "addtnlFact.DrctrName": "",
  "addtnlFact.DrctrDob": "",
});
const loan = (): SubmittedValues => ({
  // Naira typed; the wire takes kobo (50,000,000).
  "addtnlFact.loanAmount": "500000",
  "addtnlFact.loanTenure": "12",
  "addtnlFact.disbursementDate": watDate(),
  "addtnlFact.loanStartDate": watDate(),
  "addtnlFact.loanEndDate": watDate(365),
  "addtnlFact.directorName": "",
  "addtnlFact.directorDob": "",
  "addtnlFact.medicalTestClearance": "",
});
const trip = (): SubmittedValues => ({
  insrncDrtn: "7d",
  "addtnlFact.planType": "individual",
  "addtnlFact.destination": "Germany",
  "addtnlFact.departureDate": watDate(10),
  "addtnlFact.returnDate": watDate(15),
  "addtnlFact.passportNo": "A12345678",
  "addtnlFact.middleName": "",
  "addtnlFact.occupation": "Engineer",
  "addtnlFact.nokName": "Chukwuma Okafor",
  "addtnlFact.nokRelationship": "Brother",
  "addtnlFact.nokPhone": "+2348030000001",
  "addtnlFact.nokAddress": "",
});

/** Per category: what staff type for the request of productCases (strings, blank optional inputs as ""). */
const BROWSER: Record<string, (type: string) => { quote: SubmittedValues; policy: SubmittedValues; facts?: Seed }> = {
  vhcl: () => ({
    quote: { insrncDrtn: "1y", vhclValueForInsrnc: "5000000" },
    policy: {
      insrncDrtn: "1y",
      "addtnlFact.brand": "Toyota",
      "addtnlFact.model": "Corolla",
      "addtnlFact.year": "2018",
      "addtnlFact.chsssId": "2T1BURHE0JC074316",
      "addtnlFact.engineId": "2ZR1234567",
      "addtnlFact.rgstrtId": "ABC123DE",
      "addtnlFact.vhclValueForInsrnc": "5,000,000",
      "addtnlFact.proofOfOwnrsh": "",
    },
  }),
  phnn: () => ({
    quote: { insrncDrtn: "1y" },
    policy: { insrncDrtn: "1y", "addtnlFact.brand": "Samsung", "addtnlFact.model": "Galaxy A54", "addtnlFact.uIdnt": IMEI },
    facts: { uIdnt: IMEI },
  }),
  lapt: () => ({
    quote: { insrncDrtn: "1y" },
    policy: { insrncDrtn: "1y", "addtnlFact.brand": "HP", "addtnlFact.model": "EliteBook 840", "addtnlFact.uIdnt": SERIAL },
    facts: { uIdnt: SERIAL },
  }),
  ltix: () => ({ quote: { insrncDrtn: "7d", destination: "Germany", planType: "individual", travelerAge: "" }, policy: trip() }),
  gtrn: () => ({
    quote: { goodsValue: "750000" },
    policy: {
      "addtnlFact.goodsType": "elct",
      "addtnlFact.goodsDscrptn": "Laptops and phones",
      "addtnlFact.goodsValue": "750000",
      "addtnlFact.voyage.0.origin": "Lagos",
      "addtnlFact.voyage.1.destination": "Abuja",
      "addtnlFact.dprtrDateTime": `${watDate(1)}T08:00`,
      "addtnlFact.estmtdArrvlDateTime": `${watDate(2)}T18:00`,
      "addtnlFact.proformaInvoice": "PI-2026-0099",
      "addtnlFact.proformaDate": watDate(),
    },
  }),
  mexx: () => ({ quote: { goodsValue: "5000000", insrncDrtn: "3m" }, policy: cargo() }),
  mrnn: () => ({ quote: { goodsValue: "5000000", insrncDrtn: "3m" }, policy: cargo() }),
  crlt: () => ({ quote: { loanAmount: "₦500,000" }, policy: loan() }),
  hlth: (type) => ({
    quote: { insrncDrtn: "1y" },
    policy: { insrncDrtn: "1y", "addtnlFact.hospital": firstHospital(type) },
    facts: { hospital: firstHospital(type) },
  }),
  allr: () => ({
    quote: { sumInsured: "1000000", insrncDrtn: "1y" },
    policy: { insrncDrtn: "1y", "addtnlFact.sumInsured": "1000000", "addtnlFact.description": "Laptop, camera and two phones" },
  }),
  firb: () => ({
    quote: { sumInsured: "20000000", insrncDrtn: "1y" },
    policy: {
      insrncDrtn: "1y",
      "addtnlFact.sumInsured": "20000000",
      "addtnlFact.description": "Shop stock and fittings",
      "addtnlFact.premisesAddress": "14 Adeola Odeku Street, Victoria Island, Lagos",
    },
  }),
  lrgg: () => ({
    quote: { LoanAmount: "1000000", LoanTenure: "12" },
    policy: {
      "addtnlFact.LoanAmount": "1000000",
      "addtnlFact.LoanTenure": "12",
      "addtnlFact.DsbrsmDate": watDate(),
      "addtnlFact.LoanStartDate": watDate(),
      "addtnlFact.LoanEndDate": watDate(365),
      "addtnlFact.DrctrName": "",
      "addtnlFact.DrctrDob": "",
    },
  }),
};

/** The request of productCases for `code` (or for another type of its category, which asks the same). */
function baseScenario(code: string): Scenario {
  const ctgry = code.split("-")[0]!;
  const { type } = findProduct(code);
  const c = productCases[code] ?? Object.values(productCases).find((p) => p.code.startsWith(`${ctgry}-`))!;
  const browser = BROWSER[ctgry]!(type);
  return {
    name: code,
    code,
    consumer: person,
    values: { quote: browser.quote, policy: browser.policy },
    json: {
      quote: c.quote!,
      policy: { ...(c.insrncDrtn ? { insrncDrtn: c.insrncDrtn } : {}), addtnlFact: { ...c.addtnlFact(), ...browser.facts } },
    },
  };
}

function variant(code: string, name: string, change: (s: Scenario) => Partial<Scenario>): Scenario {
  const base = baseScenario(code);
  return { ...base, ...change(base), name: `${code}, ${name}` };
}
const factsOf = (s: Scenario) => s.json.policy.addtnlFact as Seed;

const PASSENGERS = [
  { firstName: "Ada", lastName: "Okafor", dob: "2015-06-01", passportNo: "B7654321", gender: "f", occupation: "Student" },
  { firstName: "Obi", lastName: "Okafor", dob: "2012-01-15", passportNo: "B7654322" },
];
const directorOf = (fields: { name: string; dob: string }) => ({ [fields.name]: "Chukwuma Okafor", [fields.dob]: "1975-06-01" });
const asInputs = (facts: Seed): SubmittedValues => Object.fromEntries(Object.entries(facts).map(([key, value]) => [`addtnlFact.${key}`, String(value)]));

const scenarios: Scenario[] = [
  ...allProductCodes().map(baseScenario),
  variant("ltix-stnd-1111", "family plan with two passengers and every optional field", (s) => ({
    values: {
      quote: { ...s.values.quote, planType: "family", travelerAge: "36" },
      policy: {
        ...s.values.policy,
        "addtnlFact.planType": "family",
        "addtnlFact.middleName": "Ngozi",
        "addtnlFact.nokAddress": "3 Awolowo Road, Ikoyi, Lagos",
        ...Object.fromEntries(PASSENGERS.flatMap((p, i) => Object.entries(p).map(([key, value]) => [`addtnlFact.passengers.${i}.${key}`, value]))),
      },
    },
    json: {
      quote: { ...s.json.quote, planType: "family", travelerAge: 36 },
      policy: {
        ...s.json.policy,
        addtnlFact: { ...factsOf(s), planType: "family", middleName: "Ngozi", nokAddress: "3 Awolowo Road, Ikoyi, Lagos", passengers: PASSENGERS },
      },
    },
  })),
  variant("ltix-stnd-1111", "Hajj and Umrah", (s) => ({
    values: {
      quote: { insrncDrtn: "25d", destination: "Saudi Arabia", planType: "individual", isHajj: "on" },
      policy: {
        ...s.values.policy,
        insrncDrtn: "25d",
        "addtnlFact.destination": "Saudi Arabia",
        "addtnlFact.isHajj": "on",
        "addtnlFact.returnDate": watDate(30),
      },
    },
    json: {
      quote: { insrncDrtn: "25d", destination: "Saudi Arabia", planType: "individual", isHajj: true },
      policy: { insrncDrtn: "25d", addtnlFact: { ...factsOf(s), destination: "Saudi Arabia", isHajj: true, returnDate: watDate(30) } },
    },
    // 25 days is sold for Hajj and Umrah only.
    needs: { isHajj: "insrncDrtn", "addtnlFact.isHajj": "insrncDrtn" },
  })),
  variant("vhcl-cmpr-1111", "with proof of ownership", (s) => ({
    values: { ...s.values, policy: { ...s.values.policy, "addtnlFact.proofOfOwnrsh": PNG_BASE64 } },
    json: { ...s.json, policy: { ...s.json.policy, addtnlFact: { ...factsOf(s), proofOfOwnrsh: PNG_BASE64 } } },
  })),
  ...[
    ...["mexx-stnd-1111", "mrnn-stnd-1111"].map((code) => ({
      code,
      facts: { ...directorOf({ name: "DrctrName", dob: "DrctrDob" }), coverStartDate: watDate(3) },
    })),
    { code: "crlt-sme1-1111", facts: directorOf({ name: "directorName", dob: "directorDob" }) },
    { code: "lrgg-stnd-1111", facts: directorOf({ name: "DrctrName", dob: "DrctrDob" }) },
  ].map(({ code, facts }) =>
    variant(code, "an organisation with its director", (s) => ({
      consumer: company,
      values: { ...s.values, policy: { ...s.values.policy, ...asInputs(facts) } },
      json: { ...s.json, policy: { ...s.json.policy, addtnlFact: { ...factsOf(s), ...facts } } },
    })),
  ),
  variant("crlt-psnl-1111", "a loan at the medical clearance threshold", (s) => ({
    values: {
      quote: { loanAmount: "10,000,000" },
      policy: { ...s.values.policy, "addtnlFact.loanAmount": "10000000.00", "addtnlFact.medicalTestClearance": "true" },
    },
    json: { quote: { loanAmount: 1_000_000_000 }, policy: { addtnlFact: { ...factsOf(s), loanAmount: 1_000_000_000, medicalTestClearance: "true" } } },
    needs: { "addtnlFact.medicalTestClearance": "addtnlFact.medicalTestClearance" },
  })),
];

// ─── Running a scenario ──────────────────────────────────────────────────────────────────────────

const formsOf = (code: string): ProductForms => {
  const { family, type } = findProduct(code);
  return family.forms(type);
};

function contextOf(s: Scenario): PolicyContext {
  const { family, type } = findProduct(s.code);
  const { premiumKobo, duration, basis } = family.quote(type, s.json.quote);
  return { consumer: s.consumer, latestQuote: { premiumKobo, duration, basis, createdAt: new Date() }, now: new Date() };
}

/** The seed the portal sends for `values`. */
const seedOf = (s: Scenario, which: Which, values: SubmittedValues): Seed =>
  which === "quote" ? seedFromForm(formsOf(s.code).quote, values) : policySeedFromForm(formsOf(s.code), values);

/** The premium the rules give `seed` (throwing their refusal). */
function premiumOf(s: Scenario, which: Which, seed: Seed): number {
  const { family, type } = findProduct(s.code);
  if (which === "quote") return family.quote(type, seed).premiumKobo;
  return family.policy.terms(type, { insrncDrtn: seed.insrncDrtn, addtnlFact: seed.addtnlFact }, contextOf(s)).premiumKobo;
}
const refusalOf = (s: Scenario, which: Which, seed: Seed): CommandError => refusal(() => premiumOf(s, which, seed));
const judged = (e: CommandError) => ({ status: e.status, message: e.message, field: e.field });

const isVisible = (entry: FormEntry, values: SubmittedValues) => !entry.showWhen || values[entry.showWhen.path] === entry.showWhen.equals;

/** The visible inputs of a form by input name (a group's fields as its first entry's), with the group itself. */
function inputsOf(entries: readonly FormEntry[], values: SubmittedValues): { name: string; entry: FormField | FormGroup }[] {
  return entries
    .filter((entry) => isVisible(entry, values))
    .flatMap((entry) =>
      entry.kind === "group"
        ? [{ name: entry.path, entry }, ...entry.fields.map((field) => ({ name: inputName(field.path, { group: entry.path, index: 0 }), entry: field }))]
        : [{ name: entry.path, entry }],
    );
}
const requiredOf = (entry: FormField | FormGroup) => (entry.kind === "group" ? entry.min > 0 : entry.required === true);

/** `values` with the input `name` (or every entry of the group `name`) left blank. */
function blanked(values: SubmittedValues, name: string): SubmittedValues {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, key === name || key.startsWith(`${name}.`) ? "" : value]));
}

/** The value at an input name in a wire seed (numeric segments index arrays). */
const valueAt = (seed: unknown, name: string): unknown =>
  name.split(".").reduce<unknown>((node, key) => (node !== null && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined), seed);

/** A copy of a wire seed with the value at an input name replaced. */
function withValue(seed: Seed, name: string, value: unknown): Seed {
  const copy = structuredClone(seed);
  const keys = name.split(".");
  const parent = (keys.length > 1 ? valueAt(copy, keys.slice(0, -1).join(".")) : copy) as Record<string, unknown>;
  parent[keys.at(-1)!] = value;
  return copy;
}

/** The service answers 406 for a blank or null field before the rules run: the portal must never send one. */
const hasBlank = (value: unknown): boolean =>
  value === null || (typeof value === "string" && value.trim() === "") || (typeof value === "object" && Object.values(value as object).some(hasBlank));

/** The voyage's inputs make one wire array: a missing end is refused for the voyage as a whole. */
const isVoyageEnd = (name: string) => name.startsWith("addtnlFact.voyage.");

// ─── Tests ───────────────────────────────────────────────────────────────────────────────────────

describe("every product has portal forms", () => {
  test("every product code, every family", () => {
    expect(scenarios.filter((s) => s.name === s.code).map((s) => s.code)).toEqual(allProductCodes());
    for (const code of allProductCodes()) {
      const forms = formsOf(code);
      expect(forms.quote.length).toBeGreaterThan(0);
      expect(forms.policy.length).toBeGreaterThan(0);
    }
  });

  test("every input of every form is filled in some accepted request below (so no path escapes the strict rules)", () => {
    for (const ctgry of new Set(allProductCodes().map((code) => code.split("-")[0]!))) {
      const ofCategory = scenarios.filter((s) => s.code.startsWith(`${ctgry}-`));
      for (const which of WHICH) {
        const inputs = new Set(ofCategory.flatMap((s) => inputsOf(formsOf(s.code)[which], s.values[which]).map(({ name }) => name)));
        const filled = new Set(ofCategory.flatMap((s) => Object.keys(s.values[which]).filter((name) => s.values[which][name]?.trim())));
        expect({ ctgry, which, unfilled: [...inputs].filter((name) => ![...filled].some((f) => f === name || f.startsWith(`${name}.`))) }).toEqual({
          ctgry,
          which,
          unfilled: [],
        });
      }
    }
  });
});

describe.each(scenarios.map((s) => [s.name, s] as const))("%s", (_name, s) => {
  test.each(WHICH)("the %s form gives the JSON seed, which the rules accept at the same premium", (which) => {
    const seed = seedOf(s, which, s.values[which]);
    expect(seed).toStrictEqual(s.json[which]);
    expect(premiumOf(s, which, seed)).toBe(premiumOf(s, which, s.json[which]));
  });

  test.each(WHICH)("%s: a required input left blank is not sent, and the rules say it is missing, naming that input", (which) => {
    const forms = formsOf(s.code);
    const required = inputsOf(forms[which], s.values[which]).filter(({ entry }) => requiredOf(entry));
    expect(required.length).toBeGreaterThan(0);
    for (const { name } of required) {
      const seed = seedOf(s, which, blanked(s.values[which], name));
      expect(valueAt(seed, name)).toBeUndefined();
      expect(hasBlank(seed)).toBe(false);
      const e = refusalOf(s, which, seed);
      if (isVoyageEnd(name)) {
        expect({ name, field: e.field, message: e.message }).toEqual({
          name,
          field: "seed.addtnlFact.voyage",
          message: "seed.addtnlFact.voyage must have at least 2 entries",
        });
        continue;
      }
      expect({ name, input: inputForField(e.field) }).toEqual({ name, input: name });
      expect(e.message).toMatch(/is required|not provided|lacks/);
    }
  });

  test.each(WHICH)("%s: an optional input left blank is left out (never a blank value, no 406)", (which) => {
    const optional = inputsOf(formsOf(s.code)[which], s.values[which]).filter(({ entry }) => !requiredOf(entry));
    for (const { name } of optional) {
      const seed = seedOf(s, which, blanked(s.values[which], name));
      expect(valueAt(seed, name)).toBeUndefined();
      expect(hasBlank(seed)).toBe(false);
      const needed = s.needs?.[name];
      if (needed) expect(inputForField(refusalOf(s, which, seed).field)).toBe(needed);
      else expect(() => premiumOf(s, which, seed)).not.toThrow();
    }
  });

  test.each(WHICH)("%s: text in a number input gets the JSON surface's words", (which) => {
    const numbers = inputsOf(formsOf(s.code)[which], s.values[which]).filter(({ entry }) => entry.kind === "number" || entry.kind === "integer");
    for (const { name } of numbers) {
      const fromForm = refusalOf(s, which, seedOf(s, which, { ...s.values[which], [name]: "12 naira" }));
      expect(judged(fromForm)).toEqual(judged(refusalOf(s, which, withValue(s.json[which], name, "12 naira"))));
      expect(fromForm.message).toMatch(/must be a JSON (number|integer), not a string/);
      expect(inputForField(fromForm.field)).toBe(name);
    }
  });
});

describe("groups", () => {
  const family = scenarios.find((s) => s.name.includes("family plan"))!;
  const marine = baseScenario("mexx-stnd-1111");
  const passengerInputs = (count: number): SubmittedValues =>
    Object.fromEntries(
      Array.from({ length: count }, (_, i) => [
        [`addtnlFact.passengers.${i}.firstName`, `Child${i}`],
        [`addtnlFact.passengers.${i}.lastName`, "Okafor"],
        [`addtnlFact.passengers.${i}.dob`, "2015-06-01"],
        [`addtnlFact.passengers.${i}.passportNo`, `B76543${String(i).padStart(2, "0")}`],
      ]).flat(),
    );
  const itemInputs = (count: number): SubmittedValues =>
    Object.fromEntries(
      Array.from({ length: count }, (_, i) => [
        [`addtnlFact.items.${i}.description`, `Bag ${i}`],
        [`addtnlFact.items.${i}.quantity`, "1"],
        [`addtnlFact.items.${i}.value`, "50000"],
      ]).flat(),
    );

  test("two marine items and two passengers become arrays, in order", () => {
    expect(valueAt(seedOf(marine, "policy", marine.values.policy), "addtnlFact.items")).toEqual([
      { description: "Cashew nuts", quantity: 100, value: 3_000_000 },
      { description: "Sesame seeds", quantity: 50, value: 2_000_000 },
    ]);
    expect(valueAt(seedOf(family, "policy", family.values.policy), "addtnlFact.passengers")).toEqual(PASSENGERS);
  });

  test("a hidden group is not sent: passengers typed before switching the plan to individual", () => {
    const individual = baseScenario("ltix-stnd-1111");
    const values = { ...individual.values.policy, ...passengerInputs(2) };
    const seed = seedOf(individual, "policy", values);
    expect(seed).toStrictEqual(individual.json.policy);
    expect(() => premiumOf(individual, "policy", seed)).not.toThrow();
  });

  test("a family plan with no passengers is refused by the rules, naming the group", () => {
    const e = refusalOf(family, "policy", seedOf(family, "policy", blanked(family.values.policy, "addtnlFact.passengers")));
    expect(e.message).toStartWith("missing passenger fields: seed.addtnlFact.passengers is required for a family plan");
    expect(inputForField(e.field)).toBe("addtnlFact.passengers");
  });

  test("a passenger missing a field: the rules name that passenger's input", () => {
    const values = { ...family.values.policy, "addtnlFact.passengers.1.dob": "" };
    const e = refusalOf(family, "policy", seedOf(family, "policy", values));
    expect(e.message).toStartWith("missing passenger fields: seed.addtnlFact.passengers[1] lacks dob");
    expect(inputForField(e.field)).toBe("addtnlFact.passengers.1.dob");
  });

  // The forms copy these limits (the rules keep them private): up to max is sent, one more reaches the rules, which refuse it.
  test.each([
    ["addtnlFact.passengers", "travel passengers", family, passengerInputs, 10],
    ["addtnlFact.items", "marine items", marine, itemInputs, 100],
  ] as const)("%s: the form's max is the rules' limit (%s)", (path, _label, s, inputs, limit) => {
    const group = formsOf(s.code).policy.find((entry): entry is FormGroup => entry.kind === "group" && entry.path === path)!;
    expect(group.max).toBe(limit);
    const base = blanked(s.values.policy, path);
    expect(() => premiumOf(s, "policy", seedOf(s, "policy", { ...base, ...inputs(limit) }))).not.toThrow();
    const e = refusalOf(s, "policy", seedOf(s, "policy", { ...base, ...inputs(limit + 1) }));
    expect(e.message).toBe(`seed.${path} must have at most ${limit} entries`);
    expect(inputForField(e.field)).toBe(path);
  });
});

describe("product specifics", () => {
  test("travel: every destination of the select is a destination the quote accepts", () => {
    const destination = formsOf("ltix-stnd-1111").quote.find((entry) => entry.path === "destination") as FormField;
    expect(destination.options!.map((o) => o.value)).toEqual([...SUPPORTED_DESTINATIONS]);
    for (const { value } of destination.options!)
      expect(() => findProduct("ltix-stnd-1111").family.quote("stnd", { insrncDrtn: "7d", destination: value, planType: "individual" })).not.toThrow();
  });

  test("travel: one duration select for both tables, labelled by table; each option is sold by its table", () => {
    const duration = formsOf("ltix-stnd-1111").quote.find((entry) => entry.path === "insrncDrtn") as FormField;
    expect(duration.options).toEqual([
      { value: "7d", label: "7 days" },
      { value: "15d", label: "15 days (standard, or Hajj and Umrah)" },
      { value: "30d", label: "30 days" },
      { value: "62d", label: "62 days" },
      { value: "92d", label: "92 days" },
      { value: "6m", label: "6 months (multi-trip)" },
      { value: "12m", label: "12 months (multi-trip)" },
      { value: "25d", label: "25 days (Hajj and Umrah only)" },
      { value: "45d", label: "45 days (Hajj and Umrah only)" },
    ]);
    const quote = (values: SubmittedValues) => findProduct("ltix-stnd-1111").family.quote("stnd", seedFromForm(formsOf("ltix-stnd-1111").quote, values));
    for (const { value, label } of duration.options!) {
      const hajj = { insrncDrtn: value, destination: "Saudi Arabia", planType: "individual", isHajj: "on" };
      const standard = { insrncDrtn: value, destination: "Germany", planType: "individual" };
      if (label.includes("Hajj")) expect(() => quote(hajj)).not.toThrow();
      if (!label.includes("only")) expect(() => quote(standard)).not.toThrow();
      else expect(refusal(() => quote(standard)).message).toStartWith("invalid duration for plan");
    }
  });

  test("travel: the quote's travelerAge is an integer input (72 pays double)", () => {
    const s = baseScenario("ltix-stnd-1111");
    const seed = seedOf(s, "quote", { ...s.values.quote, travelerAge: "72" });
    expect(seed.travelerAge).toBe(72);
    expect(premiumOf(s, "quote", seed)).toBe(2 * premiumOf(s, "quote", s.json.quote));
  });

  test("goods in transit: the goodsType options are the rules' codes, printed with the option's name", () => {
    const s = baseScenario("gtrn-stnd-1111");
    const goodsType = formsOf(s.code).policy.find((entry) => entry.path === "addtnlFact.goodsType") as FormField;
    const { family, type } = findProduct(s.code);
    const terms = (addtnlFact: Seed) => family.policy.terms(type, { addtnlFact }, contextOf(s));
    const e = refusal(() => terms({ ...factsOf(s), goodsType: "other" }));
    expect(e.message).toBe(`seed.addtnlFact.goodsType must be one of ${goodsType.options!.map((o) => `"${o.value}"`).join(", ")}; received "other"`);
    for (const { value, label } of goodsType.options!)
      expect(terms({ ...factsOf(s), goodsType: value }).printed[0]).toEqual(["Goods", `Laptops and phones (${label.toLowerCase()})`]);
  });

  test("goods in transit: datetime-local inputs become YYYY-MM-DD HH:MM:SS", () => {
    const s = baseScenario("gtrn-stnd-1111");
    const seed = seedOf(s, "policy", s.values.policy);
    expect(valueAt(seed, "addtnlFact.dprtrDateTime")).toBe(`${watDate(1)} 08:00:00`);
    expect(valueAt(seed, "addtnlFact.estmtdArrvlDateTime")).toBe(`${watDate(2)} 18:00:00`);
  });

  test.each(["gtrn-stnd-1111", "mrnn-cmpr-1111"])("%s: the voyage inputs are the wire's voyage[0].origin and voyage[1].destination", (code) => {
    const s = baseScenario(code);
    const voyage = valueAt(factsOf(s), "voyage") as Seed[];
    expect(valueAt(seedOf(s, "policy", s.values.policy), "addtnlFact.voyage")).toEqual(voyage);
    const tooLong = refusalOf(s, "policy", seedOf(s, "policy", { ...s.values.policy, "addtnlFact.voyage.0.origin": "L".repeat(101) }));
    expect(inputForField(tooLong.field)).toBe("addtnlFact.voyage.0.origin");
    // A missing end or the same place twice is about the voyage as a whole: the portal shows it for both inputs.
    const missing = refusalOf(s, "policy", seedOf(s, "policy", { ...s.values.policy, "addtnlFact.voyage.0.origin": "" }));
    expect(judged(missing)).toEqual(judged(refusalOf(s, "policy", withValue(s.json.policy, "addtnlFact.voyage", voyage.slice(1)))));
  });

  test("credit life: the amount is typed in naira and sent in kobo, the clearance threshold is stated, and there is no lenderName input", () => {
    for (const type of ["sme1", "psnl", "kymn", "mrtg"]) {
      const forms = formsOf(`crlt-${type}-1111`);
      const amount = forms.policy.find((entry) => entry.path === "addtnlFact.loanAmount") as FormField;
      expect(amount.label).toBe("Loan amount (₦)");
      expect(amount.wireUnit).toBe("kobo");
      expect(wireValue(amount, "₦1,500.25")).toBe(150_025);
      expect(wireValue(amount, "1500.255")).toBe("1500.255");
      expect(amount.hint).toContain("₦10,000,000");
      expect([...forms.quote, ...forms.policy].some((entry) => entry.path.includes("lenderName"))).toBe(false);
      const clearance = forms.policy.find((entry) => entry.path === "addtnlFact.medicalTestClearance") as FormField;
      expect(clearance.options!.map((o) => o.value)).toEqual(["true"]);
    }
  });

  test("health: each insurer's form lists its own network, every hospital accepted", () => {
    for (const insurer of HEALTH_INSURERS) {
      const s = baseScenario(`hlth-${insurer.code}-1111`);
      const hospital = formsOf(s.code).policy.find((entry) => entry.path === "addtnlFact.hospital") as FormField;
      expect(hospital.options!.map((o) => o.value)).toEqual(insurer.hospitals.map((h) => h.name));
      for (const { value } of hospital.options!) {
        const seed = seedOf(s, "policy", { ...s.values.policy, "addtnlFact.hospital": value });
        expect(() => premiumOf(s, "policy", seed)).not.toThrow();
      }
    }
  });

  test("all risk has no premises input; fire and burglary has an optional one", () => {
    const paths = (code: string) => formsOf(code).policy.map((entry) => entry.path);
    expect(paths("allr-stnd-1111")).not.toContain("addtnlFact.premisesAddress");
    expect(formsOf("firb-stnd-1111").policy.find((entry) => entry.path === "addtnlFact.premisesAddress")).toMatchObject({ kind: "textarea" });
  });
});

describe("src/products/forms.ts", () => {
  const field = (kind: FormField["kind"]): FormField => ({ kind, path: "x", label: "X" });

  test("wireValue: numbers from text as typed, dates and times in the wire's form, blanks left out", () => {
    expect(wireValue(field("number"), "5000000")).toBe(5_000_000);
    expect(wireValue(field("number"), " ₦5,000,000.50 ")).toBe(5_000_000.5);
    expect(wireValue(field("integer"), "12")).toBe(12);
    expect(wireValue(field("integer"), "12.5")).toBe(12.5);
    // Not a number: kept as text, so the rules answer "must be a JSON number, not a string".
    for (const text of ["abc", "₦", ",", "0x10", "1e5", "Infinity", "5 000 000 naira"]) expect(wireValue(field("number"), text)).toBe(text);
    for (const blank of [undefined, "", "   "]) expect(wireValue(field("number"), blank)).toBeUndefined();
    expect(wireValue(field("text"), "  Lagos ")).toBe("Lagos");
    expect(wireValue(field("text"), "  ")).toBeUndefined();
    expect(wireValue(field("select"), "1y")).toBe("1y");
    expect(wireValue(field("date"), "2026-12-01")).toBe("2026-12-01");
    expect(wireValue(field("checkbox"), "on")).toBe(true);
    expect(wireValue(field("checkbox"), "true")).toBe(true);
    expect(wireValue(field("checkbox"), undefined)).toBeUndefined();
    expect(wireValue(field("datetime"), "2026-12-01T08:00")).toBe("2026-12-01 08:00:00");
    expect(wireValue(field("datetime"), "2026-12-01T08:00:30")).toBe("2026-12-01 08:00:30");
    expect(wireValue(field("datetime"), "1 Dec 2026 8am")).toBe("1 Dec 2026 8am");
  });

  test("inputName and inputForField: a refusal's field is the input's name", () => {
    expect(inputName("insrncDrtn")).toBe("insrncDrtn");
    expect(inputName("dob", { group: "addtnlFact.passengers", index: 1 })).toBe("addtnlFact.passengers.1.dob");
    expect(inputForField("seed.addtnlFact.items[1].value")).toBe("addtnlFact.items.1.value");
    expect(inputForField("seed.addtnlFact.voyage[0].origin")).toBe("addtnlFact.voyage.0.origin");
    expect(inputForField("seed.loanAmount")).toBe("loanAmount");
    expect(inputForField("seed.insrncDrtn")).toBe("insrncDrtn");
    expect(inputForField(undefined)).toBeUndefined();
  });

  const group: FormGroup = {
    kind: "group",
    path: "addtnlFact.items",
    label: "Items",
    itemLabel: "Item",
    min: 1,
    max: 3,
    fields: [
      { kind: "text", path: "description", label: "Description" },
      { kind: "integer", path: "quantity", label: "Quantity" },
    ],
  };

  test("group sizing: up to the highest index with a value; a gap is an empty entry; one past max is kept for the rules to refuse", () => {
    expect(seedFromForm([group], {})).toEqual({});
    expect(seedFromForm([group], { "addtnlFact.items.0.description": "  " })).toEqual({});
    expect(seedFromForm([group], { "addtnlFact.items.0.description": "Bag", "addtnlFact.items.2.quantity": "2" })).toEqual({
      addtnlFact: { items: [{ description: "Bag" }, {}, { quantity: 2 }] },
    });
    const many = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`addtnlFact.items.${i}.description`, `Bag ${i}`]));
    expect(valueAt(seedFromForm([group], many), "addtnlFact.items")).toHaveLength(4);
    expect(valueAt(seedFromForm([group], { "addtnlFact.items.99999999.description": "Bag" }), "addtnlFact.items")).toHaveLength(4);
  });

  test("showWhen: a field or group is sent only while the other input holds the value", () => {
    const entries: FormEntry[] = [
      { kind: "select", path: "addtnlFact.planType", label: "Plan" },
      { kind: "text", path: "addtnlFact.note", label: "Note", showWhen: { path: "addtnlFact.planType", equals: "family" } },
      { ...group, showWhen: { path: "addtnlFact.planType", equals: "family" } },
    ];
    const values = { "addtnlFact.note": "hello", "addtnlFact.items.0.description": "Bag" };
    expect(seedFromForm(entries, { ...values, "addtnlFact.planType": "individual" })).toEqual({ addtnlFact: { planType: "individual" } });
    expect(seedFromForm(entries, { ...values, "addtnlFact.planType": "family" })).toEqual({
      addtnlFact: { planType: "family", note: "hello", items: [{ description: "Bag" }] },
    });
  });

  test("policySeedFromForm applies the family's policySeed, when it has one", () => {
    const entries: FormEntry[] = [{ kind: "text", path: "addtnlFact.a", label: "A" }];
    expect(policySeedFromForm({ quote: [], policy: entries }, { "addtnlFact.a": "x" })).toEqual({ addtnlFact: { a: "x" } });
    // All blank: an empty addtnlFact, so the rules say which field inside it is missing.
    expect(policySeedFromForm({ quote: [], policy: entries }, { "addtnlFact.a": " " })).toEqual({ addtnlFact: {} });
    expect(policySeedFromForm({ quote: [], policy: entries, policySeed: (seed) => ({ ...seed, extra: 1 }) }, { "addtnlFact.a": "x" })).toEqual({
      addtnlFact: { a: "x" },
      extra: 1,
    });
  });

  test("durationOptions, durationSelect and naira: what people read", () => {
    expect(durationOptions(["1m", "1y"])).toEqual([
      { value: "1m", label: "1 month" },
      { value: "1y", label: "1 year" },
    ]);
    expect(durationSelect(["6m", "1y"])).toEqual({
      kind: "select",
      path: "insrncDrtn",
      label: "Cover duration",
      required: true,
      options: [
        { value: "6m", label: "6 months" },
        { value: "1y", label: "1 year" },
      ],
    });
    expect(naira(50_000_000)).toBe("₦50,000,000");
  });
});
