/** The verification service as a real child process (`bun src/niid/main.ts`) on a free loopback port. */
import { join } from "node:path";
import { freePort } from "../../bench/servers";

export interface NiidProcess {
  url: string;
  /** Everything it printed so far (its JSON log lines). */
  output(): string;
  /** POST a JSON value (or raw text) and return the HTTP status, the parsed body and how long it took. */
  post(path: string, body: unknown): Promise<{ status: number; body: any; ms: number; headers: Headers }>;
  /** SIGTERM, and the exit code once it has shut down. */
  stop(): Promise<number>;
}

const repository = join(import.meta.dir, "..", "..");

async function collect(stream: ReadableStream<Uint8Array>, sink: (text: string) => void) {
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) sink(decoder.decode(chunk.value, { stream: true }));
}

export async function startNiid(env: Record<string, string>): Promise<NiidProcess> {
  const port = await freePort();
  // The suite's own settings only: a NIID_* variable in the developer's shell must not leak in.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("NIID_")));
  const child = Bun.spawn([process.execPath, "src/niid/main.ts"], {
    cwd: repository,
    env: { ...inherited, LOG_LEVEL: "info", ...env, NIID_PORT: String(port) },
    stdout: "pipe",
    stderr: "pipe",
  });
  let output = "";
  void collect(child.stdout, (text) => (output += text));
  void collect(child.stderr, (text) => (output += text));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`niid exited with code ${child.exitCode} before it was ready:\n${output}`);
    const ready = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(500) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`niid did not answer GET /healthz within 10 s:\n${output}`);
    }
    await Bun.sleep(50);
  }

  return {
    url,
    output: () => output,
    async post(path, body) {
      const started = performance.now();
      const response = await fetch(`${url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
      const parsed = await response.json();
      return { status: response.status, body: parsed, ms: performance.now() - started, headers: response.headers };
    },
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      const exited = await Promise.race([child.exited, Bun.sleep(5_000).then(() => null)]);
      if (exited !== null) return exited;
      child.kill("SIGKILL");
      return child.exited;
    },
  };
}
