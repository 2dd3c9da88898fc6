/**
 * Claims on a cancelled policy (issue 34, part 3; docs/lifecycle.md, "Claims after a cancellation"),
 * through the JSON command endpoint and the portal on both engines: a cooling-off cancellation
 * leaves a policy never bought, so it takes no claim; any other cancellation's refund is taken back
 * when a claim on the policy is approved, once, in the approval's transaction (402 until the wallet
 * covers it), and a reinstatement pays back only what is left of it.
 */
import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { auditLog } from "../src/modules/audit/schema";
import { claims } from "../src/modules/claims/schema";
import { commissionOn } from "../src/modules/commissions/earning";
import { changeRate } from "../src/modules/commissions/service";
import { policyCancellations } from "../src/modules/policies/schema";
import { walletEntries } from "../src/modules/wallet/schema";
import { naira } from "../views/format";
import { signedIn } from "./portal/browser";
import { payOverTheWire } from "./support/claims";
import type { TestPartner } from "./support/harness";
import { testApp } from "./support/harness";
import { lifecycleHelpers } from "./support/lifecycle";
import { watDate } from "./support/policies";

const t = await testApp();
const db = t.database.db;
const operator = await t.partner({ admin: true });
const { approved, age, livePartner, ledgerAgrees, eventsOf, refused } = lifecycleHelpers(t, operator);

const PHONE = "phnn-flx1-1111";
const PHONE_PREMIUM = 720_000;

type Label = "test" | "live";
const claim = (p: TestPartner, policy: string, label: Label, incidentDate = watDate(), amount = 50_000) =>
  p.run("claim submit", { policy, incidentDate, description: "Screen cracked", amount }, label);
const review = (claimNo: string, status: string, label: Label, extra: Record<string, unknown> = {}) =>
  operator.run("claim review", { claimNo, status, ...extra }, label);

/** A claim of `p` on `policy` taken into review, ready for a decision. */
async function inReview(p: TestPartner, policy: string, label: Label, incidentDate = watDate()) {
  const submitted = await claim(p, policy, label, incidentDate);
  expect(submitted.exctnFdbck.id).toBe(75);
  expect((await review(submitted.claimNo, "in_review", label)).status).toBe("in_review");
  return submitted.claimNo as string;
}

/** An approved phone policy of `p` issued 20 days ago (past its cooling-off), cancelled today: the cancellation's answer. */
async function cancelledAfterCoolingOff(p: TestPartner, label: Label) {
  const policy = await approved(p, PHONE, label);
  await age(policy.row, 20);
  const cancelled = await policy.cancel();
  expect(cancelled.cancellation.refundBasis).toBe("pro-rata");
  return { policy, refundKobo: Math.round(cancelled.cancellation.refund * 100) };
}

const cancellationOf = async (policyId: string) => (await db.select().from(policyCancellations).where(eq(policyCancellations.policyId, policyId)))[0]!;
const linesOf = (policyId: string) =>
  db.select().from(walletEntries).where(eq(walletEntries.policyId, policyId)).orderBy(walletEntries.createdAt, walletEntries.id);

