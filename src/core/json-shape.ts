/**
 * The shape of a JSON text, checked before it is parsed: one pass over the characters with a
 * fixed amount of state (a few numbers per nesting level), stopping at the first limit exceeded.
 * A body of four million zeros is refused after reading twenty thousand of them, before
 * JSON.parse builds anything. Malformed text is left to JSON.parse to describe.
 */

export interface JsonLimits {
  /** Objects and arrays nested at most this deep (the root is level 1). */
  maxDepth: number;
  /** Array elements plus object members in the whole text. */
  maxValues: number;
  /** Members of any one object. */
  maxMembers: number;
  /** Characters of a field name. */
  maxKeyLength: number;
  /** Characters of a string value as written (escapes included). */
  maxStringLength: number;
}

/** The first limit a text exceeds: where (a path of keys and indexes), why, and the id_v4 to answer. */
export interface JsonShapeProblem {
  path: PropertyKey[];
  problem: string;
  status: 400 | 413;
}

/**
 * Twice the room for the largest document field: MAX_DOCUMENT_BYTES as base64 (4 characters per
 * 3 bytes), an escaped line break ("\r\n", 4 characters) after every 76 of them as MIME writes
 * it, and a data: URL prefix. Twice, so that a document somewhat too large meets the document
 * rule's own words (its limit in bytes) rather than this bound on cost.
 */
function maxStringLengthFor(maxDocumentBytes: number): number {
  const base64 = Math.ceil(maxDocumentBytes / 3) * 4;
  return 2 * (base64 + Math.ceil(base64 / 76) * 4 + 256);
}

/** How deeply objects and arrays may nest in a body (the root is level 1; the deepest seed the commands take is 6). */
export const MAX_JSON_DEPTH = 32;

/** Limits far above any real seed (docs/commands.md): the largest take hundreds of values. */
export const jsonLimits = (maxDocumentBytes: number): JsonLimits => ({
  maxDepth: MAX_JSON_DEPTH,
  maxValues: 20_000,
  maxMembers: 1_000,
  maxKeyLength: 256,
  maxStringLength: maxStringLengthFor(maxDocumentBytes),
});

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
/** The characters a number, true, false or null are written with. */
const isScalarChar = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x2d || c === 0x2b || c === 0x2e;

/** Where the string opened before `from` ends: the next quote not escaped by an odd run of backslashes (text.length when none). */
function closingQuote(text: string, from: number): number {
  for (let at = text.indexOf('"', from); at !== -1; at = text.indexOf('"', at + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return text.length;
}

/** Why `text` exceeds `limits`, or null when it does not (it may still not be valid JSON). */
export function jsonShapeProblem(text: string, limits: JsonLimits): JsonShapeProblem | null {
  // Per nesting level: array or object, entries seen so far, and where its current key is written.
  const levels = limits.maxDepth + 1;
  const isArray = new Uint8Array(levels);
  const entries = new Int32Array(levels);
  const keyStart = new Int32Array(levels);
  const keyEnd = new Int32Array(levels);
  let depth = 0;
  let values = 0;

  // Only on a refusal: the keys and indexes leading to level `upTo`'s current entry.
  const pathTo = (upTo: number): PropertyKey[] => {
    const path: PropertyKey[] = [];
    for (let level = 1; level <= upTo; level++) {
      if (isArray[level]) path.push(entries[level]! - 1);
      else {
        const written = text.slice(keyStart[level]!, keyEnd[level]!);
        try {
          path.push(JSON.parse(written) as string);
        } catch {
          path.push(written.slice(1, -1));
        }
      }
    }
    return path;
  };
  const tooMany = (): JsonShapeProblem | null =>
    ++values > limits.maxValues
      ? { path: pathTo(depth), problem: `holds more than ${limits.maxValues} values (array elements and object members in all)`, status: 413 }
      : null;
  // A value begins: as an array element it is one more entry and one more value.
  const element = (): JsonShapeProblem | null => {
    if (depth === 0 || !isArray[depth]) return null;
    entries[depth]! += 1;
    return tooMany();
  };

  const length = text.length;
  let i = 0;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      i = closingQuote(text, i + 1);
      const end = ++i;
      let next = i;
      while (next < length && isSpace(text.charCodeAt(next))) next++;
      if (depth > 0 && !isArray[depth] && text.charCodeAt(next) === COLON) {
        // A field name: one more member of this object.
        entries[depth]! += 1;
        keyStart[depth] = start;
        keyEnd[depth] = end;
        if (end - start - 2 > limits.maxKeyLength)
          return { path: pathTo(depth - 1), problem: `has a field name longer than ${limits.maxKeyLength} characters`, status: 400 };
        if (entries[depth]! > limits.maxMembers) return { path: pathTo(depth - 1), problem: `has more than ${limits.maxMembers} fields`, status: 413 };
        const problem = tooMany();
        if (problem) return problem;
        i = next + 1;
        continue;
      }
      const problem = element();
      if (problem) return problem;
      if (end - start - 2 > limits.maxStringLength) return { path: pathTo(depth), problem: `is longer than ${limits.maxStringLength} characters`, status: 413 };
      continue;
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      const problem = element();
      if (problem) return problem;
      if (depth === limits.maxDepth) return { path: pathTo(depth), problem: `nests objects and arrays deeper than ${limits.maxDepth} levels`, status: 400 };
      depth++;
      isArray[depth] = c === OPEN_ARRAY ? 1 : 0;
      entries[depth] = 0;
      i++;
      continue;
    }
    if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth > 0) depth--;
      i++;
      continue;
    }
    if (isScalarChar(c)) {
      const problem = element();
      if (problem) return problem;
      while (i < length && isScalarChar(text.charCodeAt(i))) i++;
      continue;
    }
    i++;
  }
  return null;
}

