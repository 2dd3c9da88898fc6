/**
 * Helpers of the reliability tests (test/reliability-*.test.ts): a fresh PostgreSQL database per
 * test, seeded randomness, raw HTTP requests whose body is sent in two parts (to hold a request in
 * flight), and a small portal client over real HTTP (cookies and CSRF token).
 */
import { connect } from "node:net";
import postgres from "postgres";

/** mulberry32: a small seeded generator, so a failing run can be repeated with its seed. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    /** An integer in [min, max]. */
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}
export type Random = ReturnType<typeof seededRandom>;

/** The seed of this run: RELIABILITY_SEED when given (to repeat a run), else a new one. Printed by the tests. */
export const runSeed = (): number => Number(process.env.RELIABILITY_SEED ?? Math.floor(Math.random() * 2 ** 31));

/**
 * A new, empty database on the PostgreSQL server of `baseUrl` (the run's TEST_DATABASE_URL), so a
 * test that starts app processes owns every row in it. `drop()` removes it (with its connections).
 */
export async function freshPostgresDatabase(baseUrl: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}_${crypto.randomUUID().slice(0, 8)}`.toLowerCase().replace(/[^a-z0-9_]/g, "_");
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = postgres(baseUrl, { max: 1, onnotice: () => {} });
      try {
        await client.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

export interface RawExchange {
  /** Send the rest of the body; resolves with the answer (HTTP status and parsed JSON), or rejects when the connection ends without one. */
  finish(): Promise<{ status: number; body: any }>;
  /** Send `count` more bytes of the body, never its last one (a slow client); finish() sends what is left. */
  trickle(count?: number): void;
  /** The connection ended (or failed) before any answer: the request was refused. */
  readonly refused: boolean;
}

/**
 * POST `body` to `url` over a raw TCP connection, sending only the headers and the first `splitAt`
 * bytes now: the server has the request in flight until finish() sends the rest.
 */
export async function startRawPost(url: string, body: string, splitAt = 10): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = "";
  let refused = false;
  const ended = new Promise<void>((resolve) => {
    socket.on("close", () => resolve());
    socket.on("error", () => {
      refused = true;
      resolve();
    });
  });
  socket.on("data", (chunk) => (received += chunk.toString("utf8")));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  const bytes = Buffer.from(body);
  socket.write(
    `POST / HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`,
  );
  socket.write(bytes.subarray(0, splitAt));
  let sent = splitAt;
  return {
    get refused() {
      return refused;
    },
    trickle(count = 1) {
      if (socket.destroyed || sent >= bytes.length - 1) return;
      const chunk = bytes.subarray(sent, Math.min(sent + count, bytes.length - 1));
      sent += chunk.length;
      socket.write(chunk);
    },
    async finish() {
      if (!socket.destroyed) socket.write(bytes.subarray(sent));
      await ended;
      const split = received.indexOf("\r\n\r\n");
      if (split < 0) throw new Error(`the connection ended without an answer${refused ? " (reset)" : ""}`);
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(received)?.[1]);
      const head = received.slice(0, split);
      let text = received.slice(split + 4);
      if (/transfer-encoding: chunked/i.test(head)) text = unchunk(text);
      return { status, body: JSON.parse(text) };
    },
  };
}

function unchunk(text: string): string {
  let out = "";
  for (let at = 0; ; ) {
    const end = text.indexOf("\r\n", at);
    const size = parseInt(text.slice(at, end), 16);
    if (!size) return out;
    out += text.slice(end + 2, end + 2 + size);
    at = end + 2 + size + 2;
  }
}

/** Is anything accepting connections on `url` right now? */
export function accepts(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** The portal over real HTTP, as a browser would use it: a cookie jar, the page's CSRF token, no redirects followed. */
export class PortalClient {
  private cookies = new Map<string, string>();
  csrf = "";
  constructor(public baseUrl: string) {}

  async request(path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...init.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const response = await fetch(new URL(path, this.baseUrl), { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...rest] = pair!.split("=");
      const value = rest.join("=");
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === "") this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value);
    }
    const text = await response.text();
    const token = /"x-csrf-token":"([^"]+)"/.exec(text.replaceAll("&quot;", '"'))?.[1] ?? /name="_csrf" value="([^"]+)"/.exec(text)?.[1];
    if (token) this.csrf = token;
    return { status: response.status, location: response.headers.get("location"), text };
  }

  get(path: string) {
    return this.request(path);
  }

  post(path: string, fields: Record<string, string>) {
    return this.request(path, {
      method: "POST",
      body: new URLSearchParams({ _csrf: this.csrf, ...fields }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
  }

  async signIn(email: string, password: string) {
    await this.get("/login");
    const answer = await this.post("/login", { email, password });
    if (answer.status !== 303) throw new Error(`sign-in failed: ${answer.status} ${answer.text.slice(0, 300)}`);
    await this.get(answer.location!);
  }
}
