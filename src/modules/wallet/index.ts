/** What other modules may use of this one: they import nothing else of it (test/architecture.test.ts). */
export { type TopUpRequest, topUpRequestFrom, topUpSeed, topUpSeedFrom } from "./model";
export { LEDGER_CSV_COLUMNS, ledgerCsvRow, ledgerRow } from "./presenter";
export { walletEntries, wallets } from "./schema";
export {
  type CommissionLine,
  creditWallet,
  earlierTopUp,
  payPremiumFor,
  policyReferences,
  postCommissions,
  refundPremium,
  refundPremiums,
  type WalletEntry,
  walletBalance,
  walletLedger,
} from "./service";
