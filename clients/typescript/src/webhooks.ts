/**
 * Standard Webhooks (https://www.standardwebhooks.com) verification and signing with Web Crypto
 * only: runs in Bun, Node 20+, Deno, workers and browsers.
 *
 * A delivery carries `webhook-id`, `webhook-timestamp` (unix seconds) and `webhook-signature`
 * (`v1,<base64 HMAC-SHA256>`, space-separated, one per signing secret — two during a rotation).
 * The MAC is over `<webhook-id>.<webhook-timestamp>.<raw body>` keyed with the base64-decoded
 * bytes of the secret after `whsec_`.
 */
import { WebhookVerificationError } from "./errors.js";
import type { WebhookEventType } from "./types.js";

/** The body of every delivery (docs/webhooks.md). */
export interface WebhookEvent<Data = Record<string, unknown>> {
  type: WebhookEventType | (string & {});
  /** When the event happened (ISO 8601, UTC). */
  timestamp: string;
  data: Data;
}

/** Fetch `Headers`, or a plain object as Node's `req.headers` and most frameworks give (any case). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far `webhook-timestamp` may be from now, either way (default 300 s, as Standard Webhooks). */
  toleranceSeconds?: number;
  /** The current time (tests). */
  now?: Date | number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    return Array.isArray(value) ? value.join(" ") : value;
  }
  return undefined;
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** `whsec_<base64>` (or the bare base64, or the raw bytes) → the HMAC key bytes. */
export function secretBytes(secret: string | Uint8Array): Uint8Array {
  if (typeof secret !== "string") return secret;
  const encoded = secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret;
  try {
    const bytes = fromBase64(encoded);
    if (bytes.length === 0) throw new Error("empty");
    return bytes;
  } catch {
    throw new WebhookVerificationError("the webhook secret is not a whsec_ secret (base64 after the prefix)");
  }
}

const hmacKey = (secret: string | Uint8Array) =>
  crypto.subtle.importKey("raw", secretBytes(secret) as Uint8Array<ArrayBuffer>, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);

function signedContent(id: string, timestamp: string, body: string | Uint8Array | ArrayBuffer): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const payload = typeof body === "string" ? encoder.encode(body) : body instanceof Uint8Array ? body : new Uint8Array(body);
  const content = new Uint8Array(prefix.length + payload.length);
  content.set(prefix, 0);
  content.set(payload, prefix.length);
  return content;
}

/** Equal bytes, in time that does not depend on where they differ (lengths are public: 32 bytes). */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

/**
 * `v1,<base64>` for `body` sent with `id` at `timestamp` (unix seconds or a Date): what the service
 * puts in `webhook-signature`. Useful to test your own receiver.
 */
export async function signWebhook(
  secret: string | Uint8Array,
  message: { id: string; timestamp: number | Date; body: string | Uint8Array | ArrayBuffer },
): Promise<string> {
  const seconds = message.timestamp instanceof Date ? Math.floor(message.timestamp.getTime() / 1000) : message.timestamp;
  const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret), signedContent(message.id, String(seconds), message.body));
  return `v1,${toBase64(new Uint8Array(mac))}`;
}

/**
 * Verify a delivery and return its parsed body, or throw {@link WebhookVerificationError}.
 *
 * - `body`: the raw body exactly as received (a string or bytes), never a re-serialised object.
 * - `secret`: the endpoint's `whsec_` secret, or several (during your own migration between
 *   endpoints); any one signature made with any one secret verifies.
 * - `toleranceSeconds`: how old (or how far in the future) `webhook-timestamp` may be (300 s).
 *
 * Deliveries come at least once: deduplicate on `webhook-id` after verifying.
 */
export async function verifyWebhook<Data = Record<string, unknown>>(
  body: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secret: string | Uint8Array | readonly (string | Uint8Array)[],
  options: VerifyOptions = {},
): Promise<WebhookEvent<Data>> {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature header");
  if (!/^\d{1,15}$/.test(timestamp)) throw new WebhookVerificationError("webhook-timestamp is not a unix time in seconds");
  const tolerance = options.toleranceSeconds ?? 300;
  const now = Math.floor((options.now === undefined ? Date.now() : typeof options.now === "number" ? options.now : options.now.getTime()) / 1000);
  const sent = Number(timestamp);
  if (now - sent > tolerance) throw new WebhookVerificationError(`webhook-timestamp is too old (${now - sent} s, tolerance ${tolerance} s)`);
  if (sent - now > tolerance) throw new WebhookVerificationError(`webhook-timestamp is too far in the future (${sent - now} s, tolerance ${tolerance} s)`);

  const candidates: Uint8Array[] = [];
  for (const entry of signatures.split(" ")) {
    const [version, signature] = entry.split(",", 2);
    if (version !== "v1" || !signature) continue;
    try {
      candidates.push(fromBase64(signature));
    } catch {
      candidates.push(new Uint8Array(0)); // not base64: a v1 signature that cannot match
    }
  }
  if (!candidates.length) throw new WebhookVerificationError("webhook-signature has no v1 signature");

  const content = signedContent(id, timestamp, body);
  const secrets = (Array.isArray(secret) ? secret : [secret]) as (string | Uint8Array)[];
  if (!secrets.length) throw new WebhookVerificationError("no webhook secret to verify with");
  let verified = false;
  for (const s of secrets) {
    const expected = new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(s), content));
    // Compare with every signature (no early exit), so the time taken says nothing about which matched.
    for (const candidate of candidates) verified = constantTimeEqual(expected, candidate) || verified;
  }
  if (!verified) throw new WebhookVerificationError("no webhook-signature matches: wrong secret, or the body was changed");

  const text = typeof body === "string" ? body : decoder.decode(body);
  try {
    return JSON.parse(text) as WebhookEvent<Data>;
  } catch {
    throw new WebhookVerificationError("the signed body is not JSON");
  }
}
