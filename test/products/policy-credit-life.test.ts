import { describe, expect, test } from "bun:test";
import { findProduct } from "../../src/products";
import type { InsuredConsumer, PolicyContext } from "../../src/products/types";
import { refusal } from "./support";

const { family } = findProduct("crlt-psnl-1111");
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
const contextOf = (consumer: InsuredConsumer): PolicyContext => ({ consumer, now: NOW });

const valid = (): Record<string, unknown> => ({
  loanAmount: 50_000_000,
  loanTenure: 12,
  disbursementDate: "2026-03-10",
  loanStartDate: "2026-03-10",
  loanEndDate: "2027-03-10",
});
const director = { directorName: "Chukwuma Okafor", directorDob: "1975-06-01" };
const withFacts = (changes: Record<string, unknown>) => ({ ...valid(), ...changes });
const without = (field: string) => {
  const facts = valid();
  delete facts[field];
  return facts;
};

interface Options {
  type?: string;
  consumer?: InsuredConsumer;
  insrncDrtn?: unknown;
}
const terms = (addtnlFact: unknown, { type = "psnl", consumer = borrower(), insrncDrtn }: Options = {}) =>
  family.policy.terms(type, { addtnlFact, insrncDrtn }, contextOf(consumer));
const refused = (addtnlFact: unknown, options?: Options) => refusal(() => terms(addtnlFact, options));
/** The automatic decision, on terms as the database gives them back (facts through JSON). */
function decline(addtnlFact: unknown, { type = "psnl", consumer = borrower() }: Options = {}) {
  const t = terms(addtnlFact, { type, consumer });
  return family.policy.declineReason(type, { ...t, facts: JSON.parse(JSON.stringify(t.facts)) }, contextOf(consumer), { deviceAlreadyInsured: false });
}

