/**
 * One exchange on POST / as the API log stores it: the request rebuilt from the parsed envelope
 * without its authorization key, secrets redacted by field name and by shape, base64 documents
 * replaced by `<base64, N bytes>`, each body cut at MAX_BODY_CHARS. Built on the request's own
 * path (cheap: two JSON.stringify calls with a replacer and a scrub of the text), so the buffer
 * only ever holds small strings, never a request's documents.
 */
import type { Envelope } from "../../core/envelope";
import type { CommandResponse } from "../../core/feedback";
import { newId } from "../../core/ids";
import { scrubText } from "../../core/log";
import type { Principal } from "../../core/principal";

/** Each body is cut at this many characters (~8 KB: JSON is nearly all ASCII). */
export const MAX_BODY_CHARS = 8 * 1024;
/** cmmnd.cmmnd is stored up to this many characters. */
const MAX_COMMAND_CHARS = 200;

/** What the command endpoint hands over about one answered request of a known partner. */
export interface CommandExchange {
  principal: Principal;
  envelope: Envelope;
  /** The registry's name of the command asked for; null when it is none. */
  command: string | null;
  requestId: string;
  response: CommandResponse;
  durationMs: number;
}

/** A row of api_requests, keyed as its columns (the flusher sends batches as JSON records). */
export interface ApiLogRow {
  id: string;
  partner_id: string;
  request_id: string;
  command: string | null;
  command_text: string;
  key_id: string;
  key_label: Principal["keyLabel"];
  mode: Principal["mode"];
  outcome: number;
  status: number;
  duration_ms: number;
  request: string;
  request_length: number;
  response: string;
  response_length: number;
  created_at: string;
}

/** Values under these field names are secrets wherever they appear (webhook secrets, keys, passwords, tokens). */
const SECRET_FIELD = /secret|password|passwd|token|^key$|apikey|api_key|authorization|cookie/i;
/** A document as the seeds carry one: base64 with line breaks allowed, optionally a data: URL. */
const BASE64_DOCUMENT = /^(?:data:[\w.+-]+\/[\w.+-]+(?:;[\w.+=-]+)*;base64,)?[A-Za-z0-9+/\r\n]+={0,2}$/;
/** Shorter strings are shown as they are (list cursors are ~80 characters; a 44-character API key is caught by scrubText). */
const MIN_DOCUMENT_CHARS = 128;

function decodedBytes(base64: string): number {
  let data = base64.startsWith("data:") ? base64.slice(base64.indexOf(",") + 1) : base64;
  if (data.includes("\n") || data.includes("\r")) data = data.replace(/[\r\n]/g, "");
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

function redactValue(key: string, value: unknown): unknown {
  if (typeof value !== "string") return value;
  if (key && SECRET_FIELD.test(key)) return "[redacted]";
  if (value.length >= MIN_DOCUMENT_CHARS && BASE64_DOCUMENT.test(value)) return `<base64, ${decodedBytes(value)} bytes>`;
  return value;
}

/** At most `max` characters, never ending inside a surrogate pair (a lone half is not Unicode: a JSON column refuses it). */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** JSON text with secret fields and documents redacted (a replacer called for every value: slow). */
export const redactedJson = (value: unknown): string => JSON.stringify(value, redactValue) ?? "null";

/**
 * Whether plain JSON text may hold what redactValue changes: a field named as a secret (a key is a
 * string followed by a colon; an escaped quote, which could hide where a key ends, counts too) or
 * a string long enough to be a document made only of base64 and data-URL characters.
 */
const MAYBE_SECRET = /\\"|(?:secret|password|passwd|token|apikey|api_key|authorization|cookie)[^"]*":|"key":(?!"\[redacted\]")/i;
const MAYBE_DOCUMENT = new RegExp(`"[\\w+/=\\\\:;,.-]{${MIN_DOCUMENT_CHARS},}"`);

/**
 * Redacted JSON text, and its length before the cut. Most requests and answers hold nothing to
 * redact: they are written with the native JSON.stringify and only checked, which costs a fraction
 * of the replacer (test/api-log.test.ts proves both give the same text).
 */
export function loggedJson(value: unknown): { text: string; length: number } {
  const plain = JSON.stringify(value) ?? "null";
  const text = scrubText(MAYBE_SECRET.test(plain) || MAYBE_DOCUMENT.test(plain) ? redactedJson(value) : plain);
  return { text: clipText(text, MAX_BODY_CHARS), length: text.length };
}

/** The stored row of one exchange. */
export function apiLogRow(exchange: CommandExchange, now = Date.now()): ApiLogRow {
  const { principal, envelope, response } = exchange;
  const request = loggedJson({
    userInfo: { id: envelope.userInfo.id, athrzt: { id: envelope.userInfo.athrzt.id, key: "[redacted]" } },
    cmmnd: envelope.cmmnd,
  });
  const answer = loggedJson(response);
  return {
    id: newId(),
    partner_id: principal.partnerId,
    request_id: exchange.requestId,
    command: exchange.command,
    command_text: clipText(envelope.cmmnd.cmmnd, MAX_COMMAND_CHARS),
    key_id: principal.keyId,
    key_label: principal.keyLabel,
    mode: principal.mode,
    outcome: response.exctnFdbck.id,
    status: response.exctnFdbck.id_v4 ?? 200,
    duration_ms: Math.round(exchange.durationMs * 10) / 10,
    request: request.text,
    request_length: request.length,
    response: answer.text,
    response_length: answer.length,
    // When the request arrived.
    created_at: new Date(now - exchange.durationMs).toISOString(),
  };
}
