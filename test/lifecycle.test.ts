/**
 * After issuance (issue 16, docs/lifecycle.md): cancellation through `cncl` and the domain, with
 * each family's refund in the wallet to the kobo, claims and financing around it, races, the
 * registry's record, and expiry at the end of cover.
 */
import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { renderCertificateFor } from "../src/modules/certificates/service";
import { publishApprovedVehicles } from "../src/modules/enrichment/publication";
import type { PublishedPolicy } from "../src/modules/enrichment/registry";
import { financingPlans } from "../src/modules/financing/schema";
import { cancelPolicy } from "../src/modules/lifecycle/cancellation";
import { expireEndedPolicies, remindExpiringPolicies } from "../src/modules/lifecycle/expiry";
import { reinstatePolicy } from "../src/modules/lifecycle/reinstatement";
import { renewOptedInPolicies, renewPolicy } from "../src/modules/lifecycle/renewal";
import { policies, policyCancellations } from "../src/modules/policies/schema";
import { walletEntries } from "../src/modules/wallet/schema";
import { findProduct } from "../src/products";
import { cancellationRefund } from "../src/products/cancellation";
import { pdfText } from "./certificates/parse";
import { payOverTheWire } from "./support/claims";
import { PNG_BASE64, testApp } from "./support/harness";
import { lifecycleHelpers } from "./support/lifecycle";
import { fullConsumer, insureSeed, productCases, watDate } from "./support/policies";

const t = await testApp();
const db = t.database.db;
const operator = await t.partner({ admin: true });
const DAY = 86_400_000;

const { approved, age, endingIn, financed, lapsedPolicy, livePartner, partnerCanceller, ledgerAgrees, eventsOf, refused } = lifecycleHelpers(t, operator);

describe("cncl", () => {
  test("cancels an approved policy: status c with the note, the refund in the answer, STATUS and the list say so, the event is written", async () => {
    const p = await t.partner();
    const policy = await approved(p);
    const id = crypto.randomUUID();
    const answer = await policy.cancel({ id, reason: "item_sold", note: "Car sold" });
    expect(answer).toMatchObject({
      exctnFdbck: { id: 75, id_v4: 200 },
      id: policy.reference,
      status: "c",
      statusNote: `Cancelled from ${watDate()}: the insured vehicle, device, goods or property was sold or replaced (Car sold)`,
      cancellation: { id, reason: "item_sold", note: "Car sold", effectiveDate: watDate(), refund: 15000, fee: 0, refundBasis: "cooling-off" },
    });
    expect(await policy.status()).toMatchObject({ status: "c", statusNote: answer.statusNote });
    expect((await p.run("dump entt_*", { status: "c" })).list.map((l: any) => l.id)).toEqual([policy.reference]);
    const [event] = await eventsOf(p.partnerId, "policy.cancelled");
    expect(event!.payload).toMatchObject({ id: policy.reference, status: "c", mode: "test", cancellation: { refund: 15000, effectiveDate: watDate() } });
  });

  test("a repeat with the same seed.id answers the first cancellation; another request under it is a conflict; a second cancellation is a 409", async () => {
    const p = await t.partner();
    const policy = await approved(p);
    const seed = { id: crypto.randomUUID(), reason: "duplicate" };
    const first = await policy.cancel(seed);
    expect(await policy.cancel(seed)).toEqual(first);
    refused(
      await policy.cancel({ ...seed, reason: "insured_request" }),
      409,
      `seed.id ${seed.id} was already used to cancel policy ${policy.reference}, with another reason`,
    );
    refused(await policy.cancel(), 409, `policy ${policy.reference} is already cancelled (Cancelled from ${watDate()}`);
    expect(await eventsOf(p.partnerId, "policy.cancelled")).toHaveLength(1);
  });

  test("refuses, changing nothing: a past or after-cover date, reason other without a note, the insurer's reason, another partner's policy, a pending one", async () => {
    const p = await t.partner();
    const policy = await approved(p);
    refused(await policy.cancel({ effectiveDate: watDate(-1) }), 400, `seed.effectiveDate must be today (${watDate()}) or later`);
    refused(await policy.cancel({ effectiveDate: watDate(400) }), 400, "seed.effectiveDate must be within the cover of policy");
    refused(await policy.cancel({ reason: "other" }), 400, 'seed.note is required with reason "other"');
    refused(await policy.cancel({ reason: "misrepresentation" }), 403, "only the operator cancels for it");
    refused(await policy.cancel({ reason: "sold" }), 400, "seed.reason");
    const stranger = await t.partner();
    refused(await stranger.run(`cncl ${policy.address}`, { id: crypto.randomUUID(), reason: "insured_request" }), 404, "no policy");
    expect((await policy.status()).status).toBe("a");
    const live = await livePartner();
    const c = productCases["mrnn-stnd-1111"]!;
    const consumer = (await live.run("prfl entity", fullConsumer(), "live")).id;
    await live.run(`dump ipck_${c.code}*PRMM`, c.quote, "live");
    const pending = await live.run(`entt_${consumer}: insure`, insureSeed(c), "live");
    refused(
      await live.run(`cncl entt_${consumer}|insr_${c.code}-${pending.id}`, { id: crypto.randomUUID(), reason: "insured_request" }, "live"),
      409,
      "is pending: only an approved policy can be cancelled",
    );
    // The test key on a live policy: the mode rule.
    refused(await live.run(`cncl entt_${consumer}|insr_${c.code}-${pending.id}`, { id: crypto.randomUUID(), reason: "insured_request" }), 403, "live mode");
  });

  test("the refund quote tells what cancelling would give back and changes nothing", async () => {
    const p = await t.partner();
    const policy = await approved(p);
    const quote = await p.run(`dump ${policy.address}*REFUND`, { effectiveDate: watDate(10) });
    expect(quote).toMatchObject({ status: "a", effectiveDate: watDate(10), refund: 15000, fee: 0, refundBasis: "cooling-off" });
    expect((await policy.status()).status).toBe("a");
  });
});