describe("crlt terms", () => {
  test.each(["sme1", "psnl", "kymn", "mrtg"])("crlt-%s: the quote's premium in kobo, cover over the loan period, manual review", (type) => {
    const t = terms(valid(), { type });
    expect(t.premiumKobo).toBe(family.quote(type, { loanAmount: 50_000_000 }).premiumKobo);
    expect(t.duration).toBeUndefined();
    expect(t.coverStart).toEqual(new Date("2026-03-09T23:00:00Z"));
    expect(t.coverEnd).toEqual(new Date("2027-03-09T23:00:00Z"));
    expect(t.liveRoute).toBe("manual");
    expect(t.facts).toEqual(valid());
  });

  test("premiums: 1% / 1% / 0.5% / 0.85% of loanAmount, to the kobo", () => {
    expect(terms(valid(), { type: "sme1" }).premiumKobo).toBe(500_000);
    expect(terms(valid(), { type: "kymn" }).premiumKobo).toBe(250_000);
    expect(terms(withFacts({ loanAmount: 12_345 }), { type: "mrtg" }).premiumKobo).toBe(105);
  });

  test("printed: the loan amount in naira, the tenure and the disbursement date; the director when given", () => {
    expect(terms(valid()).printed).toEqual([
      ["Loan amount", "₦500,000.00"],
      ["Loan tenure", "12 months"],
      ["Disbursement date", "2026-03-10"],
    ]);
    expect(terms(withFacts({ ...director, loanTenure: 1 }), { type: "sme1", consumer: company }).printed).toEqual([
      ["Loan amount", "₦500,000.00"],
      ["Loan tenure", "1 month"],
      ["Disbursement date", "2026-03-10"],
      ["Director", "Chukwuma Okafor"],
    ]);
  });

  test("lenderName must not be sent (400), whatever else is sent", () => {
    for (const facts of [withFacts({ lenderName: "First Bank" }), { lenderName: "First Bank" }]) {
      const error = refused(facts);
      expect(error.status).toBe(400);
      expect(error.field).toBe("seed.addtnlFact.lenderName");
      expect(error.message).toBe("seed.addtnlFact.lenderName must not be sent: the lender is filled in from the partner account name");
    }
  });

  test("insrncDrtn is refused: the loan period is the cover", () => {
    const error = refused(valid(), { insrncDrtn: "1y" });
    expect(error.status).toBe(400);
    expect(error.field).toBe("seed.insrncDrtn");
    expect(error.message).toContain("must be omitted for credit life");
  });

  test.each(["loanAmount", "loanTenure", "disbursementDate", "loanStartDate", "loanEndDate"])("%s missing → 406 %s not provided", (field) => {
    for (const facts of [without(field), withFacts({ [field]: null })]) {
      const error = refused(facts);
      expect(error.status).toBe(406);
      expect(error.field).toBe(`seed.addtnlFact.${field}`);
      expect(error.message).toBe(`${field} not provided`);
    }
  });

  test("no addtnlFact at all → 406 loanAmount not provided; fields are checked in the spec's order", () => {
    expect(refused(undefined).message).toBe("loanAmount not provided");
    expect(refused({ loanAmount: 1 }).message).toBe("loanTenure not provided");
    expect(refused({ loanAmount: 1, loanTenure: 1, loanEndDate: "2027-03-10" }).message).toBe("disbursementDate not provided");
  });

  test("numbers are JSON numbers, never strings", () => {
    const amount = refused(withFacts({ loanAmount: "50000000" }));
    expect(amount.status).toBe(400);
    expect(amount.field).toBe("seed.addtnlFact.loanAmount");
    expect(amount.message).toBe("seed.addtnlFact.loanAmount must be a JSON number, not a string (send 50000000 without quotes)");
    const tenure = refused(withFacts({ loanTenure: "12" }));
    expect(tenure.field).toBe("seed.addtnlFact.loanTenure");
    expect(tenure.message).toContain("not a string");
  });

  test("loanAmount and loanTenure are above 0; loanTenure may be a fraction of months (a float in spec 2.5)", () => {
    expect(refused(withFacts({ loanAmount: 0 })).message).toBe("seed.addtnlFact.loanAmount must be more than 0; received 0");
    expect(refused(withFacts({ loanTenure: -3 })).message).toBe("seed.addtnlFact.loanTenure must be more than 0; received -3");
    expect(terms(withFacts({ loanTenure: 6.5 })).facts.loanTenure).toBe(6.5);
  });

  test.each([
    ["disbursementDate", "10-03-2026", "must be a date in the form YYYY-MM-DD"],
    ["loanStartDate", "2026-3-10", "must be a date in the form YYYY-MM-DD"],
    ["loanEndDate", "2027-02-29", "is not a real calendar date"],
    ["directorDob", "1975/06/01", "must be a date in the form YYYY-MM-DD"],
  ])("%s %p is refused", (field, value, rule) => {
    const error = refused(withFacts({ ...director, [field]: value }), { type: "sme1", consumer: company });
    expect(error.field).toBe(`seed.addtnlFact.${field}`);
    expect(error.message).toBe(`seed.addtnlFact.${field} ${rule}`);
  });

  test("loanStartDate must match disbursementDate (400)", () => {
    const error = refused(withFacts({ loanStartDate: "2026-03-11" }));
    expect(error.status).toBe(400);
    expect(error.field).toBe("seed.addtnlFact.loanStartDate");
    expect(error.message).toBe('seed.addtnlFact.loanStartDate must match disbursementDate ("2026-03-10"), the actual disbursement date; received "2026-03-11"');
  });

  describe("medical test clearance from 1000000000 kobo", () => {
    test("just below the threshold it is not needed", () => {
      expect(terms(withFacts({ loanAmount: 999_999_999 })).premiumKobo).toBe(10_000_000); // 9999999.99 kobo, rounded
    });

    test("at exactly 1000000000 kobo, or above, without it → 406 medical test clearance required", () => {
      for (const loanAmount of [1_000_000_000, 5_000_000_000]) {
        const error = refused(withFacts({ loanAmount }));
        expect(error.status).toBe(406);
        expect(error.field).toBe("seed.addtnlFact.medicalTestClearance");
        expect(error.message).toStartWith("medical test clearance required");
      }
    });

    test('with medicalTestClearance "true" the loan is insured and the clearance stored', () => {
      const t = terms(withFacts({ loanAmount: 1_000_000_000, medicalTestClearance: "true" }));
      expect(t.premiumKobo).toBe(10_000_000);
      expect(t.facts.medicalTestClearance).toBe("true");
    });

    test('medicalTestClearance is the string "true"', () => {
      for (const medicalTestClearance of [true, "yes", "false"]) {
        const error = refused(withFacts({ loanAmount: 1_000_000_000, medicalTestClearance }));
        expect(error.status).toBe(400);
        expect(error.field).toBe("seed.addtnlFact.medicalTestClearance");
        expect(error.message).toBe(`seed.addtnlFact.medicalTestClearance must be one of "true"; received ${JSON.stringify(medicalTestClearance)}`);
      }
    });
  });

  test("director details: for organisation borrowers only, dob in the past", () => {
    expect(terms(withFacts(director), { type: "sme1", consumer: company }).facts).toMatchObject(director);
    const individual = refused(withFacts({ directorName: "Chukwuma Okafor" }));
    expect(individual.field).toBe("seed.addtnlFact.directorName");
    expect(individual.message).toContain("is for organisation consumers only");
    const future = refused(withFacts({ ...director, directorDob: "2030-01-01" }), { type: "sme1", consumer: company });
    expect(future.message).toBe('seed.addtnlFact.directorDob must be a date in the past; received "2030-01-01"');
  });

  test("unknown fields are refused", () => {
    expect(refused(withFacts({ lender: "First Bank" })).message).toBe("seed.addtnlFact has unknown field: lender");
  });

  test("an unknown type → 400 product specified not supported", () => {
    const error = refused(valid(), { type: "auto" });
    expect(error.status).toBe(400);
    expect(error.message).toStartWith("product specified not supported");
  });
});

