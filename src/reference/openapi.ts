/**
 * The OpenAPI 3.1 document of the single endpoint, `POST /` (served at GET /openapi.json).
 *
 * Every command is a branch of the request body's `oneOf`: an envelope whose `cmmnd.cmmnd` must
 * match the command's pattern and whose `cmmnd.seed` is the command's seed. The patterns never
 * overlap, so exactly one branch fits a valid request: any JSON Schema 2020-12 validator checks a
 * request fully, and generators make a union of typed requests. OpenAPI's `discriminator` cannot
 * be used: it needs a top-level property with fixed values, and the command is nested and a
 * pattern (`entt_<consumer_id>: insure`). Responses are an `anyOf` (several commands answer the
 * same shape, so they cannot be exclusive); `x-command` on each request branch names its
 * response component. Examples are keyed by example name in both, request and response.
 */
import pkg from "../../package.json";
import { atCapacityAnswer, envelope, executionFeedback, refusalAnswer, successFeedback, userInfo } from "./common";
import { type JsonSchema, jsonSchemaOf, seedRequired } from "./json-schema";
import { type CommandReference, type Definition, exampleAnswer, exampleEnvelope, examplesOf, referenceOf, seedJsonSchema } from "./model";
import { ENVIRONMENT, GENERATED } from "./placeholders";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A registry pattern as a JSON Schema pattern: named groups are not in every validator's dialect. */
const patternOf = (pattern: RegExp) => pattern.source.replace(/\(\?<[A-Za-z][A-Za-z0-9]*>/g, "(");

/** The answer of a 75: the command's fields and exctnFdbck. */
function responseSchema(answer: JsonSchema): JsonSchema {
  const properties = (answer.properties ?? {}) as Record<string, unknown>;
  const required = (answer.required ?? []) as string[];
  return { ...answer, properties: { ...properties, exctnFdbck: ref("SuccessFeedback") }, required: [...required, "exctnFdbck"] };
}

/** The envelope of one command: its command string and its seed (a reference; `required` when it must be sent). */
function requestSchema(title: string, cmmnd: JsonSchema, seed: { schema: JsonSchema; required: boolean } | null): JsonSchema {
  return {
    title,
    type: "object",
    properties: {
      userInfo: ref("UserInfo"),
      cmmnd: {
        type: "object",
        properties: { cmmnd, seed: seed?.schema ?? { description: "Not read: this command takes no seed" } },
        required: seed?.required ? ["cmmnd", "seed"] : ["cmmnd"],
        additionalProperties: false,
      },
    },
    required: ["userInfo", "cmmnd"],
    additionalProperties: false,
  };
}

function commandComponents(command: CommandReference): Record<string, JsonSchema> {
  const { definition, slug, seed } = command;
  const meta = {
    description: definition.summary,
    "x-command": {
      grammar: definition.grammar,
      who: definition.who,
      ...(definition.needsEnrichment ? { needsEnrichment: true } : {}),
      response: `#/components/schemas/${slug}.response`,
      errors: definition.errors.map((e) => ({ id_v4: e.status, elbrtn: e.elbrtn, ...(e.when ? { when: e.when } : {}) })),
    },
  };
  const components: Record<string, JsonSchema> = { [`${slug}.response`]: { title: `${definition.grammar}: answer`, ...responseSchema(command.answer) } };
  if (seed.kind === "variants" && seed.variants.some((v) => v.cmmnd)) {
    // The product is named in the command string: one request per product.
    components[`${slug}.request`] = { title: definition.grammar, ...meta, oneOf: seed.variants.map((v) => ref(`${slug}.request.${v.key}`)) };
    for (const v of seed.variants)
      components[`${slug}.request.${v.key}`] = requestSchema(
        v.cmmnd!,
        { type: "string", const: v.cmmnd },
        { schema: ref(`product.${v.key}.quote`), required: seedRequired(v.schema) },
      );
    return components;
  }
  const schema = seed.kind === "variants" ? { oneOf: seed.variants.map((v) => ref(`product.${v.key}.insure`)) } : seedJsonSchema(seed);
  if (schema) components[`${slug}.seed`] = { title: `${definition.grammar}: seed`, ...schema };
  const seedRef = schema ? { schema: ref(`${slug}.seed`), required: seedRequired(schema) } : null;
  components[`${slug}.request`] = { ...requestSchema(definition.grammar, { type: "string", pattern: patternOf(definition.pattern) }, seedRef), ...meta };
  return components;
}

const PLACEHOLDERS = [
  ...Object.entries(ENVIRONMENT).map(([name, means]) => `\`{{${name}}}\`: ${means}`),
  "`{{<example>.<field>}}`: that field of the named example's answer (run that example first)",
  "`{{today}}`, `{{today+N}}`, `{{today-N}}`: a date N days from today, YYYY-MM-DD in Nigerian time",
  ...Object.entries(GENERATED).map(([name, { means }]) => `\`{{${name}}}\` (answers only): ${means}`),
];

export function openApiDocument(definitions: readonly Definition[], serverUrl: string): JsonSchema {
  const reference = referenceOf(definitions);
  const schemas: Record<string, JsonSchema> = {
    Envelope: { title: "Request envelope (spec 2.1)", ...jsonSchemaOf(envelope, "input") },
    UserInfo: jsonSchemaOf(userInfo, "input"),
    ExecutionFeedback: { title: "exctnFdbck (spec 2.2)", ...jsonSchemaOf(executionFeedback, "output") },
    SuccessFeedback: jsonSchemaOf(successFeedback, "output"),
    Refusal: { title: "A refused command (id 55): nothing was stored", ...jsonSchemaOf(refusalAnswer, "output") },
    AtCapacity: {
      title: "At capacity or the database briefly unreachable (id 35): retry after 2, 4, 8 s; elbrtn says whether anything may be stored",
      ...jsonSchemaOf(atCapacityAnswer, "output"),
    },
  };
  for (const p of reference.products) {
    schemas[`product.${p.code}.quote`] = { title: `${p.name} (${p.code}): quote seed`, ...p.quote };
    schemas[`product.${p.code}.insure`] = { title: `${p.name} (${p.code}): insure seed`, ...p.insure };
  }
  for (const command of reference.commands) Object.assign(schemas, commandComponents(command));

  const examples = examplesOf(definitions);
  const requestExamples = Object.fromEntries(
    examples.map(({ example, definition }) => [
      example.name,
      { summary: `${definition.grammar}: ${example.title}`, value: exampleEnvelope(example, definition) },
    ]),
  );
  const responseExamples = Object.fromEntries(
    examples.map(({ example, definition }) => [example.name, { summary: `${definition.grammar}: ${example.title}`, value: exampleAnswer(example) }]),
  );

  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Insurance partner command service",
      version: pkg.version,
      summary: "One JSON command endpoint for embedded insurance partners in Nigeria.",
      description: [
        "Every operation is `POST /` with the envelope of spec 2.1; `cmmnd.cmmnd` chooses the command and `cmmnd.seed` carries its parameters.",
        "Every answer is HTTP 200 with the outcome in `exctnFdbck` (spec 2.2): id 75 success, 35 at capacity (nothing stored: retry the same request " +
          "after 2, 4 and 8 s), 55 refused (`id_v4` is the HTTP-equivalent status and `elbrtn` says what is wrong).",
        "The request body is a `oneOf`, one branch per command, told apart by the pattern of `cmmnd.cmmnd`; each branch's `x-command` names its " +
          "response component and lists its notable refusals. The reference for people is at /docs.",
        `Examples use placeholders:\n\n${PLACEHOLDERS.map((p) => `- ${p}`).join("\n")}`,
      ].join("\n\n"),
    },
    servers: [{ url: serverUrl }],
    paths: {
      "/": {
        post: {
          operationId: "command",
          summary: "Run a command",
          description: "The single command endpoint (spec 4.1). The transport status is always 200: read exctnFdbck.",
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: { oneOf: reference.commands.map((c) => ref(`${c.slug}.request`)) },
                examples: requestExamples,
              },
            },
          },
          responses: {
            "200": {
              description: "The outcome, in exctnFdbck: a command's answer (75), a refusal (55) or at capacity (35)",
              content: {
                "application/json": {
                  schema: { anyOf: [...reference.commands.map((c) => ref(`${c.slug}.response`)), ref("Refusal"), ref("AtCapacity")] },
                  examples: responseExamples,
                },
              },
            },
          },
        },
      },
    },
    components: { schemas },
  };
}
