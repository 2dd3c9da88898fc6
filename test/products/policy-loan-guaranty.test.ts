import { describe, expect, test } from "bun:test";
import { findProduct } from "../../src/products";
import type { InsuredConsumer, PolicyContext, QuoteOnFile } from "../../src/products/types";
import { refusal } from "./support";

const { family, type } = findProduct("lrgg-stnd-1111");
/** 10:00 WAT on 10 March 2026. */
const NOW = new Date("2026-03-10T09:00:00Z");
const borrower = (dob = "1990-04-12"): InsuredConsumer => ({
  class: "h",
  profile: { class: "h", name: { first: "Adaeze", last: "Okafor" }, gender: "f", dob: { date: dob }, addrss: { addrss: "12 Admiralty Way, Lagos" } },
  documents: [],
});
const company: InsuredConsumer = {
  class: "o",
  profile: { class: "o", name: { brand: "Okafor Foods Ltd" }, addrss: { addrss: "4 Wharf Road, Apapa" } },
  documents: [],
};

/** The partner's latest lrgg quote, as the quote command stores it. */
function quoted(seed: { LoanAmount: number; LoanTenure: number }): QuoteOnFile {
  const { premiumKobo, basis } = family.quote(type, seed);
  return { premiumKobo, basis, createdAt: new Date("2026-03-10T08:00:00Z") };
}
const QUOTE = quoted({ LoanAmount: 1_000_000, LoanTenure: 12 });

interface Options {
  consumer?: InsuredConsumer;
  latestQuote?: QuoteOnFile | null;
  insrncDrtn?: unknown;
}
const contextOf = ({ consumer = borrower(), latestQuote = QUOTE }: Options): PolicyContext => ({ consumer, latestQuote: latestQuote ?? undefined, now: NOW });

const valid = (): Record<string, unknown> => ({
  LoanAmount: 1_000_000,
  LoanTenure: 12,
  DsbrsmDate: "2026-03-10",
  LoanStartDate: "2026-03-10",
  LoanEndDate: "2027-03-10",
});
const director = { DrctrName: "Chukwuma Okafor", DrctrDob: "1975-06-01" };
const withFacts = (changes: Record<string, unknown>) => ({ ...valid(), ...changes });
const without = (field: string) => {
  const facts = valid();
  delete facts[field];
  return facts;
};

const terms = (addtnlFact: unknown, options: Options = {}) => family.policy.terms(type, { addtnlFact, insrncDrtn: options.insrncDrtn }, contextOf(options));
const refused = (addtnlFact: unknown, options?: Options) => refusal(() => terms(addtnlFact, options));
/** The automatic decision, on terms as the database gives them back (facts through JSON). */
function decline(addtnlFact: unknown, options: Options = {}) {
  const t = terms(addtnlFact, options);
  return family.policy.declineReason(type, { ...t, facts: JSON.parse(JSON.stringify(t.facts)) }, contextOf(options), { deviceAlreadyInsured: false });
}