/** One product per family, and the rule its refund follows. */
const FAMILIES = [
  "vhcl-tprt-1111",
  "phnn-flx1-1111",
  "ltix-stnd-1111",
  "gtrn-stnd-1111",
  "mexx-stnd-1111",
  "crlt-psnl-1111",
  "lrgg-stnd-1111",
  "hlth-axam-1111",
  "allr-stnd-1111",
];

describe("each family's refund, in the wallet to the kobo", () => {
  for (const code of FAMILIES)
    test(`${code}: cancelled past the cooling-off where the cover lasts, the family's rule is credited and the ledger sums to the balance`, async () => {
      const p = await livePartner();
      const policy = await approved(p, code, "live");
      const before = await ledgerAgrees(p.partnerId);
      // Issued 20 days ago where the cover lasts that long (past the cooling-off), cancelled from 10 days on where it still covers.
      const late = policy.row.coverEnd.getTime() - 20 * DAY > Date.now() + DAY;
      const row = late ? await age(policy.row, 20) : policy.row;
      const now = new Date();
      const date = row.coverEnd.getTime() - 11 * DAY > now.getTime() ? watDate(10) : undefined;
      const outcome = await cancelPolicy(
        db,
        partnerCanceller(p),
        { policyId: row.id },
        { reference: crypto.randomUUID(), reason: "insured_request", effectiveDate: date },
        now,
      );
      const effectiveAt = outcome.cancellation.effectiveAt;
      const expected = cancellationRefund(findProduct(code).family.cancellation, {
        premiumKobo: row.premiumKobo,
        issuedAt: row.createdAt,
        coverStart: row.coverStart,
        coverEnd: row.coverEnd,
        requestedAt: now,
        effectiveAt,
        claimsMade: 0,
        claimPaid: false,
      });
      expect(outcome.cancellation).toMatchObject({ refundKobo: expected.refundKobo, feeKobo: expected.feeKobo, basis: expected.basis });
      expect(outcome.cancellation.refundKobo).toBeLessThanOrEqual(row.premiumKobo);
      expect(await ledgerAgrees(p.partnerId)).toBe(before + expected.refundKobo);
    });
});

