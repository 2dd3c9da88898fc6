import { z } from "zod";
import { command } from "../../core/registry";
import { listHospitals } from "../../products/health";
import { quotePremium } from "./service";

export const quoteCommands = [
  command({
    grammar: "dump ipck_<product_code>*PRMM",
    pattern: /^dump ipck_(?<productCode>[^*\s]+)\*PRMM$/,
    who: "partner",
    summary: "Quote the premium of a product (spec 2.4).",
    async handler(ctx, params, seed) {
      const quote = await quotePremium(ctx.db, ctx.principal.partnerId, params.productCode!, seed, ctx.now());
      return { prmm: quote.prmm, currency: "NGN" };
    },
  }),
  command({
    grammar: "dump hlth_*HSPTLS",
    pattern: /^dump hlth_\*HSPTLS$/,
    who: "partner",
    summary: "List the hospitals of the health insurers (optionally one insurer).",
    seed: z.object({ insurer: z.string().regex(/^[a-z0-9]{2,8}$/, "must be an insurer code such as axam").optional() }),
    async handler(_ctx, _params, seed) {
      return { list: listHospitals(seed.insurer) };
    },
  }),
];
