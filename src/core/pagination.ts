import { z } from "zod";
import { CommandError } from "./errors";
import { normaliseUuid } from "./ids";
import { DATE_RANGE, inDateRange, isoDate } from "./validation";

export interface Page<T> {
  items: T[];
  /** Opaque; pass back as seed.cursor for the next page. null on the last page. */
  nextCursor: string | null;
}

/** Seed of every list command: { limit?, cursor? }. */
export const pageSeed = z.object({
  limit: z.int().min(1).max(100).default(20),
  cursor: z.string().min(1).max(200).optional(),
});

const day = (description: string) =>
  isoDate.optional().meta({ description: `${description} (YYYY-MM-DD, Nigerian time; ${DATE_RANGE.first} to ${DATE_RANGE.last})` });

/** A list seed with the days its records were created as a filter, both days included; a `to` before `from` would select nothing and is refused. */
export function withDayFilter<S extends z.ZodRawShape, C extends z.core.$ZodObjectConfig>(seed: z.ZodObject<S, C>) {
  return seed
    .extend({ from: day("Created on or after this day"), to: day("Created on or before this day") })
    .refine((s) => !s.from || !s.to || s.from <= s.to, { message: "must not be before seed.from", path: ["to"] });
}

// Timestamps are written by the service with millisecond precision, so the cursor's Date is exact.
export const encodeCursor = (at: Date, id: string) => Buffer.from(`${at.toISOString()}|${id}`).toString("base64url");

export function decodeCursor(cursor: string): { at: Date; id: string } {
  const [iso, id] = Buffer.from(cursor, "base64url").toString().split("|");
  const at = new Date(iso ?? "");
  const uuid = normaliseUuid(id);
  // A cursor made up with a time outside the calendar would reach the database as one it refuses.
  if (Number.isNaN(at.getTime()) || !inDateRange(at.toISOString().slice(0, 10)) || !uuid)
    throw new CommandError(400, "seed.cursor is not a cursor this service returned", "seed.cursor");
  return { at, id: uuid };
}
