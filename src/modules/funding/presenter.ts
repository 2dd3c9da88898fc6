/** Fundings as the portal shows them: how to pay, the partner's list, the operator's work. */
import type { FundingRow, OperatorFundingRow, PaymentToMake } from "../../../views/funding/funding";
import type { TopUpOutcome } from "../../../views/wallet/wallet";
import type { PaymentInstruction } from "./provider";
import type { Funding, FundingConfirmation } from "./settlement";
import type { TopUpState } from "./top-ups";

/** The sandbox's pay-now action of a pending funding; null for a real provider. */
const payHref = (funding: Funding, sandbox: boolean) =>
  sandbox && funding.status === "pending" && funding.provider === "sandbox" ? `/portal/wallet/fundings/${funding.id}/pay` : null;

function paymentToMake(funding: Funding, sandbox: boolean): PaymentToMake {
  const instruction = funding.instruction as PaymentInstruction;
  const bank = instruction.method === "bank_transfer" ? instruction : { bank: "Pay on the provider's page", accountNumber: instruction.url, accountName: "—" };
  return {
    reference: funding.reference,
    amountKobo: funding.amountKobo,
    bank: bank.bank,
    accountNumber: bank.accountNumber,
    accountName: bank.accountName,
    expiresAt: funding.expiresAt,
    payHref: payHref(funding, sandbox),
  };
}

export const fundingRow = (funding: Funding, sandbox: boolean): FundingRow => ({
  reference: funding.reference,
  amountKobo: funding.amountKobo,
  status: funding.status,
  note: funding.statusNote,
  createdAt: funding.createdAt,
  expiresAt: funding.expiresAt,
  payHref: payHref(funding, sandbox),
});

/** What a top-up did, for the portal's message (a repeat shows the top-up as it stands). */
export function topUpOutcome(state: TopUpState, sandbox: boolean): TopUpOutcome {
  const { funding, entry } = state;
  const applied = !state.repeat;
  if (state.testBalanceKobo !== undefined && funding)
    return { kind: "test", applied, reference: funding.reference, amountKobo: funding.amountKobo, testBalanceKobo: state.testBalanceKobo };
  if (entry)
    return {
      kind: "credited",
      applied,
      reference: entry.reference!,
      amountKobo: entry.amountKobo,
      balanceAfterKobo: entry.balanceAfterKobo,
      at: entry.createdAt,
    };
  const f = funding!;
  if (f.status === "pending") return { kind: "pending", applied, payment: paymentToMake(f, sandbox) };
  // A credited funding always has its ledger line (entry above).
  return { kind: f.status as "held" | "failed" | "expired", reference: f.reference, amountKobo: f.amountKobo, note: f.statusNote };
}

export function operatorFundingRow(
  funding: Funding,
  awaiting: FundingConfirmation | null,
  names: { partners: Map<string, string>; admins: Map<string, string> },
  viewerId: string,
): OperatorFundingRow {
  return {
    id: funding.id,
    partnerName: names.partners.get(funding.partnerId) ?? "",
    reference: funding.reference,
    amountKobo: funding.amountKobo,
    receivedKobo: funding.receivedKobo,
    status: funding.status,
    note: funding.statusNote,
    createdAt: funding.createdAt,
    expiresAt: funding.expiresAt,
    awaiting: awaiting && {
      id: awaiting.id,
      kind: awaiting.kind,
      bankReference: awaiting.bankReference,
      amountKobo: awaiting.amountKobo,
      requestedBy: names.admins.get(awaiting.requestedBy) ?? "another administrator",
      mine: awaiting.requestedBy === viewerId,
    },
  };
}
