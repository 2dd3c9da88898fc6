/**
 * The fuzz suite's world: one app (PGlite or PostgreSQL, as the rest of the suite), a genuine
 * partner with records to aim at, an operator administrator, a loopback stand-in for the vehicle
 * registry, and the checks every property shares: a well-formed answer, nothing stored on
 * refusal, the server still answering, no prototype pollution. Runs are seeded (FUZZ_SEED,
 * FUZZ_RUNS_SCALE) so CI is deterministic, and a failure prints how to replay it.
 */

import { count, inArray } from "drizzle-orm";
import fc from "fast-check";
import { claims } from "../../src/modules/claims/schema";
import { consumers } from "../../src/modules/consumers/schema";
import { outboxEvents } from "../../src/modules/events/schema";
import { financingPayments, financingPlans } from "../../src/modules/financing/schema";
import { policies } from "../../src/modules/policies/schema";
import { quotes } from "../../src/modules/quotes/schema";
import { walletEntries } from "../../src/modules/wallet/schema";
import { webhookEndpoints } from "../../src/modules/webhooks/schema";
import { type TestApp, type TestPartner, testApp } from "../support/harness";
import { fullConsumer, insureSeed, productCases, watDate } from "../support/policies";

/** The base seed of every property (each adds its own offset). Set FUZZ_SEED to explore other inputs, or to replay a failure. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20_260_523);
/** Multiplies every property's number of runs (FUZZ_RUNS_SCALE=10 for a long local session). */
export const RUNS_SCALE = Number(process.env.FUZZ_RUNS_SCALE ?? 1);

/** The longest `elbrtn` a refusal may have: answers name what is wrong, they never echo a huge input back. */
const MAX_ELBRTN = 1000;

/**
 * Run `predicate` on `runs` seeded inputs of `arbitrary`. On failure the error names the seed
 * and path to replay (FUZZ_SEED, or fc's { seed, path }) and the shrunk counterexample.
 */
export async function holds<T>(
  name: string,
  seedOffset: number,
  runs: number,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
): Promise<void> {
  const seed = FUZZ_SEED + seedOffset;
  const numRuns = Math.max(1, Math.round(runs * RUNS_SCALE));
  const details = await fc.check(fc.asyncProperty(arbitrary, predicate), { seed, numRuns });
  if (!details.failed) return;
  const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(
    `fuzz property "${name}" failed after ${details.numRuns} run(s): replay with FUZZ_SEED=${FUZZ_SEED}` +
      ` (fc seed ${seed}, path "${details.counterexamplePath}", shrunk ${details.numShrinks} time(s))\n` +
      `  counterexample: ${brief(details.counterexample, 1500)}\n  ${error.length > 3000 ? `${error.slice(0, 3000)}…` : error}`,
  );
}

