/**
 * The client's tests run against the real service: src/main.ts as a process on a fresh database —
 * a PGlite directory, or a fresh PostgreSQL database in the suite's PostgreSQL run — with partners
 * made by the operator CLI (`npm run cli -- partner create`; on PGlite the running server carries
 * it out through its operator socket), as a partner would get them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ClientOptions, PartnerClient } from "../../clients/typescript/src/index";
import { engine } from "../support/harness";
import { freshPostgresDatabase } from "../support/reliability";
import { type AppProcess, startAppProcess } from "../support/webhook-receiver";

export const root = new URL("../..", import.meta.url).pathname;

export interface CliPartner {
  partnerId: string;
  name: string;
  admin: boolean;
  enrichment: boolean;
  keys: Record<"test" | "live" | "legacy", { id: string; key: string }>;
  portal: { email: string; password: string };
}

/** `npm run cli -- …` as the README says, on the service's database (`database`: its environment); its one JSON line. */
async function cli(database: Record<string, string>, args: string[]): Promise<any> {
  const env = { ...process.env, DATABASE_URL: undefined, TEST_DATABASE_URL: undefined, TEST_ENGINE: undefined, ...database };
  const child = Bun.spawn(["npm", "run", "--silent", "cli", "--", ...args], { cwd: root, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
  if ((await child.exited) !== 0) throw new Error(`npm run cli -- ${args.join(" ")} exited ${child.exitCode}: ${stderr}`);
  return JSON.parse(stdout);
}

export interface Service {
  app: AppProcess;
  url: string;
  /** Where the service keeps its data: `{ DATA_DIR }` (PGlite) or `{ DATABASE_URL }` (PostgreSQL run). */
  database: Record<string, string>;
  /** A partner made with `npm run cli -- partner create --name … [flags]`. */
  partner(flags?: string[]): Promise<CliPartner>;
  /** A client with this partner's key of `label` (test by default). */
  client(partner: CliPartner, label?: "test" | "live" | "legacy", options?: Partial<ClientOptions>): PartnerClient;
  stop(): Promise<void>;
}

export async function startService(env: Record<string, string> = {}): Promise<Service> {
  let database: Record<string, string>;
  let remove: () => unknown;
  if (engine === "postgres") {
    const fresh = await freshPostgresDatabase(process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL!, "client");
    database = { DATABASE_URL: fresh.url };
    remove = () => fresh.drop();
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), "client-"));
    database = { DATA_DIR: dataDir };
    remove = () => rmSync(dataDir, { recursive: true, force: true });
  }
  const app = await startAppProcess({ ...database, WORKER_INTERVAL_MS: "50", ...env });
  return {
    app,
    url: app.url,
    database,
    partner: (flags = []) => cli(database, ["partner", "create", "--name", `Client test ${crypto.randomUUID().slice(0, 8)}`, ...flags]),
    client: (partner, label = "test", options = {}) =>
      new PartnerClient({ baseUrl: app.url, partnerId: partner.partnerId, keyId: partner.keys[label].id, key: partner.keys[label].key, ...options }),
    async stop() {
      await app.stop();
      await remove();
    },
  };
}

/** A fetch that counts the POST bodies it sends (same request = same body). */
export function countingFetch(inner: typeof fetch = fetch) {
  const bodies: string[] = [];
  const wrapped = ((input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.method === "POST") bodies.push(String(init.body));
    return inner(input, init);
  }) as typeof fetch;
  return { fetch: wrapped, bodies };
}

/** True when A and B are the same type (not merely assignable: a seed of optional fields is assignable to most others). */
export type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** A compile error unless T is true: `Holds<Same<…>>` in a type checked by `npm run typecheck`. */
export type Holds<T extends true> = T;
/** The methods of PartnerClient (what answers a promise). */
export type Method = { [M in keyof PartnerClient]: PartnerClient[M] extends (...args: any[]) => Promise<unknown> ? M : never }[keyof PartnerClient];

/** A client whose fetch keeps each request (`{ cmmnd, seed }`) instead of sending it, and answers a bare success. */
export function recordingClient() {
  const sent: { cmmnd: string; seed?: unknown }[] = [];
  const client = new PartnerClient({
    baseUrl: "http://service.invalid/",
    partnerId: crypto.randomUUID(),
    keyId: crypto.randomUUID(),
    key: btoa("k".repeat(32)),
    fetch: async (_input, init) => {
      sent.push(JSON.parse(String(init?.body)).cmmnd);
      return Response.json({ exctnFdbck: { id: 75, id_v4: 200 } });
    },
  });
  return { client, sent };
}

export { newImei as imei, vehicleFacts, watDate } from "../support/fixtures";

export const consumerSeed = () => ({
  type: "s" as const,
  class: "h" as const,
  name: { first: "Adaeze", last: "Okafor" },
  gender: "f" as const,
  dob: { date: "1990-04-12" },
  addrss: { addrss: "12 Admiralty Way, Lekki, Lagos" },
  phoneNo: "+2348031234567",
  eMail: `adaeze.${crypto.randomUUID().slice(0, 8)}@example.ng`,
});
