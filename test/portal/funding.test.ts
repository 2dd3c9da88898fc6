import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { listAudit } from "../../src/modules/audit/service";
import { walletFundings } from "../../src/modules/funding/schema";
import { setAccountMode } from "../../src/modules/partners/service";
import { walletBalance } from "../../src/modules/wallet/service";
import { type TestPartner, testApp } from "../support/harness";
import { signedIn } from "./browser";

const t = await testApp();
const db = t.database.db;
const [alice, bola] = [await t.partner({ admin: true }), await t.partner({ admin: true })];
const reference = (suffix = "") => `TRF-${crypto.randomUUID().slice(0, 8)}${suffix}`;

async function livePartner() {
  const p = await t.partner();
  await setAccountMode(db, p.partnerId, "live");
  return p;
}
async function fundingOf(p: TestPartner, ref: string) {
  const [row] = await db
    .select()
    .from(walletFundings)
    .where(and(eq(walletFundings.partnerId, p.partnerId), eq(walletFundings.reference, ref)));
  return row!;
}

describe("the partner's wallet page in live mode", () => {
  test("a top-up waiting for the transfer shows how to pay; the sandbox pays it; the balance rises", async () => {
    const p = await livePartner();
    const b = await signedIn(t, p.portal);
    const page = await b.get("/portal/wallet");
    expect(page.text).toContain("Live mode: you get a bank account to transfer the amount to");
    expect(page.text).toContain("No live top-ups yet.");
    const ref = reference("-unpaid");
    const asked = await b.post("/portal/wallet/topup", { amount: "250,000", reference: ref }, { "hx-request": "true" });
    expect(asked.status).toBe(200);
    const funding = await fundingOf(p, ref);
    const instruction = funding.instruction as { accountNumber: string };
    for (const shown of [
      `Top-up ${ref} is waiting for your transfer`,
      "Sandbox Microfinance Bank",
      instruction.accountNumber,
      "Sandbox Checkout / Funding",
      "₦250,000.00",
      "Pay before",
      "Waiting for payment",
    ])
      expect(asked.text).toContain(shown);
    expect(asked.text).toContain('id="balance">₦0.00<');
    expect(asked.text).toContain(`/portal/wallet/fundings/${funding.id}/pay`);
    expect(await listAudit(db, { partnerId: p.partnerId, action: "funding.start" }, { limit: 5 })).toMatchObject({ items: [{ subject: ref }] });

    const paid = await b.post(`/portal/wallet/fundings/${funding.id}/pay`, {}, { "hx-request": "true" });
    expect(paid.status).toBe(200);
    expect(paid.text).toContain('id="balance">₦250,000.00<');
    expect(paid.text).toContain("Credited");
    expect(await walletBalance(db, p.partnerId)).toBe(25_000_000);
    // Paying again changes nothing.
    await b.post(`/portal/wallet/fundings/${funding.id}/pay`, {}, { "hx-request": "true" });
    expect(await walletBalance(db, p.partnerId)).toBe(25_000_000);
  });

  test("failed and held top-ups are said in plain words; nothing is credited", async () => {
    const p = await livePartner();
    const b = await signedIn(t, p.portal);
    await b.get("/portal/wallet");
    const failed = await b.post("/portal/wallet/topup", { amount: "100", reference: reference("-fail") }, { "hx-request": "true" });
    expect(failed.text).toContain("failed: nothing was credited");
    const held = await b.post("/portal/wallet/topup", { amount: "100", reference: reference("-partial") }, { "hx-request": "true" });
    expect(held.text).toContain("is held: a different amount arrived");
    expect(held.text).toContain("Held for review");
    expect(held.text).not.toContain("charge.");
    expect(await walletBalance(db, p.partnerId)).toBe(0);
  });

  test("test mode stays instant and never reaches the live wallet", async () => {
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    await b.get("/portal/wallet");
    const done = await b.post("/portal/wallet/topup", { amount: "5,000", reference: reference() }, { "hx-request": "true" });
    expect(done.text).toContain("Test top-up: ₦5,000.00");
    expect(done.text).toContain("The test balance is ₦5,000.00");
    expect(done.text).not.toContain("Live top-ups");
    expect(await walletBalance(db, p.partnerId)).toBe(0);
  });
});

