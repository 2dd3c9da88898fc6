/**
 * Structured JSON logs, one line per event. Never pass secrets; as a second line of defence every
 * line is scrubbed before it is written: fields named like a secret are redacted, and so is any
 * text that looks like one of this service's secrets (API keys, whsec_ secrets, session tokens,
 * password hashes) or a failed query's parameters (which carry whatever the query wrote).
 */
type Level = "debug" | "info" | "warn" | "error";
const order: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };
const secretKey = /key|password|secret|token|athrzt|authorization|cookie|params/i;
const MAX_DEPTH = 4;

let threshold = order.info;
export function setLogLevel(level: Level | "silent") {
  threshold = order[level];
}

/** Text shaped like a secret of this service, whatever field it hides in. */
const SECRET_TEXT: [RegExp, string][] = [
  // Webhook signing secrets (Standard Webhooks).
  [/whsec_[A-Za-z0-9+/=_-]*/g, "whsec_[redacted]"],
  // JWTs (portal session cookies): three base64url parts, the first a JSON header.
  [/eyJ[\w-]*\.[\w-]+\.[\w-]*/g, "[redacted token]"],
  // API keys: 32 random bytes in base64 with padding (44 characters).
  [/(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{43}=(?![A-Za-z0-9+/=])/g, "[redacted key]"],
  // Password hashes.
  [/\$argon2(?:id|i|d)\$[^\s"',]*/g, "[redacted hash]"],
  // Credentials in a header value.
  [/\b(Bearer|Basic)\s+[^\s"',]+/gi, "$1 [redacted]"],
];

/**
 * Text none of SECRET_TEXT's shapes (nor a query's parameters) can be found in: each needs one of
 * these (an API key its padding "="). One pass says so for most text, where the shapes took six.
 */
const MAYBE_SECRET_TEXT = /whsec_|eyJ|=|\$argon2|(?:bearer|basic)\s|\nparams: /i;

export function scrubText(text: string): string {
  return MAYBE_SECRET_TEXT.test(text) ? scrubEveryShape(text) : text;
}

/** scrubText without its shortcut (exported for the test that proves the shortcut changes nothing). */
export function scrubEveryShape(text: string): string {
  // A failed query's message ends with its parameters: consumers' details, documents, secrets.
  let scrubbed = text.replace(/\nparams: [\s\S]*$/, "\nparams: [redacted]");
  for (const [pattern, replacement] of SECRET_TEXT) scrubbed = scrubbed.replace(pattern, replacement);
  return scrubbed;
}

function redactError(error: Error, depth: number): Record<string, unknown> {
  // The stack repeats the message (and so a query's parameters): keep only its frames.
  const frames = (error.stack ?? "")
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .join("\n");
  const cause = (error as { cause?: unknown }).cause;
  return {
    error: error.name,
    message: scrubText(error.message),
    ...(frames ? { stack: frames } : {}),
    ...(cause !== undefined && depth < MAX_DEPTH ? { cause: cause instanceof Error ? redactError(cause, depth + 1) : redact(cause, depth + 1) } : {}),
  };
}

function redact(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return scrubText(value);
  if (value === null || typeof value !== "object") return value;
  if (depth > MAX_DEPTH) return "[too deep]";
  if (value instanceof Error) return redactError(value, depth);
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, secretKey.test(k) ? "[redacted]" : redact(v, depth + 1)]));
}

/** Something that wants every record, whatever the level (the metrics read the command records). */
export type LogObserver = (level: Level, msg: string, fields: Record<string, unknown>) => void;
const observers = new Set<LogObserver>();
export function observeLog(observer: LogObserver): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

function write(level: Level, msg: string, fields: Record<string, unknown> = {}) {
  for (const observer of observers) observer(level, msg, fields);
  if (order[level] < threshold) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg: scrubText(msg), ...(redact(fields) as object) });
  (level === "error" || level === "warn" ? process.stderr : process.stdout).write(`${line}\n`);
}

export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write("debug", msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write("info", msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write("warn", msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write("error", msg, fields),
};
