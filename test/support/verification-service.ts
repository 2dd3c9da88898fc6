import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../bench/servers";

/** The verification service as a real process (spec 4.4), with a short first-lookup latency. */
export async function startVerificationService(env: Record<string, string> = {}) {
  const port = await freePort();
  const child = Bun.spawn([process.execPath, "src/niid/main.ts"], {
    cwd: join(import.meta.dir, "..", ".."),
    env: {
      ...process.env,
      NIID_PORT: String(port),
      NIID_LATENCY_MIN_MS: "150",
      NIID_LATENCY_MAX_MS: "200",
      NIID_SANDBOX_FILE: join(mkdtempSync(join(tmpdir(), "niid-")), "sandbox.json"),
      LOG_LEVEL: "silent",
      ...env,
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${url}/healthz`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      break;
    await Bun.sleep(50);
  }
  return { url, stop: () => child.kill() };
}
