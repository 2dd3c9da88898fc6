/**
 * Commissions and the monthly statement (issue 17, docs/commissions.md): rates set by administrators
 * (a partner's own rate wins), earned on every path a live policy is first approved, given back pro
 * rata when premium is refunded, nothing in test mode; and the statement reconciling to the ledger.
 */
import { describe, expect, test } from "bun:test";
import { and, asc, eq, lt, sql } from "drizzle-orm";
import fc from "fast-check";
import { newId } from "../src/core/ids";
import { auditLog } from "../src/modules/audit/schema";
import { commissionOn, rateFor, shareOf } from "../src/modules/commissions/earning";
import { basisPointsOf, percentText, previousMonth, rateFrom, statementMonth } from "../src/modules/commissions/model";
import { changeRate, listRates, partnerStatement } from "../src/modules/commissions/service";
import { currentWatMonth, watMonth } from "../src/modules/enrichment/service";
import { outboxEvents } from "../src/modules/events/schema";
import { simulatedInsurer, underwriteDuePolicies } from "../src/modules/issuance/underwriting";
import { policies } from "../src/modules/policies/schema";
import type { PolicyRecord } from "../src/modules/policies/types";
import { walletEntries, wallets } from "../src/modules/wallet/schema";
import { postCommissions } from "../src/modules/wallet/service";
import { type TestPartner, testApp } from "./support/harness";
import { lifecycleHelpers } from "./support/lifecycle";
import { fullConsumer, insureSeed, productCases } from "./support/policies";

const t = await testApp();
const db = t.database.db;
const operator = await t.partner({ admin: true });
const { age, ledgerAgrees } = lifecycleHelpers(t, operator);
const admin = { label: "operator", partnerId: operator.partnerId };

/** Credit `kobo` to the partner's wallet as a top-up line dated `at` (funding itself is another suite's). */
async function fund(partnerId: string, kobo: number, at = new Date()) {
  await db.transaction(async (tx) => {
    const [wallet] = await tx
      .insert(wallets)
      .values({ partnerId, balanceKobo: kobo, updatedAt: at })
      .onConflictDoUpdate({ target: wallets.partnerId, set: { balanceKobo: sql`${wallets.balanceKobo} + ${kobo}` } })
      .returning();
    await tx
      .insert(walletEntries)
      .values({ id: newId(), partnerId, kind: "topup", amountKobo: kobo, balanceAfterKobo: wallet!.balanceKobo, reference: `fund-${newId()}`, createdAt: at });
  });
}

async function livePartner() {
  const p = await t.partner();
  await fund(p.partnerId, 100_000_000_00);
  return p;
}

const setRate = (productCode: string, partnerId: string | null, basisPoints: number | null) =>
  changeRate(db, admin, { productCode, partnerId, basisPoints }, new Date());

/** A live policy of `p` as issuance left it (approved at once, or pending for the operator or the insurer). */
async function issue(p: TestPartner, code: string, label: "live" | "test" = "live") {
  const c = productCases[code]!;
  const consumer = (await p.run("prfl entity", fullConsumer(), label)).id as string;
  if (c.quote) expect((await p.run(`dump ipck_${c.code}*PRMM`, c.quote, label)).exctnFdbck.id).toBe(75);
  const answer = await p.run(`entt_${consumer}: insure`, insureSeed(c), label);
  expect(answer.exctnFdbck.id).toBe(75);
  const address = `entt_${consumer}|insr_${c.code}-${answer.id}`;
  const row = async () =>
    (
      await db
        .select()
        .from(policies)
        .where(and(eq(policies.partnerId, p.partnerId), eq(policies.reference, answer.id)))
    )[0]!;
  return { status: answer.status as string, address, row, reference: answer.id as string };
}

/** A live policy approved by whoever decides it: at once, else the operator's `appr`. */
async function approvedLive(p: TestPartner, code: string) {
  const policy = await issue(p, code);
  if (policy.status === "p") expect((await operator.run(`appr ${policy.address}`, undefined, "live")).status).toBe("a");
  return policy;
}

const linesOf = (policyId: string) =>
  db.select().from(walletEntries).where(eq(walletEntries.policyId, policyId)).orderBy(asc(walletEntries.createdAt), asc(walletEntries.id));
