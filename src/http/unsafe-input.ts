import { CommandError } from "../core/errors";
import { MAX_JSON_DEPTH } from "../core/json-shape";
import { clip, unsafeJson } from "../core/validation";

/**
 * Text nothing can store (NUL, unpaired surrogates) and fields nested deeper than a body may be,
 * in a query, a path or a parsed form, are refused for every route before any reads them: a 400,
 * not a database error. Not POST /: it reads nothing but its own body, which src/core/envelope.ts
 * checks the same way, and answers every request with HTTP 200.
 */
export function refuseUnsafeInput({ request, query, params, body }: { request: Request; query: unknown; params: unknown; body: unknown }) {
  if (request.method === "POST" && new URL(request.url).pathname === "/") return;
  for (const [where, value] of [
    ["query", query],
    ["path", params],
    ["form", body],
  ] as const) {
    const unsafe = unsafeJson(value, MAX_JSON_DEPTH);
    if (unsafe) {
      const field = unsafe.path.slice(0, 8).map(String).join(".");
      throw new CommandError(400, `${field ? `The ${where} field ${clip(field, 60)}` : `The ${where}`} ${unsafe.problem}.`, field || undefined);
    }
  }
}
