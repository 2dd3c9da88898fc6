import { z } from "zod";
import { CommandError } from "../../core/errors";
import { normaliseUuid, UUID_PATTERN } from "../../core/ids";

/** Spec 2.5 rule 2: up to 32 letters and digits, stored as sent (32 hex characters are a UUID). */
const PLAIN_REFERENCE = /^[A-Za-z0-9]{1,32}$/;

/** The forms normaliseReference takes, as the command reference documents seed.id. */
export const transactionReference = z
  .union([z.string().regex(UUID_PATTERN), z.string().regex(PLAIN_REFERENCE)])
  .meta({ description: "Your transaction reference, unique among your policies: a UUID (hyphenated, or 32 hex characters) or at most 32 letters and digits" });

/**
 * The partner's transaction reference (spec 2.5): a UUID (stored lower-case, hyphenated), 32
 * hex characters (auto-formatted to a UUID), or up to 32 letters and digits (stored as sent).
 */
export function normaliseReference(value: unknown): string {
  if (value === undefined) throw new CommandError(400, "seed.id is required: the transaction reference of this policy", "seed.id");
  if (typeof value === "string") {
    const uuid = normaliseUuid(value);
    if (uuid) return uuid;
    if (PLAIN_REFERENCE.test(value)) return value;
  }
  throw new CommandError(400, "seed.id is invalid: use a UUID (hyphenated, or 32 hexadecimal characters) or at most 32 letters and digits", "seed.id");
}
