import { toNaira } from "../../core/money";
import { productName } from "../../products";
import type { PartnerStatement } from "./service";

/** The statement on the wire: naira, every figure a sum of the month's wallet ledger lines of one kind (docs/commissions.md). */
export const wireStatement = (s: PartnerStatement) => {
  return {
    month: s.month,
    currency: "NGN" as const,
    openingBalance: toNaira(s.openingKobo),
    topUps: toNaira(s.topUpsKobo),
    premiums: toNaira(s.premiumsKobo),
    refunds: toNaira(s.refundsKobo),
    commission: toNaira(s.commissionKobo),
    commissionReversed: toNaira(s.commissionReversedKobo),
    closingBalance: toNaira(s.closingKobo),
    registryChecks: { count: s.registryChecks, amount: toNaira(s.registryChecksKobo) },
    netDue: toNaira(s.netDueKobo),
    policiesWritten: s.policiesWritten,
    products: s.products.map((line) => ({
      product: line.productCode,
      name: productName(line.productCode),
      policiesWritten: line.policiesWritten,
      premiums: toNaira(line.premiumsKobo),
      refunds: toNaira(line.refundsKobo),
      commission: toNaira(line.commissionKobo),
      commissionReversed: toNaira(line.commissionReversedKobo),
    })),
  };
};