/** A value as a short readable string for failure messages. */
export function brief(value: unknown, max = 300): string {
  let text: string;
  try {
    text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

export interface RawAnswer {
  status: number;
  contentType: string | null;
  text: string;
}

export interface Feedback {
  id: number;
  id_v4: number;
  elbrtn?: string;
}

/**
 * The contract of POST /: HTTP 200, a JSON object with exctnFdbck, either 75/200 or 55 with a
 * 4xx id_v4 and a non-empty, bounded elbrtn. Never 5xx, never 35 here (nothing else is in
 * flight), and never 75 when `mustRefuse` (garbage that cannot be valid).
 */
export function checkAnswer(answer: RawAnswer, mustRefuse: boolean, what: string): { body: Record<string, unknown>; feedback: Feedback } {
  const fail = (why: string) => {
    throw new Error(`POST / ${why}\n  request: ${what}\n  answer: HTTP ${answer.status} ${brief(answer.text, 500)}`);
  };
  if (answer.status !== 200) fail(`answered HTTP ${answer.status}, not 200`);
  if (!answer.contentType?.startsWith("application/json")) fail(`answered content-type ${answer.contentType}`);
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    fail("answered something that is not JSON");
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) fail("answered JSON that is not an object");
  const feedback = (body as { exctnFdbck?: unknown }).exctnFdbck as Feedback | undefined;
  if (feedback === null || typeof feedback !== "object") fail("answered without exctnFdbck");
  const { id, id_v4, elbrtn } = feedback!;
  if (id === 55) {
    if (!Number.isInteger(id_v4) || id_v4 < 400 || id_v4 > 499) fail(`refused with id_v4 ${id_v4}: a refusal of bad input is a 4xx`);
    if (typeof elbrtn !== "string" || elbrtn.trim() === "") fail("refused without an elbrtn");
    if (elbrtn!.length > MAX_ELBRTN) fail(`refused with an elbrtn of ${elbrtn!.length} characters (at most ${MAX_ELBRTN})`);
  } else if (id === 75) {
    if (id_v4 !== 200) fail(`succeeded with id_v4 ${id_v4}`);
    if (mustRefuse) fail("accepted input that cannot be valid (id 75)");
  } else fail(`answered exctnFdbck.id ${id}`);
  return { body: body as Record<string, unknown>, feedback: feedback! };
}

// --- What a partner has stored --------------------------------------------------------------

/** The tables a refused request must not add to (every one keyed by partner). */
const TABLES = {
  consumers,
  quotes,
  policies,
  claims,
  financing_plans: financingPlans,
  financing_payments: financingPayments,
  wallet_entries: walletEntries,
  webhook_endpoints: webhookEndpoints,
  outbox_events: outboxEvents,
} as const;

export type RowCounts = Record<keyof typeof TABLES, number>;

/**
 * Row counts of the watched partners, kept between requests: `settle(refused)` after each
 * request fails when a refused request changed any count, and takes the new counts as the
 * baseline after a success.
 */
export class RowLedger {
  private baseline: RowCounts | undefined;

  constructor(
    private readonly t: TestApp,
    private readonly partnerIds: string[],
  ) {}

  async counts(): Promise<RowCounts> {
    const db = this.t.database.db;
    const entries = await Promise.all(
      Object.entries(TABLES).map(async ([name, table]) => {
        const [row] = await db.select({ n: count() }).from(table).where(inArray(table.partnerId, this.partnerIds));
        return [name, Number(row?.n ?? 0)] as const;
      }),
    );
    return Object.fromEntries(entries) as RowCounts;
  }

  async start() {
    this.baseline = await this.counts();
  }

  async settle(refused: boolean, what: string) {
    const now = await this.counts();
    const before = this.baseline ?? now;
    this.baseline = now;
    if (!refused) return;
    const changed = (Object.keys(now) as (keyof RowCounts)[]).filter((k) => now[k] !== before[k]);
    if (changed.length)
      throw new Error(`a refused request stored something: ${changed.map((k) => `${k} ${before[k]} → ${now[k]}`).join(", ")}\n  request: ${what}`);
  }
}

// --- Prototype pollution ----------------------------------------------------------------------

const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype, String.prototype] as const;
const pristine = PROTOTYPES.map((p) => new Set(Reflect.ownKeys(p)));

/** Fails when any request has added a property to a built-in prototype. */
export function checkNoPollution(what: string) {
  PROTOTYPES.forEach((proto, i) => {
    const added = Reflect.ownKeys(proto).filter((k) => !pristine[i]!.has(k));
    if (added.length) throw new Error(`prototype pollution: ${added.map(String).join(", ")} added to a built-in prototype\n  request: ${what}`);
  });
  if (({} as Record<string, unknown>).polluted !== undefined || ({} as Record<string, unknown>).isAdmin !== undefined)
    throw new Error(`prototype pollution: a plain object has an inherited property\n  request: ${what}`);
}

// --- The world ----------------------------------------------------------------------------------

export interface Fixtures {
  /** 32-hex consumer id of the partner's consumer. */
  consumerId: string;
  productCode: string;
  /** Transaction reference of an approved test policy (with a claim on it). */
  policy: string;
  /** Transaction reference of a second approved test policy (financed). */
  financedPolicy: string;
  claimNo: string;
  planNo: string;
  endpointId: string;
  deliveryId: string;
}

export interface FuzzWorld {
  t: TestApp;
  partner: TestPartner;
  admin: TestPartner;
  fixtures: Fixtures;
  ledger: RowLedger;
  /** POST / with a raw body (text or bytes), extra headers and a query string (which POST / ignores). */
  postRaw(body: string | Uint8Array, headers?: Record<string, string>, query?: string): Promise<RawAnswer>;
  /** The genuine request that must still succeed after every property. */
  stillServes(): Promise<void>;
  /** Requests sent so far, by surface (printed at the end of each file). */
  sent: { command: number; portal: number };
}