describe("claims around a cancellation", () => {
  test("a claim still being decided blocks it; a paid claim leaves nothing to refund", async () => {
    const p = await livePartner();
    const policy = await approved(p, "phnn-flx1-1111", "live");
    const claim = await p.run("claim submit", { policy: policy.reference, incidentDate: watDate(), description: "Cracked screen", amount: 20_000 }, "live");
    refused(await policy.cancel(), 409, `has claim ${claim.claimNo} still being decided (submitted)`);
    for (const status of ["in_review", "approved"])
      expect(
        (await operator.run("claim review", { claimNo: claim.claimNo, status, ...(status === "approved" ? { approvedAmount: 20_000 } : {}) }, "live"))
          .exctnFdbck.id,
      ).toBe(75);
    expect((await payOverTheWire(p, claim.claimNo, "live")).status).toBe("paid");
    const cancelled = await policy.cancel();
    expect(cancelled.cancellation).toMatchObject({ refund: 0, refundBasis: "claim-paid" });
  });

  test("a claim for an incident before the cancellation took effect is still accepted; one after it is refused", async () => {
    const p = await t.partner();
    const policy = await approved(p, "phnn-flx1-1111");
    // Past the cooling-off: a cancellation within it would take no claim at all.
    const issued = await age(policy.row, 20);
    expect((await policy.cancel({ effectiveDate: watDate(5) })).status).toBe("c");
    const claim = await p.run("claim submit", { policy: policy.reference, incidentDate: watDate(), description: "Cracked screen", amount: 20_000 });
    expect(claim.exctnFdbck.id).toBe(75);
    // Ten days on, the cancellation has taken effect: move it there, and a claim for yesterday is after it.
    await age(issued, 10);
    await db
      .update(policies)
      .set({ cancelledFrom: new Date(Date.now() - 5 * DAY) })
      .where(eq(policies.id, policy.row.id));
    refused(
      await p.run("claim submit", { policy: policy.reference, incidentDate: watDate(-1), description: "Dropped again", amount: 10_000 }),
      400,
      "after the policy was cancelled",
    );
  });

  test("a claim and a cancellation at once: never a cancellation that ignored a pending claim", async () => {
    for (let round = 0; round < 4; round++) {
      const p = await t.partner();
      const policy = await approved(p, "phnn-flx1-1111");
      const [claim, cancel] = await Promise.all([
        p.run("claim submit", { policy: policy.reference, incidentDate: watDate(), description: "Cracked screen", amount: 20_000 }),
        policy.cancel(),
      ]);
      if (cancel.exctnFdbck.id === 75) {
        // The cancellation came first, within the cooling-off: the policy counts as never bought, so the claim is refused.
        expect(cancel.cancellation.refundBasis).toBe("cooling-off");
        refused(claim, 409, "within its cooling-off");
      } else {
        refused(cancel, 409, `has claim ${claim.claimNo} still being decided`);
        expect(claim.exctnFdbck.id).toBe(75);
      }
    }
  });

  test("two cancellations at once with different references: one wins, the other is a 409; one event, one refund", async () => {
    const p = await livePartner();
    const policy = await approved(p, "allr-stnd-1111", "live");
    const answers = await Promise.all([policy.cancel(), policy.cancel(), policy.cancel()]);
    expect(answers.filter((a) => a.exctnFdbck.id === 75)).toHaveLength(1);
    for (const loser of answers.filter((a) => a.exctnFdbck.id !== 75)) refused(loser, 409, "already cancelled");
    expect(await eventsOf(p.partnerId, "policy.cancelled")).toHaveLength(1);
    const refunds = await db
      .select()
      .from(walletEntries)
      .where(and(eq(walletEntries.partnerId, p.partnerId), eq(walletEntries.kind, "refund")));
    expect(refunds).toHaveLength(1);
    await ledgerAgrees(p.partnerId);
  });
});

describe("a financed policy", () => {
  test("cancelling closes the plan and settles it: what the consumer paid against what the cover cost", async () => {
    const p = await livePartner();
    const policy = await approved(p, "vhcl-tprt-1111", "live");
    const plan = await financed(p, policy.reference, 3000);
    await p.run("payment recordInstallment", { planNo: plan.planNo, amount: 3000, reference: `pay-${crypto.randomUUID()}` }, "live");
    const answer = await policy.cancel();
    expect(answer.cancellation.refund).toBe(15000);
    const [closed] = await db.select().from(financingPlans).where(eq(financingPlans.planNo, plan.planNo));
    expect(closed).toMatchObject({ status: "cancelled", statusNote: answer.statusNote });
    const [settled] = await eventsOf(p.partnerId, "financing.cancelled");
    // Paid ₦6,000; the cover cost nothing in the end (cooling-off): all of it is due back to the consumer.
    expect(settled!.payload).toMatchObject({ planNo: plan.planNo, consumerPaid: 6000, coverCost: 0, dueToConsumer: 6000, stillOwed: 0 });
    refused(await p.run("payment recordInstallment", { planNo: plan.planNo, amount: 3000, reference: `pay-${crypto.randomUUID()}` }, "live"), 409);
    await ledgerAgrees(p.partnerId);
  });
});