describe("a cancellation within the cooling-off: the policy counts as never bought", () => {
  test("the issue's case: all of a live phone premium comes back, and no claim is accepted afterwards, for an incident today or before", async () => {
    const p = await livePartner();
    const start = await ledgerAgrees(p.partnerId);
    const policy = await approved(p, PHONE, "live");
    const cancelled = await policy.cancel();
    expect(cancelled.cancellation).toMatchObject({ refund: PHONE_PREMIUM / 100, fee: 0, refundBasis: "cooling-off" });
    expect(await ledgerAgrees(p.partnerId)).toBe(start);
    for (const incidentDate of [watDate(), watDate(-1)])
      refused(
        await claim(p, policy.reference, "live", incidentDate),
        409,
        `policy ${policy.reference} was cancelled from ${watDate()} within its cooling-off, all of its premium refunded: it counts as never bought and takes no claim, for any incident`,
      );
    expect(await db.select().from(claims).where(eq(claims.policyId, policy.row.id))).toEqual([]);
    expect(await ledgerAgrees(p.partnerId)).toBe(start);
  });

  test("also a cancellation taking effect later, and a test policy; the portal's claim form is refused in the same words, for people", async () => {
    const p = await t.partner();
    const later = await approved(p, PHONE);
    expect((await later.cancel({ effectiveDate: watDate(5) })).cancellation.refundBasis).toBe("cooling-off");
    // Still in cover until then, but bought for nothing: refused all the same.
    refused(await claim(p, later.reference, "test"), 409, "within its cooling-off", "takes no claim");
    const b = await signedIn(t, p.portal);
    await b.get(`/portal/claims/new?policy=${later.reference}`);
    const form = await b.post("/portal/claims", { policy: later.reference, incidentDate: watDate(), description: "Screen cracked", amount: "50,000" });
    expect(form.status).toBe(409);
    expect(form.text).toContain(`Policy ${later.reference} was cancelled from ${watDate(5)} within its cooling-off, all of its premium refunded`);
  });

  test("a claim made before the cancellation: one still being decided blocks it, a decided one means the cooling-off no longer applies", async () => {
    const p = await livePartner();
    const policy = await approved(p, PHONE, "live");
    const claimNo = await inReview(p, policy.reference, "live");
    refused(await policy.cancel(), 409, `has claim ${claimNo} still being decided (in_review)`);
    expect((await review(claimNo, "rejected", "live", { rejectionReason: "excluded_cause", note: "Water damage is excluded" })).status).toBe("rejected");
    const cancelled = await policy.cancel();
    expect(cancelled.cancellation.refundBasis).toBe("pro-rata");
    expect(cancelled.cancellation.fee).toBeGreaterThan(0);
    // Not a cooling-off: a claim for an incident while covered is still accepted.
    expect((await claim(p, policy.reference, "live")).exctnFdbck.id).toBe(75);
  });

  test("reinstated, the premium is paid back and the policy bought again: claims before the cancellation are accepted, the gap stays refused", async () => {
    const p = await livePartner();
    const policy = await approved(p, PHONE, "live");
    await age(policy.row, 3);
    const start = await ledgerAgrees(p.partnerId);
    expect((await policy.cancel()).cancellation.refundBasis).toBe("cooling-off");
    refused(await claim(p, policy.reference, "live", watDate(-1)), 409, "within its cooling-off");
    const reinstated = await p.run(`rinst ${policy.address}`, { id: crypto.randomUUID() }, "live");
    expect(reinstated).toMatchObject({ status: "a", reinstatement: { paid: PHONE_PREMIUM / 100 } });
    expect(await ledgerAgrees(p.partnerId)).toBe(start);
    expect((await claim(p, policy.reference, "live", watDate(-1))).exctnFdbck.id).toBe(75);
    refused(await claim(p, policy.reference, "live", watDate()), 400, "falls in a gap in the cover");
  });
});