const sumKind = (lines: { kind: string; amountKobo: number }[], kind: string) => lines.filter((l) => l.kind === kind).reduce((s, l) => s + l.amountKobo, 0);

describe("rates as people write them", () => {
  test("percentages with up to two decimals, 0 to 100", () => {
    expect(percentText(1250)).toBe("12.5 %");
    expect(percentText(1205)).toBe("12.05 %");
    expect(percentText(1000)).toBe("10 %");
    expect(percentText(5)).toBe("0.05 %");
    expect(basisPointsOf("12.5 %")).toBe(1250);
    expect(basisPointsOf("12.50%")).toBe(1250);
    expect(rateFrom("100", "rate")).toBe(10_000);
    expect(rateFrom(" 0 ", "rate")).toBe(0);
    for (const bad of ["", "abc", "12.345", "-1", "100.01", "1e3"]) expect(() => rateFrom(bad, "rate")).toThrow(/rate/);
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000 }), (bps) => basisPointsOf(percentText(bps)) === bps));
  });

  test("commission to the kobo: half a kobo rounds up, BigInt for any premium", () => {
    expect(commissionOn(1_500_000, 1250)).toBe(187_500);
    expect(commissionOn(101, 1250)).toBe(13); // 12.625 kobo
    expect(commissionOn(100, 1250)).toBe(13); // 12.5 kobo: half up
    expect(commissionOn(99, 1250)).toBe(12); // 12.375 kobo
    expect(commissionOn(9_007_199_254_740_991, 10_000)).toBe(9_007_199_254_740_991);
    expect(shareOf(13, 50, 100)).toBe(7);
  });

  test("a statement's month: YYYY-MM, never in the future", () => {
    const now = new Date("2026-10-31T23:30:00Z"); // already 1 November in Lagos
    expect(statementMonth("2026-11", now, "seed.month")).toBe("2026-11");
    expect(() => statementMonth("2026-12", now, "seed.month")).toThrow("seed.month 2026-12 is in the future");
    expect(() => statementMonth("2026-13", now, "seed.month")).toThrow("seed.month must be a month as YYYY-MM");
    expect(() => statementMonth(undefined, now, "month")).toThrow("month must be a month as YYYY-MM");
    expect(previousMonth("2026-01")).toBe("2025-12");
  });
});

describe("rates set by administrators", () => {
  test("the product's rate, a partner's own that wins, removing it, each audited", async () => {
    const p = await t.partner();
    const other = await t.partner();
    await setRate("mexx-stnd-1111", null, 1000);
    await setRate("mexx-stnd-1111", p.partnerId, 1500);
    expect(await rateFor(db, p.partnerId, "mexx-stnd-1111")).toBe(1500);
    expect(await rateFor(db, other.partnerId, "mexx-stnd-1111")).toBe(1000);
    const listed = (await listRates(db)).find((r) => r.productCode === "mexx-stnd-1111")!;
    expect(listed.basisPoints).toBe(1000);
    expect(listed.overrides.find((o) => o.partnerId === p.partnerId)?.basisPoints).toBe(1500);
    await setRate("mexx-stnd-1111", p.partnerId, 1750);
    expect(await rateFor(db, p.partnerId, "mexx-stnd-1111")).toBe(1750);
    await setRate("mexx-stnd-1111", p.partnerId, null);
    expect(await rateFor(db, p.partnerId, "mexx-stnd-1111")).toBe(1000);
    await setRate("mexx-stnd-1111", null, null);
    expect(await rateFor(db, p.partnerId, "mexx-stnd-1111")).toBe(0);
    const audits = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subject, "mexx-stnd-1111"), eq(auditLog.partnerId, p.partnerId)));
    expect(audits.map((a) => [a.action, a.details])).toContainEqual(["commission.rate_set", { partner: p.name, from: "15 %", to: "17.5 %" }]);
  });

  test("refused: an unknown product, a rate beyond 100 %, an unknown partner — nothing changes", async () => {
    await expect(setRate("zzzz-none-1111", null, 100)).rejects.toThrow("product specified not supported");
    await expect(setRate("vhcl-tprt-1111", null, 10_001)).rejects.toThrow("rate must be from 0 to 100 %");
    await expect(setRate("vhcl-tprt-1111", crypto.randomUUID(), 100)).rejects.toThrow("partner: choose a partner");
    expect(await rateFor(db, operator.partnerId, "vhcl-tprt-1111")).toBe(0);
  });
});

