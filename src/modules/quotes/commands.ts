import { z } from "zod";
import { currency, NOT_A_NUMBER } from "../../http/answers";
import { command, refusal } from "../../http/registry";
import { listHospitals } from "../../products/health";
import { hospitalsExamples, NO_LOAN_AMOUNT, NOT_SUPPORTED, ORIGIN, quoteExamples } from "./examples";
import { hospitalSeed } from "./model";
import { quoteSeedVariants } from "./seeds";
import { quotePremium } from "./service";

const NO_DESTINATION = refusal(400, "destination is not provided: seed.destination is required", "travel (spec 7)");
const UNKNOWN_DESTINATION = refusal(400, 'destination country not recognised: "<destination>" is not one of <countries>', "travel (spec 7)");

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
    examples: quoteExamples,
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
    examples: hospitalsExamples,
    async handler(_ctx, _params, seed) {
      return { list: listHospitals(seed.insurer) };
    },
  }),
];
