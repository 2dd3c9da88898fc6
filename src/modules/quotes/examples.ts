/**
 * The examples of the quotes commands (CommandExample, src/http/registry.ts): the requests and answers
 * of /docs and /openapi.json, which test/reference.test.ts sends to the app. The refusals they show
 * are declared here too, and listed in their commands' errors.
 */
import { NOT_A_NUMBER } from "../../http/answers";
import { type CommandExample, refusal } from "../../http/registry";
import { listHospitals } from "../../products/health";

export const NOT_SUPPORTED = refusal(400, "product specified not supported: <reason>", "an unknown category, type or package (spec 7)");
export const ORIGIN = refusal(400, "Nigeria is the country of origin: seed.destination must be the country travelled to", "travel (spec 7)");
export const NO_LOAN_AMOUNT = refusal(406, "loanAmount not provided", "credit life (spec 7)");

/** dump ipck_<product_code>*PRMM */
export const quoteExamples: readonly CommandExample[] = [
  {
    name: "quote",
    title: "Vehicle third-party for a year",
    cmmnd: "dump ipck_vhcl-tprt-1111*PRMM",
    seed: { insrncDrtn: "1y" },
    answer: { prmm: 15000, currency: "NGN" },
  },
  {
    name: "quote-travel",
    title: "A week in Germany, one traveller",
    cmmnd: "dump ipck_ltix-stnd-1111*PRMM",
    seed: { insrncDrtn: "7d", destination: "Germany", planType: "individual" },
    answer: { prmm: 5072, currency: "NGN" },
  },
  {
    name: "quote-credit-life",
    title: "Credit life on a personal loan of 500,000 naira (money in kobo)",
    cmmnd: "dump ipck_crlt-psnl-1111*PRMM",
    seed: { loanAmount: 50000000 },
    answer: { prmm: 500000, currency: "NGN" },
  },
  {
    name: "quote-transit",
    title: "Goods in transit worth 750,000 naira",
    cmmnd: "dump ipck_gtrn-stnd-1111*PRMM",
    seed: { goodsValue: 750000 },
    answer: { prmm: 7500, currency: "NGN" },
  },
  {
    name: "quote-unknown-product",
    title: "A product code that does not exist",
    cmmnd: "dump ipck_vhcl-xprt-1111*PRMM",
    seed: { insrncDrtn: "1y" },
    refusal: NOT_SUPPORTED,
  },
  {
    name: "quote-number-as-string",
    title: "A number sent as a string",
    cmmnd: "dump ipck_gtrn-stnd-1111*PRMM",
    seed: { goodsValue: "750000" },
    refusal: NOT_A_NUMBER,
  },
  {
    name: "quote-travel-nigeria",
    title: "Travel insurance to the country of origin",
    cmmnd: "dump ipck_ltix-stnd-1111*PRMM",
    seed: { insrncDrtn: "7d", destination: "Nigeria", planType: "individual" },
    refusal: ORIGIN,
  },
  {
    name: "quote-credit-life-no-amount",
    title: "Credit life without loanAmount",
    cmmnd: "dump ipck_crlt-sme1-1111*PRMM",
    seed: {},
    refusal: NO_LOAN_AMOUNT,
  },
];

/** dump hlth_*HSPTLS */
export const hospitalsExamples: readonly CommandExample[] = [
  {
    name: "hospitals",
    title: "The hospitals of AXA Mansard Health",
    cmmnd: "dump hlth_*HSPTLS",
    seed: { insurer: "axam" },
    answer: { list: listHospitals("axam").map((h) => ({ ...h })) },
  },
];
