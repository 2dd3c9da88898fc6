/** Fundings as the portal shows them: how to pay, the partner's list, the operator's work. */
import type { FundingRow, OperatorFundingRow, PaymentToMake, TrailStep } from "../../../views/funding/funding";
import type { ConfirmStepProps } from "../../../views/portal/confirm";
import type { LedgerRow, TopUpOutcome } from "../../../views/wallet/wallet";
import { formatNaira } from "../../core/money";
import type { ManualConfirmation } from "./confirmations";
import type { FundingTrail } from "./lists";
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

/**
 * Who did a step by hand: the operator reads the administrator's e-mail; a partner reads the role
 * (the operator's staff are the operator's to name): "first" who confirmed, "second" who decided.
 */
interface Who {
  admin(userId: string | null, role: "first" | "second"): string;
  /** An administrator as the audit log recorded them (an e-mail), when known. */
  recorded(actor: string | null): string;
}

/** For a partner: the operator's administrators by their part in the four eyes. */
const byRole: Who = {
  admin: (_userId, role) => (role === "first" ? "an administrator" : "a second administrator"),
  recorded: () => "an administrator",
};

/** For the operator: each administrator by e-mail. */
const byEmail = (admins: Map<string, string>): Who => ({
  admin: (userId) => (userId && admins.get(userId)) || "an administrator",
  recorded: (actor) => actor ?? "an administrator",
});

/**
 * A funding's history in words, oldest first: asked for, each confirmation by hand with who made it
 * and who approved or rejected it (the four eyes), and how it ended when that was not by hand.
 */
function trailSteps(funding: Funding, trail: FundingTrail | undefined, who: Who): TrailStep[] {
  const steps: TrailStep[] = [{ at: funding.createdAt, text: `Top-up of ${formatNaira(funding.amountKobo)} asked for.` }];
  for (const c of trail?.confirmations ?? []) {
    const asked =
      c.kind === "transfer"
        ? `Bank transfer of ${formatNaira(c.amountKobo)} confirmed by ${who.admin(c.requestedBy, "first")}, bank reference ${c.bankReference}`
        : `Credit of the ${formatNaira(c.amountKobo)} received asked by ${who.admin(c.requestedBy, "first")}`;
    const alone = c.status === "approved" && c.decidedBy === c.requestedBy;
    steps.push({
      at: c.requestedAt,
      text: `${asked}${c.status === "awaiting_approval" ? ": waiting for a second administrator's approval." : alone ? ": below the four-eyes threshold, applied without a second approval." : "."}`,
    });
    if (c.decidedAt && !alone)
      steps.push({
        at: c.decidedAt,
        text:
          c.status === "approved"
            ? `Approved by ${who.admin(c.decidedBy, "second")}.`
            : `Rejected by ${who.admin(c.decidedBy, "second")}: nothing was credited for it.`,
      });
  }
  const end = funding.settledAt && endText(funding, trail, who);
  if (end) steps.push({ at: funding.settledAt!, text: end });
  return steps.sort((a, b) => a.at.getTime() - b.at.getTime());
}

function endText(funding: Funding, trail: FundingTrail | undefined, who: Who): string | null {
  switch (funding.status) {
    case "credited":
      return funding.settledBy === "manual"
        ? `${formatNaira(funding.receivedKobo ?? funding.amountKobo)} credited to the wallet.`
        : `${formatNaira(funding.receivedKobo ?? funding.amountKobo)} credited: the payment provider confirmed the money.`;
    case "failed":
      return funding.settledBy === "manual"
        ? `Rejected by ${who.recorded(trail?.rejectedBy ?? null)}: nothing was credited.`
        : `Failed${funding.statusNote ? `: ${funding.statusNote}` : ""}.`;
    case "expired":
      return "Expired: no payment arrived in time.";
    default:
      return null;
  }
}

export const fundingRow = (funding: Funding, sandbox: boolean, trail?: FundingTrail): FundingRow => ({
  reference: funding.reference,
  amountKobo: funding.amountKobo,
  status: funding.status,
  note: funding.statusNote,
  createdAt: funding.createdAt,
  expiresAt: funding.expiresAt,
  payHref: payHref(funding, sandbox),
  trail: trailSteps(funding, trail, byRole),
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
  trail: FundingTrail | undefined,
  names: { partners: Map<string, string>; admins: Map<string, string> },
  viewerId: string,
): OperatorFundingRow {
  const awaiting = trail?.confirmations.find((c) => c.status === "awaiting_approval");
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
    awaiting: awaiting
      ? {
          id: awaiting.id,
          kind: awaiting.kind,
          bankReference: awaiting.bankReference,
          amountKobo: awaiting.amountKobo,
          requestedBy: names.admins.get(awaiting.requestedBy) ?? "another administrator",
          mine: awaiting.requestedBy === viewerId,
        }
      : null,
    trail: trailSteps(funding, trail, byEmail(names.admins)),
  };
}