describe("the operator", () => {
  test("cancels any partner's policy, for misrepresentation too, audited", async () => {
    const p = await livePartner();
    const policy = await approved(p, "hlth-axam-1111", "live");
    const outcome = await cancelPolicy(
      db,
      { kind: "operator", by: "admin:ops@insurer.ng", actor: { label: "portal", partnerId: operator.partnerId } },
      { policyId: policy.row.id },
      { reference: crypto.randomUUID(), reason: "misrepresentation", note: "Pre-existing condition not declared" },
      new Date(),
    );
    expect(outcome.policy.status).toBe("c");
    expect(outcome.cancellation.by).toBe("admin:ops@insurer.ng");
    await ledgerAgrees(p.partnerId);
  });
});

describe("what others read of a cancelled policy", () => {
  test("the verify page says valid until the cancellation, then cancelled; the certificate says CANCELLED with the shortened cover", async () => {
    const p = await livePartner();
    const policy = await approved(p, "vhcl-tprt-1111", "live");
    const verify = async () => (await t.app.handle(new Request(`http://localhost/verify/${policy.row.policyNo}`))).text();
    await policy.cancel({ effectiveDate: watDate(5) });
    expect(await verify()).toContain("valid until it is cancelled from");
    const now = await cancelPolicy(
      db,
      partnerCanceller(p),
      { policyId: (await approved(p, "vhcl-tprt-1111", "live")).row.id },
      { reference: crypto.randomUUID(), reason: "duplicate" },
      new Date(),
    );
    const page = await (await t.app.handle(new Request(`http://localhost/verify/${now.policy.policyNo}`))).text();
    expect(page).toContain(">Cancelled<");
    expect(page).toContain("it gives no cover");
    const document = await renderCertificateFor(db, t.config, now.policy);
    const { text } = await pdfText(document.content);
    expect(text).toContain("CANCELLED from");
    expect(text).toContain("no cover after");
  });
});

describe("the vehicle registry", () => {
  test("a cancelled vehicle policy is published again, its record ending the day before the cancellation took effect", async () => {
    const p = await t.partner();
    const published: PublishedPolicy[] = [];
    const registry = {
      lookup: async () => ({ status: "not_found" as const, details: {} }),
      publish: async (record: PublishedPolicy) => void published.push(record),
    };
    const policy = await approved(p);
    while ((await publishApprovedVehicles(db, registry as never, "Test Insurer", new Date())) > 0);
    const first = published.find((r) => r.policyNumber === policy.row.policyNo);
    expect(first?.expiryDate).toBe(new Date(policy.row.coverEnd.getTime() - 1 + 3_600_000).toISOString().slice(0, 10));
    await policy.cancel({ effectiveDate: watDate(10) });
    while ((await publishApprovedVehicles(db, registry as never, "Test Insurer", new Date())) > 0);
    expect(published.filter((r) => r.policyNumber === policy.row.policyNo).at(-1)?.expiryDate).toBe(watDate(9));
  });
});

