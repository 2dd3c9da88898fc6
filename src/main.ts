import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createApp } from "./app";
import { loadConfig } from "./core/config";
import { beforeDeadline } from "./core/deadline";
import { log, setLogLevel } from "./core/log";
import { serveUntilSignalled } from "./core/process";
import { joinCacheNetwork } from "./db/shared-cache";
import { apiLogFor } from "./modules/api-log/buffer";
import { countPartners, createPartner } from "./modules/partners/service";
import { startOperatorSocket } from "./operator-socket";
import { buildDeps, closeDeps } from "./runtime";
import { serviceJobs } from "./worker/jobs";
import { startWorker } from "./worker/loop";

const environment = loadConfig();
setLogLevel(environment.LOG_LEVEL);
// Renamed in issue 34: a deployment still setting it would otherwise believe it throttles sign-in.
if (process.env.LOGIN_MAX_ATTEMPTS !== undefined)
  log.warn(
    "LOGIN_MAX_ATTEMPTS is no longer read: sign-in is throttled by LOGIN_FREE_ATTEMPTS, LOGIN_DELAY_MS, LOGIN_MAX_DELAY_MS and LOGIN_ADDRESS_MAX (README.md)",
  );

/**
 * Spec 4.4's verification service is a process of its own; `npm start` runs one beside this service
 * (on NIID_PORT, with the sandbox registry) unless NIID_URL points at another.
 */
function startVerificationService(port: number, dataDir: string) {
  const sandboxFile = dataDir.includes("://") ? {} : { NIID_SANDBOX_FILE: join(dataDir, "niid-sandbox.json") };
  const child = Bun.spawn([process.execPath, fileURLToPath(new URL("./niid/main.ts", import.meta.url))], {
    env: { ...process.env, NIID_PORT: String(port), ...sandboxFile },
    stdout: "inherit",
    stderr: "inherit",
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill("SIGTERM") };
}
const verificationService =
  !environment.NIID_URL && environment.NIID_START === "true" ? startVerificationService(environment.NIID_PORT, environment.DATA_DIR) : null;
const config = verificationService ? { ...environment, NIID_URL: verificationService.url } : environment;
const deps = await buildDeps(config);

// A brand-new embedded database gets a demo partner and an operator admin, shown once.
if (!config.DATABASE_URL && config.SEED_DEMO === "true" && (await countPartners(deps.database.db)) === 0) {
  const demo = await createPartner(deps.database.db, { name: "Demo Partner", enrichment: true, email: "demo@partners.example" });
  const operator = await createPartner(deps.database.db, { name: "Operator", admin: true, enrichment: true, email: "admin@operator.example" });
  // Four eyes needs a second administrator: to approve what the first confirms on a funding, and (an
  // assessor) to recommend the claim decisions above their authority that the head of claims confirms.
  const second = await createPartner(deps.database.db, {
    name: "Operator second administrator",
    admin: true,
    email: "admin2@operator.example",
    claimAuthority: "assessor",
  });
  process.stdout.write(
    [
      "",
      "First start on a new database: these credentials are shown once and stored only hashed.",
      JSON.stringify({ demoPartner: demo, operatorAdmin: operator, secondAdmin: second }, null, 2),
      "",
    ].join("\n"),
  );
}

// Another instance (or the CLI) changed something this one may have cached: forget it, and confirm
// that to the changer, who answers only once every running instance has (src/db/shared-cache.ts).
await joinCacheNetwork(deps.database, "server");

// On the embedded database only this process may open it: the CLI hands its commands to us instead.
const operatorServer = config.DATABASE_URL || config.DATA_DIR.includes("://") ? null : startOperatorSocket(deps.database.db, config);

// Bun closes a connection idle for 10 s by default; a registry check waits up to NIID_TIMEOUT_MS.
const idleTimeout = Math.min(255, Math.ceil(config.NIID_TIMEOUT_MS / 1000) + 10);
// Elysia asks Bun for SO_REUSEPORT: a second server started on a busy port would then silently take
// half the connections (another database's sign-ins answered "wrong password"). A busy port is an error.
const app = createApp(deps);
try {
  app.listen({ port: config.PORT, maxRequestBodySize: config.MAX_BODY_BYTES * 2, idleTimeout, reusePort: false });
} catch (error) {
  log.error("cannot listen: is another server already on this port? Stop it or set PORT", { port: config.PORT, error: String(error) });
  operatorServer?.stop(true);
  await closeDeps(deps);
  verificationService?.stop();
  process.exit(1);
}
// Background work yields to requests in flight (src/worker/loop.ts).
const answering = () => (app.server?.pendingRequests ?? 0) > 0;
const worker = config.WORKER === "true" ? startWorker(serviceJobs(deps.database.db, config), config.WORKER_INTERVAL_MS, answering) : null;
log.info("listening", { port: config.PORT, engine: deps.database.engine, url: `http://localhost:${config.PORT}/` });

/**
 * Graceful shutdown: stop accepting connections, let in-flight requests finish and get their answers,
 * stop the background loop after its current passes, close the database, exit 0. The wait is bounded
 * by SHUTDOWN_TIMEOUT_MS (a client still sending its body, or a pass still running, would otherwise
 * hold the process forever): what is left then is cut off, which loses nothing — an unfinished
 * command never committed, and a background job's work rolls back and is picked up again.
 */
serveUntilSignalled(async () => {
  const deadline = Date.now() + config.SHUTDOWN_TIMEOUT_MS;
  const inTime = async (work: Promise<unknown>) =>
    (await beforeDeadline(
      work.then(() => true),
      deadline,
    )) ?? false;
  const server = app.server;
  let exitCode = 0;
  try {
    if (!(await inTime(app.stop()))) {
      log.warn("requests still in flight when SHUTDOWN_TIMEOUT_MS ran out: closing their connections", {
        timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
        pending: server?.pendingRequests,
      });
      await server?.stop(true);
    }
    // Every request has its answer: write the API log rows still waiting in memory.
    if (!(await inTime(apiLogFor(deps.database.db).close()))) log.warn("API log rows still being written when SHUTDOWN_TIMEOUT_MS ran out: they are lost");
    if (worker && !(await inTime(worker.stop())))
      log.warn("background jobs still running when SHUTDOWN_TIMEOUT_MS ran out: leaving them (their transactions roll back)");
    else await closeDeps(deps);
  } catch (error) {
    log.error("shutdown failed", { error });
    exitCode = 1;
  }
  verificationService?.stop();
  operatorServer?.stop(true);
  process.exit(exitCode);
});
