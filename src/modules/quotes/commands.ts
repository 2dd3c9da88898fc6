import { z } from "zod";
import { currency, NOT_A_NUMBER } from "../../core/answers";
import { command, refusal } from "../../core/registry";
import { listHospitals } from "../../products/health";
import { quoteSeedVariants } from "../../reference/products";
import { hospitalSeed } from "./model";
import { quotePremium } from "./service";

const NOT_SUPPORTED = refusal(400, "product specified not supported: <reason>", "an unknown category, type or package (spec 7)");
const NO_DESTINATION = refusal(400, "destination is not provided: seed.destination is required", "travel (spec 7)");
const UNKNOWN_DESTINATION = refusal(400, 'destination country not recognised: "<destination>" is not one of <countries>', "travel (spec 7)");
const ORIGIN = refusal(400, "Nigeria is the country of origin: seed.destination must be the country travelled to", "travel (spec 7)");
const NO_LOAN_AMOUNT = refusal(406, "loanAmount not provided", "credit life (spec 7)");

export const quoteCommands = [
  command({
    grammar: "dump ipck_<product_code>*PRMM",
    pattern: /^dump ipck_(?<productCode>[^*\s]+)\*PRMM$/,
    who: "partner",
    summary: "Quote the premium of a product (spec 2.4).",
    seedVariants: quoteSeedVariants,
    answer: z.object({
      prmm: z.number().meta({ description: "The premium: whole naira, except credit life (crlt-*) in kobo" }),
      currency,
    }),
    errors: [
      NOT_SUPPORTED,
      NOT_A_NUMBER,
      refusal(400, "seed.vhclValueForInsrnc must be at least 500000; received <value>", "vehicle comprehensive (spec 8)"),
      NO_DESTINATION,
      UNKNOWN_DESTINATION,
      ORIGIN,
      refusal(400, 'invalid duration for plan: <plan> cover is sold for <durations>; received "<insrncDrtn>"', "travel (spec 7)"),
      refusal(400, "age exceeds limit: travelerAge <age> is over the maximum insurable age of 80", "travel (spec 7)"),
      NO_LOAN_AMOUNT,
    ],
    examples: [
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
    ],
    async handler(ctx, params, seed) {
      const quote = await quotePremium(ctx.db, ctx.principal.partnerId, params.productCode!, seed, ctx.now());
      return { prmm: quote.prmm, currency: "NGN" as const };
    },
  }),
  command({
    grammar: "dump hlth_*HSPTLS",
    pattern: /^dump hlth_\*HSPTLS$/,
    who: "partner",
    summary: "List the hospitals of the health insurers (optionally one insurer).",
    seed: hospitalSeed,
    answer: z.object({
      list: z.array(z.object({ insurer: z.string(), insurerName: z.string(), name: z.string(), address: z.string(), city: z.string(), state: z.string() })),
    }),
    errors: [refusal(400, 'health insurer not recognised: "<insurer>" is not one of <insurers>')],
    // The answer is the insurer's network as the service holds it.
    examples: [
      {
        name: "hospitals",
        title: "The hospitals of AXA Mansard Health",
        cmmnd: "dump hlth_*HSPTLS",
        seed: { insurer: "axam" },
        answer: { list: listHospitals("axam").map((h) => ({ ...h })) },
      },
    ],
    async handler(_ctx, _params, seed) {
      return { list: listHospitals(seed.insurer) };
    },
  }),
];