describe("reinstating a lapsed policy", () => {
  test("within 30 days: the missed installments are recorded as paid, the plan runs again, the policy is in force with the lapsed time a gap; the wallet is untouched", async () => {
    const p = await livePartner();
    const { policy, planNo } = await lapsedPolicy(p);
    const balance = await ledgerAgrees(p.partnerId);
    const id = crypto.randomUUID();
    const answer = await p.run(`rinst ${policy.address}`, { id }, "live");
    // Installments due 14 and 7 days ago and today: ₦9,000 missed.
    expect(answer).toMatchObject({ exctnFdbck: { id: 75 }, status: "a", reinstatement: { id, paid: 9000 } });
    expect(answer.statusNote).toContain("the missed installments paid: no cover from");
    expect(answer.reinstatement.gap).toBeDefined();
    expect(await ledgerAgrees(p.partnerId)).toBe(balance);
    const plan = await p.run("payment status", { planNo }, "live");
    expect(plan).toMatchObject({ status: "active", outstanding: 3000 });
    const [recorded] = await eventsOf(p.partnerId, "financing.installment_recorded");
    expect(recorded!.payload).toMatchObject({ planNo, reference: `RINST-${id}`, amount: 9000 });
    expect((await p.run(`rinst ${policy.address}`, { id }, "live")).reinstatement).toEqual(answer.reinstatement);
    refused(await p.run(`rinst ${policy.address}`, { id: crypto.randomUUID() }, "live"), 409, "is not cancelled or lapsed");
  });

  test("after 30 days it is refused, saying until when it could have been", async () => {
    const p = await livePartner();
    const { policy } = await lapsedPolicy(p);
    await db
      .update(policies)
      .set({ statusAt: new Date(Date.now() - 31 * DAY) })
      .where(eq(policies.id, policy.row.id));
    refused(await p.run(`rinst ${policy.address}`, { id: crypto.randomUUID() }, "live"), 409, "it could be reinstated for 30 days, until");
  });
});

describe("reinstatement", () => {
  test("within 30 days: the refund is paid back, the policy is in force to its original end, the cancelled days are a gap no claim reaches", async () => {
    const p = await livePartner();
    const policy = await approved(p, "phnn-flx1-1111", "live");
    await age(policy.row, 40);
    const { cancellation } = await cancelPolicy(
      db,
      partnerCanceller(p),
      { policyId: policy.row.id },
      { reference: crypto.randomUUID(), reason: "insured_request" },
      new Date(),
    );
    expect(cancellation.refundKobo).toBeGreaterThan(0);
    // Cancelled ten days ago, as far as the cover is concerned.
    const tenDaysAgo = new Date(Date.now() - 10 * DAY);
    await db.update(policyCancellations).set({ effectiveAt: tenDaysAgo }).where(eq(policyCancellations.id, cancellation.id));
    await db.update(policies).set({ cancelledFrom: tenDaysAgo }).where(eq(policies.id, policy.row.id));
    const balance = await ledgerAgrees(p.partnerId);
    const reference = crypto.randomUUID();
    const outcome = await reinstatePolicy(db, partnerCanceller(p), { policyId: policy.row.id }, reference, new Date());
    expect(outcome.policy).toMatchObject({ status: "a", cancelledFrom: null });
    expect(outcome.policy.coverEnd.getTime()).toBe(policy.row.coverEnd.getTime() - 40 * DAY);
    expect(outcome.reinstatement.owedKobo).toBe(cancellation.refundKobo);
    expect(outcome.reinstatement.gapFrom?.getTime()).toBe(tenDaysAgo.getTime());
    expect(await ledgerAgrees(p.partnerId)).toBe(balance - cancellation.refundKobo);
    // A repeat with the reference is the first answer; nothing is paid twice.
    expect((await reinstatePolicy(db, partnerCanceller(p), { policyId: policy.row.id }, reference, new Date())).repeated).toBe(true);
    expect(await ledgerAgrees(p.partnerId)).toBe(balance - cancellation.refundKobo);
    const [event] = await eventsOf(p.partnerId, "policy.reinstated");
    expect(event!.payload).toMatchObject({ status: "a", reinstatement: { id: reference, paid: cancellation.refundKobo / 100 } });
    const claim = (incidentDate: string) => p.run("claim submit", { policy: policy.reference, incidentDate, description: "Cracked", amount: 5_000 }, "live");
    refused(await claim(watDate(-5)), 400, "falls in a gap in the cover");
    expect((await claim(watDate(-15))).exctnFdbck.id).toBe(75);
    // In force again: cancelled again as any policy, once the claim made meanwhile is decided.
    refused(await policy.cancel(), 409, "still being decided");
  });

  test("refused after the window, on a policy never cancelled, and by another partner", async () => {
    const p = await t.partner();
    const policy = await approved(p);
    refused(
      await p.run(`rinst ${policy.address}`, { id: crypto.randomUUID() }),
      409,
      "is not cancelled or lapsed: only a cancelled or lapsed policy can be reinstated",
    );
    await policy.cancel();
    refused(await (await t.partner()).run(`rinst ${policy.address}`, { id: crypto.randomUUID() }), 404, "no policy");
    const late = new Date(Date.now() + 31 * DAY);
    await expect(reinstatePolicy(db, partnerCanceller(p, "test"), { policyId: policy.row.id }, crypto.randomUUID(), late)).rejects.toThrow(
      "it could be reinstated for 30 days",
    );
    const answer = await p.run(`rinst ${policy.address}`, { id: "RINST1" });
    expect(answer).toMatchObject({ status: "a", reinstatement: { id: "RINST1", paid: 0 } });
    expect((await policy.status()).status).toBe("a");
  });
});

