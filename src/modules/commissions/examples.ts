/**
 * The examples of the commissions commands (CommandExample, src/http/registry.ts): the requests and answers
 * of /docs and /openapi.json, which test/reference.test.ts sends to the app. The refusals they show
 * are declared here too, and listed in their commands' errors.
 */
import { type CommandExample, refusal } from "../../http/registry";

export const FUTURE = refusal(400, "seed.month <month> is in the future: the latest statement is for <month>, the month so far");
export const MALFORMED = refusal(400, 'seed.month must be a month as YYYY-MM from 1900-01 to 2099-12, such as <month>; received "<value>"');
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

/** wallet statement */
export const walletStatementExamples: readonly CommandExample[] = [
  { name: "statement", title: "This month so far, for an account without live business yet", cmmnd: "wallet statement", seed: {}, answer: empty },
  { name: "statement-future", title: "A month that has not begun", cmmnd: "wallet statement", seed: { month: "2099-12" }, refusal: FUTURE },
  { name: "statement-malformed", title: "A month written another way", cmmnd: "wallet statement", seed: { month: "10/2026" }, refusal: MALFORMED },
];
