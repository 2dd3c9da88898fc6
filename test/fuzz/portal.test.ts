/**
 * Property-based fuzzing of the portal's forms: the sign-in form, and signed in (partner owner and
 * operator administrator) every state-changing POST route and the list pages' search and filter
 * forms, with hostile field values and names, wrong encodings, broken bodies, hostile path
 * parameters and stale CSRF tokens. Every answer must be a 2xx, 3xx or 4xx page (never a 5xx),
 * text that can never be stored is refused, a refused request stores nothing, no built-in
 * prototype is polluted, and the portal and POST / still serve afterwards.
 */
import { afterAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { findProduct } from "../../src/products";
import { consumerForm } from "../../src/products/consumer-form";
import { Browser, type PortalResponse, signedIn } from "../portal/browser";
import { PNG_BASE64 } from "../support/harness";
import { productCases, watDate } from "../support/policies";
import { hostileString, isPoisoned, POLLUTION_KEYS, toJson } from "./arbitraries";
import { brief, checkNoPollution, FUZZ_SEED, type FuzzWorld, fuzzWorld, holds, RowLedger, RUNS_SCALE } from "./support";

const w: FuzzWorld = await fuzzWorld();
const { t, partner, admin, fixtures } = w;

// A partner the administrator's account changes (suspend, enrichment) may act on, so the fuzz partner keeps working.
const target = await t.partner({ name: "Fuzz target" });
const owner = await signedIn(t, partner.portal);
const operator = await signedIn(t, admin.portal);
const ledger = new RowLedger(t, [partner.partnerId, admin.partnerId, target.partnerId]);
await ledger.start();

afterAll(async () => {
  // The sessions still work after everything the fuzz sent.
  expect((await owner.get("/portal")).status).toBe(200);
  expect((await operator.get("/admin")).status).toBe(200);
  console.log(`fuzz: ${w.sent.portal} portal requests (FUZZ_SEED=${FUZZ_SEED}, FUZZ_RUNS_SCALE=${RUNS_SCALE})`);
});

// --- Routes and their fields -----------------------------------------------------------------------

interface Route {
  who: "owner" | "operator";
  method: "POST" | "GET";
  /** The path; `param` is a hostile path parameter (already URL-encoded) when the route takes one. */
  path: (param: string | null) => string;
  /** A genuine value of the path parameter (or none: the route takes no parameter). */
  genuineParam?: string | null;
  fields: readonly string[];
  files?: readonly string[];
  /** Values that may pass; a field without any gets hostile values only. */
  plausible?: Record<string, readonly string[]>;
  /** A complete, valid submission: the broken-form cases change one field of it. */
  template?: () => [string, string][];
}

const vehicleForms = findProduct(fixtures.productCode).family.forms("tprt");
const today = watDate();

const ROUTES: Record<string, Route> = {
  consumers: {
    who: "owner",
    method: "POST",
    path: () => "/portal/consumers",
    fields: ["class", "updating", ...consumerForm("h").map((e) => e.path), ...consumerForm("o").map((e) => e.path)],
    files: ["dob.proof", "socialID.image", "cac02", "cac07"],
    plausible: { class: ["h", "o"], "name.first": ["Ada"], phoneNo: ["+2348031234567"], "name.brand": ["Obi Ventures"] },
    template: () => [
      ["class", "h"],
      ["name.first", "Ada"],
      ["name.last", "Obi"],
      ["phoneNo", "+2348031234567"],
      ["eMail", `ada.${crypto.randomUUID().slice(0, 8)}@example.ng`],
      ["dob.date", "1990-04-12"],
      ["gender", "f"],
      ["addrss.addrss", "1 Marina, Lagos"],
    ],
  },
  "quote form": {
    who: "owner",
    method: "POST",
    path: () => "/portal/quote/form",
    fields: ["product", "consumer"],
    plausible: { product: [fixtures.productCode] },
  },
  "quote premium": {
    who: "owner",
    method: "POST",
    path: () => "/portal/quote/premium",
    fields: ["product", ...vehicleForms.quote.map((e) => e.path)],
    plausible: { product: [fixtures.productCode], insrncDrtn: ["1y"] },
  },
  "quote issue": {
    who: "owner",
    method: "POST",
    path: () => "/portal/quote/issue",
    template: () => [
      ["product", fixtures.productCode],
      ["consumer", fixtures.consumerId],
      ["id", crypto.randomUUID()],
      ["insrncDrtn", "1y"],
      ...Object.entries(productCases[fixtures.productCode]!.addtnlFact()).map(([k, v]): [string, string] => [`addtnlFact.${k}`, String(v)]),
    ],
    fields: ["product", "consumer", "id", "webHook", ...vehicleForms.quote.map((e) => e.path), ...vehicleForms.policy.map((e) => e.path)],
    plausible: {
      product: [fixtures.productCode],
      consumer: [fixtures.consumerId],
      insrncDrtn: ["1y"],
      "addtnlFact.brand": ["Toyota"],
      "addtnlFact.year": ["2018"],
    },
  },
  "wallet topup": {
    who: "owner",
    method: "POST",
    path: () => "/portal/wallet/topup",
    fields: ["amount", "reference"],
    plausible: { amount: ["1", "₦1,500.50", "250,000"], reference: ["fuzz-portal-1"] },
    template: () => [
      ["amount", "1,000"],
      ["reference", `fuzz-${crypto.randomUUID().slice(0, 8)}`],
    ],
  },
  "account mode": { who: "owner", method: "POST", path: () => "/portal/keys/mode", fields: ["mode"], plausible: { mode: ["test"] } },
  // Hostile values only: a genuine label or key id would rotate or revoke the fuzz partner's own keys.
  "key rotate": { who: "owner", method: "POST", path: () => "/portal/keys/rotate", fields: ["label"] },
  "key revoke": { who: "owner", method: "POST", path: () => "/portal/keys/revoke", fields: ["keyId"] },
  "team invite": { who: "owner", method: "POST", path: () => "/portal/team", fields: ["email", "name"] },
  "team change": { who: "owner", method: "POST", path: (p) => `/portal/team/${p}/deactivate`, genuineParam: crypto.randomUUID(), fields: [] },
  "vehicle check": {
    who: "owner",
    method: "POST",
    path: () => "/portal/vehicle/check",
    fields: ["search_type", "value"],
    plausible: { search_type: ["registration", "policy"], value: ["ABC123DE"] },
  },
  "vin decode": { who: "owner", method: "POST", path: () => "/portal/vehicle/vin", fields: ["vin"], plausible: { vin: ["1HGCM82633A004352"] } },
  "webhook register": {
    who: "owner",
    method: "POST",
    path: () => "/portal/webhooks",
    fields: ["url", "events", "description"],
    plausible: { url: ["https://93.184.216.34/portal-hook", "http://127.0.0.1/"], events: ["policy.approved"] },
    template: () => [
      ["url", `https://93.184.216.34/portal-${crypto.randomUUID().slice(0, 8)}`],
      ["events", "policy.approved"],
      ["events", "claim.updated"],
      ["description", "portal"],
    ],
  },
  "webhook update": {
    who: "owner",
    method: "POST",
    path: (p) => `/portal/webhooks/${p}`,
    genuineParam: fixtures.endpointId,
    fields: ["url", "events", "description", "enabled"],
    plausible: { url: ["https://93.184.216.34/fuzz-hook"], enabled: ["on"] },
  },
  "webhook test": { who: "owner", method: "POST", path: (p) => `/portal/webhooks/${p}/test`, genuineParam: fixtures.endpointId, fields: [] },
  "webhook reveal": { who: "owner", method: "POST", path: (p) => `/portal/webhooks/${p}/reveal`, genuineParam: fixtures.endpointId, fields: [] },
  "webhook delete": { who: "owner", method: "POST", path: (p) => `/portal/webhooks/${p}/delete`, genuineParam: null, fields: [] },
  "webhook replay": { who: "owner", method: "POST", path: (p) => `/portal/webhooks/deliveries/${p}/replay`, genuineParam: fixtures.deliveryId, fields: [] },
  "claim submit": {
    who: "owner",
    method: "POST",
    path: () => "/portal/claims",
    fields: ["policy", "incidentDate", "description", "amount", "reference"],
    files: ["document1", "document2"],
    plausible: { policy: [fixtures.policy], incidentDate: [today], description: ["Bumper dented"], amount: ["1,000"] },
    template: () => [
      ["policy", fixtures.policy],
      ["incidentDate", today],
      ["description", "Windscreen cracked"],
      ["amount", "2,500"],
      ["reference", `fuzz-${crypto.randomUUID().slice(0, 8)}`],
    ],
  },
  "claim withdraw": { who: "owner", method: "POST", path: (p) => `/portal/claims/${p}/withdraw`, genuineParam: fixtures.claimNo, fields: ["note"] },
  "finance a premium": {
    who: "owner",
    method: "POST",
    path: () => "/portal/financing",
    fields: ["policy", "downPayment", "installments", "frequency", "firstDueDate", "graceDays"],
    plausible: {
      policy: [fixtures.financedPolicy, fixtures.policy],
      downPayment: ["0"],
      installments: ["3"],
      frequency: ["monthly"],
      firstDueDate: [watDate(20)],
    },
    template: () => [
      ["policy", fixtures.policy],
      ["downPayment", "0"],
      ["installments", "3"],
      ["frequency", "monthly"],
      ["firstDueDate", watDate(20)],
    ],
  },
  "record installment": {
    who: "owner",
    method: "POST",
    path: (p) => `/portal/financing/${p}/installments`,
    genuineParam: fixtures.planNo,
    fields: ["amount", "reference", "paidAt"],
    plausible: { amount: ["1"], reference: ["fuzz-portal-pay"], paidAt: [today] },
    template: () => [
      ["amount", "1"],
      ["reference", `fuzz-${crypto.randomUUID().slice(0, 8)}`],
      ["paidAt", today],
    ],
  },
  password: { who: "owner", method: "POST", path: () => "/portal/password", fields: ["currentPassword", "newPassword", "confirmPassword"] },
  "admin partner create": {
    who: "operator",
    method: "POST",
    path: () => "/admin/partners",
    fields: ["name", "email", "enrichment"],
    plausible: { enrichment: ["on"] },
  },
  "admin partner change": {
    who: "operator",
    method: "POST",
    path: (p) => `/admin/partners/${p}`,
    genuineParam: target.partnerId,
    fields: ["change"],
    plausible: { change: ["enrichment-on", "enrichment-off", "suspend", "reinstate"] },
  },
  "admin partner page": { who: "operator", method: "GET", path: (p) => `/admin/partners/${p}`, genuineParam: target.partnerId, fields: [] },
  "admin administrator invite": { who: "operator", method: "POST", path: () => "/admin/administrators", fields: ["email", "name"] },
  // Hostile values only: a genuine id would switch off one of the fuzz operator's administrators (never itself: refused).
  "admin administrator change": {
    who: "operator",
    method: "POST",
    path: (p) => `/admin/administrators/${p}/deactivate`,
    genuineParam: crypto.randomUUID(),
    fields: [],
  },
  "admin policy review": {
    who: "operator",
    method: "POST",
    path: (p) => `/admin/policies/${p}/review`,
    genuineParam: crypto.randomUUID(),
    fields: ["decision", "statusNote"],
    plausible: { decision: ["a", "d"] },
  },
  "admin claim review": {
    who: "operator",
    method: "POST",
    path: (p) => `/admin/claims/${p}/review`,
    genuineParam: fixtures.claimNo,
    fields: ["status", "note", "approvedAmount"],
    plausible: { status: ["in_review", "approved", "rejected"], approvedAmount: ["100"] },
  },
  "admin lapse run": { who: "operator", method: "POST", path: () => "/admin/financing/lapse", fields: ["asOf"], plausible: { asOf: [today] } },
  // The list pages' search and filter forms (GET).
  "consumer search": { who: "owner", method: "GET", path: () => "/portal/consumers", fields: ["q", "cursor", "rows"] },
  "policy filters": {
    who: "owner",
    method: "GET",
    path: () => "/portal/policies",
    fields: ["q", "status", "product", "from", "to", "cursor", "rows"],
    plausible: { status: ["a"], from: [today] },
  },
  "claim filters": { who: "owner", method: "GET", path: () => "/portal/claims", fields: ["status", "policy", "from", "to", "cursor", "rows"] },
  "plan filters": { who: "owner", method: "GET", path: () => "/portal/financing", fields: ["status", "cursor", "rows"] },
  "wallet month": { who: "owner", method: "GET", path: () => "/portal/wallet", fields: ["month", "cursor", "rows"], plausible: { month: ["2026-01"] } },
  "usage month": { who: "owner", method: "GET", path: () => "/portal/wallet/usage", fields: ["month"] },
  "quote page": { who: "owner", method: "GET", path: () => "/portal/quote", fields: ["product", "consumer", "q"] },
  "quote consumer search": { who: "owner", method: "GET", path: () => "/portal/quote/consumers", fields: ["q", "consumer"] },
  "new consumer form": { who: "owner", method: "GET", path: () => "/portal/consumers/new", fields: ["class", "name.first", "eMail"] },
  "new claim form": { who: "owner", method: "GET", path: () => "/portal/claims/new", fields: ["policy"] },
  "new plan form": { who: "owner", method: "GET", path: () => "/portal/financing/new", fields: ["policy"] },
  "webhook deliveries": { who: "owner", method: "GET", path: (p) => `/portal/webhooks/${p}/deliveries`, genuineParam: fixtures.endpointId, fields: ["cursor"] },
  "admin consumer search": { who: "operator", method: "GET", path: () => "/admin/consumers", fields: ["q", "cursor", "rows"] },
  "admin policy filters": {
    who: "operator",
    method: "GET",
    path: () => "/admin/policies",
    fields: ["q", "partner", "mode", "status", "product", "from", "to", "cursor", "rows"],
    plausible: { q: ["0803 123 4567", "LND 123 AB"], mode: ["test", "all"] },
  },
  "admin claim filters": { who: "operator", method: "GET", path: () => "/admin/claims", fields: ["status", "policy", "from", "to", "cursor", "rows"] },
  "admin plan filters": { who: "operator", method: "GET", path: () => "/admin/financing", fields: ["status", "cursor", "rows"] },
  "admin audit": { who: "operator", method: "GET", path: () => "/admin/audit", fields: ["cursor"] },
  // The public pages a policy's certificate links to.
  "policy verification": { who: "owner", method: "GET", path: (p) => `/verify/${p}`, genuineParam: null, fields: ["x"] },
  "hosted certificate": { who: "owner", method: "GET", path: (p) => `/certificates/${p}`, genuineParam: null, fields: [] },
};

// --- Hostile form submissions ------------------------------------------------------------------------

type Encoding = "urlencoded" | "multipart" | "json" | "broken json" | "broken multipart" | "text";

interface Submission {
  entries: [string, string][];
  files: [string, Uint8Array, string][];
  encoding: Encoding;
  csrf: "genuine" | "missing" | "wrong";
  htmx: boolean;
  param: string | null;
  /** The raw path parameter before encoding (for the poison check). */
  rawParam: string | null;
}

/** Field names no form has: pollution paths, deeply dotted names, hostile text. */
const junkName = fc.oneof(
  fc.constantFrom(
    ...POLLUTION_KEYS,
    "__proto__.polluted",
    "constructor.prototype.polluted",
    "__proto__[polluted]",
    "a[__proto__][polluted]",
    "name.__proto__.polluted",
    "_csrf.x",
  ),
  fc.integer({ min: 2, max: 3000 }).map((n) => Array.from({ length: n }, () => "a").join(".")),
  hostileString({ poison: true, huge: false }),
);

const valueFor = (route: Route, name: string) =>
  fc.oneof(
    { weight: route.plausible?.[name] ? 2 : 0, arbitrary: fc.constantFrom(...(route.plausible?.[name] ?? [""])) },
    { weight: 3, arbitrary: hostileString({ poison: true }) },
  );

/** A path parameter: hostile text (URL-encoded as a browser would), raw percent junk, or the genuine one. */
const paramFor = (route: Route): fc.Arbitrary<[string | null, string | null]> =>
  route.genuineParam === undefined
    ? fc.constant([null, null])
    : fc.oneof(
        { weight: route.genuineParam ? 1 : 0, arbitrary: fc.constant<[string | null, string | null]>([route.genuineParam ?? "", route.genuineParam ?? ""]) },
        {
          weight: 3,
          arbitrary: hostileString({ poison: true, huge: false }).map((s): [string, string] => [encodeURIComponent(s.toWellFormed()), s.toWellFormed()]),
        },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom("%", "%ZZ", "%ED%A0%80", "%C0%80", "%00", "%2F..%2F", "..", "%E2%80%AE", "a%20b", "%F0%9F%98")
            .map((s): [string, string] => [s, decodeOr(s)]),
        },
      );

