/**
 * Money rules hold for every order of events (design; issue 34, part 3): random sequences of issue,
 * cancel (within the cooling-off and after it, effective today or later), claim, review, pay,
 * reinstate, endorse, top up and the passing of days, on live policies of one funded partner, each
 * step through the domain with the clock it is given. After every step: no policy both kept a
 * cancellation's refund and had a claim approved (so none ever returned its whole premium and paid
 * a claim), a refund is taken back at most once, every ledger line sums to the balance, and no
 * balance is negative. A model of the cooling-off says which claims must be refused.
 */
import { expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { loadConfig } from "../src/core/config";
import { CommandError } from "../src/core/errors";
import { clockSettings } from "../src/modules/claims/clock";
import { decisionSettings, reviewClaim } from "../src/modules/claims/decisions";
import { claimPayouts, claims, claimVouchers, payoutLedger } from "../src/modules/claims/schema";
import { submitClaim } from "../src/modules/claims/service";
import { changeRate } from "../src/modules/commissions/service";
import { cancelPolicy } from "../src/modules/lifecycle/cancellation";
import { endorsePolicy } from "../src/modules/lifecycle/endorsements";
import { reinstatePolicy } from "../src/modules/lifecycle/reinstatement";
import { policyReinstatements } from "../src/modules/lifecycle/schema";
import { createPartner } from "../src/modules/partners/service";
import { policies, policyCancellations } from "../src/modules/policies/schema";
import type { PolicyRecord } from "../src/modules/policies/types";
import { signalSettings } from "../src/modules/signals";
import { walletEntries, wallets } from "../src/modules/wallet/schema";
import { watToday } from "../src/products/policy-helpers";
import { payClaim } from "./support/claims";
import { testApp } from "./support/harness";
import { lifecycleHelpers } from "./support/lifecycle";
import { fullConsumer, insureSeed, productCases } from "./support/policies";

const TEST_CLOCK = clockSettings(loadConfig({}));
const DECISIONS = { ...decisionSettings(loadConfig({})), clock: TEST_CLOCK };

const t = await testApp();
const db = t.database.db;
const signals = await signalSettings(db, t.config);
const operator = await t.partner({ admin: true });
const { age } = lifecycleHelpers(t, operator);
const admin = { label: "operator", partnerId: operator.partnerId };

const DAY = 86_400_000;
const PHONE = "phnn-flx1-1111";
const PROPERTY = "allr-stnd-1111";
/** How far back a sequence starts: its clock runs forward from there and never passes the real now (other suites read newest first). */
const SPAN_DAYS = 45;

type Action =
  | { kind: "issue"; product: string }
  | { kind: "cancel"; policy: number; later: boolean }
  | { kind: "claim"; policy: number; daysAgo: number }
  | { kind: "review"; claim: number; approve: boolean }
  | { kind: "pay"; claim: number }
  | { kind: "reinstate"; policy: number }
  | { kind: "endorse"; policy: number }
  | { kind: "topup" }
  | { kind: "wait"; days: number };

// Weighted towards what the rules are about: cancellations, claims on them and their decisions.
const actions: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant("issue" as const), product: fc.constantFrom(PHONE, PROPERTY) }),
  { arbitrary: fc.record({ kind: fc.constant("cancel" as const), policy: fc.nat(), later: fc.boolean() }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant("claim" as const), policy: fc.nat(), daysAgo: fc.integer({ min: 0, max: 6 }) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant("review" as const), claim: fc.nat(), approve: fc.boolean() }), weight: 4 },
  fc.record({ kind: fc.constant("pay" as const), claim: fc.nat() }),
  fc.record({ kind: fc.constant("reinstate" as const), policy: fc.nat() }),
  fc.record({ kind: fc.constant("endorse" as const), policy: fc.nat() }),
  fc.record({ kind: fc.constant("topup" as const) }),
  { arbitrary: fc.record({ kind: fc.constant("wait" as const), days: fc.integer({ min: 1, max: 10 }) }), weight: 2 },
);

/** One argon2id hash for every partner the runs make (as the benchmark does): a partner is then a few rows, not a quarter of a second. */
const portalPassword = { password: "not-signed-in-here", hash: await Bun.password.hash("not-signed-in-here", { algorithm: "argon2id" }) };

/** What the test knows of a policy: enough to say whether a claim on it must be refused. */
interface Known {
  row: PolicyRecord;
  cancelled: boolean;
  /** Its cancellation in force was within the cooling-off: the policy counts as never bought. */
  coolingOff: boolean;
}

/** A claim as its last accepted change left it. */
interface KnownClaim {
  claimNo: string;
  status: "submitted" | "in_review" | "approved" | "rejected" | "paid";
}

