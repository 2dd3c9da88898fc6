/**
 * The browser tests' server, in one of two set-ups; either way the specs find it at
 * http://127.0.0.1:E2E_PORT and read their accounts from test-results/e2e-accounts.json.
 *
 * - Default: the real app (`bun src/main.ts`) on a throw-away embedded database, with the demo
 *   partner and operator admin it prints on first start; the verification service runs beside it.
 * - `E2E_INSTANCES=2` (or more) with `E2E_DATABASE_URL`: a fresh PostgreSQL database next to the
 *   one that URL names, the accounts made with the operator CLI (`npm run cli -- partner create`: a
 *   PostgreSQL database gets no demo data), that many app processes on it sharing Redis
 *   (`REDIS_URL`, else the local default) and one verification service, behind the round-robin
 *   proxy of e2e/proxy.ts on E2E_PORT. The database is dropped afterwards.
 *
 * Both: a short registry latency, webhooks may reach this machine, the simulated insurer answers
 * within a second, and sign-in throttling is loosened (the specs sign in often, from one address,
 * and a shared Redis remembers attempts across runs). E-mail goes to an in-process SMTP server
 * (test/support/smtp.ts) the app reaches through SMTP_URL; what arrived is read at
 * http://127.0.0.1:E2E_MAIL_PORT/mail?to=<address> (e2e/support.ts: readMail).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { promisify } from "node:util";
import postgres from "postgres";
import { startSmtpServer, type TestSmtpServer } from "../test/support/smtp";
import { startRoundRobinProxy } from "./proxy";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3107);
export const E2E_INSTANCES = Number(process.env.E2E_INSTANCES ?? 1);
/** The mailbox of the e-mail the app sent during the run (the verification service is on E2E_PORT + 1). */
export const E2E_MAIL_PORT = E2E_PORT + 2;
const ACCOUNTS = "test-results/e2e-accounts.json";
const BUN = "./node_modules/.bin/bun";

export interface Account {
  partnerId: string;
  name: string;
  keys: Record<"test" | "live" | "legacy", { id: string; key: string }>;
  portal: { email: string; password: string };
}

export interface Accounts {
  demoPartner: Account;
  operatorAdmin: Account;
  /** Another administrator: the second pair of eyes. */
  secondAdmin: Account;
}

export const accounts = (): Accounts => JSON.parse(readFileSync(ACCOUNTS, "utf8"));

function saveAccounts(parsed: Accounts) {
  mkdirSync("test-results", { recursive: true });
  writeFileSync(ACCOUNTS, JSON.stringify(parsed));
}

/** What every set-up gives the app processes. */
const appEnv = {
  LOG_LEVEL: "warn",
  INSURER_DELAY_MS: "500",
  WORKER_INTERVAL_MS: "200",
  WEBHOOK_ALLOW_PRIVATE: "true",
  WEBHOOK_RETRY_SCALE: "0.01",
  VIN_DATABASE: "./data/vpic.lite.db",
  // Some specs fail to sign in on purpose, and with REDIS_URL the throttles' counts outlive a run.
  LOGIN_FREE_ATTEMPTS: "1000",
  LOGIN_ADDRESS_MAX: "100000",
  // The specs set up their records through the JSON surface with the demo partner's keys: far more
  // than a partner's 70 requests a minute in a whole run (the limit has its own tests).
  RATE_LIMIT_MAX: "100000",
  // The specs ask for reset links often.
  PASSWORD_RESET_EMAIL_MAX: "1000",
  PASSWORD_RESET_ADDRESS_MAX: "100000",
};
const registryLatency = { NIID_LATENCY_MIN_MS: "300", NIID_LATENCY_MAX_MS: "600" };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitForHealth(url: string, child: ChildProcess, what: string, deadline: number) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}) before it answered ${url}`);
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    if (Date.now() > deadline) throw new Error(`${what} did not answer ${url}`);
    await sleep(100);
  }
}

const stopChild = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });

/** A mail as the specs read it: what mailparser found in it. */
export interface E2eMail {
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  messageId: string | null;
}

/** The SMTP server, and the HTTP answer of what it received: GET /mail?to=<address> lists the mail to that address, oldest first. */
async function startMailbox(): Promise<{ smtp: TestSmtpServer; stop: () => Promise<void> }> {
  const smtp = await startSmtpServer();
  const http = createHttpServer((request, response) => {
    const to = new URL(request.url ?? "/", "http://mailbox").searchParams.get("to") ?? "";
    const mails: E2eMail[] = smtp.mailsTo(to).map((m) => ({ to: m.to, subject: m.subject, text: m.text, html: m.html, messageId: m.messageId }));
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(mails));
  });
  await new Promise<void>((resolve) => http.listen(E2E_MAIL_PORT, "127.0.0.1", resolve));
  return { smtp, stop: async () => void (await Promise.all([new Promise((resolve) => http.close(resolve)), smtp.stop()])) };
}

/** Start the server(s) and wait until they answer; resolves with a stop function. */
export async function startServer(): Promise<() => Promise<void>> {
  // Another run's server still on the port would answer in place of ours (with other accounts).
  const busy = await fetch(`http://127.0.0.1:${E2E_PORT}/healthz`).then(
    () => true,
    () => false,
  );
  if (busy) throw new Error(`something already answers on port ${E2E_PORT}: stop it, or run the browser tests with another E2E_PORT`);
  const mailbox = await startMailbox();
  try {
    const mail = { SMTP_URL: mailbox.smtp.url, MAIL_FROM: '"Insurance Partner Service" <no-reply@e2e.example>' };
    const stop = E2E_INSTANCES > 1 ? await startInstances(E2E_INSTANCES, mail) : await startSingle(mail);
    return async () => {
      await stop();
      await mailbox.stop();
    };
  } catch (error) {
    await mailbox.stop();
    throw error;
  }
}

