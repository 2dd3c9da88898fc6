/**
 * Group commit (src/db/group-commit.ts): quotes and test policies sent at the same moment share
 * statements and commits, and every request still hears its own outcome — committed before it is
 * answered, its own refusal when its rows break a constraint, and a lost connection for everyone
 * whose rows were in the statement that lost it. Runs on both engines.
 */
import { describe, expect, test } from "bun:test";
import { and, count, eq, inArray, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { DatabaseHandle } from "../src/db/client";
import { insertCommitted } from "../src/db/group-commit";
import { consumers } from "../src/modules/consumers/schema";
import { policies } from "../src/modules/policies/schema";
import { quotes } from "../src/modules/quotes/schema";
import { walletEntries, wallets } from "../src/modules/wallet/schema";
import { testApp, testDatabase } from "./support/harness";
import { fullConsumer, insureSeed, productCases } from "./support/policies";

const dialect = new PgDialect();
/** Statements that inserted through the group commit; those holding `failFor` lose their connection. */
const seen = { grouped: 0, premiums: 0, failFor: null as string | null, failed: 0 };

function counting(handle: DatabaseHandle): DatabaseHandle {
  const db = new Proxy(handle.db, {
    get(target, property) {
      if (property === "execute")
        return async (query: SQL) => {
          const { sql, params } = dialect.sqlToQuery(query);
          if (sql.includes('insert into "wallet_entries"')) seen.premiums++;
          if (sql.includes("json_populate_recordset")) {
            seen.grouped++;
            if (seen.failFor && JSON.stringify(params).includes(seen.failFor)) {
              seen.failed++;
              throw Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" });
            }
          }
          return target.execute(query);
        };
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { ...handle, db };
}

const t = await testApp({}, undefined, counting);
const db = (await testDatabase()).db;
const vehicle = productCases["vhcl-tprt-1111"]!;

const storedQuotes = async (partnerIds: string[]) => (await db.select({ n: count() }).from(quotes).where(inArray(quotes.partnerId, partnerIds)))[0]!.n;

describe("requests sent together share statements", () => {
  test("60 quotes from four partners: every one answered and stored, in fewer statements than quotes", async () => {
    const partners = await Promise.all(Array.from({ length: 4 }, () => t.partner()));
    seen.grouped = 0;
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => partners[i % 4]!.run(`dump ipck_${vehicle.code}*PRMM`, vehicle.quote)));
    expect(answers.map((a) => a.exctnFdbck.id)).toEqual(Array(60).fill(75));
    expect(await storedQuotes(partners.map((p) => p.partnerId))).toBe(60);
    expect(seen.grouped).toBeLessThan(60);
  });

  test("test policies sent together, some reusing a reference: each reference stored once, each repeat refused on its own", async () => {
    const p = await t.partner();
    const consumer = (await p.run("prfl entity", fullConsumer())).id as string;
    const seeds = Array.from({ length: 12 }, () => insureSeed(vehicle));
    // Three requests repeat the references of earlier ones.
    const sent = [...seeds, seeds[0]!, seeds[5]!, seeds[11]!];
    const answers = await Promise.all(sent.map((seed) => p.run(`entt_${consumer}: insure`, seed)));
    expect(answers.filter((a) => a.exctnFdbck.id === 75)).toHaveLength(12);
    const refused = answers.filter((a) => a.exctnFdbck.id !== 75);
    expect(refused).toHaveLength(3);
    for (const answer of refused) expect(answer.exctnFdbck.elbrtn).toContain("seed.id is already in use");
    const [n] = await db
      .select({ n: count() })
      .from(policies)
      .where(inArray(policies.partnerId, [p.partnerId]));
    expect(n!.n).toBe(12);
  });
});

describe("live premiums sent together", () => {
  test("24 live issuances from three partners, one with room for two: each premium debited once, each ledger a run of balances, in fewer statements", async () => {
    const partners = [await t.partner(), await t.partner(), await t.partner()];
    const consumers = await Promise.all(partners.map(async (p) => (await p.run("prfl entity", fullConsumer())).id as string));
    const premium = (await partners[0]!.run(`dump ipck_${vehicle.code}*PRMM`, vehicle.quote, "live")).prmm as number;
    const floats = [1_000_000, 1_000_000, 2 * premium + 100];
    for (const [i, p] of partners.entries()) await p.run("wallet topup", { amount: floats[i], reference: "float" }, "live");
    seen.premiums = 0;
    const sent = Array.from({ length: 24 }, (_, i) => i % 3);
    const answers = await Promise.all(sent.map((i) => partners[i]!.run(`entt_${consumers[i]}: insure`, insureSeed(vehicle), "live")));
    expect(seen.premiums).toBeLessThan(24);
    for (const [i, p] of partners.entries()) {
      const theirs = answers.filter((_, n) => sent[n] === i);
      const issued = theirs.filter((a) => a.exctnFdbck.id === 75).length;
      expect(issued).toBe(i === 2 ? 2 : 8);
      for (const refused of theirs.filter((a) => a.exctnFdbck.id !== 75)) expect(refused.exctnFdbck).toMatchObject({ id: 55, id_v4: 402 });
      const [wallet] = await db.select().from(wallets).where(eq(wallets.partnerId, p.partnerId));
      expect(wallet!.balanceKobo).toBe((floats[i]! - issued * premium) * 100);
      const lines = await db
        .select({ after: walletEntries.balanceAfterKobo })
        .from(walletEntries)
        .where(and(eq(walletEntries.partnerId, p.partnerId), eq(walletEntries.kind, "premium")));
      // One line per policy, each with the balance after it: the run from the float down, one premium at a time.
      expect(lines.map((l) => l.after).sort((a, b) => b - a)).toEqual(Array.from({ length: issued }, (_, k) => (floats[i]! - (k + 1) * premium) * 100));
      const [stored] = await db.select({ n: count() }).from(policies).where(eq(policies.partnerId, p.partnerId));
      expect(stored!.n).toBe(issued);
    }
  });

  test("live issuances sent together, two repeating a reference: the repeats hear 409 and pay nothing, the others are debited once each", async () => {
    const p = await t.partner();
    const consumer = (await p.run("prfl entity", fullConsumer())).id as string;
    const premium = (await p.run(`dump ipck_${vehicle.code}*PRMM`, vehicle.quote, "live")).prmm as number;
    await p.run("wallet topup", { amount: 1_000_000, reference: "float" }, "live");
    const seeds = Array.from({ length: 10 }, () => insureSeed(vehicle));
    const answers = await Promise.all([...seeds, seeds[2]!, seeds[7]!].map((seed) => p.run(`entt_${consumer}: insure`, seed, "live")));
    expect(answers.filter((a) => a.exctnFdbck.id === 75)).toHaveLength(10);
    const refused = answers.filter((a) => a.exctnFdbck.id !== 75);
    expect(refused).toHaveLength(2);
    for (const a of refused) expect(a.exctnFdbck).toMatchObject({ id: 55, id_v4: 409, elbrtn: expect.stringContaining("seed.id is already in use") });
    const [wallet] = await db.select().from(wallets).where(eq(wallets.partnerId, p.partnerId));
    expect(wallet!.balanceKobo).toBe((1_000_000 - 10 * premium) * 100);
    const lines = await db
      .select({ n: count() })
      .from(walletEntries)
      .where(and(eq(walletEntries.partnerId, p.partnerId), eq(walletEntries.kind, "premium")));
    expect(lines[0]!.n).toBe(10);
  });
});

describe("new consumers sent together", () => {
  test("twenty registrations, two pairs sharing an e-mail: eighteen consumers, each pair answered with one id", async () => {
    const p = await t.partner();
    const emails = Array.from({ length: 18 }, (_, i) => `together.${i}.${crypto.randomUUID().slice(0, 8)}@example.com`);
    const sent = [...emails, emails[3]!, emails[9]!];
    const answers = await Promise.all(sent.map((eMail) => p.run("prfl entity", { ...fullConsumer(), eMail })));
    expect(answers.map((a) => a.exctnFdbck.id)).toEqual(Array(20).fill(75));
    expect(answers[18].id).toBe(answers[3].id);
    expect(answers[19].id).toBe(answers[9].id);
    const [n] = await db
      .select({ n: count() })
      .from(consumers)
      .where(inArray(consumers.partnerId, [p.partnerId]));
    expect(n!.n).toBe(18);
  });
});

describe("a failed statement", () => {
  test("a row missing a column is refused before any statement, naming the table and the column", async () => {
    const p = await t.partner();
    const { duration: _, ...row } = quoteRow(p.partnerId);
    await expect(insertCommitted(t.database.db, [{ table: quotes, row: row as never }])).rejects.toThrow("no value for quotes.duration");
  });

  const quoteRow = (partnerId: string) => ({
    id: crypto.randomUUID(),
    partnerId,
    productCode: vehicle.code,
    premiumKobo: 100,
    duration: null,
    basis: {},
    createdAt: new Date(),
  });

  test("one caller's broken constraint: the others' rows are written, that caller hears its own error", async () => {
    const p = await t.partner();
    const rows = Array.from({ length: 8 }, () => quoteRow(p.partnerId));
    const broken = { ...quoteRow(p.partnerId), partnerId: crypto.randomUUID() }; // no such partner
    const outcomes = await Promise.allSettled(
      [...rows, broken, ...rows.map(() => quoteRow(p.partnerId))].map((row) => insertCommitted(t.database.db, [{ table: quotes, row }])),
    );
    expect(outcomes.filter((o) => o.status === "rejected")).toHaveLength(1);
    expect(outcomes[8]!.status).toBe("rejected");
    expect(await storedQuotes([p.partnerId])).toBe(16);
  });

  test("a lost connection is the outcome of every caller in the statement, and none is written again on its own", async () => {
    const [a, b] = [await t.partner(), await t.partner()];
    seen.failFor = b.partnerId;
    // Two statements go out at once (a's rows); b's six callers wait and share the next one, which fails.
    const first = Array.from({ length: 2 }, () => insertCommitted(t.database.db, [{ table: quotes, row: quoteRow(a.partnerId) }]));
    const rest = Array.from({ length: 6 }, () => insertCommitted(t.database.db, [{ table: quotes, row: quoteRow(b.partnerId) }]));
    const outcomes = await Promise.allSettled([...first, ...rest]);
    seen.failFor = null;
    expect(outcomes.map((o) => o.status)).toEqual([...Array(2).fill("fulfilled"), ...Array(6).fill("rejected")]);
    expect(seen.failed).toBe(1);
    expect(await storedQuotes([a.partnerId])).toBe(2);
    expect(await storedQuotes([b.partnerId])).toBe(0);
  });
});