describe("lrgg-stnd-1111 terms", () => {
  test("a valid request: the quote's premium, cover over the loan period, manual review", () => {
    const t = terms(valid());
    expect(t.premiumKobo).toBe(QUOTE.premiumKobo);
    expect(t.premiumKobo).toBe(6_000_000); // 1000000 x 0.5% x 12 = 60000 naira
    expect(t.duration).toBeUndefined();
    expect(t.coverStart).toEqual(new Date("2026-03-09T23:00:00Z"));
    expect(t.coverEnd).toEqual(new Date("2027-03-09T23:00:00Z"));
    expect(t.liveRoute).toBe("manual");
    expect(t.facts).toEqual(valid());
    expect(t.printed).toEqual([
      ["Loan amount", "₦1,000,000.00"],
      ["Loan tenure", "12 months"],
      ["Disbursement date", "2026-03-10"],
    ]);
  });

  test.each([
    [500_000, 6],
    [1_234.5, 3],
    [333_333, 7],
  ])("LoanAmount %d for %d months is priced as quoted", (LoanAmount, LoanTenure) => {
    expect(terms(withFacts({ LoanAmount, LoanTenure })).premiumKobo).toBe(family.quote(type, { LoanAmount, LoanTenure }).premiumKobo);
  });

  test("insrncDrtn is refused: the loan period is the cover", () => {
    const error = refused(valid(), { insrncDrtn: "1y" });
    expect(error.field).toBe("seed.insrncDrtn");
    expect(error.message).toContain("must be omitted for loan guaranty");
  });

  test("addtnlFact is required", () => {
    expect(refused(undefined).message).toBe("seed.addtnlFact is required for this product");
  });

  test.each(["LoanAmount", "LoanTenure", "DsbrsmDate", "LoanStartDate", "LoanEndDate"])("%s is required", (field) => {
    const error = refused(without(field));
    expect(error.status).toBe(400);
    expect(error.field).toBe(`seed.addtnlFact.${field}`);
    expect(error.message).toBe(`seed.addtnlFact.${field} is required`);
  });

  test("LoanAmount and LoanTenure are JSON numbers, never strings", () => {
    const amount = refused(withFacts({ LoanAmount: "1000000" }));
    expect(amount.field).toBe("seed.addtnlFact.LoanAmount");
    expect(amount.message).toBe("seed.addtnlFact.LoanAmount must be a JSON number, not a string (send 1000000 without quotes)");
    const tenure = refused(withFacts({ LoanTenure: "12" }));
    expect(tenure.field).toBe("seed.addtnlFact.LoanTenure");
    expect(tenure.message).toContain("not a string");
  });

  test("LoanTenure is whole months, at least 1; LoanAmount above 0", () => {
    expect(refused(withFacts({ LoanTenure: 1.5 })).message).toBe("seed.addtnlFact.LoanTenure must be a JSON integer; received a number");
    expect(refused(withFacts({ LoanTenure: 0 })).message).toBe("seed.addtnlFact.LoanTenure must be at least 1; received 0");
    expect(refused(withFacts({ LoanAmount: 0 })).message).toBe("seed.addtnlFact.LoanAmount must be more than 0; received 0");
  });

  test.each([
    ["DsbrsmDate", "10/03/2026", "must be a date in the form YYYY-MM-DD"],
    ["LoanStartDate", "2026-03-10 00:00:00", "must be a date in the form YYYY-MM-DD"],
    ["LoanEndDate", "2027-02-30", "is not a real calendar date"],
    ["DrctrDob", "01-06-1975", "must be a date in the form YYYY-MM-DD"],
  ])("%s %p is refused", (field, value, rule) => {
    const error = refused(withFacts({ ...director, [field]: value }), { consumer: company });
    expect(error.field).toBe(`seed.addtnlFact.${field}`);
    expect(error.message).toBe(`seed.addtnlFact.${field} ${rule}`);
  });

  test("LoanStartDate must match DsbrsmDate (400)", () => {
    const error = refused(withFacts({ DsbrsmDate: "2026-03-09" }));
    expect(error.status).toBe(400);
    expect(error.field).toBe("seed.addtnlFact.LoanStartDate");
    expect(error.message).toBe('seed.addtnlFact.LoanStartDate must match DsbrsmDate ("2026-03-09"), the actual disbursement date; received "2026-03-10"');
  });

  test("director details: optional for organisations, refused for individuals", () => {
    expect(terms(valid(), { consumer: company }).facts).toEqual(valid());
    const t = terms(withFacts(director), { consumer: company });
    expect(t.facts).toMatchObject(director);
    expect(t.printed).toContainEqual(["Director", "Chukwuma Okafor"]);
    const error = refused(withFacts({ DrctrDob: "1975-06-01" }));
    expect(error.field).toBe("seed.addtnlFact.DrctrDob");
    expect(error.message).toContain("is for organisation consumers only");
  });

  test("unknown fields (lower-case spellings included) are refused", () => {
    expect(refused(withFacts({ loanAmount: 1_000_000 })).message).toBe("seed.addtnlFact has unknown field: loanAmount");
  });
});

describe("lrgg-stnd-1111 automatic decisions (spec 7)", () => {
  test("the quoted amount, a consistent period and a borrower in the band are approved", () => {
    expect(decline(valid())).toBeNull();
    // Only the amount must match the quote; the premium follows the tenure sent.
    expect(decline(withFacts({ LoanTenure: 6 }))).toBeNull();
  });

  test("an amount differing from the latest quote is declined", () => {
    expect(decline(withFacts({ LoanAmount: 1_200_000 }))).toBe(
      "Loan guaranty amount differs between quote and issuance: LoanAmount is ₦1,200,000.00 at issuance but ₦1,000,000.00 in the latest quote.",
    );
  });

  test("with no quote on file the amount cannot be matched and is declined", () => {
    expect(decline(valid(), { latestQuote: null })).toBe(
      "Loan guaranty amount differs between quote and issuance: no lrgg-stnd-1111 quote is on file to match LoanAmount ₦1,000,000.00; quote the loan before issuing.",
    );
  });

  test("LoanStartDate after LoanEndDate is declined; the same day is not", () => {
    expect(decline(withFacts({ LoanEndDate: "2026-03-01" }))).toBe(
      "LoanStartDate after LoanEndDate: the loan cannot start on 2026-03-10 and end earlier, on 2026-03-01.",
    );
    expect(decline(withFacts({ LoanEndDate: "2026-03-10" }))).toBeNull();
  });

  test("a borrower outside the age band is declined", () => {
    expect(decline(valid(), { consumer: borrower("2009-01-01") })).toStartWith(
      "Borrower outside the insurable age band: the borrower (born 2009-01-01) is 17 on the loan start date 2026-03-10",
    );
    expect(decline(withFacts({ LoanEndDate: "2033-03-10" }), { consumer: borrower("1962-01-01") })).toStartWith(
      "Borrower outside the insurable age band: the borrower (born 1962-01-01) will be 71 on the loan end date 2033-03-10",
    );
  });

  test("an organisation: the director's age when given; no director is not a decline (optional for lrgg)", () => {
    expect(decline(valid(), { consumer: company })).toBeNull();
    expect(decline(withFacts(director), { consumer: company })).toBeNull();
    expect(decline(withFacts({ ...director, DrctrDob: "1950-06-01" }), { consumer: company })).toStartWith(
      "Borrower outside the insurable age band: the director (born 1950-06-01) is 75",
    );
  });
});

test("certificate (spec 2.6): a JPG, inline", () => {
  expect(family.policy.certificate(type)).toEqual({ type: "jpg", delivery: "inline" });
});
