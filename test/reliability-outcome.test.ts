/**
 * An answer never says "nothing stored" when something was (issue 13 §3, docs/reliability.md
 * "Unknown outcomes"). A lost connection says nothing about whether a commit took effect: the
 * command endpoint looks the request's reference up once the database answers again and answers
 * what is stored (75), or 35 "nothing stored, retry", or 35 "outcome unknown" when the database
 * stays away; never 55.
 *
 * The fault is injected around the app's database handle (testApp's `wrapDatabase`): the next
 * transaction, or write made in one statement, throws a postgres.js connection error after its
 * commit succeeded, or before it commits (so it rolls back, or never runs); a read can be made to fail the same way, and `ping` to find the
 * database away. Runs on both engines.
 */
import { describe, expect, test } from "bun:test";
import { and, eq, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { DatabaseHandle } from "../src/db/client";
import { claims } from "../src/modules/claims/schema";
import { financingPayments, financingPlans } from "../src/modules/financing/schema";
import { walletFundings } from "../src/modules/funding/schema";
import { policyReinstatements } from "../src/modules/lifecycle/schema";
import { policies, policyCancellations, policyEndorsements } from "../src/modules/policies/schema";
import { walletEntries } from "../src/modules/wallet/schema";
import { webhookEndpoints } from "../src/modules/webhooks/schema";
import { type TestPartner, testApp, testDatabase } from "./support/harness";
import { lifecycleHelpers } from "./support/lifecycle";
import { fullConsumer, insureSeed, productCases, watDate } from "./support/policies";

type Fault = "after commit" | "before commit" | "statement timeout" | "not a connection error";

/** What the next transaction (or read of `readFails`) meets; each fires once. */
const faults: { transaction: Fault | null; readFails: unknown; databaseAway: boolean } = { transaction: null, readFails: null, databaseAway: false };

const lostConnection = () => Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" });
const statementTimeout = () => Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" });

const dialect = new PgDialect();

function withFaults(handle: DatabaseHandle): DatabaseHandle {
  const db = new Proxy(handle.db, {
    get(target, property) {
      if (property === "transaction")
        return async (run: (tx: unknown) => Promise<unknown>, config?: unknown) => {
          const fault = faults.transaction;
          faults.transaction = null;
          const transaction = target.transaction.bind(target) as (run: (tx: unknown) => Promise<unknown>, config?: unknown) => Promise<unknown>;
          if (fault === "after commit") {
            await transaction(run, config);
            throw lostConnection();
          }
          if (fault)
            return transaction(async (tx) => {
              await run(tx);
              throw fault === "before commit" ? lostConnection() : fault === "statement timeout" ? statementTimeout() : new Error("disk full (fault injected)");
            }, config);
          return transaction(run, config);
        };
      // A write made in one statement (a data-modifying CTE: a live premium, a claim, an
      // installment) meets the faults of a transaction: lost after it took effect, or before.
      if (property === "execute")
        return async (query: SQL) => {
          const execute = target.execute.bind(target);
          const fault = faults.transaction;
          if (!fault || !dialect.sqlToQuery(query).sql.trimStart().startsWith("with ")) return execute(query);
          faults.transaction = null;
          if (fault === "after commit") {
            await execute(query);
            throw lostConnection();
          }
          throw fault === "before commit" ? lostConnection() : fault === "statement timeout" ? statementTimeout() : new Error("disk full (fault injected)");
        };
      if (property === "select")
        return (...fields: unknown[]) => {
          const builder = (target.select as (...f: unknown[]) => any)(...fields);
          const from = builder.from.bind(builder);
          builder.from = (table: unknown) => {
            if (table !== faults.readFails) return from(table);
            faults.readFails = null;
            throw lostConnection();
          };
          return builder;
        };
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { ...handle, db, ping: async () => !faults.databaseAway && (await handle.ping()) };
}

const OUTCOME_WAIT_MS = 1_000;
const t = await testApp({ WEBHOOK_ALLOW_PRIVATE: "true", OUTCOME_WAIT_MS }, undefined, withFaults);
const db = (await testDatabase()).db;

/** Run with a request id of our own, so answers can be checked to carry it. */
async function send(p: TestPartner, request: Request) {
  const requestId = crypto.randomUUID();
  const answer = await t.post(p.envelope(request.cmmnd, request.seed, request.label), { "x-request-id": requestId });
  return { answer, requestId };
}

interface Request {
  cmmnd: string;
  seed: Record<string, unknown>;
  label?: "test" | "live";
}

const p = await t.partner();
const consumer = await p.run("prfl entity", fullConsumer());
const vehicle = productCases["vhcl-tprt-1111"]!;
const marine = productCases["mexx-stnd-1111"]!;
expect((await p.run(`dump ipck_${vehicle.code}*PRMM`, vehicle.quote)).exctnFdbck.id).toBe(75);
expect((await p.run(`dump ipck_${marine.code}*PRMM`, marine.quote, "live")).exctnFdbck.id).toBe(75);
expect((await p.run("wallet topup", { amount: 5_000_000, reference: "outcome-funding" }, "live")).exctnFdbck.id).toBe(75);

/** A vehicle policy issued in test mode: what claims and plans are made on. */
async function vehiclePolicy(): Promise<string> {
  const issued = await p.run(`entt_${consumer.id}: insure`, insureSeed(vehicle));
  expect(issued.exctnFdbck.id).toBe(75);
  return issued.id;
}

const { approved, endingIn } = lifecycleHelpers(t, await t.partner({ admin: true }));
/** The rows stored under a partner reference (seed.id) in `table`: a change, or a renewal's policy. */
const storedUnder =
  (table: typeof policies | typeof policyCancellations | typeof policyReinstatements | typeof policyEndorsements) =>
  ({ seed }: Request) =>
    countOf(
      db
        .select()
        .from(table)
        .where(and(eq(table.partnerId, p.partnerId), eq(table.reference, seed.id as string))),
    );

const fresh = () => crypto.randomUUID().slice(0, 8);
const countOf = async (rows: Promise<unknown[]>) => (await rows).length;
/** A live insure's rows: its policy with the ledger line of its premium. */
const paidPolicies = ({ seed }: Request) =>
  countOf(
    db
      .select()
      .from(policies)
      .innerJoin(walletEntries, and(eq(walletEntries.policyId, policies.id), eq(walletEntries.kind, "premium")))
      .where(and(eq(policies.partnerId, p.partnerId), eq(policies.reference, seed.id as string))),
  );

/**
 * Every command with a reference: a fresh request, how many rows its reference holds, and what a
 * repeat of a stored request is answered (the command's own rule: the first answer, or the spec's
 * refusal of a duplicate).
 */
const commands: {
  grammar: string;
  request(): Promise<Request>;
  stored(request: Request): Promise<number>;
  repeat: "the first answer" | "refused as a duplicate";
}[] = [
  {
    grammar: "entt_<consumer_id>: insure (live, approved at once: debited, certificate inline)",
    request: async () => ({ cmmnd: `entt_${consumer.id}: insure`, seed: insureSeed(marine), label: "live" }),
    stored: paidPolicies,
    repeat: "refused as a duplicate",
  },
  {
    grammar: "entt_<consumer_id>: insure (live, decided later: one statement debits and stores it)",
    request: async () => ({ cmmnd: `entt_${consumer.id}: insure`, seed: insureSeed(vehicle), label: "live" }),
    stored: paidPolicies,
    repeat: "refused as a duplicate",
  },
  {
    grammar: "wallet topup",
    // A test key: one transaction (a live top-up's funding and its sandbox payment are two; test/funding.test.ts covers those).
    request: async () => ({ cmmnd: "wallet topup", seed: { amount: 1234.5, reference: `top-${fresh()}` } }),
    stored: ({ seed }) =>
      countOf(
        db
          .select()
          .from(walletFundings)
          .where(and(eq(walletFundings.partnerId, p.partnerId), eq(walletFundings.reference, seed.reference as string))),
      ),
    repeat: "the first answer",
  },
  {
    grammar: "claim submit",
    request: async () => ({
      cmmnd: "claim submit",
      seed: { policy: await vehiclePolicy(), incidentDate: watDate(), description: "Rear bumper damaged at Ikeja", amount: 85000, reference: `clm-${fresh()}` },
    }),
    stored: ({ seed }) =>
      countOf(
        db
          .select()
          .from(claims)
          .where(and(eq(claims.partnerId, p.partnerId), eq(claims.reference, seed.reference as string))),
      ),
    repeat: "the first answer",
  },
  {
    grammar: "payment financeLoan",
    request: async () => ({
      cmmnd: "payment financeLoan",
      seed: { policy: await vehiclePolicy(), downPayment: 3000, installments: 4, frequency: "weekly", firstDueDate: watDate(7) },
    }),
    stored: ({ seed }) =>
      countOf(
        db
          .select()
          .from(financingPlans)
          .innerJoin(policies, eq(policies.id, financingPlans.policyId))
          .where(and(eq(policies.partnerId, p.partnerId), eq(policies.reference, seed.policy as string))),
      ),
    repeat: "refused as a duplicate",
  },
  {
    grammar: "payment recordInstallment",
    request: async () => {
      const plan = await p.run("payment financeLoan", {
        policy: await vehiclePolicy(),
        downPayment: 3000,
        installments: 4,
        frequency: "weekly",
        firstDueDate: watDate(7),
      });
      expect(plan.exctnFdbck.id).toBe(75);
      return { cmmnd: "payment recordInstallment", seed: { planNo: plan.planNo, amount: 3000, reference: `inst-${fresh()}` } };
    },
    stored: ({ seed }) =>
      countOf(
        db
          .select()
          .from(financingPayments)
          .where(and(eq(financingPayments.partnerId, p.partnerId), eq(financingPayments.reference, seed.reference as string))),
      ),
    repeat: "the first answer",
  },
  {
    grammar: "webhook register",
    request: async () => ({
      cmmnd: "webhook register",
      seed: { url: `http://127.0.0.1:9/hooks/${fresh()}`, events: ["policy.approved"], description: "decisions" },
    }),
    stored: ({ seed }) =>
      countOf(
        db
          .select()
          .from(webhookEndpoints)
          .where(and(eq(webhookEndpoints.partnerId, p.partnerId), eq(webhookEndpoints.url, seed.url as string))),
      ),
    repeat: "refused as a duplicate",
  },
  {
    grammar: "cncl <policy address>",
    request: async () => ({ cmmnd: `cncl ${(await approved(p)).address}`, seed: { id: crypto.randomUUID(), reason: "insured_request" } }),
    stored: storedUnder(policyCancellations),
    repeat: "the first answer",
  },
  {
    grammar: "rinst <policy address>",
    request: async () => {
      const policy = await approved(p);
      expect((await policy.cancel()).exctnFdbck.id).toBe(75);
      return { cmmnd: `rinst ${policy.address}`, seed: { id: crypto.randomUUID() } };
    },
    stored: storedUnder(policyReinstatements),
    repeat: "the first answer",
  },
  {
    grammar: "rnew <policy address>",
    request: async () => {
      const policy = await approved(p);
      await endingIn(policy.row, 20);
      return { cmmnd: `rnew ${policy.address}`, seed: { id: crypto.randomUUID() } };
    },
    stored: storedUnder(policies),
    repeat: "the first answer",
  },
  {
    grammar: "ndrs <policy address>",
    request: async () => ({ cmmnd: `ndrs ${(await approved(p)).address}`, seed: { id: crypto.randomUUID(), addtnlFact: { rgstrtId: "LND456XY" } } }),
    stored: storedUnder(policyEndorsements),
    repeat: "the first answer",
  },
];

describe.each(commands)("$grammar", ({ request, stored, repeat }) => {
  test("connection lost after the commit: 75 with what was stored; a repeat is answered by the command's rule", async () => {
    const sent = await request();
    faults.transaction = "after commit";
    const { answer } = await send(p, sent);
    expect(faults.transaction).toBeNull();
    expect(answer.exctnFdbck).toEqual({ id: 75, id_v4: 200 });
    expect(await stored(sent)).toBe(1);

    const again = (await send(p, sent)).answer;
    if (repeat === "the first answer") expect(again).toEqual(answer);
    else expect(again.exctnFdbck).toMatchObject({ id: 55, id_v4: 409 });
    expect(await stored(sent)).toBe(1);
  }, 30_000);

  test("connection lost before the commit: 35 'nothing stored' with the request id; the retry succeeds", async () => {
    const sent = await request();
    faults.transaction = "before commit";
    const { answer, requestId } = await send(p, sent);
    expect(faults.transaction).toBeNull();
    expect(answer.exctnFdbck).toMatchObject({ id: 35, id_v4: 503 });
    expect(answer.exctnFdbck.elbrtn).toContain("nothing was stored");
    expect(answer.exctnFdbck.elbrtn).toContain(requestId);
    expect(await stored(sent)).toBe(0);

    expect((await send(p, sent)).answer.exctnFdbck).toEqual({ id: 75, id_v4: 200 });
    expect(await stored(sent)).toBe(1);
  }, 30_000);
});

test("the live policy recovered after the commit is answered as at issuance: approved, its certificate inline", async () => {
  const sent = await commands[0]!.request();
  faults.transaction = "after commit";
  const { answer } = await send(p, sent);
  expect(answer).toMatchObject({ id: sent.seed.id, status: "a", crtfctType: "docx", exctnFdbck: { id: 75 } });
  expect(answer.policyNo).toMatch(/^POL-/);
  expect(Buffer.from(answer.crtfct, "base64").subarray(0, 2).toString()).toBe("PK");
}, 30_000);

test("the database still away when the outcome is looked up: 35 'outcome unknown' within the wait; afterwards the repeat finds it", async () => {
  const topUp = commands.find((c) => c.grammar === "wallet topup")!;
  const sent = await topUp.request();
  faults.transaction = "after commit";
  faults.databaseAway = true;
  const started = performance.now();
  let unknown: Awaited<ReturnType<typeof send>>;
  try {
    unknown = await send(p, sent);
  } finally {
    faults.databaseAway = false;
  }
  const elapsed = performance.now() - started;
  expect(unknown.answer.exctnFdbck).toMatchObject({ id: 35, id_v4: 503 });
  expect(unknown.answer.exctnFdbck.elbrtn).toContain("outcome is unknown");
  expect(unknown.answer.exctnFdbck.elbrtn).toContain(unknown.requestId);
  expect(elapsed).toBeGreaterThanOrEqual(OUTCOME_WAIT_MS - 50);
  expect(elapsed).toBeLessThan(OUTCOME_WAIT_MS + 2_000);
  // It was stored: the top-up's repeat answers it, crediting nothing more.
  expect(await topUp.stored(sent)).toBe(1);
  expect((await send(p, sent)).answer).toMatchObject({ reference: sent.seed.reference, amount: 1234.5, exctnFdbck: { id: 75 } });
  expect(await topUp.stored(sent)).toBe(1);
}, 30_000);

test("a claim without a reference cannot be looked up: its outcome is unknown", async () => {
  const seed = { policy: await vehiclePolicy(), incidentDate: watDate(), description: "Windscreen cracked", amount: 20000 };
  faults.transaction = "after commit";
  const { answer } = await send(p, { cmmnd: "claim submit", seed });
  expect(answer.exctnFdbck).toMatchObject({ id: 35, id_v4: 503 });
  expect(answer.exctnFdbck.elbrtn).toContain("outcome is unknown");
}, 30_000);

test("a read that loses its connection answers 35 'retry' with the request id", async () => {
  faults.readFails = policies;
  const { answer, requestId } = await send(p, { cmmnd: "dump entt_*", seed: { limit: 5 } });
  expect(faults.readFails).toBeNull();
  expect(answer.exctnFdbck).toMatchObject({ id: 35, id_v4: 503 });
  expect(answer.exctnFdbck.elbrtn).toContain("before this request was answered: retry");
  expect(answer.exctnFdbck.elbrtn).toContain(requestId);
  expect((await p.run("dump entt_*", { limit: 5 })).exctnFdbck.id).toBe(75);
});

test("a statement cancelled by its timeout (57014) is answered as a lost connection: 35 'nothing stored', not 500; the retry succeeds", async () => {
  const sent = await commands[1]!.request();
  faults.transaction = "statement timeout";
  const { answer, requestId } = await send(p, sent);
  expect(answer.exctnFdbck).toMatchObject({ id: 35, id_v4: 503 });
  expect(answer.exctnFdbck.elbrtn).toStartWith("the database was temporarily unavailable and nothing was stored");
  expect(answer.exctnFdbck.elbrtn).toContain(requestId);
  expect(await commands[1]!.stored(sent)).toBe(0);
  expect((await send(p, sent)).answer.exctnFdbck).toEqual({ id: 75, id_v4: 200 });
}, 30_000);

test("an error that is not a lost connection stays 55/500 with the request id, and nothing is stored", async () => {
  const sent = await commands[1]!.request();
  faults.transaction = "not a connection error";
  const { answer, requestId } = await send(p, sent);
  expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 500 });
  expect(answer.exctnFdbck.elbrtn).toContain(requestId);
  expect(await commands[1]!.stored(sent)).toBe(0);
});
