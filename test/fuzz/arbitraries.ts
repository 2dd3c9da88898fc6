/**
 * The hostile inputs of the fuzz suite (fast-check arbitraries): awkward and unstorable text,
 * huge strings, deep nesting, wrong types, prototype-pollution keys and odd numbers, and JSON
 * values and seeds built from them. Every generator is bounded (strings up to ~1 MB, nesting up
 * to a few thousand levels) so a seeded run is fast and deterministic.
 */
import fc from "fast-check";

/** Text that can never be stored (PostgreSQL refuses NUL; unpaired surrogates are not Unicode): always refused. */
export const POISON = ["\u0000", "\ud800", "\udbff", "\udc00", "\udfff"] as const;

/** A NUL, or a surrogate without its partner. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: a NUL is exactly what this finds
const POISON_PATTERN = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Awkward but storable text: bidi overrides and isolates, invisible characters, controls, emoji, combining marks, right-to-left scripts, markup, injection and template syntax, number-like and JavaScript-like words. */
export const AWKWARD = [
  "\u202e",
  "\u202d",
  "\u202a",
  "\u202b",
  "\u202c",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
  "\u200e",
  "\u200f",
  "\u061c",
  "\u200b",
  "\u200c",
  "\u200d",
  "\u2060",
  "\ufeff",
  "\u00a0",
  "\u3000",
  "\u2028",
  "\u2029",
  "\u0001",
  "\u0007",
  "\b",
  "\u001b",
  "\u007f",
  "\u0085",
  "\uffff",
  "\ufffe",
  "\ufffd",
  "😀",
  "👩🏽‍💻",
  "🇳🇬",
  "e\u0301",
  "\u0301\u0301\u0301",
  "ﷺ",
  "مرحبا",
  "שלום",
  "İ",
  "ß",
  "ǅ",
  "Ⅻ",
  "١٢٣",
  "１２３",
  "𝟘𝟙",
  "\\",
  '"',
  "'",
  "`",
  "<script>alert(1)</script>",
  "&amp;",
  "&#0;",
  "%00",
  "%s%n",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: template syntax is one of the awkward texts, sent as it is
  "${7*7}",
  "{{7*7}}",
  "../../etc/passwd",
  "\r\n",
  "\n",
  "\t",
  " ",
  "NaN",
  "Infinity",
  "-Infinity",
  "-0",
  "1e308",
  "0x1F",
  "1_000",
  "1,000.50",
  "₦1,500",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "';--",
  '" OR 1=1 --',
  "\\u0000",
  "|",
  "*",
  ":",
  "entt_",
  "dump ",
] as const;

/** Keys that try to reach an object's prototype, or name its methods. */
export const POLLUTION_KEYS = ["__proto__", "constructor", "prototype", "toString", "valueOf", "hasOwnProperty", "__defineGetter__", "isAdmin", ""] as const;

/** Numbers at the edges of what JSON and doubles can say (as JavaScript values). */
const ODD_NUMBERS = [
  1e308,
  -1e308,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  -0,
  0,
  5e-324,
  2 ** 53 + 2,
  -(2 ** 53) - 2,
  2 ** 31,
  -(2 ** 31) - 1,
  1e21,
  0.1 + 0.2,
  0.005,
  1.005,
  123456.789,
  -1,
  1e9,
  1e9 + 0.01,
  999_999_999.999,
] as const;

/**
 * Number tokens JavaScript cannot write with JSON.stringify (1e400 parses to Infinity, -0.0,
 * 30 digits …). A generated value carries them as a marker string; `toJson` writes the bare token.
 */
const RAW_NUMBER_TOKENS = ["1e400", "-1e400", "1e-400", "-0.0", "0e0", "123456789012345678901234567890", "1E+2", "0.1e1", "-1e-7"] as const;
const RAW = "\u0002RAW:";
const rawNumber = (token: string) => `${RAW}${token}\u0002`;

/** JSON text of a generated value, with raw number markers written as bare number tokens. */
export function toJson(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0002RAW:([-+.\dEe]+)\\u0002"/g, "$1");
}

/** Remove what can never be stored, keeping the rest of the text. */
const withoutPoison = (s: string) => s.replace(new RegExp(POISON_PATTERN.source, "g"), "");

const awkwardFragment = fc.constantFrom(...AWKWARD);

/** Up to ~1 MB of one repeated fragment (bounded: a handful of runs of these keep the suite fast). */
const hugeString = fc
  .tuple(fc.constantFrom("a", "é", "😀", "\u202e", "0", "<b>", "Ω\u0301"), fc.constantFrom(5_000, 70_000, 300_000, 1_000_000))
  .map(([fragment, length]) => fragment.repeat(Math.ceil(length / fragment.length)).slice(0, length));

const numberLikeString = fc.oneof(
  fc.constantFrom(
    "NaN",
    "-NaN",
    "Infinity",
    "-Infinity",
    "1e308",
    "-1e308",
    "1e400",
    "-0",
    "0x10",
    "1_000",
    " 12 ",
    "1,000",
    "12abc",
    "٣",
    "１２",
    "+1",
    ".5",
    "5.",
    "1e-7",
  ),
  fc.double().map(String),
  fc.bigInt().map(String),
);