/** One sequence's partner, policies, claims and clock. */
class Run {
  readonly known: Known[] = [];
  readonly claims: KnownClaim[] = [];
  /** Claims refused because the policy's cancellation was within the cooling-off. */
  refusedForCoolingOff = 0;
  /** Approvals refused because the wallet did not cover the refund they take back. */
  refusedForTheWallet = 0;
  now: Date;
  private consumer = "";

  constructor(
    readonly partnerId: string,
    /** A command with the partner's live key. */
    readonly command: (cmmnd: string, seed?: unknown) => Promise<any>,
    readonly latest: Date,
  ) {
    this.now = new Date(latest.getTime() - SPAN_DAYS * DAY);
  }

  /** A funded partner with one phone policy, issued `sinceIssueDays` before the clock's start (past its cooling-off or not). */
  static async start(fundingNaira: number, sinceIssueDays: number): Promise<Run> {
    const { partnerId, keys } = await createPartner(db, { name: `Orders ${crypto.randomUUID().slice(0, 8)}` }, undefined, { portalPassword });
    const run = new Run(
      partnerId,
      (cmmnd, seed) => t.post({ userInfo: { id: partnerId, athrzt: keys.live }, cmmnd: { cmmnd, seed } }),
      new Date(Date.now() - 3_600_000),
    );
    for (const productCode of [PHONE, PROPERTY]) await changeRate(db, admin, { productCode, partnerId, basisPoints: 1000 }, new Date());
    await run.topUp(fundingNaira);
    run.consumer = (await run.command("prfl entity", fullConsumer())).id;
    await run.apply({ kind: "issue", product: PHONE });
    await run.apply({ kind: "wait", days: sinceIssueDays });
    return run;
  }

  topUp(naira: number) {
    return this.command("wallet topup", { amount: naira, reference: `fund-${crypto.randomUUID()}` });
  }

  private pick<T>(list: T[], index: number): T | undefined {
    return list.length ? list[index % list.length] : undefined;
  }

  /** A live policy issued now (by the command, then dated back to the run's clock); refused with 402 when the wallet is short. */
  private async issue(code: string) {
    const c = productCases[code]!;
    if (c.quote) await this.command(`dump ipck_${code}*PRMM`, c.quote);
    const answer = await this.command(`entt_${this.consumer}: insure`, insureSeed(c));
    if (answer.exctnFdbck.id !== 75) {
      expect(answer.exctnFdbck.id_v4).toBe(402);
      return;
    }
    if (answer.status === "p") expect((await operator.run(`appr entt_${this.consumer}|insr_${code}-${answer.id}`, undefined, "live")).status).toBe("a");
    const [row] = await db.select().from(policies).where(eq(policies.reference, answer.id));
    this.known.push({ row: await age(row!, (Date.now() - this.now.getTime()) / DAY), cancelled: false, coolingOff: false });
  }

  private canceller() {
    return { kind: "partner" as const, partnerId: this.partnerId, mode: "live" as const, actor: { label: "live", partnerId: this.partnerId } };
  }

  /** Apply one action at the run's clock; a refusal (4xx) is an outcome like any other, anything else fails the test. */
  async apply(action: Action): Promise<void> {
    try {
      await this.step(action);
    } catch (error) {
      if (!(error instanceof CommandError) || error.status >= 500) throw error;
      if (error.status === 402 && action.kind === "review") this.refusedForTheWallet += 1;
    }
  }

