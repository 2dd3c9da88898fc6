import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * How money providers sign their callbacks (docs/funding.md, docs/payouts.md): an HMAC-SHA512 of the
 * raw body with the provider secret, hex — Paystack's x-paystack-signature, and both sandboxes'.
 */

/** A signed callback a provider sends (the sandboxes deliver these themselves). */
export interface SignedCallback {
  body: string;
  signature: string;
}

/** HMAC-SHA512 of the body, hex: how Paystack (x-paystack-signature) and the sandboxes sign callbacks. */
export const hmacSha512 = (secret: string, body: Uint8Array | string) => createHmac("sha512", secret).update(body).digest("hex");

/** A signature compared in constant time: a forged one learns nothing from how long the refusal took. */
export function signatureMatches(secret: string, body: Uint8Array | string, signature: string | null): boolean {
  if (!signature) return false;
  const expected = Buffer.from(hmacSha512(secret, body), "utf8");
  const given = Buffer.from(signature.trim().toLowerCase(), "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
