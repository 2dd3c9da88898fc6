import { CommandError } from "../../core/errors";
import { normaliseUuid } from "../../core/ids";

/**
 * The partner's transaction reference (spec 2.5): a UUID (stored lower-case, hyphenated), 32
 * hex characters (auto-formatted to a UUID), or up to 32 letters and digits (stored as sent).
 */
export function normaliseReference(value: unknown): string {
  if (value === undefined) throw new CommandError(400, "seed.id is required: the transaction reference of this policy", "seed.id");
  if (typeof value === "string") {
    const uuid = normaliseUuid(value);
    if (uuid) return uuid;
    if (/^[A-Za-z0-9]{1,32}$/.test(value)) return value;
  }
  throw new CommandError(
    400,
    "seed.id is invalid: use a UUID (hyphenated, or 32 hexadecimal characters) or at most 32 letters and digits",
    "seed.id",
  );
}
