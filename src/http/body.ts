import { CommandError } from "../core/errors";

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