describe("the operator's fundings page", () => {
  test("confirm a bank transfer by hand below the threshold: credited, audited", async () => {
    const p = await livePartner();
    const ref = reference("-unpaid");
    await p.run("wallet topup", { amount: 3000, reference: ref }, "live");
    const funding = await fundingOf(p, ref);
    const admin = await signedIn(t, alice.portal);
    const list = await admin.get("/admin/fundings");
    expect(list.status).toBe(200);
    expect(list.text).toContain(ref);
    expect(list.text).toContain("Confirm a bank transfer");
    // A refusal sits beside its field, in words.
    const refused = await admin.post(`/admin/fundings/${funding.id}/confirm`, { bankReference: "x", amount: "3000" }, { "hx-request": "true" });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('id="f-bankReference-error"');
    const bankReference = `NIP${crypto.randomUUID().slice(0, 12)}`;
    const done = await admin.post(`/admin/fundings/${funding.id}/confirm`, { bankReference, amount: "3,000" }, { "hx-request": "true" });
    expect(done.status).toBe(200);
    expect(done.text).toContain("Confirmed: ₦3,000.00 is credited");
    expect(done.text).not.toContain(ref);
    expect(await walletBalance(db, p.partnerId)).toBe(300_000);
    expect((await listAudit(db, { action: "funding.confirm" }, { limit: 50 })).items.find((a) => a.subject === ref)).toMatchObject({
      actor: alice.portal.email,
      details: { bankReference, amountKobo: 300_000, outcome: "credited" },
    });
  });

  test("four eyes above the threshold: the one who asked cannot approve, a second administrator does", async () => {
    const p = await livePartner();
    const ref = reference("-unpaid");
    const amount = t.config.FUNDING_FOUR_EYES_KOBO / 100;
    await p.run("wallet topup", { amount, reference: ref }, "live");
    const funding = await fundingOf(p, ref);
    const first = await signedIn(t, alice.portal);
    await first.get("/admin/fundings");
    const asked = await first.post(`/admin/fundings/${funding.id}/confirm`, {
      bankReference: `NIP${crypto.randomUUID().slice(0, 12)}`,
      amount: String(amount),
    });
    expect(asked.text).toContain("waits for a second administrator");
    expect(asked.text).toContain("Another administrator must approve it.");
    expect(await walletBalance(db, p.partnerId)).toBe(0);
    const confirmationId = /\/admin\/fundings\/confirmations\/([0-9a-f-]{36})\/reject/.exec(asked.text)![1]!;
    expect(asked.text).not.toContain(`/admin/fundings/confirmations/${confirmationId}/approve`);
    const own = await first.post(`/admin/fundings/confirmations/${confirmationId}/approve`, {});
    expect(own.status).toBe(403);
    expect(own.text).toContain("A second administrator must approve");
    expect(await walletBalance(db, p.partnerId)).toBe(0);

    const second = await signedIn(t, bola.portal);
    const waiting = await second.get("/admin/fundings");
    expect(waiting.text).toContain("Waiting for your approval.");
    const approved = await second.post(`/admin/fundings/confirmations/${confirmationId}/approve`, {});
    expect(approved.status).toBe(200);
    expect(approved.text).toContain("is credited");
    expect(await walletBalance(db, p.partnerId)).toBe(t.config.FUNDING_FOUR_EYES_KOBO);
  });

  test("a held funding: credit what was received", async () => {
    const p = await livePartner();
    const ref = reference("-partial");
    await p.run("wallet topup", { amount: 800, reference: ref }, "live");
    const funding = await fundingOf(p, ref);
    const admin = await signedIn(t, alice.portal);
    const list = await admin.get("/admin/fundings");
    expect(list.text).toContain("₦400.00 arrived for a top-up of ₦800.00");
    const credited = await admin.post(`/admin/fundings/${funding.id}/credit-held`, {});
    expect(credited.text).toContain(`Credited ₦400.00 for ${ref}.`);
    expect(await walletBalance(db, p.partnerId)).toBe(40_000);
    expect((await admin.post(`/admin/fundings/${funding.id}/reject-held`, {})).status).toBe(409);
  });

  test("partners cannot open it", async () => {
    const p = await livePartner();
    const b = await signedIn(t, p.portal);
    expect((await b.get("/admin/fundings")).status).toBe(403);
  });
});
