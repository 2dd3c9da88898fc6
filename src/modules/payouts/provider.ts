import type { SignedCallback } from "../../core/signatures";

/** A bank account as a Nigerian transfer names it: the bank's code (banks.ts) and the ten-digit NUBAN. */
export interface BankAccount {
  bankCode: string;
  accountNumber: string;
}

/** What the account name enquiry found: the name the bank holds for the account, or why there is none. */
export type AccountLookup = { status: "found"; accountName: string } | { status: "not_found"; reason: string };

/** Who a transfer pays: the account, and the name the enquiry found for it. */
export interface PayoutRecipient extends BankAccount {
  accountName: string;
}

/** One transfer: our reference (idempotent at the provider), the amount in kobo, the payee, and the narration on their statement. */
export interface PayoutTransfer {
  reference: string;
  amountKobo: number;
  recipient: PayoutRecipient;
  narration: string;
}

/** The provider's answer to a transfer: its own reference, and how the transfer stands (usually pending: the outcome follows by callback). */
export interface TransferAnswer {
  providerReference: string;
  status: "pending" | "success" | "failed";
  reason?: string;
}

/** How a transfer stands at the provider, asked by the background check when its callback has not come. */
export interface TransferState {
  status: "pending" | "success" | "failed" | "reversed";
  /** Why it failed or was reversed, as the provider words it. */
  reason?: string;
  /** What the provider says it sent. */
  amountKobo?: number;
}

/**
 * A callback's content once its signature is verified, every field checked: null where the body
 * did not hold a value of the right kind. `outcome` is null for an event that says nothing about a
 * transfer's outcome, and for a transfer event whose fields do not all hold (the reference, the
 * provider's reference, an amount in whole kobo, the currency, a status agreeing with the event):
 * a body we cannot trust in full settles nothing.
 */
export interface PayoutCallback {
  event: string | null;
  /** Our reference (the one createTransfer was given). */
  reference: string | null;
  providerReference: string | null;
  outcome: "success" | "failed" | "reversed" | null;
  amountKobo: number | null;
  /** Why a transfer failed or was reversed, as the provider words it (never the narration); null when it gives none. */
  reason: string | null;
}

/** Why a provider refused a request outright (nothing was sent): the request was wrong, not the network. */
export type RefusalCode =
  | "invalid_reference"
  | "invalid_amount"
  | "invalid_account"
  | "unknown_bank"
  | "no_such_account"
  | "invalid_narration"
  | "reference_reused";

/** A request the provider refused (a real provider's 400/422 answer): nothing was sent, and the same request will be refused again. */
export class PayoutRefused extends Error {
  constructor(
    readonly code: RefusalCode,
    message: string,
  ) {
    super(message);
    this.name = "PayoutRefused";
  }
}

/**
 * One money-out provider (docs/payouts.md): the claims module pays a claim through it. A real one
 * (Paystack transfers) is called over HTTP; the sandbox answers in-process. Callbacks are signed as
 * the funding provider's are: an HMAC-SHA512 of the raw body with the provider secret, hex, in
 * `signatureHeader`.
 */
export interface PayoutProvider {
  /** As it appears in the callback route and the payout records. */
  name: string;
  signatureHeader: string;
  /**
   * The account name enquiry (Paystack: GET /bank/resolve?account_number=&bank_code=). `hint` is the
   * name the claim expects; it exists only so the sandbox can play the account holder, and a real
   * provider ignores it: never let it reach a real provider's request.
   */
  resolveAccount(account: BankAccount, hint: { expectedName: string }): Promise<AccountLookup>;
  /**
   * Sends a transfer (Paystack: POST /transferrecipient, then POST /transfer with `reference`).
   * Idempotent on the reference: the same reference again answers the same transfer, never a
   * second one; a different amount or account under a used reference is refused (PayoutRefused
   * `reference_reused`). Throws PayoutRefused for a request the provider refuses.
   */
  createTransfer(transfer: PayoutTransfer): Promise<TransferAnswer>;
  /**
   * How a transfer stands (Paystack: GET /transfer/verify/:reference). It is given the transfer as it
   * was sent: a real provider reads only its reference; the sandbox, whose state is its inputs,
   * reads the account number too.
   */
  queryTransfer(transfer: PayoutTransfer): Promise<TransferState>;
  /** Over the bytes as they arrived (a body that is not UTF-8 is still the provider's to sign). */
  verifySignature(rawBody: Uint8Array | string, signature: string | null): boolean;
  /** Reads a verified callback's body; throws on a body that is not the provider's JSON (not JSON, or not an object). */
  readCallback(rawBody: string): PayoutCallback;
  /** The sandbox only: the callbacks it delivers right after a transfer is created (its scenario), in order. */
  immediateCallbacks?(transfer: PayoutTransfer): SignedCallback[];
}
