import { describe, expect, test } from "bun:test";
import { and, desc, eq } from "drizzle-orm";
import { quotes } from "../src/modules/quotes/schema";
import { allProductCodes } from "../src/products";
import { testApp } from "./support/harness";

const t = await testApp();
const p = await t.partner();
const quote = (code: string, seed?: unknown) => p.run(`dump ipck_${code}*PRMM`, seed);

describe("dump ipck_<product_code>*PRMM through the endpoint", () => {
  test("answers prmm and currency NGN, and stores the quote", async () => {
    const answer = await quote("vhcl-tprt-1111", { insrncDrtn: "1y" });
    expect(answer).toEqual({ prmm: 15000, currency: "NGN", exctnFdbck: { id: 75, id_v4: 200 } });
    const [stored] = await t.database.db
      .select()
      .from(quotes)
      .where(and(eq(quotes.partnerId, p.partnerId), eq(quotes.productCode, "vhcl-tprt-1111")))
      .orderBy(desc(quotes.createdAt));
    expect(stored).toMatchObject({ premiumKobo: 1_500_000, duration: "1y" });
  });

  test("credit life premiums are in kobo; everything else in whole naira", async () => {
    expect((await quote("crlt-sme1-1111", { loanAmount: 50_000_000 })).prmm).toBe(500_000);
    expect((await quote("crlt-mrtg-1111", { loanAmount: 100_000_000 })).prmm).toBe(850_000);
    expect((await quote("lrgg-stnd-1111", { LoanAmount: 1_000_000, LoanTenure: 12 })).prmm).toBe(60_000);
    expect((await quote("vhcl-cmpr-1111", { vhclValueForInsrnc: 4_000_000, insrncDrtn: "1y" })).prmm).toBe(200_000);
    expect((await quote("ltix-stnd-1111", { insrncDrtn: "7d", destination: "Germany", planType: "individual" })).prmm).toBe(5072);
  });

  test("every product code of the catalogue quotes with a sensible seed", async () => {
    const seeds: Record<string, unknown> = {
      vhcl: { insrncDrtn: "1y", vhclValueForInsrnc: 1_000_000 },
      phnn: { insrncDrtn: "1y" },
      lapt: { insrncDrtn: "1y" },
      hlth: { insrncDrtn: "1y" },
      ltix: { insrncDrtn: "30d", destination: "Kenya", planType: "family" },
      gtrn: { goodsValue: 750_000 },
      mexx: { goodsValue: 5_000_000, insrncDrtn: "3m" },
      mrnn: { goodsValue: 5_000_000, insrncDrtn: "3m" },
      crlt: { loanAmount: 100_000_000 },
      lrgg: { LoanAmount: 500_000, LoanTenure: 6 },
      allr: { sumInsured: 800_000, insrncDrtn: "1y" },
      firb: { sumInsured: 20_000_000, insrncDrtn: "1y" },
    };
    const codes = allProductCodes();
    expect(codes.filter((c) => !c.startsWith("hlth-"))).toHaveLength(19);
    for (const code of codes) {
      const answer = await quote(code, seeds[code.slice(0, 4)]);
      expect({ code, feedback: answer.exctnFdbck }).toEqual({ code, feedback: { id: 75, id_v4: 200 } });
      expect(answer.prmm).toBeGreaterThan(0);
      expect(Number.isInteger(answer.prmm)).toBe(true);
    }
  });

  test.each([
    ["an unknown category", "xxxx-stnd-1111"],
    ["an unknown type", "vhcl-zzzz-1111"],
    ["another package", "vhcl-tprt-2222"],
    ["an unknown health insurer", "hlth-nope-1111"],
    ["a malformed code", "vhcl"],
  ])("%s → 55/400 product specified not supported", async (_name, code) => {
    const answer = await quote(code, { insrncDrtn: "1y" });
    expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 400 });
    expect(answer.exctnFdbck.elbrtn).toContain("product specified not supported");
  });

  test("a numeric field sent as a string is refused naming the field", async () => {
    for (const [code, seed, field] of [
      ["gtrn-stnd-1111", { goodsValue: "500000" }, "seed.goodsValue"],
      ["vhcl-cmpr-1111", { vhclValueForInsrnc: "4000000", insrncDrtn: "1y" }, "seed.vhclValueForInsrnc"],
      ["lrgg-stnd-1111", { LoanAmount: "100000", LoanTenure: 12 }, "seed.LoanAmount"],
      ["lrgg-stnd-1111", { LoanAmount: 100000, LoanTenure: "12" }, "seed.LoanTenure"],
    ] as const) {
      const answer = await quote(code, seed);
      expect(answer.exctnFdbck.id).toBe(55);
      expect(answer.exctnFdbck.elbrtn).toContain(field);
      expect(answer.exctnFdbck.elbrtn).toContain("not a string");
    }
  });

  test("the spec's quote errors keep their wording", async () => {
    const travel = (seed: Record<string, unknown>) => quote("ltix-stnd-1111", { insrncDrtn: "7d", planType: "individual", destination: "France", ...seed });
    expect((await travel({ destination: undefined })).exctnFdbck.elbrtn).toContain("destination is not provided");
    expect((await travel({ destination: "Atlantis" })).exctnFdbck.elbrtn).toContain("destination country not recognised");
    expect((await travel({ destination: "Nigeria" })).exctnFdbck.elbrtn).toContain("Nigeria is the country of origin");
    expect((await travel({ insrncDrtn: "25d" })).exctnFdbck.elbrtn).toContain("invalid duration for plan");
    expect((await travel({ travelerAge: 81 })).exctnFdbck.elbrtn).toContain("age exceeds limit");
    const loan = await quote("crlt-psnl-1111", {});
    expect(loan.exctnFdbck).toMatchObject({ id: 55, id_v4: 406 });
    expect(loan.exctnFdbck.elbrtn).toContain("loanAmount not provided");
    const low = await quote("vhcl-cmpr-1111", { vhclValueForInsrnc: 499_999, insrncDrtn: "1y" });
    expect(low.exctnFdbck.elbrtn).toContain("seed.vhclValueForInsrnc");
    expect(low.exctnFdbck.elbrtn).toContain("500000");
  });
});

describe("dump hlth_*HSPTLS", () => {
  test("lists the hospitals of every seeded insurer, or of one", async () => {
    const all = await p.run("dump hlth_*HSPTLS");
    expect(all.exctnFdbck.id).toBe(75);
    expect(all.list.length).toBeGreaterThan(3);
    const insurer = allProductCodes()
      .find((c) => c.startsWith("hlth-"))!
      .split("-")[1]!;
    const one = await p.run("dump hlth_*HSPTLS", { insurer });
    expect(one.list.length).toBeGreaterThan(0);
    expect(one.list.length).toBeLessThan(all.list.length);
  });
});
