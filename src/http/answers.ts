/**
 * Field shapes the answer schemas of the registry share (CommandDefinition.answer): how times,
 * money and pages look on the wire. They describe answers; seeds keep their own rules.
 */
import { z } from "zod";
import { refusal } from "./registry";

/** watTimestamp(): YYYY-MM-DD HH:MM:SS in Nigerian time (UTC+1). */
export const wireTimestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  .meta({ description: "YYYY-MM-DD HH:MM:SS, Nigerian time (UTC+1)" });

export const wireDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .meta({ description: "YYYY-MM-DD" });

export const naira = (description = "naira") => z.number().meta({ description });

export const currency = z.literal("NGN");

/** Every list command answers a page: newest first, with the cursor of the next one. */
export const page = <Item extends z.ZodType>(item: Item) =>
  z.object({
    list: z.array(item),
    nextCursor: z.string().nullable().meta({ description: "Pass back as seed.cursor for the next page; null on the last page" }),
  });

// Refusals several commands share, worded as the code words them (the examples prove the wording).
export const BLANK_FIELD = refusal(
  406,
  "seed.<field> is <blank or null>: omit optional fields entirely instead of sending blank or null values",
  "a field is an empty string or null",
);
export const UNKNOWN_FIELD = refusal(400, "seed has unknown field: <field>", "a field the seed does not take (a typo)");
export const NOT_A_NUMBER = refusal(
  400,
  "seed.<field> must be a JSON number, not a string (send <value> without quotes)",
  "a numeric field sent as a string (spec 7)",
);
export const BAD_CURSOR = refusal(400, "seed.cursor is not a cursor this service returned");