describe("renewal", () => {
  test("in the last 60 days: a new policy linked to it, cover continuing from the day after, priced today and paid from the wallet; a repeat answers the first", async () => {
    const p = await livePartner();
    const policy = await approved(p, "allr-stnd-1111", "live");
    const row = await endingIn(policy.row, 20);
    const before = await ledgerAgrees(p.partnerId);
    const reference = crypto.randomUUID();
    const { renewal, repeated } = await renewPolicy(db, partnerCanceller(p), { policyId: row.id }, reference, new Date(), 0);
    expect(repeated).toBe(false);
    expect(renewal).toMatchObject({ reference, renewsPolicyId: row.id, productCode: row.productCode, duration: row.duration, consumerId: row.consumerId });
    expect(renewal.coverStart.getTime()).toBe(row.coverEnd.getTime());
    expect(renewal.premiumKobo).toBe(row.premiumKobo);
    expect(await ledgerAgrees(p.partnerId)).toBe(before - renewal.premiumKobo);
    expect((await renewPolicy(db, partnerCanceller(p), { policyId: row.id }, reference, new Date(), 0)).repeated).toBe(true);
    expect(await ledgerAgrees(p.partnerId)).toBe(before - renewal.premiumKobo);
    const [event] = await eventsOf(p.partnerId, "policy.renewed");
    expect(event!.payload).toMatchObject({ id: policy.reference, renewal: { id: reference } });
    // A second renewal with another reference: one renewal at a time.
    await expect(renewPolicy(db, partnerCanceller(p), { policyId: row.id }, crypto.randomUUID(), new Date(), 0)).rejects.toThrow("is already renewed");
  });

  test("refused too early, for a trip, and by another partner; the command answers the new policy", async () => {
    const p = await t.partner();
    const policy = await approved(p);
    refused(await p.run(`rnew ${policy.address}`, { id: crypto.randomUUID() }), 409, "can be renewed from");
    const trip = await approved(p, "ltix-stnd-1111");
    refused(await p.run(`rnew ${trip.address}`, { id: crypto.randomUUID() }), 409, "covers one trip or loan: it is not renewed");
    refused(await (await t.partner()).run(`rnew ${policy.address}`, { id: crypto.randomUUID() }), 404, "no policy");
    await endingIn(policy.row, 2);
    const answer = await p.run(`rnew ${policy.address}`, { id: "RENEW1" });
    expect(answer).toMatchObject({ exctnFdbck: { id: 75 }, id: "RENEW1", renews: policy.reference, status: "a", prmm: 15000 });
    const [, consumer] = /^entt_([^|]+)\|/.exec(policy.address)!;
    expect((await p.run(`dump entt_${consumer}|insr_vhcl-tprt-1111-RENEW1*STATUS`)).status).toBe("a");
    expect(await p.run(`rnew ${policy.address}`, { id: "RENEW1" })).toEqual(answer);
  });

  test("a comprehensive vehicle's proof of ownership is not carried over: approved at once with it, its renewal goes to review", async () => {
    const p = await livePartner();
    const c = productCases["vhcl-cmpr-1111"]!;
    const consumer = (await p.run("prfl entity", fullConsumer(), "live")).id as string;
    const answer = await p.run(`entt_${consumer}: insure`, insureSeed(c, { addtnlFact: { ...c.addtnlFact(), proofOfOwnrsh: PNG_BASE64 } }), "live");
    expect(answer.status).toBe("a");
    const [row] = await db
      .select()
      .from(policies)
      .where(and(eq(policies.partnerId, p.partnerId), eq(policies.reference, answer.id)));
    expect(row!.facts.proofOfOwnrsh).toMatchObject({ mime: "image/png" });
    const { renewal } = await renewPolicy(db, partnerCanceller(p), { policyId: (await endingIn(row!, 20)).id }, crypto.randomUUID(), new Date(), 0);
    expect(renewal).toMatchObject({ status: "p", route: "manual" });
    expect(renewal.facts).not.toHaveProperty("proofOfOwnrsh");
    expect(renewal.facts.vhclValueForInsrnc).toBe(row!.facts.vhclValueForInsrnc);
  });

  test("a renewal and a cancellation at once: the renewed policy is locked, so each sees the other's outcome", async () => {
    const p = await livePartner();
    const policy = await approved(p, "hlth-axam-1111", "live");
    const row = await endingIn(policy.row, 10);
    const [renewed, cancelled] = await Promise.allSettled([
      renewPolicy(db, partnerCanceller(p), { policyId: row.id }, crypto.randomUUID(), new Date(), 0),
      cancelPolicy(db, partnerCanceller(p), { policyId: row.id }, { reference: crypto.randomUUID(), reason: "insured_request" }, new Date()),
    ]);
    // Cancelled first: the renewal is refused (not in force). Renewed first: the old policy may still be cancelled, its renewal stands.
    if (renewed.status === "rejected") {
      expect(String(renewed.reason)).toContain("was cancelled: only an approved policy is renewed");
      expect(cancelled.status).toBe("fulfilled");
    } else expect(renewed.value.renewal.renewsPolicyId).toBe(row.id);
    await ledgerAgrees(p.partnerId);
  });
});

