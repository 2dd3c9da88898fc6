/**
 * The command reference (/openapi.json, /docs, docs/commands.md) is true: every example it shows
 * is sent to the real app, with the examples it names run first for the same partner, and must
 * get the answer it shows (apart from generated values), valid against the published schemas.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import { commandRegistry } from "../src/assembly/commands";
import { type CommandExample, type DocumentedError, NOT_ACTIVATED } from "../src/http/registry";
import type { KeyLabel } from "../src/modules/partners/service";
import { COMMANDS_MD, commandsTable, withCommandsTable } from "../src/reference/commands-md";
import { COMMON_REFUSALS } from "../src/reference/common";
import { type Definition, exampleEnvelope, examplesOf, referenceOf } from "../src/reference/model";
import { dependenciesOf, hasWording, mismatch, resolve, type Scope } from "../src/reference/placeholders";
import { PortalLayout } from "../views/portal/layout";
import { type TestPartner, testApp } from "./support/harness";
import { startVerificationService } from "./support/verification-service";

const niid = await startVerificationService();
afterAll(() => niid.stop());

// Webhook URLs point at this machine in tests; nothing is delivered (no worker runs here).
const WEBHOOK_URL = "http://127.0.0.1:9/insurance-events";
const t = await testApp({ NIID_URL: niid.url, NIID_TIMEOUT_MS: 5_000, WEBHOOK_ALLOW_PRIVATE: "true" });
const admin = await t.partner({ admin: true, name: "Operator" });

const definitions = commandRegistry.definitions;
const reference = referenceOf(definitions);
const examples = examplesOf(definitions);
const byName = new Map(examples.map((entry) => [entry.example.name, entry]));

const openapi = await t.app.handle(new Request("http://localhost/openapi.json")).then((r) => r.json() as Promise<any>);

/** Formats zod writes into JSON Schema, checked as the service means them. */
function withFormats(ajv: Ajv2020): Ajv2020 {
  return ajv
    .addFormat("email", /^[^\s@]+@[^\s@]+\.[^\s@]+$/)
    .addFormat("uri", (text: string) => URL.canParse(text))
    .addFormat("uuid", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
}

const ajv = withFormats(new Ajv2020({ allErrors: false }));
// The OpenAPI document as one schema, so its components validate requests and responses as published.
const published = withFormats(new Ajv2020({ strict: false }));
published.addSchema(openapi, "openapi");
const requestBody = published.compile({ $ref: "openapi#/paths/~1/post/requestBody/content/application~1json/schema" });
const responseBody = published.compile({ $ref: "openapi#/paths/~1/post/responses/200/content/application~1json/schema" });

const answerValidators = new Map<Definition, ValidateFunction>(reference.commands.map((c) => [c.definition, ajv.compile(c.answer)]));

const describeErrors = (validate: ValidateFunction) => JSON.stringify(validate.errors?.slice(0, 3));

/** An example's examples-to-run-first, each once, in an order where every one follows what it needs. */
function chainOf(name: string, order: string[] = [], visiting = new Set<string>()): string[] {
  if (order.includes(name)) return order;
  if (visiting.has(name)) throw new Error(`examples depend on each other in a circle at ${name}`);
  visiting.add(name);
  const entry = byName.get(name);
  if (!entry) throw new Error(`no example named ${name}`);
  for (const dependency of dependenciesOf(entry.example)) chainOf(dependency, order, visiting);
  order.push(name);
  return order;
}

const keyOf = (p: TestPartner, label: KeyLabel) => p.keys[label];

/** The refusals an example may show: its command's, or those common to every command. */
const documented = (definition: Definition, refusal: DocumentedError) =>
  [...definition.errors, ...Object.values(COMMON_REFUSALS)].some((e) => e.status === refusal.status && e.elbrtn === refusal.elbrtn);

/** Send one example for `partner` (administrator examples go with the operator's credentials) and check its answer. */
async function runStep(example: CommandExample, definition: Definition, partner: TestPartner, answers: Map<string, unknown>) {
  const label = example.key ?? "test";
  const scope: Scope = {
    answers,
    now: new Date(),
    environment: {
      partnerId: partner.partnerId,
      authorizationId: keyOf(partner, label).id,
      key: keyOf(partner, label).key,
      adminPartnerId: admin.partnerId,
      adminAuthorizationId: keyOf(admin, label).id,
      adminKey: keyOf(admin, label).key,
      adminEmail: admin.portal.email,
      webhookUrl: WEBHOOK_URL,
    },
  };
  const request = resolve(exampleEnvelope(example, definition), scope);
  const answer = await t.post(request);
  const where = `${definition.grammar} · ${example.name}`;
  if (example.refusal) {
    expect(Object.keys(answer), where).toEqual(["exctnFdbck"]);
    expect({ id: answer.exctnFdbck.id, id_v4: answer.exctnFdbck.id_v4 }, `${where}: ${answer.exctnFdbck.elbrtn}`).toEqual({
      id: 55,
      id_v4: example.refusal.status,
    });
    expect(
      hasWording(example.refusal.elbrtn, answer.exctnFdbck.elbrtn),
      `${where}: "${answer.exctnFdbck.elbrtn}" has not the wording "${example.refusal.elbrtn}"`,
    ).toBe(true);
    expect(documented(definition, example.refusal), `${where}: its refusal is among the documented ones`).toBe(true);
  } else {
    expect(answer.exctnFdbck, `${where}: ${answer.exctnFdbck.elbrtn}`).toEqual({ id: 75, id_v4: 200 });
    const { exctnFdbck: _feedback, ...fields } = answer;
    const validate = answerValidators.get(definition)!;
    expect(validate(fields), `${where}: answer schema: ${describeErrors(validate)}`).toBe(true);
    expect(responseBody(answer), `${where}: published response: ${describeErrors(responseBody)}`).toBe(true);
    expect(requestBody(request), `${where}: published request: ${describeErrors(requestBody)}`).toBe(true);
    expect(mismatch(example.answer, fields, scope), where).toBeNull();
  }
  answers.set(example.name, answer);
}

describe("every example of the reference, run against the app", () => {
  test.each(examples.map(({ example, definition }) => [`${definition.grammar} · ${example.name}`, example.name] as const))(
    "%s",
    async (_title, name) => {
      const chain = chainOf(name).map((n) => byName.get(n)!);
      const target = byName.get(name)!;
      const enrichment = chain.some((step) => step.definition.needsEnrichment) && target.example.refusal !== NOT_ACTIVATED;
      const partner = await t.partner({ enrichment });
      const answers = new Map<string, unknown>();
      for (const { example, definition } of chain) await runStep(example, definition, partner, answers);
    },
    30_000,
  );
});

describe("the registry declares its reference", () => {
  test("every command has an answer schema, its refusals and at least one example that succeeds", () => {
    for (const { definition, answer } of reference.commands) {
      expect(answer.type, definition.grammar).toBe("object");
      expect(Array.isArray(definition.errors), definition.grammar).toBe(true);
      expect(definition.examples.filter((e) => e.answer).length, `${definition.grammar} has an example that succeeds`).toBeGreaterThan(0);
    }
  });

  test("every refusal an example shows is among the documented ones", () => {
    for (const { example, definition } of examples) if (example.refusal) expect(documented(definition, example.refusal), example.name).toBe(true);
  });

  test("anchors are unique: one per command, product and example", () => {
    const anchors = [...reference.commands.map((c) => c.slug), ...reference.products.map((p) => p.slug), ...examples.map((e) => `example-${e.example.name}`)];
    expect(new Set(anchors).size).toBe(anchors.length);
  });

  test("every product's seeds are documented, as the quote and insure commands' variants", () => {
    const variants = (grammar: string) => {
      const seed = reference.commands.find((c) => c.definition.grammar === grammar)!.seed;
      return seed.kind === "variants" ? seed.variants.map((v) => v.key) : [];
    };
    const codes = reference.products.map((p) => p.code);
    expect(codes.length).toBeGreaterThanOrEqual(19);
    expect(variants("dump ipck_<product_code>*PRMM")).toEqual(codes);
    expect(variants("entt_<consumer_id>: insure")).toEqual(codes);
    for (const p of reference.products) {
      expect(p.quote.type, p.code).toBe("object");
      // Product fields carry the portal form's words where the schema has none.
      expect(
        Object.values(p.insure.properties as Record<string, { description?: string }>).some((f) => f.description),
        p.code,
      ).toBe(true);
    }
  });

  test("docs/commands.md has the registry's command table (npm run docs:commands regenerates it)", () => {
    const markdown = readFileSync(COMMANDS_MD, "utf8");
    expect(withCommandsTable(markdown, commandsTable(definitions))).toBe(markdown);
  });
});

describe("GET /openapi.json", () => {
  test("is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)", async () => {
    const result = await new Validator().validate(structuredClone(openapi));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(openapi.openapi).toBe("3.1.0");
  });

  test("describes POST / with every registered command, its seed, answer and examples", () => {
    const post = openapi.paths["/"].post;
    const branches = post.requestBody.content["application/json"].schema.oneOf.map((b: { $ref: string }) => b.$ref);
    const schemas = openapi.components.schemas;
    for (const { definition, slug, seed } of reference.commands) {
      expect(branches, definition.grammar).toContain(`#/components/schemas/${slug}.request`);
      expect(schemas[`${slug}.request`]["x-command"].grammar).toBe(definition.grammar);
      expect(schemas[`${slug}.response`].properties.exctnFdbck, definition.grammar).toBeDefined();
      if (seed.kind === "schema") expect(schemas[`${slug}.seed`], definition.grammar).toBeDefined();
    }
    expect(Object.keys(post.requestBody.content["application/json"].examples).sort()).toEqual(examples.map((e) => e.example.name).sort());
    expect(Object.keys(post.responses["200"].content["application/json"].examples).sort()).toEqual(examples.map((e) => e.example.name).sort());
  });

  test("is served as JSON that other origins may read", async () => {
    const response = await t.app.handle(new Request("http://localhost/openapi.json"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
  });

  test("the published refusal and capacity answers fit what the service sends", async () => {
    const refusal = await t.post({
      userInfo: { id: admin.partnerId, athrzt: { id: admin.keys.test.id, key: "bm90IHRoZSBrZXk=" } },
      cmmnd: { cmmnd: "dump entt_*" },
    });
    expect(responseBody(refusal), describeErrors(responseBody)).toBe(true);
  });
});

describe("refusals common to every command have the documented wording", () => {
  const credentials = () => ({ id: admin.partnerId, athrzt: admin.keys.test });
  test.each([
    ["not JSON", "{ not json", COMMON_REFUSALS.notJson],
    ["not an object", "[1, 2]", COMMON_REFUSALS.notObject],
    ["no command", () => ({ userInfo: credentials(), cmmnd: {} }), COMMON_REFUSALS.missingField],
    ["a partner id that is no UUID", () => ({ userInfo: { ...credentials(), id: "partner-1" }, cmmnd: { cmmnd: "dump entt_*" } }), COMMON_REFUSALS.badUuid],
    [
      "a wrong key",
      () => ({ userInfo: { ...credentials(), athrzt: { id: admin.keys.test.id, key: "d3Jvbmc=" } }, cmmnd: { cmmnd: "dump entt_*" } }),
      COMMON_REFUSALS.notGenuine,
    ],
    ["an unknown command", () => ({ userInfo: credentials(), cmmnd: { cmmnd: "dump everything" } }), COMMON_REFUSALS.unknownCommand],
    ["a blank field", () => ({ userInfo: credentials(), cmmnd: { cmmnd: "prfl entity", seed: { class: "h", ntnlty: " " } } }), COMMON_REFUSALS.blank],
    [
      "a NUL character",
      () => ({ userInfo: credentials(), cmmnd: { cmmnd: "prfl entity", seed: { class: "h", name: { first: "A\u0000" } } } }),
      COMMON_REFUSALS.unstorable,
    ],
  ] as const)("%s", async (_name, body, refusal) => {
    const answer = await t.post(typeof body === "string" ? body : body());
    expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: refusal.status });
    expect(hasWording(refusal.elbrtn, answer.exctnFdbck.elbrtn), answer.exctnFdbck.elbrtn).toBe(true);
  });
});

describe("GET /docs", () => {
  const page = async (path: string) => {
    const response = await t.app.handle(new Request(`http://localhost${path}`));
    return { response, html: await response.text() };
  };

  test("is public HTML with a section per command and per product, each example and its request and response", async () => {
    const { response, html } = await page("/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(html).toContain("<h1>Command reference</h1>");
    for (const { slug } of reference.commands) expect(html).toContain(`<section id="${slug}" aria-labelledby="${slug}-title">`);
    for (const { slug } of reference.products) expect(html).toContain(`<section id="${slug}" aria-labelledby="${slug}-title">`);
    for (const { example } of examples) expect(html).toContain(`id="example-${example.name}"`);
    // Placeholder credentials, never real ones; text is escaped.
    expect(html).toContain("{{authorizationId}}");
    expect(html).toContain("dump entt_&lt;consumer_id&gt;|insr_&lt;product_code&gt;-&lt;tx_id&gt;*STATUS");
  });

  test("headings go down one level at a time and every table heading has a scope", async () => {
    const { html } = await page("/docs");
    const levels = [...html.matchAll(/<h([1-6])[\s>]/g)].map((m) => Number(m[1]));
    expect(levels[0]).toBe(1);
    for (let i = 1; i < levels.length; i++) expect(levels[i]! - levels[i - 1]!).toBeLessThanOrEqual(1);
    expect([...html.matchAll(/<th(?=[\s>])(?![^>]*scope=)/g)]).toEqual([]);
    const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("is linked from the landing page and from every portal page", async () => {
    const { html } = await page("/");
    expect(html).toContain('href="/docs"');
    expect(html).toContain('href="/openapi.json"');
    const viewer = {
      name: "Ada",
      email: "ada@example.ng",
      role: "owner" as const,
      partnerName: "Acme",
      mode: "test" as const,
      enrichmentEnabled: false,
      navigation: [],
    };
    expect(String(PortalLayout({ title: "Dashboard", viewer, csrf: "token", children: "" }))).toContain('href="/docs"');
  });
});