/** The words of an administrator's confirmation step before a credit by hand (the page adds where it posts). */
export type CreditStep = Pick<ConfirmStepProps, "heading" | "lines" | "consequences" | "button">;

const addsUp = (fourEyesKobo: number) =>
  `What one administrator confirms or credits on a funding adds up: from ${formatNaira(fourEyesKobo)} in all, it waits for a second administrator's approval before anything is credited.`;

/** A transfer's amount credits the wallet when it is the amount asked for, and holds the funding for a decision when it is not (settlement.ts). */
function transferWords(funding: Funding, partner: string, amountKobo: number): Pick<CreditStep, "consequences" | "button"> {
  const amount = formatNaira(amountKobo);
  return amountKobo === funding.amountKobo
    ? { consequences: [`The wallet of ${partner} is credited with ${amount}.`], button: `Credit ${amount} to ${partner}` }
    : {
        consequences: [`${amount} is not the ${formatNaira(funding.amountKobo)} asked for: the funding is held for a decision and nothing is credited yet.`],
        button: `Confirm ${amount} received from ${partner}`,
      };
}

/** Before an administrator confirms a bank transfer by hand. */
export function transferStep(funding: Funding, partner: string, input: ManualConfirmation, fourEyesKobo: number): CreditStep {
  const words = transferWords(funding, partner, input.amountKobo);
  return {
    heading: `Confirm ${formatNaira(input.amountKobo)} received from ${partner}?`,
    lines: [
      ["Partner", partner],
      ["Top-up", funding.reference],
      ["Asked for", formatNaira(funding.amountKobo)],
      ["Bank reference", input.bankReference],
      ["Amount received", formatNaira(input.amountKobo)],
    ],
    consequences: [...words.consequences, addsUp(fourEyesKobo)],
    button: words.button,
  };
}

/** Before a second administrator approves a confirmation waiting for them. */
export function approvalStep(funding: Funding, confirmation: FundingConfirmation, partner: string, askedBy: string): CreditStep {
  const amount = formatNaira(confirmation.amountKobo);
  const words =
    confirmation.kind === "transfer"
      ? transferWords(funding, partner, confirmation.amountKobo)
      : { consequences: [`The wallet of ${partner} is credited with ${amount}.`], button: `Credit ${amount} to ${partner}` };
  return {
    heading: `Approve ${amount} for ${partner}?`,
    lines: [
      ["Partner", partner],
      ["Top-up", funding.reference],
      ...(confirmation.bankReference ? [["Bank reference", confirmation.bankReference] as const] : []),
      ["Amount", amount],
      ["Asked by", askedBy],
    ],
    consequences: [...words.consequences, "You are the second administrator: once you approve, nobody else is asked."],
    button: words.button,
  };
}

/** Before an administrator credits what a held funding received. */
export function heldCreditStep(funding: Funding, partner: string, fourEyesKobo: number): CreditStep {
  const received = formatNaira(funding.receivedKobo ?? 0);
  return {
    heading: `Credit the ${received} received to ${partner}?`,
    lines: [
      ["Partner", partner],
      ["Top-up", funding.reference],
      ["Asked for", formatNaira(funding.amountKobo)],
      ["Received", received],
    ],
    consequences: [`The wallet of ${partner} is credited with ${received}, what arrived, instead of the amount asked for.`, addsUp(fourEyesKobo)],
    button: `Credit ${received} to ${partner}`,
  };
}

/** A test top-up as a line of test mode's ledger: the test balance after it is kept on the funding. */
export const testLedgerRow = (funding: Funding): LedgerRow => ({
  at: funding.createdAt,
  kind: "topup",
  amountKobo: funding.amountKobo,
  balanceAfterKobo: Number((funding.instruction as { balanceAfterKobo?: number }).balanceAfterKobo ?? 0),
  reference: funding.reference,
  policyReference: null,
});