  private async step(action: Action): Promise<void> {
    const now = this.now;
    switch (action.kind) {
      case "issue":
        return this.issue(action.product);
      case "topup":
        return void (await this.topUp(10_000));
      case "wait":
        this.now = new Date(Math.min(this.latest.getTime(), now.getTime() + action.days * DAY));
        return;
      case "cancel": {
        const policy = this.pick(this.known, action.policy);
        if (!policy) return;
        const effectiveDate = action.later ? watToday(new Date(now.getTime() + 3 * DAY)) : undefined;
        const { cancellation } = await cancelPolicy(
          db,
          this.canceller(),
          { policyId: policy.row.id },
          { reference: crypto.randomUUID(), reason: "insured_request", effectiveDate },
          now,
        );
        policy.cancelled = true;
        policy.coolingOff = cancellation.basis === "cooling-off";
        return;
      }
      case "reinstate": {
        const policy = this.pick(
          this.known.filter((k) => k.cancelled),
          action.policy,
        );
        if (!policy) return;
        await reinstatePolicy(db, this.canceller(), { policyId: policy.row.id }, crypto.randomUUID(), now);
        policy.cancelled = false;
        policy.coolingOff = false;
        return;
      }
      case "endorse": {
        const policy = this.pick(this.known, action.policy);
        if (!policy) return;
        const [row] = await db.select().from(policies).where(eq(policies.id, policy.row.id));
        const addtnlFact =
          row!.productCode === PROPERTY
            ? { sumInsured: row!.facts.sumInsured === 1_000_000 ? 2_000_000 : 1_000_000 }
            : { model: `Galaxy A${row!.version + 54}` };
        await endorsePolicy(db, this.canceller(), { policyId: row!.id }, { reference: crypto.randomUUID(), addtnlFact }, now);
        return;
      }
      case "claim": {
        const policy = this.pick(this.known, action.policy);
        if (!policy) return;
        const request = {
          policy: policy.row.reference,
          incidentDate: watToday(new Date(now.getTime() - action.daysAgo * DAY)),
          description: "Damaged",
          amountKobo: 5_000_000,
          documents: [],
        };
        const outcome = await submitClaim(db, { partnerId: this.partnerId, mode: "live", request, now, clock: TEST_CLOCK, signals }).catch(
          (error: Error) => error,
        );
        // Refused for the cooling-off exactly when the policy's cancellation in force was within it.
        const refusedForCoolingOff = outcome instanceof CommandError && outcome.message.includes("within its cooling-off");
        expect(refusedForCoolingOff).toBe(policy.coolingOff);
        if (refusedForCoolingOff) this.refusedForCoolingOff += 1;
        if (outcome instanceof Error) throw outcome;
        this.claims.push({ claimNo: outcome.claim.claimNo, status: "submitted" });
        return;
      }
      case "review": {
        const claim = this.pick(
          this.claims.filter((c) => c.status === "submitted" || c.status === "in_review"),
          action.claim,
        );
        if (!claim) return;
        if (claim.status === "submitted") claim.status = (await this.review(claim.claimNo, "in_review")).status as KnownClaim["status"];
        claim.status = (await this.review(claim.claimNo, action.approve ? "approved" : "rejected")).status as KnownClaim["status"];
        return;
      }
      case "pay": {
        const claim = this.pick(
          this.claims.filter((c) => c.status === "approved"),
          action.claim,
        );
        if (claim)
          claim.status = (await payClaim(db, t.config, { claimNo: claim.claimNo, partnerId: this.partnerId, mode: "live" }, this.now))
            .status as KnownClaim["status"];
        return;
      }
    }
  }

  private review(claimNo: string, status: "in_review" | "approved" | "rejected") {
    const rejectionReason = status === "rejected" ? ("not_covered" as const) : undefined;
    return reviewClaim(db, { claimNo, status, rejectionReason, by: `admin:${operator.partnerId}`, actor: admin, now: this.now, settings: DECISIONS });
  }

  /** The money rules, read from what is stored. */
  async check(): Promise<void> {
    const partnerId = this.partnerId;
    const [wallet] = await db.select().from(wallets).where(eq(wallets.partnerId, partnerId));
    const lines = await db.select().from(walletEntries).where(eq(walletEntries.partnerId, partnerId));
    expect(lines.reduce((sum, line) => sum + line.amountKobo, 0)).toBe(wallet!.balanceKobo);
    expect(wallet!.balanceKobo).toBeGreaterThanOrEqual(0);
    for (const line of lines) expect(line.balanceAfterKobo).toBeGreaterThanOrEqual(0);

    const cancellations = await db.select().from(policyCancellations).where(eq(policyCancellations.partnerId, partnerId));
    const reinstatements = await db.select().from(policyReinstatements).where(eq(policyReinstatements.partnerId, partnerId));
    const decided = await db
      .select({ policyId: claims.policyId })
      .from(claims)
      .where(sql`${claims.partnerId} = ${partnerId} and ${claims.status} in ('approved', 'paid')`);
    for (const c of cancellations) {
      // Taken back once, all of it or none.
      expect([0, c.refundKobo]).toContain(c.refundTakenBackKobo);
      expect(c.refundTakenBackAt === null).toBe(c.refundTakenBackKobo === 0);
    }
    for (const { row } of this.known) {
      const own = cancellations.filter((c) => c.policyId === row.id);
      const paidBack = reinstatements.filter((r) => own.some((c) => c.id === r.cancellationId)).reduce((sum, r) => sum + r.owedKobo, 0);
      // What the policy's cancellations left with the partner: refunds, less what claims took back and reinstatements paid back.
      const kept = own.reduce((sum, c) => sum + c.refundKobo - c.refundTakenBackKobo, 0) - paidBack;
      expect(kept).toBeGreaterThanOrEqual(0);
      if (decided.some((claim) => claim.policyId === row.id)) {
        expect(kept).toBe(0);
        expect(own.filter((c) => c.basis === "cooling-off" && c.refundTakenBackKobo === 0 && c.reinstatedAt === null)).toEqual([]);
      }
      const commission = lines.filter((l) => l.policyId === row.id && l.kind.startsWith("commission")).reduce((sum, l) => sum + l.amountKobo, 0);
      expect(commission).toBeGreaterThanOrEqual(0);
    }
    // The insurer's payout ledger: it sums to what the successful payouts sent; a paid claim was paid once, under an accepted voucher.
    const own = await db.select({ id: claims.id, status: claims.status }).from(claims).where(eq(claims.partnerId, partnerId));
    const ids = new Set(own.map((c) => c.id));
    const payouts = (await db.select().from(claimPayouts)).filter((p) => ids.has(p.claimId));
    const ledger = (await db.select().from(payoutLedger)).filter((l) => ids.has(l.claimId));
    const sent = payouts.filter((p) => p.status === "success").reduce((sum, p) => sum + p.amountKobo, 0);
    expect(ledger.reduce((sum, l) => sum + l.amountKobo, 0)).toBe(sent);
    const vouchers = (await db.select().from(claimVouchers)).filter((v) => ids.has(v.claimId));
    for (const c of own) {
      const succeeded = payouts.filter((p) => p.claimId === c.id && p.status === "success");
      expect(succeeded.length).toBe(c.status === "paid" ? 1 : 0);
      for (const p of succeeded) expect(vouchers.find((v) => v.claimId === c.id && v.version === p.voucherVersion)?.acceptedAt).toBeTruthy();
    }
  }
}

