import { z } from "zod";
import { CommandError } from "./errors";
import { normaliseUuid } from "./ids";
import { type JsonLimits, jsonShapeProblem, MAX_JSON_DEPTH, memberText } from "./json-shape";
import { fieldPath, parseWith, unsafeJson } from "./validation";

const uuidV4 = z
  .string()
  .refine((v) => normaliseUuid(v) !== null, "must be a UUID v4: hyphenated 8-4-4-4-12 or 32 hex characters")
  .transform((v) => normaliseUuid(v)!);

const userInfoSchema = z.object({
  id: uuidV4,
  athrzt: z.object({
    id: uuidV4,
    key: z
      .string()
      .min(1)
      .refine((k) => !/\s/.test(k), "must not contain spaces or line breaks"),
  }),
});

const envelopeSchema = z.object({
  userInfo: userInfoSchema,
  cmmnd: z.object({
    cmmnd: z.string().trim().min(1),
    seed: z.unknown().optional(),
  }),
});

export { MAX_JSON_DEPTH };

export type Envelope = z.output<typeof envelopeSchema>;

/** A path inside the body as a refusal names it: `seed.name.first`, not `cmmnd.seed.name.first`; a path thousands of levels deep by its start. */
function shownField(path: PropertyKey[]): string {
  const inSeed = path[0] === "cmmnd" && path[1] === "seed";
  const shown = inSeed ? path.slice(2) : path;
  return fieldPath(inSeed ? "seed" : "", shown.slice(0, 8)) + (shown.length > 8 ? "…" : "");
}

const refusal = (path: PropertyKey[], problem: string, status = 400) => {
  const field = shownField(path);
  return new CommandError(status, `${field || "request body"} ${problem}`, field || undefined);
};

/**
 * Refuses a body (or the part of it received so far: whatever exceeds a limit in a prefix exceeds
 * it in the whole) whose shape is beyond `limits`, naming the field and the limit.
 */
export function refuseShape(text: string, limits: JsonLimits): void {
  const problem = jsonShapeProblem(text, limits);
  if (problem) throw refusal(problem.path, problem.problem, problem.status);
}

/**
 * Text of the body → the envelope of spec 2.1, or a CommandError naming what is wrong. Before
 * anything is built from the text, its shape is held to `limits` (one pass, src/core/json-shape.ts);
 * after parsing, text that can never be stored (NUL, unpaired surrogates) is refused for every
 * command, naming the field.
 */
export function parseEnvelope(body: string, limits: JsonLimits): Envelope {
  if (body.trim() === "") throw new CommandError(400, "request body is empty: send the JSON envelope { userInfo, cmmnd }");
  refuseShape(body, limits);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    throw new CommandError(400, `request body is not valid JSON: ${(error as Error).message}`);
  }
  if (json === null || typeof json !== "object" || Array.isArray(json))
    throw new CommandError(400, "request body must be a JSON object with userInfo and cmmnd");
  const unsafe = unsafeJson(json, limits.maxDepth);
  if (unsafe) throw refusal(unsafe.path, unsafe.problem);
  return parseWith(envelopeSchema, json, "");
}

/**
 * The sender a body names in its first `within` characters (userInfo, whole within them): how a
 * large body is authenticated before the rest of it is read. Refuses credentials that are not
 * well-formed, and a prefix that names no sender (docs/security.md, "What a request costs").
 */
export function senderIn(received: string, within: number): Envelope["userInfo"] {
  const text = memberText(received.slice(0, within), "userInfo");
  if (text === undefined)
    throw new CommandError(413, `request body: a body over ${within} bytes must name its sender within its first ${within} bytes: send userInfo before cmmnd`);
  let userInfo: unknown;
  try {
    userInfo = JSON.parse(text);
  } catch (error) {
    throw new CommandError(400, `userInfo is not valid JSON: ${(error as Error).message}`, "userInfo");
  }
  const unsafe = unsafeJson(userInfo, MAX_JSON_DEPTH);
  if (unsafe) throw refusal(["userInfo", ...unsafe.path], unsafe.problem);
  return parseWith(userInfoSchema, userInfo, "userInfo");
}
