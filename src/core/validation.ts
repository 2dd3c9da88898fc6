import { z } from "zod";
import { CommandError } from "./errors";

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** What kind of JSON value this is, in the words an integrator uses. */
export function jsonKind(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return value.trim() === "" ? "an empty string" : "a string";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a number";
  if (typeof value === "boolean") return "a boolean";
  return "an object";
}

/**
 * `text` cut to at most `max` characters with "…", never between the two halves of a surrogate
 * pair: refusals quote what was received, and a quoted megabyte must not come back as one.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  if (/[\ud800-\udbff]/.test(text[end - 1] ?? "")) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** A received value as a refusal quotes it: JSON, at most 60 characters. */
export const quoted = (value: unknown) => clip(JSON.stringify(value) ?? String(value), 60);

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let node: unknown = root;
  for (const key of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

export function fieldPath(prefix: string, path: PropertyKey[]): string {
  return path.reduce<string>((acc, key) => (typeof key === "number" ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)), prefix);
}

const expectedWords: Record<string, string> = {
  number: "a JSON number",
  int: "a JSON integer",
  string: "a string",
  boolean: "a JSON boolean (true or false)",
  object: "an object",
  array: "an array",
};

/** One sentence naming the field, the rule it broke and what was received. */
export function describeIssue(issue: z.core.$ZodIssue, input: unknown, prefix: string): { field: string; message: string } {
  const field = fieldPath(prefix, issue.path);
  const received = valueAt(input, issue.path);
  const kind = jsonKind(received);
  if (received === undefined && (issue.code === "invalid_type" || issue.code === "invalid_value")) return { field, message: `${field} is required` };
  switch (issue.code) {
    case "invalid_type": {
      const expected = expectedWords[issue.expected] ?? issue.expected;
      if ((issue.expected === "number" || issue.expected === "int") && typeof received === "string") {
        // Only suggest dropping the quotes when what is inside them is a JSON number.
        const inside = received.trim();
        const hint = JSON_NUMBER.test(inside) ? ` (send ${clip(inside, 40)} without quotes)` : "";
        return { field, message: `${field} must be ${expected}, not a string${hint}` };
      }
      // 1e999 parses to Infinity: a number JSON can carry but no amount or count can be.
      if (typeof received === "number" && !Number.isFinite(received))
        return { field, message: `${field} must be a finite number; received ${clip(String(received), 40)}` };
      return { field, message: `${field} must be ${expected}; received ${kind}` };
    }
    case "invalid_value":
      return { field, message: `${field} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}; received ${quoted(received)}` };
    case "too_small":
      if (issue.origin === "string")
        return { field, message: Number(issue.minimum) <= 1 ? `${field} must not be empty` : `${field} must be at least ${issue.minimum} characters` };
      if (issue.origin === "array") return { field, message: `${field} must have at least ${issue.minimum} entries` };
      return { field, message: `${field} must be ${issue.inclusive ? "at least" : "more than"} ${issue.minimum}; received ${clip(String(received), 40)}` };
    case "too_big":
      if (issue.origin === "string") return { field, message: `${field} must be at most ${issue.maximum} characters` };
      if (issue.origin === "array") return { field, message: `${field} must have at most ${issue.maximum} entries` };
      return { field, message: `${field} must be ${issue.inclusive ? "at most" : "less than"} ${issue.maximum}; received ${clip(String(received), 40)}` };
    case "unrecognized_keys":
      return { field, message: `${field ? `${field} has` : "unknown"} unknown field${issue.keys.length > 1 ? "s" : ""}: ${clip(issue.keys.join(", "), 200)}` };
    default:
      // Schemas give these their own wording ("must be YYYY-MM-DD" …); prefix the field.
      return { field, message: `${field} ${issue.message}` };
  }
}

/**
 * Parse `input` with `schema`; on failure throw a CommandError naming the first offending
 * field (`prefix` is its wire path, e.g. "seed"). `status` is the id_v4 to answer with.
 */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown, prefix = "seed", status = 400): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const [first, ...others] = result.error.issues.map((issue) => describeIssue(issue, input, prefix));
  throw new CommandError(status, first!.message, first!.field, others);
}

/** A NUL (PostgreSQL stores none) or a UTF-16 surrogate without its partner (not Unicode: no text column or JSON document can hold it). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: a NUL is exactly what this finds
const UNSTORABLE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const EVERY_UNSTORABLE = new RegExp(UNSTORABLE_TEXT.source, "g");

/** Why `text` can never be stored, in an integrator's words, or null when it can. */
export function unstorableText(text: string): string | null {
  const found = UNSTORABLE_TEXT.exec(text);
  if (!found) return null;
  if (found[0] === "\u0000") return "contains a NUL character (U+0000), which text cannot hold";
  const unit = found[0].charCodeAt(0).toString(16).toUpperCase();
  return `contains an unpaired UTF-16 surrogate (U+${unit}): text must be valid Unicode`;
}

/**
 * Text another party sent us (a webhook receiver's answer, a registry's record) made storable:
 * each NUL and unpaired surrogate becomes U+FFFD, as a decoder marks bytes it cannot read. For text
 * we keep as the other party's words rather than refuse, since refusing it would lose the record.
 */
export const storableText = (text: string) => text.replace(EVERY_UNSTORABLE, "\ufffd");

