import { z } from "zod";
import { CommandError } from "./errors";
import { normaliseUuid } from "./ids";
import { fieldPath, parseWith, unsafeJson } from "./validation";

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

/** How deeply objects and arrays may nest in a body (the root is level 1; the deepest seed the commands take is 6). */
export const MAX_JSON_DEPTH = 32;

export type Envelope = z.output<typeof envelopeSchema>;

/**
 * Before anything walks the body: nesting beyond MAX_JSON_DEPTH (a recursive check or the database
 * would overflow its stack) and text that can never be stored (NUL, unpaired surrogates) are
 * refused here, for every command, naming the field (`seed.name.first`, not `cmmnd.seed.name.first`).
 */
function refuseUnsafeJson(json: object) {
  const unsafe = unsafeJson(json, MAX_JSON_DEPTH);
  if (!unsafe) return;
  const { path, problem } = unsafe;
  const inSeed = path[0] === "cmmnd" && path[1] === "seed";
  const shown = inSeed ? path.slice(2) : path;
  // A path thousands of levels deep is named by its start.
  const field = fieldPath(inSeed ? "seed" : "", shown.slice(0, 8)) + (shown.length > 8 ? "…" : "");
  throw new CommandError(400, `${field || "request body"} ${problem}`, field || undefined);
}

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
  refuseUnsafeJson(json);
  return parseWith(envelopeSchema, json, "");
}
