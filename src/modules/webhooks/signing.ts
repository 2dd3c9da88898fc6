/** Standard Webhooks signing (https://www.standardwebhooks.com): secrets and the webhook-signature header. */
import { createHmac, randomBytes } from "node:crypto";

const PREFIX = "whsec_";

/** A new secret: whsec_ + base64 of 32 random bytes (the spec asks for 24 to 64). */
export const newSecret = () => `${PREFIX}${randomBytes(32).toString("base64")}`;

/** v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>"> keyed with the secret's decoded bytes. */
function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`;
}

/** One signature per secret, space-separated (several during a rotation; a receiver accepts any one). */
export const signatureHeader = (secrets: string[], id: string, timestampSeconds: number, body: string) =>
  secrets.map((secret) => sign(secret, id, timestampSeconds, body)).join(" ");

/** The secrets that sign now: the current one, and the previous one while its overlap lasts. */
export function signingSecrets(holder: { secret: string; previousSecret: string | null; previousSecretUntil: Date | null }, at: Date): string[] {
  return holder.previousSecret && holder.previousSecretUntil && holder.previousSecretUntil > at ? [holder.secret, holder.previousSecret] : [holder.secret];
}

/** How long a rotated-out secret keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;