/** Tallies over every run: the sequences reached the cases the rules are about. */
const reached = { takenBack: 0, refusedForCoolingOff: 0, refusedForTheWallet: 0, coolingOffReinstated: 0 };

const cancel = (policy = 0, later = false): Action => ({ kind: "cancel", policy, later });
const claim = (policy = 0, daysAgo = 0): Action => ({ kind: "claim", policy, daysAgo });
const approve: Action = { kind: "review", claim: 0, approve: true };
const pay: Action = { kind: "pay", claim: 0 };
const reinstate: Action = { kind: "reinstate", policy: 0 };
const issue = (product: string): Action => ({ kind: "issue", product });

/** Orders the rules are about, run every time before the random ones: [funding in naira, days since the first policy's issue, the steps]. */
const EXAMPLES: [number, number, Action[]][] = [
  // The issue's case: cancelled within the cooling-off, then a claim for an incident today.
  [20_000, 0, [cancel(), claim(), approve, pay]],
  // After the cooling-off: the claim approved takes the refund back; reinstating then pays back nothing.
  [20_000, 20, [cancel(), claim(0, 2), approve, pay, reinstate, cancel()]],
  // Reinstated before the approval: the refund paid back, the approval takes nothing.
  [20_000, 20, [cancel(0, true), claim(), reinstate, approve, cancel()]],
  // Reinstated after a cooling-off cancellation: bought again, a claim before it accepted, a cancellation after it gives nothing back.
  [20_000, 3, [cancel(), claim(0, 1), reinstate, claim(0, 1), approve, cancel()]],
  // The wallet short: the approval waits (402) until a top-up covers the refund.
  [7_200, 20, [cancel(), { kind: "topup" }, issue(PHONE), issue(PHONE), claim(), approve, { kind: "topup" }, approve]],
  // A change that cost more premium, then a cancellation and a claim on the changed policy.
  [40_000, 0, [issue(PROPERTY), { kind: "endorse", policy: 1 }, { kind: "wait", days: 20 }, cancel(1), claim(1), approve]],
];

test("every order of issue, cancel, claim, review, pay, reinstate and endorse keeps the money right", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 7_200, max: 40_000 }),
      fc.integer({ min: 0, max: 30 }),
      fc.array(actions, { minLength: 4, maxLength: 14 }),
      async (funding, sinceIssue, sequence) => {
        const run = await Run.start(funding, sinceIssue);
        await run.check();
        for (const action of sequence) {
          await run.apply(action);
          await run.check();
        }
        const stored = await db.select().from(policyCancellations).where(eq(policyCancellations.partnerId, run.partnerId));
        reached.takenBack += stored.filter((c) => c.refundTakenBackKobo > 0).length;
        reached.coolingOffReinstated += stored.filter((c) => c.basis === "cooling-off" && c.reinstatedAt).length;
        reached.refusedForCoolingOff += run.refusedForCoolingOff;
        reached.refusedForTheWallet += run.refusedForTheWallet;
      },
    ),
    { numRuns: 16, examples: EXAMPLES },
  );
  for (const [what, count] of Object.entries(reached)) expect({ what, reached: count > 0 }).toEqual({ what, reached: true });
}, 120_000);
