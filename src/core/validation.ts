import { z } from "zod";
import { CommandError } from "./errors";

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

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let node: unknown = root;
  for (const key of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

export function fieldPath(prefix: string, path: PropertyKey[]): string {
  return path.reduce<string>(
    (acc, key) => (typeof key === "number" ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)),
    prefix,
  );
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
  if (received === undefined && (issue.code === "invalid_type" || issue.code === "invalid_value"))
    return { field, message: `${field} is required` };
  switch (issue.code) {
    case "invalid_type": {
      const expected = expectedWords[issue.expected] ?? issue.expected;
      if ((issue.expected === "number" || issue.expected === "int") && typeof received === "string")
        return { field, message: `${field} must be ${expected}, not a string (send ${received.trim() || "0"} without quotes)` };
      return { field, message: `${field} must be ${expected}; received ${kind}` };
    }
    case "invalid_value":
      return { field, message: `${field} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}; received ${JSON.stringify(received)}` };
    case "too_small":
      if (issue.origin === "string")
        return { field, message: Number(issue.minimum) <= 1 ? `${field} must not be empty` : `${field} must be at least ${issue.minimum} characters` };
      if (issue.origin === "array") return { field, message: `${field} must have at least ${issue.minimum} entries` };
      return { field, message: `${field} must be ${issue.inclusive ? "at least" : "more than"} ${issue.minimum}; received ${String(received)}` };
    case "too_big":
      if (issue.origin === "string") return { field, message: `${field} must be at most ${issue.maximum} characters` };
      if (issue.origin === "array") return { field, message: `${field} must have at most ${issue.maximum} entries` };
      return { field, message: `${field} must be ${issue.inclusive ? "at most" : "less than"} ${issue.maximum}; received ${String(received)}` };
    case "unrecognized_keys":
      return { field, message: `${field ? `${field} has` : "unknown"} unknown field${issue.keys.length > 1 ? "s" : ""}: ${issue.keys.join(", ")}` };
    case "invalid_format":
    case "custom":
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
  const { field, message } = describeIssue(result.error.issues[0]!, input, prefix);
  throw new CommandError(status, message, field);
}

// Reusable field shapes. Messages are completed by describeIssue with the field name.
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date in the form YYYY-MM-DD")
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
  }, "is not a real calendar date");

export const isoDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, "must be a date and time in the form YYYY-MM-DD HH:MM:SS")
  .refine((s) => {
    const d = new Date(`${s.replace(" ", "T")}Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s.replace(" ", "T"));
  }, "is not a real date and time");

/** A non-blank string (blank strings are refused rather than treated as absent). */
export const text = (max = 500) => z.string().trim().min(1).max(max);

/** A finite JSON number (never a numeric string: describeIssue says so by name). */
export const amount = () => z.number().finite();
