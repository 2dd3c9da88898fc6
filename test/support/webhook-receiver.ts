/**
 * A real HTTP receiver for webhook tests (Bun.serve on a free loopback port). Every request is
 * verified with the reference verifier, the `standardwebhooks` package, against the secrets the
 * test trusts for its path, each secret alone; a request no secret verifies is answered 401 and
 * listed in `unverified`.
 */
import { Webhook } from "standardwebhooks";
import { freePort } from "../../bench/servers";
import { WEBHOOK_EVENT_TYPES } from "../../src/modules/webhooks/event-types";

interface Hit {
  path: string;
  /** webhook-id, webhook-timestamp, webhook-signature. */
  id: string;
  timestamp: string;
  signature: string;
  headers: Record<string, string>;
  body: string;
  payload: { type: string; timestamp: string; data: Record<string, any> };
  /** The sender's TCP port (which process sent it: see senderPid). */
  remotePort: number;
  /** The trusted secrets that verified this request, each tried alone. */
  verifiedBy: string[];
  /** When the request arrived and when its answer was handed back (ms, performance.now()). */
  startedAt: number;
  endedAt?: number;
}

type Responder = (hit: Hit, nth: number) => Response | Promise<Response>;

/**
 * The event types of the book a reliability test follows (policies, money, claims): every type but
 * the messages to the insured, whose events follow their delivery on its own schedule (after a
 * restart too), so a test that counts the outbox at a moment registers its endpoints for these.
 */
export const BOOK_EVENTS = WEBHOOK_EVENT_TYPES.filter((type) => !type.startsWith("message."));

export interface Receiver {
  port: number;
  url(path: string): string;
  hits: Hit[];
  hitsAt(path: string): Hit[];
  unverified: Hit[];
  /** Trust `secrets` for requests to `path` (added to those trusted already). */
  trust(path: string, ...secrets: string[]): void;
  /** How `path` answers; `nth` counts the requests to it from 1. Default: 200 "ok". */
  respond(path: string, responder: Responder): void;
  waitFor(what: string, predicate: () => boolean, timeoutMs?: number): Promise<void>;
  stop(): void;
}

function verifiers(secrets: string[], body: string, headers: Record<string, string>): string[] {
  return secrets.filter((secret) => {
    try {
      new Webhook(secret).verify(body, headers);
      return true;
    } catch {
      return false;
    }
  });
}

export async function startReceiver(): Promise<Receiver> {
  const trusted = new Map<string, string[]>();
  const responders = new Map<string, Responder>();
  const hits: Hit[] = [];
  const unverified: Hit[] = [];
  const port = await freePort();
  const server = Bun.serve({
    port,
    hostname: "127.0.0.1",
    idleTimeout: 60,
    async fetch(request, server) {
      const path = new URL(request.url).pathname;
      const body = await request.text();
      const headers: Record<string, string> = request.headers.toJSON();
      let payload: Hit["payload"];
      try {
        payload = JSON.parse(body);
      } catch {
        payload = { type: "(not JSON)", timestamp: "", data: {} };
      }
      const hit: Hit = {
        path,
        id: headers["webhook-id"] ?? "",
        timestamp: headers["webhook-timestamp"] ?? "",
        signature: headers["webhook-signature"] ?? "",
        headers,
        body,
        payload,
        remotePort: server.requestIP(request)?.port ?? 0,
        verifiedBy: verifiers(trusted.get(path) ?? [], body, headers),
        startedAt: performance.now(),
      };
      hits.push(hit);
      if (!hit.verifiedBy.length) {
        unverified.push(hit);
        hit.endedAt = performance.now();
        return new Response("signature not verified", { status: 401 });
      }
      const nth = hits.filter((h) => h.path === path).length;
      const responder = responders.get(path);
      const response = responder ? await responder(hit, nth) : new Response("ok");
      hit.endedAt = performance.now();
      return response;
    },
  });
  return {
    port,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    hits,
    hitsAt: (path) => hits.filter((h) => h.path === path),
    unverified,
    trust(path, ...secrets) {
      trusted.set(path, [...(trusted.get(path) ?? []), ...secrets]);
    },
    respond(path, responder) {
      responders.set(path, responder);
    },
    async waitFor(what, predicate, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
        await Bun.sleep(25);
      }
    },
    stop: () => void server.stop(true),
  };
}

/**
 * The process whose open TCP connection goes from local port `port` to the receiver's port `to`
 * (asked of `ss` while the request is open). Both ports: Linux reuses an ephemeral port number for
 * connections to other destinations, so the local port alone once matched the test runner's own
 * connection to PostgreSQL.
 */
export function senderPid(port: number, to: number): number | null {
  const out = Bun.spawnSync(["ss", "-tnpH", "state", "established", `( sport = :${port} and dport = :${to} )`]).stdout.toString();
  const pid = /pid=(\d+)/.exec(out)?.[1];
  return pid ? Number(pid) : null;
}

/** The whole service (src/main.ts) as a child process, for tests that kill and restart it. */
export interface AppProcess {
  url: string;
  pid: number;
  /** POST / with an envelope; the parsed answer. */
  post(body: unknown): Promise<any>;
  /** SIGKILL: no shutdown, in-flight work simply stops. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the graceful exit. */
  stop(): Promise<void>;
  /** What it wrote on stderr (warnings and errors). */
  stderr(): string;
  /** Resolves with the exit code when the process ends (graceful shutdown must end with 0). */
  exited: Promise<number>;
}

export async function startAppProcess(env: Record<string, string>, readyTimeoutMs = 30_000): Promise<AppProcess> {
  const port = await freePort();
  const child = Bun.spawn([process.execPath, "src/main.ts"], {
    cwd: new URL("../..", import.meta.url).pathname,
    // Only what the service needs: the test run's own DATABASE_URL must not leak into a PGlite instance.
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", LOG_LEVEL: "warn", NIID_START: "false", SEED_DEMO: "false", ...env, PORT: String(port) },
    stdout: "ignore",
    stderr: "pipe",
  });
  let stderr = "";
  void (async () => {
    const decoder = new TextDecoder();
    const reader = child.stderr.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      stderr = (stderr + decoder.decode(chunk.value, { stream: true })).slice(-2_000_000);
  })();
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the app exited with ${child.exitCode} before it was ready:\n${stderr}`);
    const ready = await fetch(`${url}healthz`, { signal: AbortSignal.timeout(1000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the app did not come up within ${readyTimeoutMs} ms:\n${stderr}`);
    }
    await Bun.sleep(100);
  }
  return {
    url,
    pid: child.pid,
    async post(body) {
      const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      return response.json();
    },
    async kill() {
      child.kill("SIGKILL");
      await child.exited;
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      if (!(await Promise.race([child.exited.then(() => true), Bun.sleep(10_000).then(() => false)]))) {
        child.kill("SIGKILL");
        await child.exited;
      }
    },
    stderr: () => stderr,
    exited: child.exited,
  };
}
