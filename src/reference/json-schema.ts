/**
 * JSON Schema (draft 2020-12) from the registry's zod schemas: seeds as a client sends them
 * (`input`), answers as the service sends them (`output`). zod 4's own z.toJSONSchema, with one
 * correction: a pipe that checks a string's type first and its values second (durationField,
 * so that a missing field reads "is required") is shown with the values it accepts.
 */
import { z } from "zod";

export type JsonSchema = { [keyword: string]: unknown };

type Io = "input" | "output";

interface PipeDef {
  type: "pipe";
  in: z.core.$ZodType;
  out: z.core.$ZodType;
}

const defOf = (schema: z.core.$ZodType) => schema._zod.def as z.core.$ZodTypeDef & { checks?: unknown[] };

/** A pipe whose input side is any string and whose output side says which strings (not a transform). */
function valuesChecked(schema: z.core.$ZodType): z.core.$ZodType | null {
  const def = defOf(schema);
  if (def.type !== "pipe") return null;
  const { in: input, out } = def as unknown as PipeDef;
  const inDef = defOf(input);
  return inDef.type === "string" && !inDef.checks?.length && defOf(out).type !== "transform" ? out : null;
}

export function jsonSchemaOf(schema: z.core.$ZodType, io: Io): JsonSchema {
  const generated = z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
    override(ctx) {
      const values = valuesChecked(ctx.zodSchema);
      if (values) Object.assign(ctx.jsonSchema, jsonSchemaOf(values, io));
    },
  }) as JsonSchema;
  delete generated.$schema;
  return generated;
}

/** Whether a client must send this seed: an absent seed is validated as {} (registry.run), so only a seed with required fields or alternatives must be sent. */
export function seedRequired(schema: JsonSchema): boolean {
  return Array.isArray(schema.required) ? schema.required.length > 0 : Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf);
}