describe("earned when a live policy is first approved", () => {
  test("approved at issuance: premium × the rate, the line names the policy and the rate", async () => {
    const p = await livePartner();
    await setRate("mexx-stnd-1111", p.partnerId, 1250);
    const policy = await issue(p, "mexx-stnd-1111");
    expect(policy.status).toBe("a");
    const row = await policy.row();
    const lines = await linesOf(row.id);
    expect(lines.map((l) => l.kind)).toEqual(["premium", "commission"]);
    expect(lines[1]!.amountKobo).toBe(commissionOn(row.premiumKobo, 1250));
    expect([lines[1]!.reference, lines[1]!.rateBasisPoints]).toEqual(["12.5 %", 1250]);
    await ledgerAgrees(p.partnerId);
  });

  test("approved by an administrator in review; a declined one earns nothing", async () => {
    const p = await livePartner();
    await setRate("mrnn-stnd-1111", p.partnerId, 800);
    const approvedOne = await issue(p, "mrnn-stnd-1111");
    const declinedOne = await issue(p, "mrnn-stnd-1111");
    expect([approvedOne.status, declinedOne.status]).toEqual(["p", "p"]);
    expect(sumKind(await linesOf((await approvedOne.row()).id), "commission")).toBe(0);
    // A rate changed before the decision applies: the policy earns at the rate in force when approved.
    await setRate("mrnn-stnd-1111", p.partnerId, 900);
    expect((await operator.run(`appr ${approvedOne.address}`, undefined, "live")).status).toBe("a");
    expect((await operator.run(`appr ${declinedOne.address}`, { status: "d", statusNote: "no cover" }, "live")).status).toBe("d");
    const row = await approvedOne.row();
    expect(sumKind(await linesOf(row.id), "commission")).toBe(commissionOn(row.premiumKobo, 900));
    expect((await linesOf((await declinedOne.row()).id)).map((l) => l.kind)).toEqual(["premium", "refund"]);
    await ledgerAgrees(p.partnerId);
  });

  test("approved by the insurer in the background", async () => {
    const p = await livePartner();
    await setRate("phnn-flx1-1111", p.partnerId, 1000);
    const policy = await issue(p, "phnn-flx1-1111");
    expect(policy.status).toBe("p");
    await underwriteDuePolicies(db, simulatedInsurer, new Date(Date.now() + 60_000), { batch: 1000 });
    const row = await policy.row();
    expect(row.status).toBe("a");
    expect(sumKind(await linesOf(row.id), "commission")).toBe(commissionOn(row.premiumKobo, 1000));
    await ledgerAgrees(p.partnerId);
  });

  test("one underwriting pass decides a mixed batch at once: each partner's rate, a device insured twice declined and refunded, an event each", async () => {
    const [a, b] = [await livePartner(), await livePartner()];
    await setRate("lapt-flx2-1111", null, 500);
    await setRate("lapt-flx2-1111", b.partnerId, 1500);
    const c = productCases["lapt-flx2-1111"]!;
    const laptop = c.addtnlFact();
    const insureLaptop = async (p: TestPartner, addtnlFact: Record<string, unknown>) => {
      const consumer = (await p.run("prfl entity", fullConsumer(), "live")).id as string;
      const answer = await p.run(`entt_${consumer}: insure`, insureSeed(c, { addtnlFact }), "live");
      expect(answer).toMatchObject({ status: "p", exctnFdbck: { id: 75 } });
      return (
        await db
          .select()
          .from(policies)
          .where(and(eq(policies.partnerId, p.partnerId), eq(policies.reference, answer.id)))
      )[0]!;
    };
    const twice = [await insureLaptop(a, laptop), await insureLaptop(a, laptop)];
    const other = await insureLaptop(b, c.addtnlFact());
    const balanceBefore = async (p: TestPartner) => (await db.select().from(wallets).where(eq(wallets.partnerId, p.partnerId)))[0]!.balanceKobo;
    const [aBefore, bBefore] = [await balanceBefore(a), await balanceBefore(b)];

    await underwriteDuePolicies(db, simulatedInsurer, new Date(Date.now() + 60_000), { batch: 1000 });

    const rowOf = async (id: string) => (await db.select().from(policies).where(eq(policies.id, id)))[0]!;
    const decided = await Promise.all(twice.map((p) => rowOf(p.id)));
    const approved = decided.find((p) => p.status === "a")!;
    const declined = decided.find((p) => p.status === "d")!;
    expect(approved.policyNo).toMatch(/^POL-LAPT-/);
    expect(declined.statusNote).toContain("already insured");
    expect(declined.policyNo).toBeNull();
    expect((await rowOf(other.id)).status).toBe("a");
    // The product's rate for a, b's own for b; the declined policy earned nothing and got its premium back.
    expect(sumKind(await linesOf(approved.id), "commission")).toBe(commissionOn(approved.premiumKobo, 500));
    expect(sumKind(await linesOf(other.id), "commission")).toBe(commissionOn(other.premiumKobo, 1500));
    expect((await linesOf(declined.id)).map((l) => [l.kind, l.amountKobo])).toEqual([
      ["premium", -declined.premiumKobo],
      ["refund", declined.premiumKobo],
    ]);
    expect(await balanceBefore(a)).toBe(aBefore + declined.premiumKobo + commissionOn(approved.premiumKobo, 500));
    expect(await balanceBefore(b)).toBe(bBefore + commissionOn(other.premiumKobo, 1500));
    for (const p of [approved, declined, await rowOf(other.id)]) {
      const events = await db
        .select({ type: outboxEvents.type })
        .from(outboxEvents)
        .where(and(eq(outboxEvents.partnerId, p.partnerId), sql`${outboxEvents.payload}->>'id' = ${p.reference}`));
      expect(events.map((e) => e.type).sort()).toEqual([p.status === "a" ? "policy.approved" : "policy.declined", "policy.pending"].sort());
    }
    await ledgerAgrees(a.partnerId);
    await ledgerAgrees(b.partnerId);
    await setRate("lapt-flx2-1111", b.partnerId, null);
    await setRate("lapt-flx2-1111", null, null);
  });

  test("one pass posts its commissions in one statement: several lines of one partner, each with the balance after it", async () => {
    const [a, b] = [await livePartner(), await livePartner()];
    await setRate("vhcl-tprt-1111", a.partnerId, 1000);
    await setRate("vhcl-tprt-1111", b.partnerId, 2500);
    const issued = [await issue(a, "vhcl-tprt-1111"), await issue(b, "vhcl-tprt-1111"), await issue(a, "vhcl-tprt-1111"), await issue(a, "vhcl-tprt-1111")];
    expect(issued.map((p) => p.status)).toEqual(["p", "p", "p", "p"]);
    const pending = await Promise.all(issued.map((p) => p.row()));

    await underwriteDuePolicies(db, simulatedInsurer, new Date(Date.now() + 60_000), { batch: 1000 });

    for (const [p, basisPoints] of [
      [a, 1000],
      [b, 2500],
    ] as const) {
      const ledger = await db
        .select()
        .from(walletEntries)
        .where(eq(walletEntries.partnerId, p.partnerId))
        .orderBy(asc(walletEntries.createdAt), asc(walletEntries.id));
      // Every line's balance follows from the one before it, the commissions' included.
      for (const [i, line] of ledger.entries()) expect(line.balanceAfterKobo).toBe((ledger[i - 1]?.balanceAfterKobo ?? 0) + line.amountKobo);
      const commissions = ledger.filter((line) => line.kind === "commission");
      const own = pending.filter((policy) => policy.partnerId === p.partnerId);
      expect(commissions.map((line) => line.policyId).sort()).toEqual(own.map((policy) => policy.id).sort());
      for (const line of commissions) {
        const policy = own.find((o) => o.id === line.policyId)!;
        expect([line.amountKobo, line.rateBasisPoints, line.reference]).toEqual([
          commissionOn(policy.premiumKobo, basisPoints),
          basisPoints,
          percentText(basisPoints),
        ]);
      }
      expect(await ledgerAgrees(p.partnerId)).toBe(ledger.at(-1)!.balanceAfterKobo);
    }
    await setRate("vhcl-tprt-1111", a.partnerId, null);
    await setRate("vhcl-tprt-1111", b.partnerId, null);
  });

  test("lines of one partner are posted together only when none is a debit", async () => {
    const p = await livePartner();
    const policy = await (await approvedLive(p, "lapt-flx2-1111")).row();
    const reversal = {
      partnerId: p.partnerId,
      policyId: policy.id,
      kind: "commission_reversal",
      amountKobo: -1,
      rateBasisPoints: 100,
      reference: "1 %",
    } as const;
    const before = await ledgerAgrees(p.partnerId);
    await expect(db.transaction((tx) => postCommissions(tx, [reversal, reversal], new Date()))).rejects.toThrow("must hold no debit");
    expect(await ledgerAgrees(p.partnerId)).toBe(before);
  });

  test("renewed: the renewal is a new policy that earns at the rate of its own approval", async () => {
    const p = await livePartner();
    await setRate("vhcl-tprt-1111", p.partnerId, 1000);
    const policy = await approvedLive(p, "vhcl-tprt-1111");
    const row = await policy.row();
    const near = await age(row, 365 - 20);
    await setRate("vhcl-tprt-1111", p.partnerId, 2000);
    const renewal = await p.run(`rnew ${policy.address}`, { id: crypto.randomUUID() }, "live");
    const renewalAddress = policy.address.replace(policy.reference, renewal.id);
    if (renewal.status === "p") expect((await operator.run(`appr ${renewalAddress}`, undefined, "live")).status).toBe("a");
    const [renewed] = await db
      .select()
      .from(policies)
      .where(and(eq(policies.partnerId, p.partnerId), eq(policies.reference, renewal.id)));
    expect(sumKind(await linesOf(renewed!.id), "commission")).toBe(commissionOn(renewed!.premiumKobo, 2000));
    expect(sumKind(await linesOf(near.id), "commission")).toBe(commissionOn(row.premiumKobo, 1000));
  });

  test("test mode earns nothing", async () => {
    const p = await livePartner();
    await setRate("vhcl-tprt-1111", p.partnerId, 1250);
    const policy = await issue(p, "vhcl-tprt-1111", "test");
    expect(policy.status).toBe("a");
    expect(await linesOf((await policy.row()).id)).toEqual([]);
  });
});