function decodeOr(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** A valid form with one field broken: a hostile value, removed, or a junk field added. */
const brokenTemplate = (template: () => [string, string][]) =>
  fc.tuple(fc.constantFrom("replace", "replace", "remove", "add"), fc.nat(), hostileString({ poison: true }), junkName).map(([change, at, value, name]) => {
    const entries = template();
    const i = at % entries.length;
    if (change === "replace") entries[i] = [entries[i]![0], value];
    else if (change === "remove") entries.splice(i, 1);
    else entries.push([name, value]);
    return entries;
  });

const submissions = (route: Route): fc.Arbitrary<Submission> =>
  fc
    .record({
      entries: fc.oneof(
        fc.array(
          fc.oneof(
            {
              weight: route.fields.length ? 4 : 0,
              arbitrary: fc.constantFrom(...(route.fields.length ? route.fields : ["x"])).chain((name) => fc.tuple(fc.constant(name), valueFor(route, name))),
            },
            { weight: 1, arbitrary: fc.tuple(junkName, hostileString({ poison: true, huge: false })) },
          ),
          { maxLength: 8 },
        ),
        ...(route.template ? [brokenTemplate(route.template)] : []),
      ),
      files: fc.array(
        fc.tuple(
          fc.constantFrom(...(route.files?.length ? route.files : ["upload"])),
          fc.oneof(fc.uint8Array({ maxLength: 64 }), fc.constant(new Uint8Array(Buffer.from(PNG_BASE64, "base64")))),
          fc.oneof(fc.constantFrom("scan.png", "", "../../etc/passwd", "a\u0000b.pdf", "\u202egnp.exe"), hostileString({ huge: false })),
        ),
        { maxLength: route.files?.length ? 2 : 1 },
      ),
      encoding: fc.constantFrom<Encoding>("urlencoded", "urlencoded", "multipart", "multipart", "json", "broken json", "broken multipart", "text"),
      csrf: fc.constantFrom<Submission["csrf"]>("genuine", "genuine", "genuine", "genuine", "missing", "wrong"),
      htmx: fc.boolean(),
      p: paramFor(route),
    })
    .map(({ p, ...s }) => ({ ...s, param: p[0], rawParam: p[1] }));

/**
 * Whether the portal must refuse the submission for text that can never be stored: a NUL in a
 * field's name or (last, for a repeated name: the one a route reads) value or in the path, or, in
 * JSON (browsers' encodings turn them into U+FFFD), an unpaired surrogate. File names are not
 * checked: a form that takes no file ignores them.
 */
function carriesPoison(s: Submission, method: Route["method"]): boolean {
  const json = method === "POST" && s.encoding === "json";
  let entries = [...new Map(s.entries)];
  // Multipart names nest ("a.b" → { a: { b } }): a field whose name is a dotted prefix or extension of
  // another's may be replaced by it, and empty or bracketed names may not arrive as sent.
  if (method === "POST" && s.encoding === "multipart")
    entries = entries.filter(
      ([name]) =>
        name !== "" && !name.includes("[") && !entries.some(([other]) => other !== name && (other.startsWith(`${name}.`) || name.startsWith(`${other}.`))),
    );
  const strings = [...entries.flat(), s.rawParam ?? ""];
  return json ? strings.some(isPoisoned) : strings.some((x) => x.includes("\u0000"));
}

/** Build the request as a browser (or something pretending to be one) would send it. */
function requestOf(route: Route, s: Submission, browser: Browser): { path: string; init: RequestInit & { headers: Record<string, string> } } {
  const headers: Record<string, string> = {};
  if (s.htmx) headers["hx-request"] = "true";
  const token = s.csrf === "genuine" ? browser.csrf : s.csrf === "wrong" ? `${browser.csrf.slice(0, -2)}xx` : undefined;
  const entries: [string, string][] = token === undefined ? s.entries : [["_csrf", token], ...s.entries];
  const path = route.path(s.param);
  if (route.method === "GET") {
    const query = new URLSearchParams(s.entries).toString();
    return { path: query ? `${path}?${query}` : path, init: { method: "GET", headers } };
  }
  switch (s.encoding) {
    case "multipart": {
      const form = new FormData();
      for (const [k, v] of entries) form.append(k, v);
      for (const [name, bytes, filename] of s.files) form.append(name, new Blob([new Uint8Array(bytes)]), filename.toWellFormed());
      return { path, init: { method: "POST", body: form, headers } };
    }
    case "json":
      return { path, init: { method: "POST", body: toJson(Object.fromEntries(entries)), headers: { ...headers, "content-type": "application/json" } } };
    case "broken json":
      return {
        path,
        init: { method: "POST", body: `${toJson(Object.fromEntries(entries)).slice(0, -1)},`, headers: { ...headers, "content-type": "application/json" } },
      };
    case "broken multipart":
      return {
        path,
        init: {
          method: "POST",
          body: `--b\r\ncontent-disposition: form-data; name="_csrf"\r\n\r\n${token ?? ""}\r\n--b`,
          headers: { ...headers, "content-type": "multipart/form-data; boundary=b" },
        },
      };
    case "text":
      return { path, init: { method: "POST", body: new URLSearchParams(entries).toString(), headers: { ...headers, "content-type": "text/plain" } } };
    default:
      return {
        path,
        init: { method: "POST", body: new URLSearchParams(entries).toString(), headers: { ...headers, "content-type": "application/x-www-form-urlencoded" } },
      };
  }
}

async function sendAs(browser: Browser, route: Route, s: Submission): Promise<PortalResponse & { what: string }> {
  const { path, init } = requestOf(route, s, browser);
  w.sent.portal++;
  const cookie = [["session", browser.cookie("session")]]
    .filter(([, v]) => v)
    .map(([k, v]) => `${k}=${v}`)
    .join("; ");
  const response = await t.app.handle(
    new Request(`http://localhost${path}`, { ...init, headers: { ...init.headers, ...(cookie ? { cookie } : {}) }, redirect: "manual" }),
  );
  const text = await response.text();
  const what = `${init.method} ${brief(path, 200)} (${s.encoding}, csrf ${s.csrf}) ${brief(s.entries, 400)}${s.files.length ? ` files ${brief(s.files.map(([n, b, f]) => [n, b.length, f]))}` : ""}`;
  return {
    status: response.status,
    location: response.headers.get("location"),
    hxRedirect: response.headers.get("hx-redirect"),
    text,
    headers: response.headers,
    what,
  };
}

/** The portal's contract for one answer. The row counts are settled first, so a failing request is still accounted for. */
async function checkPage(answer: PortalResponse & { what: string }, mustRefuse: boolean) {
  const fail = (why: string) => {
    throw new Error(`portal ${why}\n  request: ${answer.what}\n  answer: HTTP ${answer.status} ${brief(answer.text, 400)}`);
  };
  const stored = await ledger.settle(answer.status >= 400, answer.what).then(
    () => null,
    (error: Error) => error.message,
  );
  if (answer.status >= 500 || answer.status < 200) fail(`answered HTTP ${answer.status}${stored ? ` and ${stored}` : ""}`);
  if (stored) fail(stored);
  if (mustRefuse && answer.status < 400) fail(`accepted a request it must refuse (HTTP ${answer.status})`);
  checkNoPollution(answer.what);
}

async function stillServes() {
  expect((await owner.get("/portal")).status).toBe(200);
  expect((await operator.get("/admin")).status).toBe(200);
  await w.stillServes();
}

// --- Properties ---------------------------------------------------------------------------------------

describe("portal forms answer hostile input with a page, never a 5xx, and store nothing when they refuse", () => {
  const entries = Object.entries(ROUTES);

  test.each(entries.map(([name, route], i) => [name, route, i] as [string, Route, number]))(
    "%s",
    async (name, route, index) => {
      const browser = route.who === "owner" ? owner : operator;
      await holds(`portal ${name}`, 500 + index, 30, submissions(route), async (s) => {
        const answer = await sendAs(browser, route, s);
        const csrfRefused = route.method === "POST" && s.csrf !== "genuine";
        // Broken JSON cannot be read; a text/plain body carries no CSRF token the portal reads.
        const unreadable = route.method === "POST" && (s.encoding === "broken json" || s.encoding === "text");
        await checkPage(answer, carriesPoison(s, route.method) || csrfRefused || unreadable);
      });
      await stillServes();
    },
    60_000,
  );

  test("sign-in: hostile e-mails, passwords, return paths, tokens and encodings never sign in and never fail", async () => {
    const visitor = new Browser(t);
    const signIn = fc.record({
      email: fc.oneof(hostileString({ poison: true }), fc.constant(partner.portal.email), fc.constant(partner.portal.email.toUpperCase())),
      password: fc.oneof(hostileString({ poison: true }), fc.constant(`${partner.portal.password} `)),
      next: fc.oneof(
        hostileString({ poison: true, huge: false }),
        fc.constantFrom("//evil.example", "/portal/../admin", "javascript:alert(1)", "/portal\u0000", "https://evil.example"),
      ),
      extra: fc.array(fc.tuple(junkName, hostileString({ poison: true, huge: false })), { maxLength: 3 }),
      encoding: fc.constantFrom<Encoding>("urlencoded", "multipart", "json", "broken json", "text"),
      csrf: fc.constantFrom<Submission["csrf"]>("genuine", "genuine", "missing", "wrong"),
      forwardedFor: fc.oneof(
        fc.ipV4(),
        fc.ipV6(),
        hostileString({ huge: false }).map((s) => s.replace(/[^\x20-\x7e]/g, "")),
      ),
    });
    await holds("portal sign-in", 490, 150, signIn, async ({ email, password, next, extra, encoding, csrf, forwardedFor }) => {
      await visitor.get("/login");
      const s: Submission = {
        entries: [["email", email], ["password", password], ["next", next], ...extra],
        files: [],
        encoding,
        csrf,
        htmx: false,
        param: null,
        rawParam: null,
      };
      const route: Route = { who: "owner", method: "POST", path: () => "/login", fields: [] };
      const { path, init } = requestOf(route, s, visitor);
      w.sent.portal++;
      const response = await t.app.handle(
        new Request(`http://localhost${path}`, {
          ...init,
          headers: { ...init.headers, cookie: `signin_csrf=${visitor.cookie("signin_csrf") ?? ""}`, "x-forwarded-for": forwardedFor },
          redirect: "manual",
        }),
      );
      const text = await response.text();
      const what = `POST /login (${encoding}, csrf ${csrf}) ${brief(s.entries, 400)}`;
      if (response.status >= 500) throw new Error(`sign-in answered HTTP ${response.status}\n  request: ${what}\n  answer: ${brief(text, 300)}`);
      // The passwords sent are never the right one: nobody is ever signed in.
      if (response.status < 400 || response.headers.getSetCookie().some((c) => c.startsWith("session=") && !/max-age=0/i.test(c)))
        throw new Error(`sign-in let a hostile request in (HTTP ${response.status})\n  request: ${what}`);
      checkNoPollution(what);
    });
    await stillServes();
  }, 60_000);
});
