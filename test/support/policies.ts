import { expect } from "bun:test";
import { newImei, vehicleFacts, watDate } from "./fixtures";
import { individual, PNG_BASE64, type TestPartner } from "./harness";

export { newImei, watDate } from "./fixtures";

export const fullConsumer = () => individual({ socialID: { type: "nidd", id: "12345678901", image: PNG_BASE64 }, taxId: "TIN-0012345" });

export interface ProductCase {
  code: string;
  quote?: Record<string, unknown>;
  insrncDrtn?: string;
  addtnlFact: () => Record<string, unknown>;
}

const cargo = () => ({
  items: [
    { description: "Cashew nuts", quantity: 100, value: 3_000_000 },
    { description: "Sesame seeds", quantity: 50, value: 2_000_000 },
  ],
  goodsValue: 5_000_000,
  goodsDscrptn: "Agricultural produce",
  voyage: [{ origin: "Lagos" }, { destination: "Rotterdam" }],
  proformaInvoice: "PI-2026-0042",
  proformaDate: watDate(),
});
const creditLife = () => ({ loanAmount: 50_000_000, loanTenure: 12, disbursementDate: watDate(), loanStartDate: watDate(), loanEndDate: watDate(365) });

/** One valid request per spec-described product. */
export const productCases: Record<string, ProductCase> = {
  "vhcl-tprt-1111": { code: "vhcl-tprt-1111", quote: { insrncDrtn: "1y" }, insrncDrtn: "1y", addtnlFact: vehicleFacts },
  "vhcl-cmpr-1111": {
    code: "vhcl-cmpr-1111",
    quote: { insrncDrtn: "1y", vhclValueForInsrnc: 5_000_000 },
    insrncDrtn: "1y",
    addtnlFact: () => ({ ...vehicleFacts(), vhclValueForInsrnc: 5_000_000 }),
  },
  "phnn-flx1-1111": {
    code: "phnn-flx1-1111",
    quote: { insrncDrtn: "1y" },
    insrncDrtn: "1y",
    addtnlFact: () => ({ brand: "Samsung", model: "Galaxy A54", uIdnt: newImei() }),
  },
  "lapt-flx2-1111": {
    code: "lapt-flx2-1111",
    quote: { insrncDrtn: "1y" },
    insrncDrtn: "1y",
    addtnlFact: () => ({ brand: "HP", model: "EliteBook 840", uIdnt: `5CD${Math.floor(Math.random() * 1e7)}` }),
  },
  "ltix-stnd-1111": {
    code: "ltix-stnd-1111",
    quote: { insrncDrtn: "7d", destination: "Germany", planType: "individual" },
    insrncDrtn: "7d",
    addtnlFact: () => ({
      planType: "individual",
      destination: "Germany",
      departureDate: watDate(10),
      returnDate: watDate(15),
      passportNo: "A12345678",
      occupation: "Engineer",
      nokName: "Chukwuma Okafor",
      nokRelationship: "Brother",
      nokPhone: "+2348030000001",
    }),
  },
  "gtrn-stnd-1111": {
    code: "gtrn-stnd-1111",
    quote: { goodsValue: 750_000 },
    addtnlFact: () => ({
      goodsType: "elct",
      goodsDscrptn: "Laptops and phones",
      goodsValue: 750_000,
      voyage: [{ origin: "Lagos" }, { destination: "Abuja" }],
      dprtrDateTime: `${watDate(1)} 08:00:00`,
      estmtdArrvlDateTime: `${watDate(2)} 18:00:00`,
      proformaInvoice: "PI-2026-0099",
      proformaDate: watDate(),
    }),
  },
  "mexx-stnd-1111": { code: "mexx-stnd-1111", quote: { goodsValue: 5_000_000, insrncDrtn: "3m" }, insrncDrtn: "3m", addtnlFact: cargo },
  "mrnn-stnd-1111": { code: "mrnn-stnd-1111", quote: { goodsValue: 5_000_000, insrncDrtn: "3m" }, insrncDrtn: "3m", addtnlFact: cargo },
  "mrnn-cmpr-1111": { code: "mrnn-cmpr-1111", quote: { goodsValue: 5_000_000, insrncDrtn: "3m" }, insrncDrtn: "3m", addtnlFact: cargo },
  "crlt-sme1-1111": { code: "crlt-sme1-1111", quote: { loanAmount: 50_000_000 }, addtnlFact: creditLife },
  "crlt-psnl-1111": { code: "crlt-psnl-1111", quote: { loanAmount: 50_000_000 }, addtnlFact: creditLife },
  "crlt-kymn-1111": { code: "crlt-kymn-1111", quote: { loanAmount: 50_000_000 }, addtnlFact: creditLife },
  "crlt-mrtg-1111": { code: "crlt-mrtg-1111", quote: { loanAmount: 50_000_000 }, addtnlFact: creditLife },
  "hlth-axam-1111": { code: "hlth-axam-1111", quote: { insrncDrtn: "1y" }, insrncDrtn: "1y", addtnlFact: () => ({ hospital: "Reddington Hospital" }) },
  "allr-stnd-1111": {
    code: "allr-stnd-1111",
    quote: { sumInsured: 1_000_000, insrncDrtn: "1y" },
    insrncDrtn: "1y",
    addtnlFact: () => ({ sumInsured: 1_000_000, description: "Laptop, camera and two phones" }),
  },
  "firb-stnd-1111": {
    code: "firb-stnd-1111",
    quote: { sumInsured: 20_000_000, insrncDrtn: "1y" },
    insrncDrtn: "1y",
    addtnlFact: () => ({ sumInsured: 20_000_000, description: "Shop stock and fittings", premisesAddress: "14 Adeola Odeku Street, Victoria Island, Lagos" }),
  },
  "lrgg-stnd-1111": {
    code: "lrgg-stnd-1111",
    quote: { LoanAmount: 1_000_000, LoanTenure: 12 },
    addtnlFact: () => ({ LoanAmount: 1_000_000, LoanTenure: 12, DsbrsmDate: watDate(), LoanStartDate: watDate(), LoanEndDate: watDate(365) }),
  },
};

export function insureSeed(c: ProductCase, overrides: Record<string, unknown> = {}) {
  const [ctgry, type, pckg] = c.code.split("-");
  return {
    ctgry,
    type,
    pckg,
    id: crypto.randomUUID(),
    ...(c.insrncDrtn ? { insrncDrtn: c.insrncDrtn } : {}),
    addtnlFact: c.addtnlFact(),
    ...overrides,
  };
}

/** An approved test-mode policy of product `code` for a new consumer of `p`, issued through POST / (quoted first where the product needs it). */
export async function approvedPolicy(p: TestPartner, code: string): Promise<string> {
  const c = productCases[code]!;
  const consumer = (await p.run("prfl entity", fullConsumer())).id as string;
  if (c.quote) expect((await p.run(`dump ipck_${c.code}*PRMM`, c.quote)).exctnFdbck.id).toBe(75);
  const answer = await p.run(`entt_${consumer}: insure`, insureSeed(c));
  expect(answer.status).toBe("a");
  return answer.id as string;
}
