import { createHash } from "node:crypto";
import { hmacSha512, type SignedCallback, signatureMatches } from "../../core/signatures";
import type { PaymentProvider, PaymentResult, ProviderPayment } from "./provider";

/**
 * What the sandbox does with a payment, chosen by how the partner's reference ends (any case);
 * docs/funding.md and docs/sandbox.md describe them. Anything else is paid in full at once.
 */
const SANDBOX_SCENARIOS = [
  { suffix: "-unpaid", scenario: "unpaid", summary: 'stays pending with how to pay: pay it later from the portal ("Pay now (sandbox)"), or let it expire' },
  { suffix: "-fail", scenario: "fail", summary: "the payment fails at once: the funding is failed, nothing is credited" },
  { suffix: "-partial", scenario: "partial", summary: "half the amount arrives: the funding is held for an administrator, nothing is credited" },
  { suffix: "-late", scenario: "late", summary: "paid, but the callback is lost: the background check finds the payment and credits it" },
] as const;

type Scenario = (typeof SANDBOX_SCENARIOS)[number]["scenario"] | "paid";

const sandboxScenario = (reference: string): Scenario => SANDBOX_SCENARIOS.find((s) => reference.toLowerCase().endsWith(s.suffix))?.scenario ?? "paid";

/** What arrives in a scenario where money arrives: half (rounded down to the kobo) for `-partial`. */
const paidKobo = (payment: ProviderPayment) => (sandboxScenario(payment.reference) === "partial" ? Math.floor(payment.amountKobo / 2) : payment.amountKobo);

/** A ten-digit account number of its own per funding (a provider's dedicated virtual account). */
const accountNumber = (fundingId: string) => {
  const digits = BigInt(`0x${createHash("sha256").update(fundingId).digest("hex").slice(0, 15)}`) % 10_000_000_000n;
  return digits.toString().padStart(10, "0");
};

/**
 * The built-in provider: behaves like Paystack's dedicated-account transfers (a callback of
 * `charge.success` or `charge.failed` signed with x-paystack-signature), without a network. Its
 * state is the reference's scenario, so every process and the background check agree on it.
 */
export function sandboxProvider(secret: string, expiryMinutes: number): PaymentProvider {
  const sign = (data: Record<string, unknown>, event: string): SignedCallback => {
    const body = JSON.stringify({ event, data });
    return { body, signature: hmacSha512(secret, body) };
  };
  const charge = (payment: Required<ProviderPayment>, result: Exclude<PaymentResult, { status: "pending" }>) =>
    result.status === "paid"
      ? sign(
          { reference: payment.providerReference, status: "success", amount: result.amountKobo, currency: "NGN", channel: "dedicated_nuban" },
          "charge.success",
        )
      : sign(
          { reference: payment.providerReference, status: "failed", amount: payment.amountKobo, currency: "NGN", gateway_response: result.reason },
          "charge.failed",
        );
  const FAILED = "Declined by the sandbox bank (the reference asked for a failure)";
  return {
    name: "sandbox",
    signatureHeader: "x-paystack-signature",
    async createPayment(payment, now) {
      return {
        providerReference: `SBX_${payment.fundingId.replaceAll("-", "").slice(0, 24).toUpperCase()}`,
        instruction: {
          method: "bank_transfer",
          bank: "Sandbox Microfinance Bank",
          accountNumber: accountNumber(payment.fundingId),
          accountName: "Sandbox Checkout / Funding",
        },
        expiresAt: new Date(now.getTime() + expiryMinutes * 60_000),
      };
    },
    async queryPayment(payment) {
      const scenario = sandboxScenario(payment.reference);
      if (scenario === "unpaid") return { status: "pending" };
      if (scenario === "fail") return { status: "failed", reason: FAILED };
      return { status: "paid", amountKobo: paidKobo(payment) };
    },
    verifySignature: (rawBody, signature) => signatureMatches(secret, rawBody, signature),
    readCallback(rawBody) {
      const parsed = JSON.parse(rawBody) as { event?: unknown; data?: { reference?: unknown; amount?: unknown; gateway_response?: unknown } };
      const event = typeof parsed.event === "string" ? parsed.event : null;
      const providerReference = typeof parsed.data?.reference === "string" ? parsed.data.reference : null;
      const amount = parsed.data?.amount;
      if (event === "charge.success" && Number.isSafeInteger(amount) && (amount as number) >= 0)
        return { event, providerReference, result: { status: "paid", amountKobo: amount as number } };
      if (event === "charge.failed")
        return {
          event,
          providerReference,
          result: { status: "failed", reason: typeof parsed.data?.gateway_response === "string" ? parsed.data.gateway_response : "Payment failed" },
        };
      return { event, providerReference, result: null };
    },
    immediateCallbacks(payment) {
      const scenario = sandboxScenario(payment.reference);
      if (scenario === "unpaid" || scenario === "late") return [];
      if (scenario === "fail") return [charge(payment, { status: "failed", reason: FAILED })];
      return [charge(payment, { status: "paid", amountKobo: paidKobo(payment) })];
    },
    payNow: (payment) => charge(payment, { status: "paid", amountKobo: payment.amountKobo }),
  };
}