describe("given back pro rata when premium is refunded", () => {
  const expectedReversal = (earned: number, refund: number, premium: number) => Math.min(earned, shareOf(earned, refund, premium));

  test("a cancellation: commission × refund / premium, to the kobo, right after the refund", async () => {
    const p = await livePartner();
    await setRate("vhcl-tprt-1111", p.partnerId, 1333);
    const policy = await approvedLive(p, "vhcl-tprt-1111");
    await age(await policy.row(), 100);
    const cancelled = await p.run(`cncl ${policy.address}`, { id: crypto.randomUUID(), reason: "insured_request" }, "live");
    expect(cancelled.status).toBe("c");
    const row = await policy.row();
    const lines = await linesOf(row.id);
    expect(lines.map((l) => l.kind)).toEqual(["premium", "commission", "refund", "commission_reversal"]);
    const [, earned, refund, reversal] = lines as [unknown, PolicyLine, PolicyLine, PolicyLine];
    expect(refund.amountKobo).toBeGreaterThan(0);
    expect(refund.amountKobo).toBeLessThan(row.premiumKobo);
    expect(-reversal.amountKobo).toBe(expectedReversal(earned.amountKobo, refund.amountKobo, row.premiumKobo));
    expect(reversal.policyId).toBe(row.id);
    await ledgerAgrees(p.partnerId);
  });

  test("a reinstatement pays the refund back and earns back at the policy's rate", async () => {
    const p = await livePartner();
    await setRate("vhcl-tprt-1111", p.partnerId, 1000);
    const policy = await approvedLive(p, "vhcl-tprt-1111");
    await age(await policy.row(), 50);
    expect((await p.run(`cncl ${policy.address}`, { id: crypto.randomUUID(), reason: "insured_request" }, "live")).status).toBe("c");
    await setRate("vhcl-tprt-1111", p.partnerId, 3000);
    expect((await p.run(`rinst ${policy.address}`, { id: crypto.randomUUID() }, "live")).status).toBe("a");
    const lines = await linesOf((await policy.row()).id);
    expect(lines.map((l) => l.kind)).toEqual(["premium", "commission", "refund", "commission_reversal", "premium", "commission"]);
    expect(lines[5]!.amountKobo).toBe(commissionOn(-lines[4]!.amountKobo, 1000));
    await ledgerAgrees(p.partnerId);
  });

  test("a change: a higher premium earns on the extra at the original rate, a lower one gives back pro rata", async () => {
    const p = await livePartner();
    await setRate("allr-stnd-1111", p.partnerId, 1500);
    const policy = await issue(p, "allr-stnd-1111");
    if (policy.status === "p") await operator.run(`appr ${policy.address}`, undefined, "live");
    await age(await policy.row(), 73);
    await setRate("allr-stnd-1111", p.partnerId, 500);
    const endorse = (sumInsured: number) => p.run(`ndrs ${policy.address}`, { id: crypto.randomUUID(), addtnlFact: { sumInsured } }, "live");
    const before = await policy.row();
    expect((await endorse(2_000_000)).endorsement.status).toBe("applied");
    let lines = await linesOf(before.id);
    const extra = -lines.at(-2)!.amountKobo;
    expect(lines.at(-1)!.kind).toBe("commission");
    expect(lines.at(-1)!.amountKobo).toBe(commissionOn(extra, 1500));
    const raised = await policy.row();
    const earned = sumKind(lines, "commission");
    expect((await endorse(1_000_000)).endorsement.status).toBe("applied");
    lines = await linesOf(before.id);
    const refund = lines.at(-2)!;
    expect(refund.kind).toBe("refund");
    expect(lines.at(-1)!.kind).toBe("commission_reversal");
    expect(-lines.at(-1)!.amountKobo).toBe(expectedReversal(earned, refund.amountKobo, raised.premiumKobo));
    await ledgerAgrees(p.partnerId);
  });
});

