/**
 * What other modules may use of this one: they import nothing else of it (test/architecture.test.ts).
 * The money-out provider adapter of claim payouts (docs/payouts.md): pure and in-process, no tables,
 * no pages, so no manifest.
 */
export { bankChoices, bankName, isBankCode, SANDBOX_BANK_CODE } from "./banks";
export { namesMatch } from "./names";
export type { AccountLookup, BankAccount, PayoutCallback, PayoutProvider, PayoutRecipient, PayoutTransfer, TransferAnswer, TransferState } from "./provider";
export { PayoutRefused } from "./provider";
export { payoutProvider } from "./providers";