/** A stand-in for the vehicle registry (spec 4.4) on loopback: every plate and policy is not found. */
function fakeRegistry() {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === "/verify/vehicle") return Response.json({ status: "not_found", details: {}, message: "No record found" });
      if (path === "/sandbox/policies") return Response.json({ ok: true });
      return new Response("not found", { status: 404 });
    },
  });
  // Shared by every fuzz file of the process, so never stopped; unref'd, so it keeps no process alive.
  server.unref();
  return { url: `http://127.0.0.1:${server.port}` };
}

/** A fixture's answer, which must be a success carrying `field`. */
async function must(answer: Promise<any>, what: string, field: string): Promise<any> {
  const result = await answer;
  if (result?.exctnFdbck?.id !== 75 || result[field] === undefined) throw new Error(`fuzz fixture ${what} failed: ${brief(result, 2000)}`);
  return result;
}

let world: Promise<FuzzWorld> | undefined;

/** One world per test process: the command and portal properties share it. */
export function fuzzWorld(): Promise<FuzzWorld> {
  world ??= makeWorld();
  return world;
}

async function makeWorld(): Promise<FuzzWorld> {
  const registry = fakeRegistry();
  const t = await testApp({ NIID_URL: registry.url, NIID_TIMEOUT_MS: 5_000 });
  const partner = await t.partner({ enrichment: true, name: "Fuzz partner" });
  const admin = await t.partner({ admin: true, enrichment: true, name: "Fuzz operator" });

  const consumer = await must(partner.run("prfl entity", fullConsumer()), "prfl entity", "id");
  const vehicle = productCases["vhcl-tprt-1111"]!;
  await must(partner.run(`dump ipck_${vehicle.code}*PRMM`, vehicle.quote), "quote", "prmm");
  const policy = await must(partner.run(`entt_${consumer.id}: insure`, insureSeed(vehicle)), "insure", "id");
  const financed = await must(partner.run(`entt_${consumer.id}: insure`, insureSeed(vehicle)), "insure (second)", "id");
  const claim = await must(
    partner.run("claim submit", { policy: policy.id, incidentDate: watDate(), description: "Rear bumper dented in a parking lot", amount: 25_000 }),
    "claim submit",
    "claimNo",
  );
  const plan = await must(
    partner.run("payment financeLoan", { policy: financed.id, downPayment: 0, installments: 3, frequency: "monthly", firstDueDate: watDate(20) }),
    "payment financeLoan",
    "planNo",
  );
  // A public address literal: no DNS lookup, and nothing is ever sent (no dispatcher runs here).
  const endpoint = await must(
    partner.run("webhook register", { url: "https://93.184.216.34/fuzz-hook", description: "fuzz" }),
    "webhook register",
    "endpointId",
  );
  const delivery = await must(partner.run("webhook test", { endpointId: endpoint.endpointId }), "webhook test", "deliveryId");
  await must(partner.run("wallet topup", { amount: 1000, reference: "fuzz-initial-topup" }, "live"), "wallet topup", "balance");

  const ledger = new RowLedger(t, [partner.partnerId, admin.partnerId]);
  await ledger.start();

  const sent = { command: 0, portal: 0 };
  async function postRaw(body: string | Uint8Array, headers: Record<string, string> = {}, query = ""): Promise<RawAnswer> {
    sent.command++;
    const response = await t.app.handle(
      new Request(`http://localhost/${query ? `?${query}` : ""}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: typeof body === "string" ? body : new Uint8Array(body),
      }),
    );
    return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() };
  }

  async function stillServes() {
    const answer = await postRaw(JSON.stringify(partner.envelope("dump entt_*CSTMRS", { limit: 1 })));
    const { feedback } = checkAnswer(answer, false, "the genuine request after the property");
    if (feedback.id !== 75) throw new Error(`the server no longer serves a genuine request: ${brief(answer.text)}`);
    checkNoPollution("(after the property)");
  }

  return {
    t,
    partner,
    admin,
    fixtures: {
      consumerId: consumer.id,
      productCode: vehicle.code,
      policy: policy.id,
      financedPolicy: financed.id,
      claimNo: claim.claimNo,
      planNo: plan.planNo,
      endpointId: endpoint.endpointId,
      deliveryId: delivery.deliveryId,
    },
    ledger,
    postRaw,
    stillServes,
    sent,
  };
}
