import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { listAudit } from "../../src/modules/audit/service";
import { fundingConfirmations, walletFundings } from "../../src/modules/funding/schema";
import { portalUsers } from "../../src/modules/partners/schema";
import { setAccountMode } from "../../src/modules/partners/service";
import { walletEntries } from "../../src/modules/wallet/schema";
import { walletBalance } from "../../src/modules/wallet/service";
import { naira } from "../../views/format";
import { type TestPartner, testApp } from "../support/harness";
import { type Browser, confirmStepFields, signedIn } from "./browser";

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
    // The form asks first, naming the partner and the amount; nothing is credited until its button is pressed.
    const step = await admin.post(`/admin/fundings/${funding.id}/confirm`, { bankReference, amount: "3,000" }, { "hx-request": "true" });
    expect(step.status).toBe(200);
    expect(step.text).toContain(`Credit ₦3,000.00 to ${p.name}</button>`);
    expect(step.text).toContain(bankReference);
    expect(await walletBalance(db, p.partnerId)).toBe(0);
    // A token of another amount (or none) is not this confirmation: it is asked again, and nothing is credited.
    const forged = await admin.post(`/admin/fundings/${funding.id}/confirm`, { bankReference, amount: "3,000", confirmed: "forged" }, { "hx-request": "true" });
    expect(forged.text).toContain(`Credit ₦3,000.00 to ${p.name}</button>`);
    const otherAmount = confirmStepFields(step.text)!;
    const changed = await admin.post(otherAmount.action, { ...otherAmount.fields, amount: "30,000" }, { "hx-request": "true" });
    expect(changed.text).toContain(`Confirm ₦30,000.00 received from ${p.name}</button>`);
    expect(await walletBalance(db, p.partnerId)).toBe(0);
    const back = confirmStepFields(step.text)!;
    const done = await admin.post(back.action, back.fields, { "hx-request": "true" });
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
    const { step, answer: asked } = await first.postConfirmed(`/admin/fundings/${funding.id}/confirm`, {
      bankReference: `NIP${crypto.randomUUID().slice(0, 12)}`,
      amount: String(amount),
    });
    expect(step!.text).toContain(`from ${naira(t.config.FUNDING_FOUR_EYES_KOBO)} in all, it waits for a second administrator`);
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
    // The approval asks first too: the partner, the amount and who asked; nothing is credited before its button.
    const approval = await second.post(`/admin/fundings/confirmations/${confirmationId}/approve`, {});
    expect(approval.text).toContain(`Credit ${naira(t.config.FUNDING_FOUR_EYES_KOBO)} to ${p.name}</button>`);
    expect(approval.text).toContain(alice.portal.email);
    expect(await walletBalance(db, p.partnerId)).toBe(0);
    const back = confirmStepFields(approval.text)!;
    const approved = await second.post(back.action, back.fields);
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
    const { step, answer: credited } = await admin.postConfirmed(`/admin/fundings/${funding.id}/credit-held`, {});
    expect(step!.text).toContain(`Credit ₦400.00 to ${p.name}</button>`);
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