/** Where the value starting at `from` ends (the index after it), or -1 when it has not all arrived in `text`. */
function endOfValue(text: string, from: number): number {
  const length = text.length;
  const c = text.charCodeAt(from);
  if (c === QUOTE) {
    const end = closingQuote(text, from + 1);
    return end < length ? end + 1 : -1;
  }
  if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
    let depth = 0;
    for (let i = from; i < length; i++) {
      const d = text.charCodeAt(i);
      if (d === QUOTE) i = closingQuote(text, i + 1);
      else if (d === OPEN_OBJECT || d === OPEN_ARRAY) depth++;
      else if ((d === CLOSE_OBJECT || d === CLOSE_ARRAY) && --depth === 0) return i + 1;
    }
    return -1;
  }
  let i = from;
  while (i < length && isScalarChar(text.charCodeAt(i))) i++;
  // A number at the very end may go on in what has not arrived.
  return i > from && i < length ? i : -1;
}

/**
 * The text of the value of the top-level member `name` of a JSON object, when it is whole within
 * `text` (the part of a body that has arrived); undefined when it is not there (yet), or when the
 * text is not an object. The members before it are stepped over, not parsed: this is how a body
 * names its sender before the rest of it is read.
 */
export function memberText(text: string, name: string): string | undefined {
  const length = text.length;
  const skipSpace = (from: number) => {
    let i = from;
    while (i < length && isSpace(text.charCodeAt(i))) i++;
    return i;
  };
  let i = skipSpace(0);
  if (text.charCodeAt(i) !== OPEN_OBJECT) return undefined;
  for (;;) {
    i = skipSpace(i + 1);
    if (text.charCodeAt(i) !== QUOTE) return undefined;
    const keyEnd = closingQuote(text, i + 1);
    if (keyEnd >= length) return undefined;
    const key = text.slice(i, keyEnd + 1);
    i = skipSpace(keyEnd + 1);
    if (text.charCodeAt(i) !== COLON) return undefined;
    const start = skipSpace(i + 1);
    const end = start < length ? endOfValue(text, start) : -1;
    if (end === -1) return undefined;
    if (safeParse(key) === name) return text.slice(start, end);
    i = skipSpace(end);
    if (text.charCodeAt(i) !== COMMA) return undefined;
  }
}

const safeParse = (json: string): unknown => {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
};
