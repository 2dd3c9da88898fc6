import { z } from "zod";
import { currency, naira, UNKNOWN_FIELD } from "../../http/answers";
import { command } from "../../http/registry";
import { currentWatMonth } from "../enrichment";
import { FUTURE, MALFORMED, walletStatementExamples } from "./examples";
import { statementMonth } from "./model";
import { partnerStatement } from "./service";
import { wireStatement } from "./wire";

const statementSeed = z.strictObject({
  month: z.string().optional().meta({ description: "YYYY-MM in Nigerian time; the current month (so far) when omitted" }),
});

const productLine = z.object({
  product: z.string().meta({ description: "The product code" }),
  name: z.string(),
  policiesWritten: z.int(),
  premiums: naira(),
  refunds: naira(),
  commission: naira(),
  commissionReversed: naira(),
});

export const commissionCommands = [
  command({
    grammar: "wallet statement",
    pattern: /^wallet statement$/,
    who: "partner",
    seed: statementSeed,
    summary:
      "The monthly statement (Nigerian time): policies written, premiums, refunds, commission earned and given back, registry checks, top-ups, opening and closing balance and the net due, reconciling to the wallet ledger.",
    answer: z.object({
      month: z.string().meta({ description: "YYYY-MM" }),
      currency,
      openingBalance: naira("The wallet's balance when the month began"),
      topUps: naira(),
      premiums: naira("Live premiums charged to the wallet"),
      refunds: naira("Premiums given back to the wallet"),
      commission: naira("Commission earned on live policies approved in the month"),
      commissionReversed: naira("Commission given back with refunded premium"),
      closingBalance: naira("openingBalance + topUps − premiums + refunds + commission − commissionReversed"),
      registryChecks: z.object({ count: z.int(), amount: naira("Billed registry checks, invoiced apart from the wallet") }),
      netDue: naira("premiums − refunds − commission + commissionReversed + registryChecks.amount: what the partner paid for the month"),
      policiesWritten: z.int().meta({ description: "Live policies issued in the month and not declined" }),
      products: z.array(productLine),
    }),
    errors: [MALFORMED, FUTURE, UNKNOWN_FIELD],
    examples: walletStatementExamples,
    async handler(ctx, _params, seed) {
      const now = ctx.now();
      const month = seed.month === undefined ? currentWatMonth(now) : statementMonth(seed.month, now, "seed.month");
      return wireStatement(await partnerStatement(ctx.db, ctx.principal.partnerId, month));
    },
  }),
];