describe("four eyes cannot be sidestepped: what one administrator credits on a funding adds up (issue 34)", () => {
  const THRESHOLD = t.config.FUNDING_FOUR_EYES_KOBO;
  const hx = { "hx-request": "true" };
  // Each through its confirmation step (confirming, crediting and approving ask first): what its button got.
  const confirm = async (admin: Browser, fundingId: string, amount: string) =>
    (
      await admin.postConfirmed(
        `/admin/fundings/${fundingId}/confirm`,
        { bankReference: `NIP${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`, amount },
        hx,
      )
    ).answer;
  const creditHeld = async (admin: Browser, fundingId: string) => (await admin.postConfirmed(`/admin/fundings/${fundingId}/credit-held`, {}, hx)).answer;
  const decide = async (admin: Browser, confirmationId: string, decision: "approve" | "reject") =>
    (await admin.postConfirmed(`/admin/fundings/confirmations/${confirmationId}/${decision}`, {}, hx)).answer;
  /** The funding's card on the page, where its refusals stand. */
  const card = (html: string, fundingId: string) =>
    /<article[^>]*id="funding-([^"]+)"[\s\S]*?<\/article>/g[Symbol.matchAll](html).find((m) => m[1] === fundingId)?.[0] ?? "";
  const waiting = async (fundingId: string) =>
    (await db.select().from(fundingConfirmations).where(eq(fundingConfirmations.fundingId, fundingId))).filter((c) => c.status === "awaiting_approval");
  const userOf = async (p: TestPartner) => (await db.select().from(portalUsers).where(eq(portalUsers.partnerId, p.partnerId)))[0]!.id;

  async function live(naira: number, suffix = "-unpaid") {
    const p = await livePartner();
    const ref = reference(suffix);
    await p.run("wallet topup", { amount: naira, reference: ref }, "live");
    return { p, funding: await fundingOf(p, ref) };
  }

  /**
   * The money rules, whatever the order: at most one credit per funding, the balance is the ledger's,
   * at most one confirmation waits, and no administrator applied the threshold or more on it alone.
   */
  async function moneyRulesHold(p: TestPartner, fundingId: string) {
    const funding = (await db.select().from(walletFundings).where(eq(walletFundings.id, fundingId)))[0]!;
    const lines = (await db.select().from(walletEntries).where(eq(walletEntries.partnerId, p.partnerId))).filter((e) => e.kind === "topup");
    expect(lines.length).toBe(funding.status === "credited" ? 1 : 0);
    if (funding.status === "credited") expect(lines[0]!.amountKobo).toBe(funding.receivedKobo!);
    expect(await walletBalance(db, p.partnerId)).toBe(lines.reduce((sum, line) => sum + line.amountKobo, 0));
    const rows = await db.select().from(fundingConfirmations).where(eq(fundingConfirmations.fundingId, fundingId));
    expect(rows.filter((c) => c.status === "awaiting_approval").length).toBeLessThanOrEqual(1);
    const alone = new Map<string, number>();
    for (const c of rows.filter((c) => c.status === "approved" && c.decidedBy === c.requestedBy))
      alone.set(c.requestedBy, (alone.get(c.requestedBy) ?? 0) + c.amountKobo);
    for (const total of alone.values()) expect(total).toBeLessThan(THRESHOLD);
  }

  test("the issue's order: while ₦2,000,000 waits, the same administrator's ₦999,999 is refused on the funding's card; a second administrator approves", async () => {
    const { p, funding } = await live(2_000_000);
    const [first, second] = [await signedIn(t, alice.portal), await signedIn(t, bola.portal)];
    expect((await confirm(first, funding.id, "2,000,000")).text).toContain("waits for a second administrator");
    const small = await confirm(first, funding.id, "999,999");
    expect(small.status).toBe(409);
    expect(card(small.text, funding.id)).toContain("already waits for approval by a second administrator: approve or reject it first");
    expect(await fundingOf(p, funding.reference)).toMatchObject({ status: "pending", receivedKobo: null });
    // Nothing is held, so nothing can be credited alone either.
    expect((await creditHeld(first, funding.id)).status).toBe(409);
    await moneyRulesHold(p, funding.id);
    const [asked] = await waiting(funding.id);
    expect(asked).toMatchObject({ kind: "transfer", amountKobo: 200_000_000 });
    expect((await decide(first, asked!.id, "approve")).status).toBe(403);
    const approved = await decide(second, asked!.id, "approve");
    expect(approved.text).toContain("Confirmed: ₦2,000,000.00 is credited");
    await moneyRulesHold(p, funding.id);
    expect(await walletBalance(db, p.partnerId)).toBe(200_000_000);
  });

  test("small amounts add up: a second confirmation is refused, and crediting the held amount past the threshold waits for a second administrator", async () => {
    const { p, funding } = await live(1_500_000);
    const [first, second] = [await signedIn(t, alice.portal), await signedIn(t, bola.portal)];
    expect((await confirm(first, funding.id, "600,000")).text).toContain("not the amount asked for: the funding is held");
    const again = await confirm(first, funding.id, "600,000");
    expect(again.status).toBe(409);
    expect(card(again.text, funding.id)).toContain("only a pending or expired funding can be confirmed");
    // ₦600,000 confirmed and ₦600,000 credited by one administrator: ₦1,200,000 in all.
    const credit = await creditHeld(first, funding.id);
    expect(credit.text).toContain("The credit of ₦600,000.00 for");
    expect(credit.text).toContain("waits for a second administrator");
    expect(card(credit.text, funding.id)).toContain("Credit of the ₦600,000.00 received, asked by");
    expect(card(credit.text, funding.id)).toContain("Another administrator must approve it.");
    expect(await walletBalance(db, p.partnerId)).toBe(0);
    // The held funding cannot be rejected (nor credited again) while its credit waits.
    expect(card((await first.post(`/admin/fundings/${funding.id}/reject-held`, {}, hx)).text, funding.id)).toContain("already waits for approval");
    expect((await creditHeld(second, funding.id)).status).toBe(409);
    await moneyRulesHold(p, funding.id);
    const [asked] = await waiting(funding.id);
    expect(asked).toMatchObject({ kind: "held_credit", bankReference: null, amountKobo: 60_000_000, requestedBy: await userOf(alice) });
    expect((await decide(first, asked!.id, "approve")).status).toBe(403);
    expect((await decide(second, asked!.id, "approve")).text).toContain("Confirmed: ₦600,000.00 is credited");
    await moneyRulesHold(p, funding.id);
    expect(await walletBalance(db, p.partnerId)).toBe(60_000_000);

    // Below the threshold in all, one administrator confirms and credits alone.
    const below = await live(1_500_000);
    expect((await confirm(first, below.funding.id, "400,000")).status).toBe(200);
    expect((await creditHeld(first, below.funding.id)).text).toContain("Credited ₦400,000.00 for");
    await moneyRulesHold(below.p, below.funding.id);
    expect(await walletBalance(db, below.p.partnerId)).toBe(40_000_000);
  });

  test("a held amount the provider reported: from the threshold its credit waits; a rejected request leaves it held for another", async () => {
    const { p, funding } = await live(2_400_000, "-partial");
    expect(funding).toMatchObject({ status: "held", receivedKobo: 120_000_000 });
    const [first, second] = [await signedIn(t, alice.portal), await signedIn(t, bola.portal)];
    expect((await creditHeld(first, funding.id)).text).toContain("waits for a second administrator");
    const [asked] = await waiting(funding.id);
    expect((await decide(second, asked!.id, "reject")).text).toContain("is rejected: nothing was credited");
    expect(await fundingOf(p, funding.reference)).toMatchObject({ status: "held" });
    // A rejected request does not count: the second administrator asks in turn, and the first approves.
    expect((await creditHeld(second, funding.id)).text).toContain("waits for a second administrator");
    const [again] = await waiting(funding.id);
    expect(again!.requestedBy).toBe(await userOf(bola));
    expect((await decide(first, again!.id, "approve")).text).toContain("Confirmed: ₦1,200,000.00 is credited");
    await moneyRulesHold(p, funding.id);
    expect(await walletBalance(db, p.partnerId)).toBe(120_000_000);
  });

  test("at the same moment: of four confirmations one is taken and the others refused; of two approvals one credits", async () => {
    const chidi = await t.partner({ admin: true });
    const { p, funding } = await live(2_000_000);
    const [a, b, c] = [await signedIn(t, alice.portal), await signedIn(t, bola.portal), await signedIn(t, chidi.portal)];
    const answers = await Promise.all([
      confirm(a, funding.id, "2,000,000"),
      confirm(a, funding.id, "999,999"),
      confirm(b, funding.id, "2,000,000"),
      confirm(c, funding.id, "1,500,000"),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409]);
    await moneyRulesHold(p, funding.id);
    const [asked] = await waiting(funding.id);
    if (!asked) {
      // ₦999,999 came first: held, and crediting it makes ₦1,999,998 by one administrator, which waits.
      expect((await creditHeld(a, funding.id)).text).toContain("waits for a second administrator");
    }
    const open = (await waiting(funding.id))[0]!;
    const others = [
      [alice, a],
      [bola, b],
      [chidi, c],
    ] as const;
    const approvers: Browser[] = [];
    for (const [who, browser] of others) if ((await userOf(who)) !== open.requestedBy) approvers.push(browser);
    const decisions = await Promise.all(approvers.map((browser) => decide(browser, open.id, "approve")));
    expect(decisions.map((d) => d.status).sort()).toEqual([200, 409]);
    await moneyRulesHold(p, funding.id);
    // Whichever confirmation came first decides: the whole ₦2,000,000 (or the held ₦999,999 credited) is
    // credited; an approved ₦1,500,000 is less than the top-up, so the funding is held for that amount.
    const credits = open.kind === "held_credit" || open.amountKobo === 200_000_000;
    expect(await fundingOf(p, funding.reference)).toMatchObject({ status: credits ? "credited" : "held" });
  });
});