describe("automatic renewal", () => {
  test("an opted-in policy in its last week is renewed from the wallet; one that cannot be paid gets policy.renewal_failed once a day", async () => {
    const p = await livePartner();
    const paid = await approved(p, "phnn-flx1-1111", "live");
    // A partner whose wallet held exactly the first premium: its renewal cannot be paid.
    const broke = await t.partner();
    const c = productCases["allr-stnd-1111"]!;
    const { prmm } = await broke.run(`dump ipck_${c.code}*PRMM`, c.quote, "live");
    await broke.run("wallet topup", { amount: prmm, reference: `fund-${crypto.randomUUID()}` }, "live");
    const unpaid = await approved(broke, c.code, "live");
    expect(await p.run(`rnew ${paid.address}*AUTO`, { enabled: true }, "live")).toMatchObject({ id: paid.reference, autoRenew: true });
    expect((await broke.run(`rnew ${unpaid.address}*AUTO`, { enabled: true }, "live")).autoRenew).toBe(true);
    await endingIn(paid.row, 5);
    await endingIn(unpaid.row, 3);
    const before = await ledgerAgrees(p.partnerId);
    await renewOptedInPolicies(db, new Date(), 0);
    const failures = await eventsOf(broke.partnerId, "policy.renewal_failed");
    expect(failures.map((e) => (e.payload as { id: string }).id)).toEqual([unpaid.reference]);
    expect((failures[0]!.payload as { reason: string }).reason).toContain("insufficient wallet balance");
    const renewals = await db.select().from(policies).where(eq(policies.renewsPolicyId, paid.row.id));
    expect(renewals).toHaveLength(1);
    expect(renewals[0]).toMatchObject({ autoRenew: true, reference: `AUTO${paid.row.id.replaceAll("-", "").slice(0, 28)}` });
    expect(await ledgerAgrees(p.partnerId)).toBe(before - renewals[0]!.premiumKobo);
    // Again at once: nothing new (renewed, or failed less than a day ago).
    await renewOptedInPolicies(db, new Date(), 0);
    expect(await eventsOf(broke.partnerId, "policy.renewal_failed")).toHaveLength(1);
    expect(await db.select().from(policies).where(eq(policies.renewsPolicyId, paid.row.id))).toHaveLength(1);
    await ledgerAgrees(broke.partnerId);
  });

  test("only policies that renew can be opted in", async () => {
    const p = await t.partner();
    const trip = await approved(p, "ltix-stnd-1111");
    refused(await p.run(`rnew ${trip.address}*AUTO`, { enabled: true }), 409, "covers one trip or loan");
    expect((await p.run(`rnew ${trip.address}*AUTO`, { enabled: false })).autoRenew).toBe(false);
  });
});