type PolicyLine = typeof walletEntries.$inferSelect;

describe("the monthly statement", () => {
  const month = currentWatMonth(new Date());

  test("a fuzzed month of live activity reconciles to the ledger and the wallet, to the kobo", async () => {
    const codes = ["vhcl-tprt-1111", "mexx-stnd-1111", "mrnn-stnd-1111", "allr-stnd-1111"];
    const action = fc.oneof(
      fc.record({ kind: fc.constant("topup" as const), kobo: fc.integer({ min: 1, max: 5_000_000_00 }) }),
      fc.record({ kind: fc.constant("issue" as const), code: fc.constantFrom(...codes), approve: fc.boolean() }),
      fc.record({ kind: fc.constant("cancel" as const), pick: fc.nat(), days: fc.integer({ min: 0, max: 200 }) }),
      fc.record({ kind: fc.constant("change" as const), pick: fc.nat(), sumInsured: fc.integer({ min: 500_000, max: 3_000_000 }) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: codes.length, maxLength: codes.length }),
        fc.integer({ min: 0, max: 1_000_000_00 }),
        fc.array(action, { minLength: 3, maxLength: 8 }),
        async (rates, openingKobo, actions) => {
          const p = await t.partner();
          // Last month's top-up: the opening balance.
          if (openingKobo) await fund(p.partnerId, openingKobo, new Date(watMonth(month)[0].getTime() - 1));
          await fund(p.partnerId, 50_000_000_00);
          for (const [i, code] of codes.entries()) await setRate(code, p.partnerId, rates[i]!);
          const issued: { address: string; row: () => Promise<PolicyRecord> }[] = [];
          for (const step of actions) {
            if (step.kind === "topup") await fund(p.partnerId, step.kobo);
            else if (step.kind === "issue") {
              const policy = await issue(p, step.code);
              if (policy.status === "p")
                await operator.run(`appr ${policy.address}`, step.approve ? undefined : { status: "d", statusNote: "declined" }, "live");
              issued.push(policy);
            } else if (issued.length) {
              const policy = issued[step.pick % issued.length]!;
              const row = await policy.row();
              if (row.status !== "a") continue;
              if (step.kind === "cancel") {
                // Aged within this month only (the statement counts a policy in the month it was written): a refund of any share.
                await age(row, Math.min(step.days, Math.floor((Date.now() - watMonth(month)[0].getTime()) / 86_400_000) - 1));
                await p.run(`cncl ${policy.address}`, { id: crypto.randomUUID(), reason: "insured_request" }, "live");
              } else if (row.productCode === "allr-stnd-1111")
                await p.run(`ndrs ${policy.address}`, { id: crypto.randomUUID(), addtnlFact: { sumInsured: step.sumInsured } }, "live");
            }
          }
          const statement = await partnerStatement(db, p.partnerId, month);
          const [from, to] = watMonth(month);
          const lines = await db
            .select()
            .from(walletEntries)
            .where(
              and(
                eq(walletEntries.partnerId, p.partnerId),
                sql`${walletEntries.createdAt} >= ${from.toISOString()}::timestamptz`,
                lt(walletEntries.createdAt, to),
              ),
            );
          const balance = await ledgerAgrees(p.partnerId);
          expect(statement.openingKobo).toBe(openingKobo);
          expect(statement.closingKobo).toBe(balance);
          expect(statement.openingKobo + lines.reduce((s, l) => s + l.amountKobo, 0)).toBe(statement.closingKobo);
          expect(statement.topUpsKobo).toBe(sumKind(lines, "topup"));
          expect(statement.premiumsKobo).toBe(0 - sumKind(lines, "premium"));
          expect(statement.refundsKobo).toBe(sumKind(lines, "refund"));
          expect(statement.commissionKobo).toBe(sumKind(lines, "commission"));
          expect(statement.commissionReversedKobo).toBe(0 - sumKind(lines, "commission_reversal"));
          expect(
            statement.openingKobo +
              statement.topUpsKobo -
              statement.premiumsKobo +
              statement.refundsKobo +
              statement.commissionKobo -
              statement.commissionReversedKobo,
          ).toBe(statement.closingKobo);
          expect(statement.netDueKobo).toBe(
            statement.premiumsKobo - statement.refundsKobo - statement.commissionKobo + statement.commissionReversedKobo + statement.registryChecksKobo,
          );
          const total = (key: "premiumsKobo" | "refundsKobo" | "commissionKobo" | "commissionReversedKobo") =>
            statement.products.reduce((s, line) => s + line[key], 0);
          expect([total("premiumsKobo"), total("refundsKobo"), total("commissionKobo"), total("commissionReversedKobo")]).toEqual([
            statement.premiumsKobo,
            statement.refundsKobo,
            statement.commissionKobo,
            statement.commissionReversedKobo,
          ]);
          // Per policy: never more given back than earned, and a declined one earned nothing.
          for (const policy of issued) {
            const row = await policy.row();
            const own = await linesOf(row.id);
            const net = sumKind(own, "commission") + sumKind(own, "commission_reversal");
            expect(net).toBeGreaterThanOrEqual(0);
            if (row.status === "d") expect(net).toBe(0);
            if (row.status === "a") expect(sumKind(own, "commission")).toBeGreaterThanOrEqual(commissionOn(row.premiumKobo, 0));
          }
          expect(statement.policiesWritten).toBe(issued.length - (await Promise.all(issued.map((i) => i.row()))).filter((r) => r.status === "d").length);
        },
      ),
      { numRuns: 15 },
    );
  }, 120_000);

  test("another partner's lines and test mode stay out; an empty month is all zeros", async () => {
    const p = await livePartner();
    const empty = await partnerStatement(db, p.partnerId, previousMonth(month));
    expect([empty.openingKobo, empty.closingKobo, empty.netDueKobo, empty.policiesWritten, empty.products.length]).toEqual([0, 0, 0, 0, 0]);
    await issue(p, "vhcl-tprt-1111", "test");
    const statement = await partnerStatement(db, p.partnerId, month);
    expect([statement.topUpsKobo, statement.premiumsKobo, statement.policiesWritten]).toEqual([100_000_000_00, 0, 0]);
  });
});
