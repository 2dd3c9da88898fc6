/** What the lifecycle suites share: approved policies of any product, aged records, the ledger's check, events and refusals. */
import { expect } from "bun:test";
import { and, eq, sql } from "drizzle-orm";
import { outboxEvents } from "../../src/modules/events/schema";
import { runLapse } from "../../src/modules/financing/lapse";
import { financingInstallments, financingPlans } from "../../src/modules/financing/schema";
import type { KeyLabel } from "../../src/modules/partners/service";
import { policies } from "../../src/modules/policies/schema";
import type { PolicyRecord } from "../../src/modules/policies/types";
import { walletEntries, wallets } from "../../src/modules/wallet/schema";
import { expectError, type TestApp, type TestPartner } from "./harness";
import { fullConsumer, insureSeed, productCases, watDate } from "./policies";

const DAY = 86_400_000;

export function lifecycleHelpers(t: TestApp, operator: TestPartner) {
  const db = t.database.db;
  /** A policy of `p`, approved (live ones by the operator's `appr`), with the commands that address it. */
  async function approved(p: TestPartner, code = "vhcl-tprt-1111", label: KeyLabel = "test") {
    const c = productCases[code]!;
    const consumer = (await p.run("prfl entity", fullConsumer(), label)).id as string;
    if (c.quote) expect((await p.run(`dump ipck_${c.code}*PRMM`, c.quote, label)).exctnFdbck.id).toBe(75);
    const answer = await p.run(`entt_${consumer}: insure`, insureSeed(c), label);
    expect(answer.exctnFdbck.id).toBe(75);
    const address = `entt_${consumer}|insr_${c.code}-${answer.id}`;
    if (answer.status === "p") expect((await operator.run(`appr ${address}`, undefined, label)).status).toBe("a");
    const [row] = await db
      .select()
      .from(policies)
      .where(and(eq(policies.partnerId, p.partnerId), eq(policies.reference, answer.id)));
    return {
      row: row!,
      reference: answer.id as string,
      address,
      cancel: (seed: Record<string, unknown> = {}) => p.run(`cncl ${address}`, { id: crypto.randomUUID(), reason: "insured_request", ...seed }, label),
      status: () => p.run(`dump ${address}*STATUS`, undefined, label),
    };
  }

  /**
   * Moves a policy's dates `days` into the past (issue, decision, cover), as if issued that long ago:
   * the tests share one database, so they age records rather than run the clock forward (a row
   * dated in the future would head every newest-first list of the other suites).
   */
  async function age(row: PolicyRecord, days: number): Promise<PolicyRecord> {
    const back = (at: Date) => new Date(at.getTime() - days * DAY);
    const [aged] = await db
      .update(policies)
      .set({ createdAt: back(row.createdAt), statusAt: back(row.statusAt), coverStart: back(row.coverStart), coverEnd: back(row.coverEnd) })
      .where(eq(policies.id, row.id))
      .returning();
    return aged!;
  }

  /**
   * Moves a policy's dates so that its cover ends about `days` from now (its length kept), as if it were that
   * near its end; by whole days unless `exactly`, so a cover that ends at a midnight still does.
   */
  async function endingIn(row: PolicyRecord, days: number, exactly = false): Promise<PolicyRecord> {
    const shift = (row.coverEnd.getTime() - Date.now()) / DAY - days;
    return age(row, exactly ? shift : Math.round(shift));
  }

  /** A live policy's financing plan: `downPayment` naira down, the rest in 4 weekly installments from today. */
  async function financed(p: TestPartner, policy: string, downPayment: number) {
    const plan = await p.run("payment financeLoan", { policy, downPayment, installments: 4, frequency: "weekly", firstDueDate: watDate() }, "live");
    expect(plan.exctnFdbck.id).toBe(75);
    return plan;
  }

  /** A live financed vehicle policy whose plan (₦3,000 down, 4 weekly ₦3,000) started two weeks ago and lapsed today on the first missed installment. */
  async function lapsedPolicy(p: TestPartner, daysAgo = 14) {
    const policy = await approved(p, "vhcl-tprt-1111", "live");
    const plan = await financed(p, policy.reference, 3000);
    const [row] = await db.select().from(financingPlans).where(eq(financingPlans.planNo, plan.planNo));
    await age(policy.row, daysAgo);
    const back = sql`interval '${sql.raw(String(daysAgo))} days'`;
    await db
      .update(financingInstallments)
      .set({ dueDate: sql`${financingInstallments.dueDate} - ${back}` })
      .where(eq(financingInstallments.planId, row!.id));
    await db
      .update(financingPlans)
      .set({ nextDueDate: sql`${financingPlans.nextDueDate} - ${back}`, graceDays: 0 })
      .where(eq(financingPlans.id, row!.id));
    expect((await runLapse(db, watDate(), new Date(), { mode: "live" })).map((l) => l.planNo)).toContain(plan.planNo);
    expect((await policy.status()).status).toBe("l");
    return { policy, planNo: plan.planNo as string };
  }

  async function livePartner() {
    const p = await t.partner();
    expect((await p.run("wallet topup", { amount: 100_000_000, reference: `fund-${crypto.randomUUID()}` }, "live")).exctnFdbck.id).toBe(75);
    return p;
  }

  const partnerCanceller = (p: TestPartner, mode: "test" | "live" = "live") => ({
    kind: "partner" as const,
    partnerId: p.partnerId,
    mode,
    actor: { label: mode, partnerId: p.partnerId },
  });

  async function ledgerAgrees(partnerId: string) {
    const [{ total }] = (await db
      .select({ total: sql<string>`coalesce(sum(${walletEntries.amountKobo}), 0)` })
      .from(walletEntries)
      .where(eq(walletEntries.partnerId, partnerId))) as [{ total: string }];
    const [wallet] = await db.select().from(wallets).where(eq(wallets.partnerId, partnerId));
    expect(Number(total)).toBe(wallet?.balanceKobo ?? 0);
    return wallet?.balanceKobo ?? 0;
  }

  /** A partner's events of one type, oldest first (UUID v7 ids keep the order within one instant). */
  const eventsOf = (partnerId: string, type: string) =>
    db
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.partnerId, partnerId), eq(outboxEvents.type, type)))
      .orderBy(outboxEvents.createdAt, outboxEvents.id);

  function refused(answer: any, status: number, ...fragments: string[]) {
    const feedback = expectError(answer);
    expect(feedback.id).toBe(55);
    expect(feedback.id_v4).toBe(status);
    for (const fragment of fragments) expect(feedback.elbrtn).toContain(fragment);
  }

  return { approved, age, endingIn, financed, lapsedPolicy, livePartner, partnerCanceller, ledgerAgrees, eventsOf, refused };
}