describe("reminders before the end of cover", () => {
  test("30, 7 and 1 days before, one policy.expiring each, never twice; a trip's cover is not reminded", async () => {
    const p = await t.partner();
    const vehicle = await approved(p);
    const trip = await approved(p, "ltix-stnd-1111");
    const reminders = async () => (await eventsOf(p.partnerId, "policy.expiring")).map((e) => e.payload as { daysLeft: number; id: string });
    let row = vehicle.row;
    const remindWhenEndingIn = async (days: number) => {
      row = await endingIn(row, days, true);
      await remindExpiringPolicies(db, new Date());
    };
    await remindWhenEndingIn(40);
    expect(await reminders()).toEqual([]);
    await remindWhenEndingIn(20);
    await remindWhenEndingIn(19);
    expect(await reminders()).toMatchObject([{ id: vehicle.reference, daysLeft: 30 }]);
    await remindWhenEndingIn(5);
    await remindWhenEndingIn(0.5);
    const lastDay = new Date(row.coverEnd.getTime() - 1 + 3_600_000).toISOString().slice(0, 10);
    await remindWhenEndingIn(0.25);
    expect((await reminders()).map((r) => r.daysLeft)).toEqual([30, 7, 1]);
    const [last] = (await eventsOf(p.partnerId, "policy.expiring")).slice(-1);
    expect(last!.payload).toMatchObject({ lastDay, status: "a" });
    // A trip's cover is one trip: no renewal, no reminder.
    await endingIn(trip.row, 2);
    await remindExpiringPolicies(db, new Date());
    expect((await reminders()).filter((r) => r.id === trip.reference)).toEqual([]);
  });
});

describe("expiry", () => {
  test("at the end of cover the run marks the policy e with policy.expired, dated when the cover ended; claims for incidents within the cover are still accepted", async () => {
    const p = await t.partner();
    const policy = await approved(p, "gtrn-stnd-1111");
    await endingIn(policy.row, 0.01, true);
    await expireEndedPolicies(db, new Date());
    expect((await policy.status()).status).toBe("a");
    const ended = await endingIn(policy.row, -0.5, true);
    expect(await expireEndedPolicies(db, new Date())).toBeGreaterThanOrEqual(1);
    expect((await policy.status()).status).toBe("e");
    const [event] = await eventsOf(p.partnerId, "policy.expired");
    expect(event!.payload).toMatchObject({ id: policy.reference, status: "e" });
    const [row] = await db.select().from(policies).where(eq(policies.id, policy.row.id));
    expect(row!.statusAt.getTime()).toBe(ended.coverEnd.getTime());
    refused(await policy.cancel(), 409, "has expired: only an approved policy can be cancelled");
    const incidentDate = new Date(ended.coverEnd.getTime() - DAY + 3_600_000).toISOString().slice(0, 10);
    const claim = await p.run("claim submit", { policy: policy.reference, incidentDate, description: "Goods damaged in transit", amount: 100_000 });
    expect(claim).toMatchObject({ exctnFdbck: { id: 75 }, status: "submitted" });
  });
});

describe("the ledger, over random cancellations", () => {
  test("refunds never exceed what was paid, and the ledger always sums to the balance", async () => {
    const p = await livePartner();
    const codes = ["vhcl-tprt-1111", "phnn-flx1-1111", "allr-stnd-1111", "crlt-psnl-1111", "ltix-stnd-1111", "hlth-axam-1111"];
    const premiums = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...codes), fc.integer({ min: 0, max: 400 }), async (code, days) => {
        // A policy issued `days` ago, cancelled now.
        const row = await age((await approved(p, code, "live")).row, days);
        premiums.set(row.id, row.premiumKobo);
        try {
          const { cancellation } = await cancelPolicy(
            db,
            partnerCanceller(p),
            { policyId: row.id },
            { reference: crypto.randomUUID(), reason: "insured_request" },
            new Date(),
          );
          expect(cancellation.refundKobo + cancellation.feeKobo).toBeLessThanOrEqual(row.premiumKobo);
        } catch (error) {
          // Its cover already over: refused, nothing written.
          expect(String(error)).toMatch(/within the cover/);
        }
        await ledgerAgrees(p.partnerId);
      }),
      { numRuns: 12 },
    );
    const refunds = await db
      .select()
      .from(walletEntries)
      .where(and(eq(walletEntries.partnerId, p.partnerId), eq(walletEntries.kind, "refund")));
    for (const refund of refunds) expect(refund.amountKobo).toBeLessThanOrEqual(premiums.get(refund.policyId!)!);
  });
});
