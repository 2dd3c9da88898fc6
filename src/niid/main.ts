/** The standalone vehicle verification service (spec 4.4): `bun src/niid/main.ts`. */
import { log, setLogLevel } from "../core/log";
import { serveUntilSignalled } from "../core/process";
import { createNiidApp } from "./app";
import { loadNiidConfig } from "./config";
import { SandboxRegistry } from "./registry";

const config = loadNiidConfig();
setLogLevel(config.LOG_LEVEL);

const registry =
  config.NIID_REGISTRY === "sandbox"
    ? new SandboxRegistry({
        latencyMinMs: config.NIID_LATENCY_MIN_MS,
        latencyMaxMs: config.NIID_LATENCY_MAX_MS,
        file: config.NIID_SANDBOX_FILE,
        fault: config.NIID_FAULT,
      })
    : undefined;

const maxBodyBytes = 16 * 1024;
const app = createNiidApp({ registry, maxBodyBytes }).listen({
  port: config.NIID_PORT,
  maxRequestBodySize: maxBodyBytes * 2,
  // Bun closes a connection idle for 10 s by default; a first lookup takes up to 17 s.
  idleTimeout: 60,
  // A busy port is an error, not a port shared with another registry (src/main.ts says why).
  reusePort: false,
});
const port = app.server?.port ?? config.NIID_PORT;
log.info("niid listening", {
  port,
  registry: config.NIID_REGISTRY,
  latencyMs: [config.NIID_LATENCY_MIN_MS, config.NIID_LATENCY_MAX_MS],
  sandboxFile: config.NIID_SANDBOX_FILE ?? null,
  fault: config.NIID_FAULT ?? null,
  url: `http://localhost:${port}/`,
});

serveUntilSignalled(async () => {
  await app.stop(); // stops accepting and lets in-flight lookups and publications finish
  process.exit(0);
});