/** One app on an embedded in-memory database, with the first-start credentials it prints. */
async function startSingle(mail: Record<string, string>): Promise<() => Promise<void>> {
  // The embedded database even when the environment names a PostgreSQL one (that is the E2E_INSTANCES set-up's).
  const { DATABASE_URL: _ignored, ...environment } = process.env;
  const child: ChildProcess = spawn(BUN, ["src/main.ts"], {
    env: {
      ...environment,
      ...appEnv,
      ...mail,
      ...registryLatency,
      PORT: String(E2E_PORT),
      NIID_PORT: String(E2E_PORT + 1),
      DATA_DIR: "memory://",
      SEED_DEMO: "true",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const start = output.indexOf('{\n  "demoPartner"');
    if (start >= 0) {
      const block = output.slice(start, output.indexOf("\n}\n", start) + 2);
      try {
        saveAccounts(JSON.parse(block) as Accounts);
        break;
      } catch {
        // the block is still arriving
      }
    }
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`the server printed no credentials within 60 s:\n${output}`);
    await sleep(100);
  }
  await waitForHealth(`http://127.0.0.1:${E2E_PORT}/healthz`, child, "the server", deadline);
  return () => stopChild(child);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** `npm run cli -- partner create …` on `databaseUrl`: the account it prints. */
async function cliPartner(databaseUrl: string, args: string[]): Promise<Account> {
  const { stdout } = await promisify(execFile)("npm", ["run", "cli", "--", "partner", "create", ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "warn" },
  });
  const created = JSON.parse(stdout.trim().split("\n").at(-1)!);
  return { partnerId: created.partnerId, name: created.name, keys: created.keys, portal: created.portal };
}

/** Several app processes on one fresh PostgreSQL database and Redis, behind the round-robin proxy on E2E_PORT. */
async function startInstances(count: number, mail: Record<string, string>): Promise<() => Promise<void>> {
  const serverUrl = process.env.E2E_DATABASE_URL;
  if (!serverUrl) throw new Error(`E2E_INSTANCES=${count} needs E2E_DATABASE_URL (a PostgreSQL URL; a fresh database is made beside it)`);
  const name = `e2e_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const databaseUrl = Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString();

  const children: ChildProcess[] = [];
  let proxy: Awaited<ReturnType<typeof startRoundRobinProxy>> | undefined;
  const stop = async () => {
    await proxy?.close();
    await Promise.all(children.map(stopChild));
    const dropper = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await dropper.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
    await dropper.end();
  };
  try {
    const deadline = Date.now() + 90_000;
    // The accounts, as an operator makes them (the CLI also applies the migrations).
    const tag = name.slice(4);
    const demoPartner = await cliPartner(databaseUrl, ["--name", "Demo Partner", "--enrichment", "--email", `demo-${tag}@partners.example`]);
    const operatorAdmin = await cliPartner(databaseUrl, ["--name", "Operator", "--admin", "--enrichment", "--email", `admin-${tag}@operator.example`]);
    const secondAdmin = await cliPartner(databaseUrl, ["--name", "Operator second administrator", "--admin", "--email", `admin2-${tag}@operator.example`]);

    const niidPort = E2E_PORT + 1;
    const niid = spawn(BUN, ["src/niid/main.ts"], {
      env: { ...process.env, ...registryLatency, NIID_PORT: String(niidPort), LOG_LEVEL: "warn" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    children.push(niid);
    await waitForHealth(`http://127.0.0.1:${niidPort}/healthz`, niid, "the verification service", deadline);

    const targets: string[] = [];
    for (let i = 0; i < count; i++) {
      const port = await freePort();
      const app = spawn(BUN, ["src/main.ts"], {
        env: {
          ...process.env,
          ...appEnv,
          ...mail,
          PORT: String(port),
          DATABASE_URL: databaseUrl,
          REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
          NIID_URL: `http://127.0.0.1:${niidPort}`,
          NIID_START: "false",
          SEED_DEMO: "false",
          // Links the app hands out (certificates, verification) point at the proxy, as behind a load balancer.
          PUBLIC_URL: `http://127.0.0.1:${E2E_PORT}`,
        },
        stdio: ["ignore", "ignore", "inherit"],
      });
      children.push(app);
      await waitForHealth(`http://127.0.0.1:${port}/healthz`, app, `app instance ${i + 1}`, deadline);
      targets.push(`http://127.0.0.1:${port}`);
    }
    proxy = await startRoundRobinProxy(targets, E2E_PORT);
    saveAccounts({ demoPartner, operatorAdmin, secondAdmin });
    console.log(`e2e: ${count} app instances (${targets.join(", ")}) on database ${name}, behind the round-robin proxy ${proxy.url}`);
    const counted = proxy;
    return async () => {
      console.log(`e2e: requests per instance through the proxy: ${counted.counts.join(", ")}`);
      await stop();
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