/**
 * The first reason a parsed JSON value (a body, a form) cannot be taken as it is: objects and
 * arrays nested deeper than `maxDepth` (the root is level 1), or a string or key that can never
 * be stored. Iterative, so a value nested a million levels deep is refused, not a stack overflow.
 * Depth first with one stack frame per open container: a path is only put together for a problem.
 */
export function unsafeJson(root: unknown, maxDepth: number): { path: PropertyKey[]; problem: string } | null {
  const atRoot = unsafeValue(root);
  if (atRoot) return { path: [], problem: atRoot };
  if (!isContainer(root)) return null;
  // The containers from the root down, each with its keys and the index of the entry being looked at.
  // Arrays are walked by index (no key strings made for their elements).
  const frames: { node: object; keys: string[] | null; at: number; size: number }[] = [];
  const open = (node: object) => {
    const keys = Array.isArray(node) ? null : Object.keys(node);
    frames.push({ node, keys, at: -1, size: keys ? keys.length : (node as unknown[]).length });
  };
  const pathHere = () => frames.map((f) => (f.keys ? f.keys[f.at]! : f.at));
  open(root);
  while (frames.length) {
    const frame = frames[frames.length - 1]!;
    if (++frame.at >= frame.size) {
      frames.pop();
      continue;
    }
    const key = frame.keys ? frame.keys[frame.at]! : frame.at;
    if (typeof key === "string") {
      const problem = unstorableText(key);
      if (problem) return { path: pathHere().slice(0, -1), problem: `has a field name that ${problem}` };
    }
    const value = (frame.node as Record<PropertyKey, unknown>)[key];
    const problem = unsafeValue(value);
    if (problem) return { path: pathHere(), problem };
    if (!isContainer(value)) continue;
    // The value would be level frames.length + 1.
    if (frames.length >= maxDepth) return { path: pathHere(), problem: `nests objects and arrays deeper than ${maxDepth} levels` };
    open(value);
  }
  return null;
}

const isContainer = (value: unknown): value is object => value !== null && typeof value === "object";
const unsafeValue = (value: unknown) => (typeof value === "string" ? unstorableText(value) : null);

// Reusable field shapes. Messages are completed by describeIssue with the field name.

/**
 * The days every date either surface takes lies between, both included (dates of birth, cover,
 * loans, incidents, list filters, months, paging cursors): room for anyone alive and for any cover
 * or loan written now, and every instant made from them is one PostgreSQL stores (it refuses the
 * year 0, and JavaScript writes years past 9999 in a form it cannot read). Each field's own rule
 * (a birth in the past, cover from today) narrows it further.
 */
export const DATE_RANGE = { first: "1900-01-01", last: "2099-12-31" } as const;

/** Whether a day (YYYY-MM-DD, already well formed; or a month, YYYY-MM) lies within DATE_RANGE. */
export const inDateRange = (day: string) => day >= DATE_RANGE.first.slice(0, day.length) && day <= DATE_RANGE.last.slice(0, day.length);

/** A calendar month written YYYY-MM within DATE_RANGE. */
export const isMonth = (text: string) => /^\d{4}-(0[1-9]|1[0-2])$/.test(text) && inDateRange(text);

/** How a refusal names the months a field takes. */
export const MONTH_RULE = `a month as YYYY-MM from ${DATE_RANGE.first.slice(0, 7)} to ${DATE_RANGE.last.slice(0, 7)}`;

// Each check stops at its first failure, so a malformed date is refused once, for its form.
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "must be a date in the form YYYY-MM-DD", abort: true })
  .refine(
    (s) => {
      const d = new Date(`${s}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
    },
    { error: "is not a real calendar date", abort: true },
  )
  .refine(inDateRange, { error: (issue) => `must be a date from ${DATE_RANGE.first} to ${DATE_RANGE.last}; received ${quoted(issue.input)}` });

export const isoDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, { error: "must be a date and time in the form YYYY-MM-DD HH:MM:SS", abort: true })
  .refine(
    (s) => {
      const d = new Date(`${s.replace(" ", "T")}Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s.replace(" ", "T"));
    },
    { error: "is not a real date and time", abort: true },
  )
  .refine((s) => inDateRange(s.slice(0, 10)), {
    error: (issue) => `must be a date and time from ${DATE_RANGE.first} 00:00:00 to ${DATE_RANGE.last} 23:59:59; received ${quoted(issue.input)}`,
  });

/** A non-blank string (blank strings are refused rather than treated as absent). */
export const text = (max = 500) => z.string().trim().min(1).max(max);

/**
 * A phone number as people write it, in the wire's international form: "0803 123 4567" and
 * "08031234567" are +2348031234567, "234 803…" gains its "+"; spaces, dashes and brackets go.
 * Anything else is passed on as typed, for the rules to refuse in their own words.
 */
export function nigerianPhone(typed: string): string {
  const compact = typed.replace(/[\s\-().]/g, "");
  if (/^0[1-9]\d{9}$/.test(compact)) return `+234${compact.slice(1)}`;
  if (/^234[1-9]\d{9}$/.test(compact)) return `+${compact}`;
  return compact;
}

/** International format with a + prefix; Nigerian numbers are +234 and 10 digits, no leading zero (spec 2.3). */
export const phoneNumber = z
  .string()
  .regex(/^\+[1-9]\d{6,14}$/, "must be in international format with a + prefix, e.g. +2348012345678")
  .refine((p) => !p.startsWith("+234") || /^\+234[1-9]\d{9}$/.test(p), "must be +234 followed by 10 digits with no leading zero, e.g. +2348012345678");
