/**
 * The `{{…}}` placeholders of the reference's examples (CommandExample in src/http/registry.ts):
 * filled in before a request is sent, and matched against what the service answered. One module,
 * so the page that explains them and the test that runs them read them the same way.
 */
import { isDeepStrictEqual } from "node:util";
import { DAY_MS } from "../core/time";
import type { CommandExample, Json } from "../http/registry";
import { watToday } from "../products/policy-helpers";

/** Values the service generates, as answers show them: what each stands for and the form it must have. */
export const GENERATED: Readonly<Record<string, { means: string; form: RegExp | "boolean" | "number" | "array" }>> = {
  uuid: { means: "a UUID the service made", form: /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/ },
  hex32: { means: "the same, as 32 hex characters", form: /[0-9a-f]{32}/ },
  timestamp: { means: "a time, YYYY-MM-DD HH:MM:SS in Nigerian time", form: /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/ },
  workingDay: { means: "a Nigerian date some working days away (weekends and public holidays skipped), YYYY-MM-DD", form: /\d{4}-\d{2}-\d{2}/ },
  policyNo: { means: "a policy number (TST-… in test mode, POL-… in live mode)", form: /(?:TST|POL)-[A-Z]{4}-\d{4}-[0-9A-Z]{12}/ },
  certUrl: { means: "the hosted certificate's link, behind an unguessable token", form: /https?:\/\/[^\s/]+\/certificates\/[A-Za-z0-9_-]{20,}/ },
  selfServiceUrl: {
    means: "the policyholder's own page, behind a signed link that expires",
    form: /https?:\/\/[^\s/]+\/my\/v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}/,
  },
  base64: { means: "a document, base64", form: /[A-Za-z0-9+/]{40,}={0,2}/ },
  secret: { means: "a webhook signing secret", form: /whsec_[A-Za-z0-9+/]{20,}={0,2}/ },
  claimNo: { means: "a claim number", form: /CLM-\d{4}-[0-9A-Z]{10}/ },
  complaintNo: { means: "a complaint number", form: /CMP-\d{4}-[0-9A-Z]{10}/ },
  transferReference: { means: "a payout's transfer reference: the claim number in lower case and the attempt", form: /clm-\d{4}-[0-9a-z]{10}-\d+/ },
  planNo: { means: "a financing plan number", form: /FIN-\d{4}-[0-9A-Z]{10}/ },
  cursor: { means: "an opaque cursor: pass it back as seed.cursor", form: /[A-Za-z0-9_-]{8,}/ },
  registryDate: { means: "a date as the vehicle registry writes it, DD MMM YYYY", form: /\d{2} [A-Z][a-z]{2} \d{4}/ },
  accountNumber: { means: "a ten-digit bank account number the payment provider opened for the payment", form: /\d{10}/ },
  month: { means: "a month, YYYY-MM in Nigerian time (the current one)", form: /\d{4}-(?:0[1-9]|1[0-2])/ },
  boolean: { means: "true or false, depending on earlier calls (a cache)", form: "boolean" },
  number: { means: "a number measured at the time (a latency, a score)", form: "number" },
  flags: {
    means:
      "the fraud rules' flags on a claim, each { rule, score, words }: they depend on every partner's claims, so an example cannot show them (docs/claims.md, \"Fraud signals\")",
    form: "array",
  },
};

/** Whether `value` has the form a generated value stands for. */
const hasForm = (value: unknown, form: "boolean" | "number" | "array") => (form === "array" ? Array.isArray(value) : typeof value === form);

/** Values of the reader's own account: the reference shows these names, the test its own partner's. */
export const ENVIRONMENT: Readonly<Record<string, string>> = {
  partnerId: "your partner id (userInfo.id)",
  authorizationId: "your authorization id (userInfo.athrzt.id)",
  key: "your authorization key (userInfo.athrzt.key): a test key unless the example says otherwise",
  adminPartnerId: "the operator's administrator account (administrator commands)",
  adminAuthorizationId: "its authorization id",
  adminKey: "its key",
  adminEmail: "the e-mail address of one of the operator's administrators (who may assess a claim)",
  webhookUrl: "your own https endpoint that receives webhook deliveries",
};

const TOKEN = /\{\{([^{}]+)\}\}/g;
const DATE = /^today(?:([+-])(\d+))?$/;
const REFERENCE = /^([a-z][a-z0-9-]*)\.(.+)$/;

type Placeholder =
  | { kind: "reference"; example: string; path: string }
  | { kind: "date"; days: number }
  | { kind: "generated"; name: string }
  | { kind: "environment"; name: string };

function parsePlaceholder(body: string): Placeholder {
  const date = DATE.exec(body);
  if (date) return { kind: "date", days: date[1] ? Number(`${date[1]}${date[2]}`) : 0 };
  const reference = REFERENCE.exec(body);
  if (reference) return { kind: "reference", example: reference[1]!, path: reference[2]! };
  if (GENERATED[body]) return { kind: "generated", name: body };
  if (ENVIRONMENT[body]) return { kind: "environment", name: body };
  throw new Error(`unknown placeholder {{${body}}}`);
}

/** Every placeholder a value holds, wherever it sits in it. */
function placeholdersIn(value: Json | undefined): Placeholder[] {
  if (typeof value === "string") return [...value.matchAll(TOKEN)].map((m) => parsePlaceholder(m[1]!));
  if (Array.isArray(value)) return value.flatMap((v) => placeholdersIn(v));
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => [...placeholdersIn(k), ...placeholdersIn(v)]);
  return [];
}

