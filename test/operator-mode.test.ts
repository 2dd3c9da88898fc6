/**
 * The mode rule holds for the operator too (issue 13, section 4): its test key cannot approve or
 * decline (and so refund) a live policy, move a live claim, or lapse a live plan, nor its live key
 * a test one; the refusal has the words partners get, and nothing changes.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { claims } from "../src/modules/claims/schema";
import { outboxEvents } from "../src/modules/events/schema";
import { financingPlans } from "../src/modules/financing/schema";
import type { KeyLabel } from "../src/modules/partners/service";
import { policies } from "../src/modules/policies/schema";
import { walletEntries } from "../src/modules/wallet/schema";
import { walletBalance } from "../src/modules/wallet/service";
import { type TestPartner, testApp } from "./support/harness";
import { fullConsumer, insureSeed, productCases, watDate } from "./support/policies";

// Several commands per test on a busy machine: more than bun's default 5 s.
setDefaultTimeout(30_000);

const t = await testApp();
const db = t.database.db;
const operator = await t.partner({ admin: true });

async function livePartner() {
  const p = await t.partner();
  expect((await p.run("wallet topup", { amount: 10_000_000, reference: `fund-${crypto.randomUUID()}` }, "live")).exctnFdbck.id).toBe(75);
  return p;
}

/** A credit life policy: in live mode pending until the operator reviews it (its premium paid at issuance); in test mode approved at once. */
async function creditLifePolicy(p: TestPartner, label: KeyLabel) {
  const c = productCases["crlt-sme1-1111"]!;
  const consumer = (await p.run("prfl entity", fullConsumer(), label)).id as string;
  if (c.quote) expect((await p.run(`dump ipck_${c.code}*PRMM`, c.quote, label)).exctnFdbck.id).toBe(75);
  const answer = await p.run(`entt_${consumer}: insure`, insureSeed(c), label);
  expect(answer.status).toBe(label === "live" ? "p" : "a");
  return { reference: answer.id as string, address: `entt_${consumer}|insr_${c.code}-${answer.id}` };
}

/** Everything a refused command could have changed for `p`. */
const stateOf = async (partnerId: string) => ({
  policies: await db.select().from(policies).where(eq(policies.partnerId, partnerId)),
  claims: await db.select().from(claims).where(eq(claims.partnerId, partnerId)),
  plans: await db.select().from(financingPlans).where(eq(financingPlans.partnerId, partnerId)),
  ledger: await db.select().from(walletEntries).where(eq(walletEntries.partnerId, partnerId)),
  events: (await db.select().from(outboxEvents).where(eq(outboxEvents.partnerId, partnerId))).length,
  balance: await walletBalance(db, partnerId),
});

const refusedForMode = (answer: any, reference: string, policyMode: string, keyMode: string) => {
  expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 403 });
  expect(answer.exctnFdbck.elbrtn).toContain(`policy ${reference} was issued in ${policyMode} mode:`);
  expect(answer.exctnFdbck.elbrtn).toContain(`with a ${policyMode} key, and this key runs in ${keyMode} mode`);
};

describe("appr: the operator's key reviews policies of its own mode", () => {
  test("the test key cannot decline a live policy: no refund, no change; the live key can", async () => {
    const p = await livePartner();
    const policy = await creditLifePolicy(p, "live");
    const before = await stateOf(p.partnerId);
    const decline = { status: "d", statusNote: "borrower outside insurable age band" };
    refusedForMode(await operator.run(`appr ${policy.address}`, decline, "test"), policy.reference, "live", "test");
    refusedForMode(await operator.run(`appr ${policy.address}`, undefined, "test"), policy.reference, "live", "test");
    expect(await stateOf(p.partnerId)).toEqual(before);
    expect(await operator.run(`appr ${policy.address}`, decline, "live")).toMatchObject({ status: "d" });
    expect(await walletBalance(db, p.partnerId)).toBeGreaterThan(before.balance); // refunded
  });

  test("the live key is refused on a test policy before anything else is said about it", async () => {
    const p = await t.partner();
    // Test mode approves at once, so a test policy is never pending: the mode is checked first.
    const policy = await creditLifePolicy(p, "test");
    const before = await stateOf(p.partnerId);
    refusedForMode(await operator.run(`appr ${policy.address}`, undefined, "live"), policy.reference, "test", "live");
    expect((await operator.run(`appr ${policy.address}`, undefined, "test")).exctnFdbck).toMatchObject({ id_v4: 409 });
    expect(await stateOf(p.partnerId)).toEqual(before);
  });
});