describe("crlt automatic decisions (spec 7)", () => {
  test("a borrower in the band with a consistent loan is approved", () => {
    expect(decline(valid())).toBeNull();
    expect(decline(withFacts(director), { type: "sme1", consumer: company })).toBeNull();
  });

  test("loanStartDate after loanEndDate is declined; the same day is not", () => {
    expect(decline(withFacts({ loanEndDate: "2026-03-09" }))).toBe(
      "loanStartDate after loanEndDate: the loan cannot start on 2026-03-10 and end earlier, on 2026-03-09.",
    );
    expect(decline(withFacts({ loanEndDate: "2026-03-10" }))).toBeNull();
  });

  test("an SME loan to an organisation without director details is declined", () => {
    expect(decline(valid(), { type: "sme1", consumer: company })).toBe(
      "Missing director details for an organisation: directorName and directorDob must be given for a company consumer.",
    );
    expect(decline(withFacts({ directorName: "Chukwuma Okafor" }), { type: "sme1", consumer: company })).toContain("directorDob must be given");
  });

  test("other credit life types do not require director details of an organisation", () => {
    for (const type of ["psnl", "kymn", "mrtg"]) expect(decline(valid(), { type, consumer: company })).toBeNull();
  });

  test.each([
    ["17 at loan start", "2008-03-11", "2027-03-10", "the borrower (born 2008-03-11) is 17 on the loan start date 2026-03-10"],
    ["66 at loan start", "1960-03-10", "2027-03-10", "the borrower (born 1960-03-10) is 66 on the loan start date 2026-03-10"],
    ["71 at loan end", "1960-03-11", "2032-03-10", "the borrower (born 1960-03-11) will be 71 on the loan end date 2032-03-10"],
  ])("a borrower %s is declined", (_name, dob, loanEndDate, detail) => {
    const reason = decline(withFacts({ loanEndDate }), { consumer: borrower(dob) });
    expect(reason).toBe(`Borrower outside the insurable age band: ${detail}; cover is for ages 18 to 65 when the loan starts and at most 70 when it ends.`);
  });

  test.each([
    ["18 on the start date", "2008-03-10", "2027-03-10"],
    ["65 at start", "1960-03-11", "2027-03-10"],
    ["70 on the end date", "1960-03-11", "2031-03-10"],
  ])("a borrower %s is inside the band", (_name, dob, loanEndDate) => {
    expect(decline(withFacts({ loanEndDate }), { consumer: borrower(dob) })).toBeNull();
  });

  test("for an organisation the director's age counts", () => {
    const reason = decline(withFacts({ ...director, directorDob: "1955-01-01" }), { type: "sme1", consumer: company });
    expect(reason).toStartWith("Borrower outside the insurable age band: the director (born 1955-01-01) is 71 on the loan start date 2026-03-10");
  });
});

test("certificate (spec 2.6): a PDF, inline", () => {
  for (const type of ["sme1", "psnl", "kymn", "mrtg"]) expect(family.policy.certificate(type)).toEqual({ type: "pdf", delivery: "inline" });
});