/** The examples an example needs run first: those whose answers it names, and those it runs after. */
export function dependenciesOf(example: CommandExample): string[] {
  const named = [example.cmmnd, example.seed ?? null, example.answer ?? null].flatMap((v) => placeholdersIn(v));
  const references = named.flatMap((p) => (p.kind === "reference" ? [p.example] : []));
  return [...new Set([...(example.after ?? []), ...references])];
}

/** What fills the placeholders of one run: earlier answers, the calling account, the clock. */
export interface Scope {
  answers: ReadonlyMap<string, unknown>;
  environment: Readonly<Record<string, string>>;
  now: Date;
}

function valueAt(root: unknown, path: string): unknown {
  let node = root;
  for (const key of path.split(/\.|\[(\d+)\]/).filter(Boolean)) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function filled(placeholder: Placeholder, scope: Scope): unknown {
  switch (placeholder.kind) {
    case "date":
      return watToday(new Date(scope.now.getTime() + placeholder.days * DAY_MS));
    case "environment":
      return scope.environment[placeholder.name];
    case "reference": {
      if (!scope.answers.has(placeholder.example))
        throw new Error(`{{${placeholder.example}.${placeholder.path}}}: example ${placeholder.example} has not run`);
      const value = valueAt(scope.answers.get(placeholder.example), placeholder.path);
      if (value === undefined) throw new Error(`{{${placeholder.example}.${placeholder.path}}}: its answer has no ${placeholder.path}`);
      return value;
    }
    case "generated":
      throw new Error(`{{${placeholder.name}}} stands for a generated value: it belongs in answers, not requests`);
  }
}

const whole = (text: string) => /^\{\{[^{}]+\}\}$/.exec(text) && parsePlaceholder(text.slice(2, -2));

/** The value to send: placeholders filled in. A string that is one placeholder takes the value's own type (a number stays a number). */
export function resolve(value: Json | undefined, scope: Scope): unknown {
  if (typeof value === "string") {
    const alone = whole(value);
    if (alone) return filled(alone, scope);
    return value.replace(TOKEN, (_m, body: string) => String(filled(parsePlaceholder(body), scope)));
  }
  if (Array.isArray(value)) return value.map((v) => resolve(v, scope));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, scope)]));
  return value;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** A string with placeholders → a regular expression for the strings it stands for. */
function templatePattern(template: string, scope: Scope): RegExp {
  let source = "";
  let last = 0;
  for (const m of template.matchAll(TOKEN)) {
    source += escapeRegExp(template.slice(last, m.index));
    const placeholder = parsePlaceholder(m[1]!);
    if (placeholder.kind === "generated") {
      const { form } = GENERATED[placeholder.name]!;
      if (typeof form === "string") throw new Error(`{{${placeholder.name}}} stands for a whole ${form}, not part of a string`);
      source += `(?:${form.source})`;
    } else source += escapeRegExp(String(filled(placeholder, scope)));
    last = m.index + m[0].length;
  }
  return new RegExp(`^${source}${escapeRegExp(template.slice(last))}$`);
}

const kindOf = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);

/**
 * Whether `actual` (an answer) is what `expected` (an example's answer) shows: equal, apart from
 * placeholders, with the same fields. Returns the first difference, or null.
 */
export function mismatch(expected: Json, actual: unknown, scope: Scope, at = "answer"): string | null {
  if (typeof expected === "string") {
    const alone = whole(expected);
    if (alone && alone.kind === "generated") {
      const { form } = GENERATED[alone.name]!;
      if (typeof form === "string") return hasForm(actual, form) ? null : `${at}: expected ${form}, received ${JSON.stringify(actual)}`;
    } else if (alone) {
      const value = filled(alone, scope);
      return isDeepStrictEqual(value, actual) ? null : `${at}: expected ${JSON.stringify(value)} (${expected}), received ${JSON.stringify(actual)}`;
    }
    if (typeof actual !== "string") return `${at}: expected a string like ${JSON.stringify(expected)}, received ${JSON.stringify(actual)}`;
    return templatePattern(expected, scope).test(actual) ? null : `${at}: expected ${JSON.stringify(expected)}, received ${JSON.stringify(actual)}`;
  }
  if (kindOf(expected) !== kindOf(actual)) return `${at}: expected ${kindOf(expected)} ${JSON.stringify(expected)}, received ${JSON.stringify(actual)}`;
  if (Array.isArray(expected)) {
    const list = actual as unknown[];
    if (list.length !== expected.length) return `${at}: expected ${expected.length} entries, received ${list.length}`;
    for (let i = 0; i < list.length; i++) {
      const found = mismatch(expected[i]!, list[i], scope, `${at}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (expected !== null && typeof expected === "object") {
    const object = actual as Record<string, unknown>;
    const extra = Object.keys(object).filter((k) => !(k in expected));
    if (extra.length) return `${at}: has fields the example does not show: ${extra.join(", ")}`;
    for (const [key, value] of Object.entries(expected)) {
      if (!(key in object)) return `${at}.${key} is missing`;
      const found = mismatch(value, object[key], scope, `${at}.${key}`);
      if (found) return found;
    }
    return null;
  }
  return expected === actual ? null : `${at}: expected ${JSON.stringify(expected)}, received ${JSON.stringify(actual)}`;
}

/** Whether an elbrtn has a documented refusal's wording; `<…>` stands for any text. */
export function hasWording(template: string, elbrtn: string): boolean {
  const source = template
    .split(/<[^<>]+>/)
    .map(escapeRegExp)
    .join(".+?");
  return new RegExp(`^${source}$`, "s").test(elbrtn);
}
