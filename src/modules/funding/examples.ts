/**
 * The examples of the funding commands (CommandExample, src/http/registry.ts): the requests and answers
 * of /docs and /openapi.json, which test/reference.test.ts sends to the app. The refusals they show
 * are declared here too, and listed in their commands' errors.
 */
import { type CommandExample, refusal } from "../../http/registry";

export const REFERENCE_REUSED = refusal(
  409,
  "seed.reference <reference> was already used for a top-up of <amount> naira",
  "the same reference with another amount",
);

const topUp = { amount: 50000, reference: "bank-ref-001" };
const unpaid = { amount: 250000, reference: "bank-ref-002-unpaid" };

/** wallet topup */
export const topupExamples: readonly CommandExample[] = [
  {
    name: "topup",
    title: "Fund the wallet that live premiums are paid from (live key; the sandbox provider pays at once)",
    cmmnd: "wallet topup",
    key: "live",
    seed: topUp,
    answer: { ...topUp, status: "credited", balance: 50000, currency: "NGN", tmstmp: "{{timestamp}}" },
  },
  {
    name: "topup-again",
    title: "The same top-up again: the first answer, nothing credited twice",
    cmmnd: "wallet topup",
    key: "live",
    seed: topUp,
    after: ["topup"],
    answer: { ...topUp, status: "credited", balance: 50000, currency: "NGN", tmstmp: "{{topup.tmstmp}}" },
  },
  {
    name: "topup-conflict",
    title: "The same reference with another amount",
    cmmnd: "wallet topup",
    key: "live",
    seed: { ...topUp, amount: 60000 },
    after: ["topup"],
    refusal: REFERENCE_REUSED,
  },
  {
    name: "topup-unpaid",
    title: "A live top-up waiting for the transfer (the sandbox's -unpaid reference): how to pay, credited when the provider confirms it",
    cmmnd: "wallet topup",
    key: "live",
    seed: unpaid,
    answer: {
      ...unpaid,
      status: "pending",
      currency: "NGN",
      payment: {
        method: "bank_transfer",
        bank: "Sandbox Microfinance Bank",
        accountNumber: "{{accountNumber}}",
        accountName: "Sandbox Checkout / Funding",
        amount: 250000,
        expires: "{{timestamp}}",
      },
      tmstmp: "{{timestamp}}",
    },
  },
  {
    name: "topup-test",
    title: "A test-key top-up: credited at once as a specimen, in the test balance (live premiums cannot spend it)",
    cmmnd: "wallet topup",
    seed: { amount: 1000, reference: "test-ref-001" },
    answer: { amount: 1000, reference: "test-ref-001", status: "credited", balance: 1000, currency: "NGN", tmstmp: "{{timestamp}}" },
  },
];
