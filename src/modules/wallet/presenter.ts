/** The wallet as the portal shows it: ledger rows naming the policy a premium paid for. */

import type { LedgerRow } from "../../../views/wallet/wallet";
import { KIND_TEXT } from "../../../views/wallet/wallet";
import type { CsvValue } from "../../core/csv";
import { toNaira } from "../../core/money";
import { watTimestamp } from "../../core/time";
import type { WalletEntry } from "./service";

export function ledgerRow(entry: WalletEntry, policyReferences: Map<string, string>): LedgerRow {
  return {
    at: entry.createdAt,
    kind: entry.kind,
    amountKobo: entry.amountKobo,
    balanceAfterKobo: entry.balanceAfterKobo,
    reference: entry.reference,
    policyReference: entry.policyId ? (policyReferences.get(entry.policyId) ?? null) : null,
  };
}

export const LEDGER_CSV_COLUMNS = ["When (WAT)", "Kind", "Reference", "Policy", "Amount (NGN)", "Balance after (NGN)"] as const;

export const ledgerCsvRow = (row: LedgerRow): CsvValue[] => [
  watTimestamp(row.at),
  KIND_TEXT[row.kind],
  row.reference,
  row.policyReference,
  toNaira(row.amountKobo),
  toNaira(row.balanceAfterKobo),
];
