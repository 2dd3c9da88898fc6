/** Identifier forms of the wire protocol (spec 2.3, 5.3). */

const hyphenated = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const compact = /^[0-9a-f]{32}$/i;

/** The two forms, for schemas that document them (the reference). */
export { compact as COMPACT_UUID_PATTERN, hyphenated as UUID_PATTERN };

/** A UUID in hyphenated 8-4-4-4-12 form or as 32 hex characters → canonical lower-case hyphenated form; null otherwise. */
export function normaliseUuid(value: unknown): string | null {
  if (typeof value !== "string") return null;
  if (hyphenated.test(value)) return value.toLowerCase();
  if (compact.test(value)) {
    const v = value.toLowerCase();
    return `${v.slice(0, 8)}-${v.slice(8, 12)}-${v.slice(12, 16)}-${v.slice(16, 20)}-${v.slice(20)}`;
  }
  return null;
}

/** The consumer id as the wire shows it: 32 hex characters, no hyphens. */
export const compactUuid = (uuid: string) => uuid.replaceAll("-", "");

/**
 * Ids of stored records: UUID v7 (RFC 9562), time-ordered and monotonic within this process, so
 * lists ordered by (creation time, id) keep creation order even within one millisecond.
 */
export const newId = () => Bun.randomUUIDv7();

/** Partner and authorization ids: spec 5.2 calls them UUID v4. */
export const newCredentialId = () => crypto.randomUUID();