describe("any other cancellation: a claim approved afterwards takes the refund back", () => {
  test("in the approval's transaction: the ledger line, the commission earned back, the audit detail, the event; never taken twice", async () => {
    const p = await livePartner();
    await changeRate(db, { label: "operator", partnerId: operator.partnerId }, { productCode: PHONE, partnerId: p.partnerId, basisPoints: 1000 }, new Date());
    const { policy, refundKobo } = await cancelledAfterCoolingOff(p, "live");
    expect(refundKobo).toBeGreaterThan(0);
    const afterCancel = await ledgerAgrees(p.partnerId);
    const claimNo = await inReview(p, policy.reference, "live");
    const linesBefore = (await linesOf(policy.row.id)).length;

    const answer = await review(claimNo, "approved", "live");
    expect(answer).toMatchObject({ status: "approved", approvedAmount: 50_000, refundTakenBack: refundKobo / 100 });
    const commissionBack = commissionOn(refundKobo, 1000);
    expect(await ledgerAgrees(p.partnerId)).toBe(afterCancel - refundKobo + commissionBack);
    const added = (await linesOf(policy.row.id)).slice(linesBefore);
    expect(added.map((l) => [l.kind, l.amountKobo])).toEqual([
      ["premium", -refundKobo],
      ["commission", commissionBack],
    ]);
    const [claimRow] = await db.select().from(claims).where(eq(claims.claimNo, claimNo));
    expect(await cancellationOf(policy.row.id)).toMatchObject({ refundTakenBackKobo: refundKobo, refundTakenBackClaimId: claimRow!.id });
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "claim.review"), eq(auditLog.subject, claimNo), eq(auditLog.partnerId, p.partnerId)))
      .orderBy(auditLog.at)
      .offset(1);
    expect(audit!.details).toMatchObject({ status: "approved", refundTakenBackKobo: refundKobo });
    const updates = await eventsOf(p.partnerId, "claim.updated");
    expect(updates.at(-1)!.payload).toMatchObject({ claimNo, status: "approved", refundTakenBack: refundKobo / 100 });

    // Paid, and a second claim approved: nothing more is taken.
    const balance = await ledgerAgrees(p.partnerId);
    expect((await payOverTheWire(p, claimNo, "live")).status).toBe("paid");
    const second = await inReview(p, policy.reference, "live", watDate(-2));
    const again = await review(second, "approved", "live");
    expect(again.status).toBe("approved");
    expect(again.refundTakenBack).toBeUndefined();
    expect(await ledgerAgrees(p.partnerId)).toBe(balance);
    expect((await cancellationOf(policy.row.id)).refundTakenBackKobo).toBe(refundKobo);
    // The policy page says what came back and that it was taken back.
    const page = await (await signedIn(t, p.portal)).get(`/portal/policies/${policy.reference}`);
    expect(page.text).toContain(`The refund was taken back on`);
  });

  test("the wallet short: the approval is refused (402) naming the amount and changes nothing; once topped up it is approved", async () => {
    const p = await t.partner();
    const topUp = (naira: number) => p.run("wallet topup", { amount: naira, reference: `fund-${crypto.randomUUID()}` }, "live");
    await topUp(PHONE_PREMIUM / 100);
    const { policy, refundKobo } = await cancelledAfterCoolingOff(p, "live");
    // Spend the refund on another policy: the wallet is empty again.
    await topUp((PHONE_PREMIUM - refundKobo) / 100);
    await approved(p, PHONE, "live");
    expect(await ledgerAgrees(p.partnerId)).toBe(0);
    const claimNo = await inReview(p, policy.reference, "live");
    const eventsBefore = (await eventsOf(p.partnerId, "claim.updated")).length;

    refused(
      await review(claimNo, "approved", "live"),
      402,
      `approving claim ${claimNo} takes back the refund of ${refundKobo / 100} naira that policy ${policy.reference} received when it was cancelled, and the partner's wallet holds 0 naira: approve it once the partner has topped up`,
    );
    expect((await p.run("claim status", { claimNo }, "live")).status).toBe("in_review");
    expect((await cancellationOf(policy.row.id)).refundTakenBackAt).toBeNull();
    expect(await eventsOf(p.partnerId, "claim.updated")).toHaveLength(eventsBefore);
    expect(await ledgerAgrees(p.partnerId)).toBe(0);

    // The operator's page says what approving takes back before the button, and refuses in people's words.
    const admin = await signedIn(t, operator.portal);
    const page = await admin.get(`/admin/claims/${claimNo}`);
    expect(page.text).toContain(`wallet the ${naira(refundKobo)} refunded when policy ${policy.reference} was cancelled from`);
    expect(page.text).toContain("less than that: the approval is refused until the partner tops up.");
    const short = await admin.post(`/admin/claims/${claimNo}/review`, { status: "approved" }, { "hx-request": "true" });
    expect(short.status).toBe(402);
    expect(short.text).toContain(`takes back the refund of ${naira(refundKobo)} that policy ${policy.reference} received when it was cancelled`);
    expect(short.text).toContain("wallet holds ₦0.00: approve it once the partner has topped up");

    await topUp(refundKobo / 100);
    const { step, answer: done } = await admin.postConfirmed(`/admin/claims/${claimNo}/review`, { status: "approved" }, { "hx-request": "true" });
    expect(step!.text).toContain(`wallet the ${naira(refundKobo)} refunded when policy ${policy.reference} was cancelled from`);
    expect(done.status).toBe(200);
    expect(done.text).toContain(`The ${naira(refundKobo)} refunded when the policy was cancelled is taken back`);
    expect(await ledgerAgrees(p.partnerId)).toBe(0);
    expect((await cancellationOf(policy.row.id)).refundTakenBackKobo).toBe(refundKobo);
  });

  test("a test policy moves no money: the refund is recorded as taken back, the ledger untouched", async () => {
    const p = await t.partner();
    const { policy, refundKobo } = await cancelledAfterCoolingOff(p, "test");
    const claimNo = await inReview(p, policy.reference, "test");
    expect(await review(claimNo, "approved", "test")).toMatchObject({ status: "approved", refundTakenBack: refundKobo / 100 });
    expect(await linesOf(policy.row.id)).toEqual([]);
    expect((await cancellationOf(policy.row.id)).refundTakenBackKobo).toBe(refundKobo);
  });
});

