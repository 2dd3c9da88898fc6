/** The statement's figures in the order and words every surface shows them (page, PDF, CSV, CLI). */

import type { StatementFigure } from "../../../views/commissions/commissions";
import { monthName } from "../../../views/format";
import type { CsvValue } from "../../core/csv";
import { toNaira } from "../../core/money";
import { productName } from "../../products";
import { watToday } from "../../products/policy-helpers";
import type { PartnerStatement } from "./service";

/** Who reads the statement: the partner (its page, and the PDF it is sent) or the operator, who speaks of the partner. */
export type StatementReader = "partner" | "operator";

/** What the partner paid the operator for the month, then how the wallet moved: each reconciles on its own. */
export function statementFigures(s: PartnerStatement, reader: StatementReader = "partner"): { due: StatementFigure[]; wallet: StatementFigure[] } {
  const [share, paid] = reader === "partner" ? ["Your share", "What you paid"] : ["The partner's share", "What the partner paid"];
  return {
    due: [
      { label: "Premiums charged", kobo: s.premiumsKobo, note: "Live premiums taken from the wallet, changes that cost more included" },
      { label: "Premiums refunded", kobo: -s.refundsKobo, note: "Cancellations, declined policies and changes that cost less" },
      { label: "Commission earned", kobo: -s.commissionKobo, note: `${share} of the premium of policies approved in the month` },
      { label: "Commission given back", kobo: s.commissionReversedKobo, note: "The share of refunded premium's commission" },
      { label: "Vehicle registry checks", kobo: s.registryChecksKobo, note: `${s.registryChecks} billed checks, invoiced separately` },
      { label: "Net due", kobo: s.netDueKobo, note: `${paid} for the month`, total: true },
    ],
    wallet: [
      { label: "Opening balance", kobo: s.openingKobo, note: `At the start of ${monthName(s.month)}` },
      { label: "Top-ups", kobo: s.topUpsKobo, note: "Money added to the wallet" },
      { label: "Premiums charged", kobo: -s.premiumsKobo, note: "" },
      { label: "Premiums refunded", kobo: s.refundsKobo, note: "" },
      { label: "Commission earned", kobo: s.commissionKobo, note: "" },
      { label: "Commission given back", kobo: -s.commissionReversedKobo, note: "" },
      { label: "Closing balance", kobo: s.closingKobo, note: `At the end of ${monthName(s.month)} (or now, for the month so far)`, total: true },
    ],
  };
}

/** The first and last day of the statement's month, as dates. */
export const statementDays = (s: PartnerStatement) => ({ first: watToday(s.from), last: watToday(new Date(s.to.getTime() - 1)) });

/** The CSV download: the statement's sections one after the other, amounts in naira. */
export function statementCsvRows(s: PartnerStatement): CsvValue[][] {
  const { due, wallet } = statementFigures(s);
  const { first, last } = statementDays(s);
  return [
    ["Statement", s.partnerName, `${first} to ${last}`, "", "", "", ""],
    [],
    ["Section", "Figure", "Amount (NGN)", "", "", "", ""],
    ...due.map((f) => ["Net due", f.label, toNaira(f.kobo)]),
    ...wallet.map((f) => ["Wallet", f.label, toNaira(f.kobo)]),
    [],
    ["Product", "Code", "Policies written", "Premiums charged (NGN)", "Premiums refunded (NGN)", "Commission earned (NGN)", "Commission given back (NGN)"],
    ...s.products.map((line) => [
      productName(line.productCode),
      line.productCode,
      line.policiesWritten,
      toNaira(line.premiumsKobo),
      toNaira(line.refundsKobo),
      toNaira(line.commissionKobo),
      toNaira(line.commissionReversedKobo),
    ]),
    ["All products", "", s.policiesWritten, toNaira(s.premiumsKobo), toNaira(s.refundsKobo), toNaira(s.commissionKobo), toNaira(s.commissionReversedKobo)],
  ];
}
