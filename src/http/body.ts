import { CommandError } from "../core/errors";
import { type JsonLimits, jsonShapeProblem } from "../core/json-shape";
import { clip, fieldPath } from "../core/validation";

/** Bodies up to this size are read whole; a larger one is checked as it arrives. */
const READ_WHOLE_BYTES = 256 * 1024;

/**
 * The body as text, refusing (413) anything over `maxBytes` without reading past it. With
 * `checkReceived`, a large body is checked each time what has arrived doubles (twice the work of
 * one pass at most), so a body refused for its shape is refused before the rest of it is read.
 */
export async function readBoundedBody(request: Request, maxBytes: number, checkReceived?: (received: string) => void): Promise<string> {
  const tooLarge = () => new CommandError(413, `request body is too large: at most ${maxBytes} bytes are accepted`);
  const length = request.headers.get("content-length");
  const declared = length !== null && /^\d+$/.test(length) ? Number(length) : undefined;
  if (declared !== undefined && declared > maxBytes) throw tooLarge();
  // The server reads exactly the declared length, so a declared body within the limit is read whole.
  if (declared !== undefined && (declared <= READ_WHOLE_BYTES || !checkReceived)) return request.text();
  if (!request.body) return "";
  // No declared length (chunked), or a large one: count (and check) while reading.
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let total = 0;
  let nextCheck = READ_WHOLE_BYTES;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) throw tooLarge();
      text += decoder.decode(value, { stream: true });
      if (checkReceived && total >= nextCheck) {
        checkReceived(text);
        nextCheck = total * 2;
      }
    }
  } catch (error) {
    await reader.cancel().catch(() => {});
    throw error;
  }
  return text + decoder.decode();
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
    if (problem)
      throw new CommandError(
        problem.status,
        `The form ${problem.path.length ? `field ${clip(fieldPath("", problem.path.slice(0, 8)), 60)}` : "body"} ${problem.problem}.`,
      );
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