describe("reinstatement and the refund taken back", () => {
  test("after a claim took the refund back, reinstating pays back nothing; before, it pays the refund and the approval takes nothing", async () => {
    const p = await livePartner();
    const first = await cancelledAfterCoolingOff(p, "live");
    const taken = await inReview(p, first.policy.reference, "live");
    expect((await review(taken, "approved", "live")).refundTakenBack).toBe(first.refundKobo / 100);
    const balance = await ledgerAgrees(p.partnerId);
    expect((await p.run(`rinst ${first.policy.address}`, { id: crypto.randomUUID() }, "live")).reinstatement.paid).toBe(0);
    expect(await ledgerAgrees(p.partnerId)).toBe(balance);

    const second = await cancelledAfterCoolingOff(p, "live");
    const pending = await inReview(p, second.policy.reference, "live");
    const beforeReinstating = await ledgerAgrees(p.partnerId);
    expect((await p.run(`rinst ${second.policy.address}`, { id: crypto.randomUUID() }, "live")).reinstatement.paid).toBe(second.refundKobo / 100);
    const approvedAfter = await review(pending, "approved", "live");
    expect(approvedAfter.refundTakenBack).toBeUndefined();
    expect(await ledgerAgrees(p.partnerId)).toBe(beforeReinstating - second.refundKobo);
  });

  test("an approval and a reinstatement at once: the refund is either taken back or paid back, exactly once", async () => {
    for (let round = 0; round < 3; round++) {
      const p = await livePartner();
      const { policy, refundKobo } = await cancelledAfterCoolingOff(p, "live");
      const claimNo = await inReview(p, policy.reference, "live");
      const before = await ledgerAgrees(p.partnerId);
      const [approval, reinstatement] = await Promise.all([
        review(claimNo, "approved", "live"),
        p.run(`rinst ${policy.address}`, { id: crypto.randomUUID() }, "live"),
      ]);
      expect(approval.status).toBe("approved");
      expect(reinstatement.status).toBe("a");
      const takenBack = (approval.refundTakenBack ?? 0) * 100;
      const paidBack = reinstatement.reinstatement.paid * 100;
      expect(takenBack + paidBack).toBe(refundKobo);
      expect([takenBack, paidBack]).toContain(0);
      expect(await ledgerAgrees(p.partnerId)).toBe(before - refundKobo);
    }
  });

  test("a cancellation and an approval at once: the cancellation waits for the claim's decision or sees it, and gives nothing back after it", async () => {
    for (let round = 0; round < 3; round++) {
      const p = await livePartner();
      const policy = await approved(p, PHONE, "live");
      await age(policy.row, 20);
      const claimNo = await inReview(p, policy.reference, "live");
      const before = await ledgerAgrees(p.partnerId);
      const [approval, cancelled] = await Promise.all([review(claimNo, "approved", "live"), policy.cancel()]);
      expect(approval.status).toBe("approved");
      if (cancelled.exctnFdbck.id === 75) expect(cancelled.cancellation).toMatchObject({ refund: 0, refundBasis: "claim-paid" });
      else refused(cancelled, 409, "still being decided");
      expect(await ledgerAgrees(p.partnerId)).toBe(before);
    }
  });
});

describe("what the portal says before a cancellation", () => {
  test("within the cooling-off: no claim afterwards; after it: a claim approved later takes the refund back", async () => {
    const p = await t.partner();
    const fresh = await approved(p, PHONE);
    const old = await approved(p, PHONE);
    await age(old.row, 20);
    const b = await signedIn(t, p.portal);
    expect((await b.get(`/portal/policies/${fresh.reference}/cancel`)).text).toContain(
      "Cancelled within the cooling-off, the policy counts as never bought: no claim is accepted on it afterwards, for any incident",
    );
    expect((await b.get(`/portal/policies/${old.reference}/cancel`)).text).toContain(
      "If a claim on the policy, for an incident before the cancellation, is approved later, this refund is taken back",
    );
  });
});
