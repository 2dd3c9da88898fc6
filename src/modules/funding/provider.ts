import type { SignedCallback } from "../../core/signatures";

/** How the partner pays a funding: a bank transfer to an account the provider opened for it, or a payment page. */
export type PaymentInstruction =
  | { method: "bank_transfer"; bank: string; accountNumber: string; accountName: string }
  | { method: "payment_link"; url: string };

/** A funding as the provider knows it. */
export interface ProviderPayment {
  /** Our funding's id: what the provider is told to pay for. */
  fundingId: string;
  /** The partner's reference (seed.reference). */
  reference: string;
  amountKobo: number;
  /** The provider's own reference; absent until the payment is created. */
  providerReference?: string;
}

/** What the provider says about a payment: paid (with what arrived), failed (why), or not yet. */
export type PaymentResult = { status: "paid"; amountKobo: number } | { status: "failed"; reason: string } | { status: "pending" };

/** A callback's content once its signature is verified. */
export interface ProviderCallback {
  providerReference: string | null;
  event: string | null;
  /** Null: an event that says nothing about a payment's outcome (ignored). */
  result: Exclude<PaymentResult, { status: "pending" }> | null;
}

/**
 * One payment provider (docs/funding.md). A real one (Paystack, Flutterwave) is called over HTTP;
 * the sandbox answers in-process. Callbacks are verified the same way for all: an HMAC-SHA512 of the
 * raw body with the provider secret, hex, in `signatureHeader`.
 */
export interface PaymentProvider {
  /** As it appears in the callback route (/funding/callbacks/<name>) and wallet_fundings.provider. */
  name: string;
  signatureHeader: string;
  createPayment(payment: ProviderPayment, now: Date): Promise<{ providerReference: string; instruction: PaymentInstruction; expiresAt: Date }>;
  queryPayment(payment: Required<ProviderPayment>): Promise<PaymentResult>;
  /** Over the bytes as they arrived (a body that is not UTF-8 is still the provider's to sign). */
  verifySignature(rawBody: Uint8Array | string, signature: string | null): boolean;
  /** Reads a verified callback's body; throws on a body that is not the provider's JSON. */
  readCallback(rawBody: string): ProviderCallback;
  /** The sandbox only: the callbacks it delivers at once when a payment is created (its scenario). */
  immediateCallbacks?(payment: Required<ProviderPayment>): SignedCallback[];
  /** The sandbox only: the callback of the partner paying now (the "pay" button), or null when it cannot be paid. */
  payNow?(payment: Required<ProviderPayment>): SignedCallback | null;
}
