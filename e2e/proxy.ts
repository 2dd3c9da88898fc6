/**
 * A tiny round-robin HTTP proxy for the browser tests against several instances: every request
 * goes to the next target in turn (no stickiness of any kind, so a page, its htmx requests and the
 * form posts that follow land on different instances). Bodies are streamed both ways; headers pass
 * unchanged (Set-Cookie included), plus x-forwarded-proto. node:http, so it runs in Playwright's
 * Node as well as in Bun.
 */
import { Agent, createServer, type IncomingHttpHeaders, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RoundRobinProxy {
  url: string;
  /** How many requests each target got. */
  counts: number[];
  close(): Promise<void>;
}

export async function startRoundRobinProxy(targets: string[], port = 0): Promise<RoundRobinProxy> {
  const upstreams = targets.map((t) => new URL(t));
  const counts = upstreams.map(() => 0);
  const agent = new Agent({ keepAlive: true });
  let next = 0;
  const server: Server = createServer((incoming, outgoing) => {
    const index = next++ % upstreams.length;
    const target = upstreams[index]!;
    counts[index]!++;
    const headers: IncomingHttpHeaders = { ...incoming.headers, "x-forwarded-proto": "http" };
    const forwarded = request({ host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers, agent }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(outgoing);
    });
    forwarded.on("error", (error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { "content-type": "text/plain" });
      outgoing.end(`proxy: ${target.host} failed: ${error.message}`);
    });
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
