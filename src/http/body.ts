import { CommandError } from "../core/errors";
import { jsonShapeProblem, type JsonLimits } from "../core/json-shape";
import { clip, fieldPath } from "../core/validation";

/** The body as text, refusing (413) anything over `maxBytes` without reading past it. */
export async function readBoundedBody(request: Request, maxBytes: number): Promise<string> {
  const tooLarge = () => new CommandError(413, `request body is too large: at most ${maxBytes} bytes are accepted`);
  const length = request.headers.get("content-length");
  if (length !== null && /^\d+$/.test(length)) {
    // The server reads exactly the declared length, so a declared body within the limit is read whole.
    if (Number(length) > maxBytes) throw tooLarge();
    return request.text();
  }
  if (!request.body) return "";
  // No declared length (chunked): count while reading, and stop at the limit.
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * A form or JSON body of a page reachable without a session, parsed within bounds: at most
 * `maxBytes` read (413 beyond), and a JSON body's shape held to `limits` before it is parsed. The
 * result is what Elysia's own parsers give a route: field name → value.
 */
export async function readBoundedForm(request: Request, maxBytes: number, limits: JsonLimits): Promise<unknown> {
  const text = await readBoundedBody(request, maxBytes);
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/json") {
    const problem = jsonShapeProblem(text, limits);
    if (problem) throw new CommandError(problem.status, `The form ${problem.path.length ? `field ${clip(fieldPath("", problem.path.slice(0, 8)), 60)}` : "body"} ${problem.problem}.`);
    try {
      return JSON.parse(text);
    } catch {
      throw new CommandError(400, "the request could not be read: send the form again");
    }
  }
  if (type === "application/x-www-form-urlencoded") return Object.fromEntries(new URLSearchParams(text));
  if (type === "multipart/form-data") {
    const form = await new Response(text, { headers: { "content-type": request.headers.get("content-type")! } }).formData().catch(() => {
      throw new CommandError(400, "the request could not be read: send the form again");
    });
    return Object.fromEntries(form.entries());
  }
  return text;
}
