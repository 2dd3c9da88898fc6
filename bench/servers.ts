/** The servers under test, as child processes on free loopback ports. */

import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

export interface Server {
  name: string;
  url: string;
  pid: number;
  /** Its stdout (the service's info logs, if enabled). */
  logFile: string;
  /** The last 20 kB of its stderr (warnings and errors). */
  stderr(): string;
  stop(): Promise<void>;
}

/** A port nothing listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The memory allocator's settings `npm start` gives the service, read from `scripts/with-allocator.sh` (the one
 * place they are written; `docs/operations.md` says why). Every server a bench starts gets them, the bare handlers
 * too, so a ratio compares like with like; a value already in the environment wins, as it does for `npm start`.
 */
export function allocatorEnv(): Record<string, string> {
  const script = readFileSync(new URL("../scripts/with-allocator.sh", import.meta.url), "utf8");
  const settings = Object.fromEntries([...script.matchAll(/^export (MIMALLOC_\w+)="\$\{\1:-([^}]+)\}"$/gm)].map((m) => [m[1]!, m[2]!]));
  if (Object.keys(settings).length === 0) throw new Error("scripts/with-allocator.sh sets no MIMALLOC_ setting");
  return settings;
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no output)";
  }
}

/**
 * `bun <script>` with `env` (plus PORT), its stdout and stderr in `logDir/<name>.log`; resolves
 * once GET /healthz answers 200. Fails with the end of its log when it exits or does not come up.
 */
export async function startServer(options: {
  name: string;
  script: string;
  env: Record<string, string | undefined>;
  logDir: string;
  cwd: string;
  readyTimeoutMs?: number;
}): Promise<Server> {
  const port = await freePort();
  const logFile = join(options.logDir, `${options.name}.log`);
  const child = Bun.spawn([process.execPath, options.script], {
    cwd: options.cwd,
    env: { ...allocatorEnv(), ...options.env, PORT: String(port) },
    stdout: Bun.file(logFile),
    stderr: "pipe",
  });
  let stderr = "";
  void (async () => {
    const reader = child.stderr.getReader();
    const decoder = new TextDecoder();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      stderr = (stderr + decoder.decode(chunk.value, { stream: true })).slice(-20_000);
  })();

  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${options.name} exited with code ${child.exitCode} before it was ready:\n${tail(logFile)}\n${stderr.trimEnd()}`);
    try {
      const res = await fetch(`${url}healthz`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(
        `${options.name} did not answer GET /healthz within ${(options.readyTimeoutMs ?? 60_000) / 1000} s:\n${tail(logFile)}\n${stderr.trimEnd()}`,
      );
    }
    await Bun.sleep(200);
  }

  return {
    name: options.name,
    url,
    pid: child.pid,
    logFile,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      const exited = await Promise.race([child.exited.then(() => true), Bun.sleep(10_000).then(() => false)]);
      if (!exited) {
        child.kill("SIGKILL");
        await child.exited;
      }
    },
  };
}
