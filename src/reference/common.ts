/**
 * What every command shares: the envelope (spec 2.1), exctnFdbck (2.2) and the refusals any
 * command can meet (spec 7), as the reference documents them once.
 */
import { z } from "zod";
import { AT_CAPACITY, atCapacity, DATABASE_LOST, ERROR, SUCCESS } from "../core/feedback";
import { COMPACT_UUID_PATTERN, UUID_PATTERN } from "../core/ids";
import { BLANK_FIELD } from "../http/answers";
import { ADMIN_ONLY, NOT_ACTIVATED, refusal } from "../http/registry";

const uuidV4 = z
  .union([z.string().regex(UUID_PATTERN), z.string().regex(COMPACT_UUID_PATTERN)])
  .meta({ description: "UUID v4, hyphenated (8-4-4-4-12) or as 32 hex characters" });

/** Spec 2.1 and 5: credentials travel in the body of every request. */
export const userInfo = z
  .object({
    id: uuidV4.meta({ description: "Partner id" }),
    athrzt: z.object({
      id: uuidV4.meta({ description: "Authorization id" }),
      key: z
        .string()
        .min(1)
        .regex(/^\S+$/)
        .meta({ description: "Authorization key, base64, in full with any trailing padding; a test or live key selects the mode" }),
    }),
  })
  .meta({ description: "Who is calling (spec 5)" });

/** Spec 2.1: the envelope of every request; cmmnd.seed depends on the command. */
export const envelope = z.object({
  userInfo,
  cmmnd: z.object({
    cmmnd: z.string().min(1).meta({ description: "The command string (spec 4.2)" }),
    seed: z.unknown().optional().meta({ description: "The command's parameters; not read by commands without a seed" }),
  }),
});

/** Spec 2.2. */
export const executionFeedback = z.object({
  id: z
    .union([z.literal(SUCCESS), z.literal(AT_CAPACITY), z.literal(ERROR)])
    .meta({ description: "75 success, 35 at capacity (nothing stored: retry after 2, 4, 8 s), 55 error" }),
  id_v4: z.int().meta({ description: "The HTTP-equivalent status: 200, 4xx, 5xx, 503 at capacity" }),
  elbrtn: z.string().optional().meta({ description: "What is wrong, on errors: names the field, the rule and what was received" }),
});

export const successFeedback = z.object({ id: z.literal(SUCCESS), id_v4: z.literal(200) });

/** Any 55: the command was refused and nothing was stored. */
export const refusalAnswer = z.object({
  exctnFdbck: z.object({ id: z.literal(ERROR), id_v4: z.int().min(400).max(599), elbrtn: z.string() }),
  retryAfter: z.int().optional().meta({ description: "With 429: seconds to wait before retrying" }),
});

/** 35: at capacity, or the database briefly unreachable (its elbrtn says whether anything may be stored). */
export const atCapacityAnswer = z.object({
  exctnFdbck: z.object({
    id: z.literal(AT_CAPACITY),
    id_v4: z.literal(503),
    elbrtn: z.union([
      z.literal(atCapacity().exctnFdbck.elbrtn!),
      z
        .string()
        .startsWith(DATABASE_LOST)
        .meta({
          description:
            `The database was briefly unreachable or did not answer in time: "${DATABASE_LOST} … and nothing was stored …" or "… before ` +
            `this request was answered …" (retry), or "… its outcome is unknown …" (read it back by its reference, then retry); each ends with the request id`,
        }),
    ]),
  }),
});

/** Refusals any command can meet, worded as the service words them (test/reference.test.ts sends each that a request can provoke). */
export const COMMON_REFUSALS = {
  notJson: refusal(400, "request body is not valid JSON: <parser's message>"),
  notObject: refusal(400, "request body must be a JSON object with userInfo and cmmnd"),
  missingField: refusal(400, "<field> is required", "an envelope field is missing, e.g. cmmnd.cmmnd"),
  badUuid: refusal(400, "userInfo.id must be a UUID v4: hyphenated 8-4-4-4-12 or 32 hex characters", "also userInfo.athrzt.id"),
  notGenuine: refusal(401, "authorization is not genuine: the partner id, authorization id and key do not match"),
  revoked: refusal(401, "authorization is not genuine: this key has been revoked"),
  suspended: refusal(403, "this partner account is suspended"),
  unknownCommand: refusal(400, "unknown command '<command>': see docs/commands.md for the command strings"),
  adminOnly: ADMIN_ONLY,
  notActivated: NOT_ACTIVATED,
  blank: BLANK_FIELD,
  unstorable: refusal(
    400,
    "<field> contains a NUL character (U+0000), which text cannot hold",
    "also an unpaired UTF-16 surrogate, or nesting deeper than 32 levels",
  ),
  tooLarge: refusal(413, "request body is too large: at most <bytes> bytes are accepted"),
  tooMany: refusal(
    413,
    "<field> holds more than <n> values (array elements and object members in all)",
    "also: has more than <n> fields, is longer than <n> characters (docs/commands.md, Limits on the body)",
  ),
  tooDeep: refusal(400, "<field> nests objects and arrays deeper than 32 levels", "also: has a field name longer than 256 characters"),
  tooManyRefusals: refusal(
    429,
    "rate limit exceeded: at most <n> refused requests (unreadable, malformed or not authenticated) in any <s> seconds from one address or for one partner id; retry after <s> s",
    "with retryAfter; refusals never count against the partner's own limit",
  ),
  rateLimited: refusal(429, "rate limit exceeded: at most <n> requests in any <s> seconds; retry after <s> s", "with retryAfter (seconds); retry after 1-2 s"),
  internal: refusal(500, "internal error: the command was not completed (request id <id>)"),
} as const;
