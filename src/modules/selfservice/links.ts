/**
 * The policyholder's own link (docs/self-service.md): a signed, expiring token naming one consumer of
 * one partner. Nothing is stored: the signature (HMAC-SHA256 with SELF_SERVICE_KEY, else a key made
 * once and kept in the database) is the proof, and the expiry is inside what is signed, so a link can
 * be neither stretched nor pointed at another consumer.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { type Config, publicUrl } from "../../core/config";
import type { Database } from "../../db/client";
import { keptSecret } from "../accounts";

const VERSION = "v1";
/** A token is a few hundred characters at most: anything longer is not one of ours. */
const MAX_TOKEN_LENGTH = 300;

interface LinkClaims {
  partnerId: string;
  consumerId: string;
  expiresAt: Date;
}

const linkKey = async (db: Database, config: Config) => config.SELF_SERVICE_KEY ?? (await keptSecret(db, "self-service-links"));

const signature = (key: string, body: string) => createHmac("sha256", key).update(`${VERSION}.${body}`).digest("base64url");

/** A consumer's link, valid SELF_SERVICE_LINK_HOURS from `now`. */
export async function mintLink(db: Database, config: Config, who: { partnerId: string; consumerId: string }, now: Date) {
  // Whole seconds: the token holds them, so the answer says exactly when the link stops working.
  const expiresAt = new Date(Math.floor((now.getTime() + config.SELF_SERVICE_LINK_HOURS * 3_600_000) / 1000) * 1000);
  const body = Buffer.from(JSON.stringify({ p: who.partnerId, c: who.consumerId, e: expiresAt.getTime() / 1000 })).toString("base64url");
  const token = `${VERSION}.${body}.${signature(await linkKey(db, config), body)}`;
  return { token, url: `${publicUrl(config)}/my/${token}`, expiresAt };
}

/** What a link names, or why it opens nothing: `expired` only for a genuine link past its time. */
export async function openLink(
  db: Database,
  config: Config,
  token: string,
  now: Date,
): Promise<{ status: "open"; link: LinkClaims } | { status: "expired" | "invalid" }> {
  const parts = token.length <= MAX_TOKEN_LENGTH ? token.split(".") : [];
  if (parts.length !== 3 || parts[0] !== VERSION) return { status: "invalid" };
  const [, body, given] = parts as [string, string, string];
  const expected = Buffer.from(signature(await linkKey(db, config), body));
  const received = Buffer.from(given);
  if (expected.length !== received.length || !timingSafeEqual(expected, received)) return { status: "invalid" };
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return { status: "invalid" };
  }
  const { p, c, e } = (claims ?? {}) as Record<string, unknown>;
  if (typeof p !== "string" || typeof c !== "string" || typeof e !== "number") return { status: "invalid" };
  const expiresAt = new Date(e * 1000);
  if (expiresAt.getTime() <= now.getTime()) return { status: "expired" };
  return { status: "open", link: { partnerId: p, consumerId: c, expiresAt } };
}
