import { z } from "zod";
import { CommandError } from "./errors";
import { normaliseUuid } from "./ids";
import { parseWith } from "./validation";

const uuidV4 = z
  .string()
  .refine((v) => normaliseUuid(v) !== null, "must be a UUID v4: hyphenated 8-4-4-4-12 or 32 hex characters")
  .transform((v) => normaliseUuid(v)!);

const envelopeSchema = z.object({
  userInfo: z.object({
    id: uuidV4,
    athrzt: z.object({
      id: uuidV4,
      key: z
        .string()
        .min(1)
        .refine((k) => !/\s/.test(k), "must not contain spaces or line breaks"),
    }),
  }),
  cmmnd: z.object({
    cmmnd: z.string().trim().min(1),
    seed: z.unknown().optional(),
  }),
});

export type Envelope = z.output<typeof envelopeSchema>;

/** Text of the body → the envelope of spec 2.1, or a CommandError naming what is wrong. */
export function parseEnvelope(body: string): Envelope {
  if (body.trim() === "") throw new CommandError(400, "request body is empty: send the JSON envelope { userInfo, cmmnd }");
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    throw new CommandError(400, `request body is not valid JSON: ${(error as Error).message}`);
  }
  if (json === null || typeof json !== "object" || Array.isArray(json))
    throw new CommandError(400, "request body must be a JSON object with userInfo and cmmnd");
  return parseWith(envelopeSchema, json, "");
}