describe("claim review: the operator's key moves claims of its own mode", () => {
  test("the test key cannot move a live claim, nor the live key a test one; the same words partners get", async () => {
    const p = await livePartner();
    const byMode: Record<"test" | "live", { claimNo: string; reference: string }> = {} as never;
    for (const label of ["test", "live"] as const) {
      const c = productCases["mexx-stnd-1111"]!;
      const consumer = (await p.run("prfl entity", fullConsumer(), label)).id as string;
      if (c.quote) await p.run(`dump ipck_${c.code}*PRMM`, c.quote, label);
      const policy = await p.run(`entt_${consumer}: insure`, insureSeed(c), label);
      expect(policy.status).toBe("a");
      const claim = await p.run(
        "claim submit",
        { policy: policy.id, incidentDate: watDate(0), description: "Water damage to two pallets in the hold", amount: 45_000 },
        label,
      );
      expect(claim.exctnFdbck.id).toBe(75);
      byMode[label] = { claimNo: claim.claimNo, reference: policy.id };
    }
    const before = await stateOf(p.partnerId);
    refusedForMode(
      await operator.run("claim review", { claimNo: byMode.live.claimNo, status: "rejected", rejectionReason: "not_covered", note: "no" }, "test"),
      byMode.live.reference,
      "live",
      "test",
    );
    refusedForMode(await operator.run("claim review", { claimNo: byMode.test.claimNo, status: "in_review" }, "live"), byMode.test.reference, "test", "live");
    // A partner's own test key on its live claim is refused in the same words.
    const partners = await p.run("claim withdraw", { claimNo: byMode.live.claimNo }, "test");
    expect(partners.exctnFdbck.elbrtn).toContain("its claims are handled with a live key, and this key runs in test mode");
    expect((await operator.run("claim review", { claimNo: byMode.live.claimNo, status: "in_review" }, "test")).exctnFdbck.elbrtn).toContain(
      "its claims are handled with a live key, and this key runs in test mode",
    );
    expect(await stateOf(p.partnerId)).toEqual(before);
    expect(await operator.run("claim review", { claimNo: byMode.live.claimNo, status: "in_review" }, "live")).toMatchObject({ status: "in_review" });
    expect(await operator.run("claim review", { claimNo: byMode.test.claimNo, status: "in_review" }, "test")).toMatchObject({ status: "in_review" });
  });
});

describe("payment runLapse: the operator's key lapses plans of its own mode", () => {
  test("a test key's run, even with a far asOf, leaves live plans alone; the live key's lapses them", async () => {
    const p = await livePartner();
    const policy = await creditLifePolicy(p, "live");
    const plan = await p.run(
      "payment financeLoan",
      { policy: policy.reference, downPayment: 0, installments: 2, frequency: "monthly", firstDueDate: watDate(), graceDays: 0 },
      "live",
    );
    expect(plan.exctnFdbck.id).toBe(75);
    const before = await stateOf(p.partnerId);
    const testRun = await operator.run("payment runLapse", { asOf: watDate(400) }, "test");
    expect(testRun.lapsed.map((l: { planNo: string }) => l.planNo)).not.toContain(plan.planNo);
    expect(await stateOf(p.partnerId)).toEqual(before);
    const liveRun = await operator.run("payment runLapse", { asOf: watDate(400) }, "live");
    expect(liveRun.lapsed.map((l: { planNo: string }) => l.planNo)).toContain(plan.planNo);
  });
});
