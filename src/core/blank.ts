import { CommandError } from "./errors";
import { fieldPath } from "./validation";

/**
 * Spec 2.5/7: blank or null optional fields must be omitted entirely; sending one is a 406.
 * Walks the seed and refuses the first empty string, whitespace-only string or null.
 */
export function refuseBlankFields(value: unknown, prefix = "seed", path: PropertyKey[] = []): void {
  if (value === null || (typeof value === "string" && value.trim() === "")) {
    const field = fieldPath(prefix, path);
    throw new CommandError(
      406,
      `${field} is ${value === null ? "null" : "blank"}: omit optional fields entirely instead of sending blank or null values`,
      field,
    );
  }
  if (Array.isArray(value)) for (const [i, v] of value.entries()) refuseBlankFields(v, prefix, [...path, i]);
  else if (typeof value === "object") for (const [k, v] of Object.entries(value)) refuseBlankFields(v, prefix, [...path, k]);
}