/** Dates well formed or nearly, outside the calendar every date keeps to or not in it at all: the year 0 and before PostgreSQL refuses, years past 9999 JavaScript writes as it cannot read. */
const dateLikeString = fc.constantFrom(
  "0001-01-01",
  "0000-01-01",
  "1899-12-31",
  "2100-01-01",
  "9999-12-31",
  "+275760-09-13",
  "-000001-01-01",
  "2026-02-30",
  "2026-13-01",
  "0001-01-01 00:00:00",
  "9999-12-31 23:59:59",
  "0000-01",
  "9999-12",
);

/** Storable hostile text (no NUL, no unpaired surrogates). */
export const awkwardString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 30 }).map(withoutPoison) },
  { weight: 4, arbitrary: fc.array(fc.oneof(awkwardFragment, fc.string({ maxLength: 6 })), { maxLength: 6 }).map((parts) => parts.join("")) },
  { weight: 1, arbitrary: numberLikeString },
  { weight: 1, arbitrary: dateLikeString },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "\t\n", "\u00a0", "\u3000\u2028") },
);

/** Text with at least one NUL or unpaired surrogate somewhere in it. */
const poisonedString: fc.Arbitrary<string> = fc.tuple(awkwardString, fc.constantFrom(...POISON), fc.nat()).map(([text, poison, at]) => {
  const i = text.length ? at % (text.length + 1) : 0;
  // Never split a surrogate pair of the text (that would add a second, unintended poison; harmless but confusing).
  const j = i > 0 && /[\ud800-\udbff]/.test(text[i - 1]!) ? i + 1 : i;
  return text.slice(0, j) + poison + text.slice(j);
});

/** Any hostile string: mostly storable, sometimes poisoned, rarely huge. */
export const hostileString = (options: { poison?: boolean; huge?: boolean } = {}): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 12, arbitrary: awkwardString },
    { weight: options.poison ? 2 : 0, arbitrary: poisonedString },
    { weight: options.huge === false ? 0 : 1, arbitrary: hugeString },
  );

export const oddNumber: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ODD_NUMBERS) },
  { weight: 2, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 2, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.constantFrom(...RAW_NUMBER_TOKENS).map(rawNumber) },
);

/** Nesting of arrays and objects around a leaf, `depth` containers deep (built without recursion). */
function nest(depth: number, shape: "array" | "object" | "mixed", leaf: unknown, key = "a"): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) {
    const asArray = shape === "array" || (shape === "mixed" && i % 2 === 0);
    value = asArray ? [value] : Object.fromEntries([[key, value]]);
  }
  return value;
}

/** A deeply nested value: a few levels to a few thousand. */
export const deepValue = fc
  .tuple(
    fc.oneof(fc.integer({ min: 2, max: 60 }), fc.integer({ min: 60, max: 3000 })),
    fc.constantFrom("array", "object", "mixed") as fc.Arbitrary<"array" | "object" | "mixed">,
    fc.constantFrom<unknown>(1, "x", null, {}, []),
    fc.constantFrom("a", "__proto__", "constructor", "seed"),
  )
  .map(([depth, shape, leaf, key]) => nest(depth, shape, leaf, key));

/** An object built from entries, keeping `__proto__` as an own key (as JSON.parse does) instead of setting the prototype. */
export const objectOf = (entries: [string, unknown][]) => Object.fromEntries(entries) as Record<string, unknown>;

/** The JSON values of the fuzz: hostile leaves, arrays and objects a few levels deep, with hostile keys. */
export function hostileValue(options: { poison?: boolean; keys?: fc.Arbitrary<string> } = {}): fc.Arbitrary<unknown> {
  const key = options.keys ?? hostileKey(options);
  const leaf = fc.oneof(
    { weight: 6, arbitrary: hostileString(options) },
    { weight: 3, arbitrary: oddNumber },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
  );
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof({ maxDepth: 3, withCrossShrink: true }, leaf, tie("array"), tie("object")),
    array: fc.array(tie("value"), { maxLength: 4 }),
    object: fc.array(fc.tuple(key, tie("value")), { maxLength: 5 }).map(objectOf),
  }));
  return fc.oneof({ weight: 12, arbitrary: value }, { weight: 1, arbitrary: deepValue });
}

/** Keys: prototype-pollution names, hostile text, and plain words. */
export const hostileKey = (options: { poison?: boolean } = {}): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...POLLUTION_KEYS) },
    { weight: 3, arbitrary: hostileString({ ...options, huge: false }) },
    { weight: 2, arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 10 }) },
  );

/** True when the text has a NUL or an unpaired surrogate. */
export const isPoisoned = (s: string) => POISON_PATTERN.test(s);

/** The nesting depth of a JSON value: the root object or array is level 1 (iterative: values may be thousands deep). */
export function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [node, level] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    deepest = Math.max(deepest, level);
    for (const child of Object.values(node)) if (child !== null && typeof child === "object") stack.push([child, level + 1]);
  }
  return deepest;
}

/** True when any string or key of the value is poisoned. */
export function hasPoison(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const node = stack.pop();
    if (typeof node === "string") {
      if (isPoisoned(node)) return true;
    } else if (node !== null && typeof node === "object") {
      for (const [k, v] of Object.entries(node)) {
        if (isPoisoned(k)) return true;
        stack.push(v);
      }
    }
  }
  return false;
}
