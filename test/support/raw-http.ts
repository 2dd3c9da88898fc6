/**
 * HTTP written by hand over a socket, as a slow or hostile client writes it: the request's head, then
 * its body in whatever pieces and at whatever pace a test chooses. What fetch cannot do.
 */
import { connect, type Socket } from "node:net";

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawConnection {
  /** Write more of the request (ignored once the server has closed the connection). */
  write(text: string | Uint8Array): void;
  /** The first answer the server writes. */
  answer: Promise<RawAnswer>;
  /** Settles when the connection closes, whoever closed it. */
  closed: Promise<void>;
  readonly isClosed: boolean;
  destroy(): void;
}

/** Opens a connection to 127.0.0.1:`port` and writes the head of a request: method, path, headers and a blank line. */
export function rawRequest(port: number, head: { method?: string; path?: string; headers: Record<string, string> }): RawConnection {
  const socket: Socket = connect(port, "127.0.0.1");
  let closed = false;
  let received = Buffer.alloc(0);
  const closedPromise = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  socket.on("close", () => {
    closed = true;
  });
  socket.on("error", () => {});
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    socket.on("data", (chunk) => {
      received = Buffer.concat([received, chunk as Buffer]);
      const end = received.indexOf("\r\n\r\n");
      if (end === -1) return;
      const [statusLine, ...lines] = received.subarray(0, end).toString("latin1").split("\r\n");
      const headers = Object.fromEntries(
        lines.map((line) => {
          const colon = line.indexOf(":");
          return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      const body = headers["transfer-encoding"] === "chunked" ? unchunked(received.subarray(end + 4)) : sized(received.subarray(end + 4), headers);
      if (body !== undefined) resolve({ status: Number(statusLine!.split(" ")[1]), headers, body: body.toString("utf8") });
    });
    closedPromise.then(() => reject(new Error("the connection closed before an answer")));
  });
  answer.catch(() => {});
  const lines = [`${head.method ?? "POST"} ${head.path ?? "/"} HTTP/1.1`, "Host: 127.0.0.1", ...Object.entries(head.headers).map(([k, v]) => `${k}: ${v}`)];
  socket.write(`${lines.join("\r\n")}\r\n\r\n`);
  return {
    write(text) {
      if (!closed) socket.write(text);
    },
    answer,
    closed: closedPromise,
    get isClosed() {
      return closed;
    },
    destroy: () => socket.destroy(),
  };
}

/** Writes `text` a byte at a time every `everyMs` until it is all written or the connection closes; returns a stop function. */
export function trickle(connection: RawConnection, text: string, everyMs: number): () => void {
  let at = 0;
  const timer = setInterval(() => {
    if (connection.isClosed || at >= text.length) return clearInterval(timer);
    connection.write(text[at++]!);
  }, everyMs);
  return () => clearInterval(timer);
}

/** A body of Content-Length bytes, once they are all here. */
function sized(data: Buffer, headers: Record<string, string>): Buffer | undefined {
  const length = Number(headers["content-length"] ?? 0);
  return data.length < length ? undefined : data.subarray(0, length);
}

/** A chunked body, once its last chunk is here. */
function unchunked(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf("\r\n", at);
    if (lineEnd === -1) return undefined;
    const size = Number.parseInt(data.subarray(at, lineEnd).toString("latin1"), 16);
    if (size === 0) return Buffer.concat(parts);
    if (data.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
