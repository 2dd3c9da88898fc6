/**
 * The command reference as data, derived from the registry and the product families: each
 * command's seed and answer as JSON Schema, its refusals and examples; each product's seeds.
 * /openapi.json, /docs and the docs/commands.md table are renderings of this one model.
 */
import type { z } from "zod";
import type { CommandDefinition, CommandExample, Json, JsonObject } from "../http/registry";
import { productReferences } from "../modules/policies/insure-seeds";
import type { ConsumerClass, FormEntry, PremiumUnit } from "../products/types";
import { type JsonSchema, jsonSchemaOf } from "./json-schema";

// biome-ignore lint/suspicious/noExplicitAny: the reference reads commands of every seed type
export type Definition = CommandDefinition<any, z.ZodType>;

export type SeedReference =
  | { kind: "none" }
  | { kind: "schema"; schema: JsonSchema }
  /** One seed per product; `cmmnd` when the command string names the product (a quote). */
  | { kind: "variants"; variants: readonly { key: string; cmmnd?: string; schema: JsonSchema }[] };

export interface CommandReference {
  definition: Definition;
  /** Anchor on /docs and the name of its OpenAPI components. */
  slug: string;
  seed: SeedReference;
  answer: JsonSchema;
}

export interface ProductEntry {
  code: string;
  slug: string;
  name: string;
  familyName: string;
  deprecated: boolean;
  premiumUnit: PremiumUnit;
  /** Consumer fields a policy needs (spec 2.3), by consumer class. */
  consumerFields: Readonly<Record<ConsumerClass, readonly string[]>>;
  certificate: { type: string; delivery: string };
  quote: JsonSchema;
  insure: JsonSchema;
}

export interface Reference {
  commands: readonly CommandReference[];
  products: readonly ProductEntry[];
}

/** "dump entt_<consumer_id>|insr_<product_code>-<tx_id>*STATUS" → "dump-entt-consumer-id-insr-product-code-tx-id-status". */
export const slugOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

type Node = JsonSchema & { properties?: Record<string, Node>; items?: Node };

/** The node of a JSON Schema at a dotted wire path ("addtnlFact.goodsValue"), through objects and arrays. */
function nodeAt(schema: Node, path: string): Node | undefined {
  let node: Node | undefined = schema;
  for (const key of path.split(".")) {
    if (node?.type === "array") node = node.items;
    if (/^\d+$/.test(key)) continue;
    node = node?.properties?.[key];
  }
  return node;
}

/** The portal's label and hint of each field (ProductFamily.forms) as its description, where the schema has none. */
function describeFromForms(schema: JsonSchema, entries: readonly FormEntry[], base = ""): JsonSchema {
  for (const entry of entries) {
    const path = base ? `${base}.${entry.path}` : entry.path;
    if (entry.kind === "group") {
      describeFromForms(schema, entry.fields, `${path}.0`);
      continue;
    }
    const node = nodeAt(schema, path);
    if (node && node.description === undefined) node.description = entry.hint ? `${entry.label}. ${entry.hint}` : entry.label;
  }
  return schema;
}

function seedOf(definition: Definition): SeedReference {
  const schema = definition.seed ?? definition.documentedSeed;
  if (schema) return { kind: "schema", schema: jsonSchemaOf(schema, "input") };
  if (definition.seedVariants)
    return {
      kind: "variants",
      variants: definition
        .seedVariants()
        .map((v) => ({ key: v.key, ...(v.cmmnd ? { cmmnd: v.cmmnd } : {}), schema: productSchemas().get(v.seed) ?? jsonSchemaOf(v.seed, "input") })),
    };
  return { kind: "none" };
}

let products: Map<z.ZodType, JsonSchema> | undefined;
/** The products' seeds, described from their forms: shared by the command variants and the product entries. */
function productSchemas(): Map<z.ZodType, JsonSchema> {
  if (!products) {
    products = new Map();
    for (const p of productReferences()) {
      products.set(p.quote, describeFromForms(jsonSchemaOf(p.quote, "input"), p.forms.quote));
      products.set(p.insure, describeFromForms(jsonSchemaOf(p.insure, "input"), p.forms.policy));
    }
  }
  return products;
}

/** A seed's JSON Schema as one schema: variants told apart by the seed are exclusive (oneOf); by the command string, any may apply (anyOf). */
export function seedJsonSchema(seed: SeedReference): JsonSchema | null {
  if (seed.kind === "none") return null;
  if (seed.kind === "schema") return seed.schema;
  const branches = seed.variants.map((v) => ({ title: v.key, ...v.schema }));
  return seed.variants.some((v) => v.cmmnd) ? { anyOf: branches } : { oneOf: branches };
}

const cache = new WeakMap<readonly Definition[], Reference>();

export function referenceOf(definitions: readonly Definition[]): Reference {
  let reference = cache.get(definitions);
  if (!reference) {
    const schemas = productSchemas();
    reference = {
      commands: definitions.map((definition) => ({
        definition,
        slug: slugOf(definition.grammar),
        seed: seedOf(definition),
        answer: jsonSchemaOf(definition.answer, "output"),
      })),
      products: productReferences().map((p) => ({
        code: p.code,
        slug: `product-${p.code}`,
        name: p.productType.name,
        familyName: p.family.name,
        deprecated: !!p.productType.deprecated,
        premiumUnit: p.family.premiumUnit,
        consumerFields: { h: p.family.consumerRequirements(p.productType.code, "h"), o: p.family.consumerRequirements(p.productType.code, "o") },
        certificate: p.family.policy.certificate(p.productType.code),
        quote: schemas.get(p.quote)!,
        insure: schemas.get(p.insure)!,
      })),
    };
    cache.set(definitions, reference);
  }
  return reference;
}

/** Who sends an example: its own `as`, else the command's `who`. */
export const senderOf = (example: CommandExample, definition: Definition) => example.as ?? definition.who;

/** An example's request as a partner writes it: the whole envelope, credentials as placeholders. */
export function exampleEnvelope(example: CommandExample, definition: Definition): JsonObject {
  const admin = senderOf(example, definition) === "admin";
  return {
    userInfo: admin
      ? { id: "{{adminPartnerId}}", athrzt: { id: "{{adminAuthorizationId}}", key: "{{adminKey}}" } }
      : { id: "{{partnerId}}", athrzt: { id: "{{authorizationId}}", key: "{{key}}" } },
    cmmnd: example.seed === undefined ? { cmmnd: example.cmmnd } : { cmmnd: example.cmmnd, seed: example.seed },
  };
}

/** An example's answer as the service sends it, exctnFdbck included. */
export function exampleAnswer(example: CommandExample): JsonObject {
  if (example.refusal) return { exctnFdbck: { id: 55, id_v4: example.refusal.status, elbrtn: example.refusal.elbrtn } };
  return { ...(example.answer as { [key: string]: Json }), exctnFdbck: { id: 75, id_v4: 200 } };
}

/** Every example of the registry with its command, in registry order. */
export const examplesOf = (definitions: readonly Definition[]) =>
  definitions.flatMap((definition) => definition.examples.map((example) => ({ example, definition })));
