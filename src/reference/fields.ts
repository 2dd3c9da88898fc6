/**
 * A JSON Schema as the rows of a fields table (/docs): each field with its dotted name, type,
 * whether it is required, its rule in words and its description.
 */
import type { JsonSchema } from "./json-schema";

export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  rule: string;
  description: string;
}

type Node = JsonSchema & {
  type?: string | string[];
  properties?: Record<string, Node>;
  required?: string[];
  items?: Node;
  anyOf?: Node[];
  oneOf?: Node[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
};

const show = (value: unknown) => JSON.stringify(value);

function typeOf(node: Node): string {
  const alternatives = node.anyOf ?? node.oneOf;
  if (alternatives) return [...new Set(alternatives.map(typeOf))].join(" or ");
  if (node.const !== undefined) return typeof node.const;
  const type = node.type;
  if (Array.isArray(type)) return type.join(" or ");
  if (type === "array") return node.items ? `array of ${typeOf(node.items)}s` : "array";
  return type ?? "any JSON value";
}

/** The rule a value must follow, in words. */
function ruleOf(node: Node): string {
  const rules: string[] = [];
  const alternatives = node.anyOf ?? node.oneOf;
  if (alternatives) rules.push(alternatives.map(ruleOf).filter(Boolean).join("; or "));
  if (node.const !== undefined) rules.push(`always ${show(node.const)}`);
  if (node.enum) rules.push(`one of ${node.enum.map(show).join(", ")}`);
  if (typeof node.pattern === "string") rules.push(`matches ${node.pattern}`);
  if (typeof node.format === "string") rules.push(node.format === "uri" ? "a URL" : `a valid ${node.format}`);
  const min = node.minLength ?? node.minItems;
  const max = node.maxLength ?? node.maxItems;
  const unit = node.type === "array" ? "entries" : "characters";
  if (min !== undefined && max !== undefined) rules.push(`${min} to ${max} ${unit}`);
  else if (min !== undefined) rules.push(`at least ${min} ${unit}`);
  else if (max !== undefined) rules.push(`at most ${max} ${unit}`);
  if (node.exclusiveMinimum !== undefined) rules.push(`more than ${node.exclusiveMinimum}`);
  if (node.minimum !== undefined) rules.push(`at least ${node.minimum}`);
  // zod marks its safe-integer bounds; they say nothing to a reader.
  if (node.maximum !== undefined && node.maximum !== Number.MAX_SAFE_INTEGER) rules.push(`at most ${node.maximum}`);
  if (node.exclusiveMaximum !== undefined) rules.push(`less than ${node.exclusiveMaximum}`);
  if (node.default !== undefined) rules.push(`default ${show(node.default)}`);
  return rules.filter(Boolean).join("; ");
}

/** Every field of an object schema, nested fields as `name.first` and array entries as `items[].value`. */
export function fieldRows(schema: JsonSchema, prefix = ""): FieldRow[] {
  const node = schema as Node;
  const rows: FieldRow[] = [];
  const required = new Set(node.required ?? []);
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    const name = prefix ? `${prefix}.${key}` : key;
    rows.push({ name, type: typeOf(child), required: required.has(key), rule: ruleOf(child), description: child.description ?? "" });
    if (child.properties) rows.push(...fieldRows(child, name));
    else if (child.items?.properties) rows.push(...fieldRows(child.items, `${name}[]`));
  }
  return rows;
}
