import { z } from "zod";
import { currency, naira, UNKNOWN_FIELD } from "../../core/answers";
import { command, refusal } from "../../core/registry";
import { currentWatMonth } from "../enrichment/service";
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

const FUTURE = refusal(400, "seed.month <month> is in the future: the latest statement is for <month>, the month so far");
const MALFORMED = refusal(400, 'seed.month must be a month as YYYY-MM from 1900-01 to 2099-12, such as <month>; received "<value>"');
const empty = {
  month: "{{month}}",
  currency: "NGN",
  openingBalance: 0,
  topUps: 0,
  premiums: 0,
  refunds: 0,
  commission: 0,
  commissionReversed: 0,
  closingBalance: 0,
  registryChecks: { count: 0, amount: 0 },
  netDue: 0,
  policiesWritten: 0,
  products: [],
};

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
    examples: [
      { name: "statement", title: "This month so far, for an account without live business yet", cmmnd: "wallet statement", seed: {}, answer: empty },
      { name: "statement-future", title: "A month that has not begun", cmmnd: "wallet statement", seed: { month: "2099-12" }, refusal: FUTURE },
      { name: "statement-malformed", title: "A month written another way", cmmnd: "wallet statement", seed: { month: "10/2026" }, refusal: MALFORMED },
    ],
    async handler(ctx, _params, seed) {
      const now = ctx.now();
      const month = seed.month === undefined ? currentWatMonth(now) : statementMonth(seed.month, now, "seed.month");
      return wireStatement(await partnerStatement(ctx.db, ctx.principal.partnerId, month));
    },
  }),
];
