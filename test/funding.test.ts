import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { outboxEvents } from "../src/modules/events/schema";
import { checkFundings, payInSandbox, receiveCallback } from "../src/modules/funding/callbacks";
import { confirmTransfer, decideConfirmation, resolveHeld } from "../src/modules/funding/confirmations";
import { paymentProvider } from "../src/modules/funding/providers";
import { fundingCallbacks, fundingConfirmations, walletFundings } from "../src/modules/funding/schema";
import { portalUsers } from "../src/modules/partners/schema";
import { walletEntries } from "../src/modules/wallet/schema";
import { walletBalance } from "../src/modules/wallet/service";
import { type TestApp, type TestPartner, testApp } from "./support/harness";

const t = await testApp();
const db = t.database.db;
const provider = paymentProvider(t.config);
const FOUR_EYES = t.config.FUNDING_FOUR_EYES_KOBO;

const ref = (suffix = "") => `fund-${crypto.randomUUID().slice(0, 8)}${suffix}`;
const live = (p: TestPartner, amount: number, reference: string) => p.run("wallet topup", { amount, reference }, "live");

async function fundingOf(p: TestPartner, reference: string) {
  const [row] = await db
    .select()
    .from(walletFundings)
    .where(and(eq(walletFundings.partnerId, p.partnerId), eq(walletFundings.reference, reference)));
  return row!;
}
const topUpLines = (p: TestPartner) =>
  db
    .select()
    .from(walletEntries)
    .where(and(eq(walletEntries.partnerId, p.partnerId), eq(walletEntries.kind, "topup")));
const eventsOf = async (p: TestPartner, type: string) =>
  (
    await db
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.partnerId, p.partnerId), eq(outboxEvents.type, type)))
  ).map((e) => e.payload);
const callbacksOf = (providerReference: string) => db.select().from(fundingCallbacks).where(eq(fundingCallbacks.providerReference, providerReference));

/** The sandbox's signed callback of a funding, paid with `amountKobo` (or failed). */
function signed(providerReference: string, result: { paid: number } | "failed") {
  const body = JSON.stringify(
    result === "failed"
      ? { event: "charge.failed", data: { reference: providerReference, status: "failed", gateway_response: "Declined" } }
      : { event: "charge.success", data: { reference: providerReference, status: "success", amount: result.paid, currency: "NGN" } },
  );
  return { body, signature: new Bun.CryptoHasher("sha512", t.config.PAYMENT_PROVIDER_SECRET).update(body).digest("hex") };
}
/** A callback over HTTP, as the provider sends it, to `app`. */
const postCallback = (app: TestApp, body: string, signature?: string, path = "/funding/callbacks/sandbox") =>
  app.app.handle(
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(signature ? { "x-paystack-signature": signature } : {}) },
      body,
    }),
  );
const deliver = (cb: { body: string; signature: string }) => receiveCallback(db, provider, cb.body, cb.signature, new Date());

/** Two administrators of the operator, as audit rows name them. */
async function administrator() {
  const operator = await t.partner({ admin: true });
  const [user] = await db.select().from(portalUsers).where(eq(portalUsers.partnerId, operator.partnerId));
  return { userId: user!.id, email: user!.email, partnerId: operator.partnerId };
}
const [alice, bola] = [await administrator(), await administrator()];

/** A funding whose callback never came, aged past the check's wait (and past its expiry when `expired`): the test clock never moves. */
async function age(fundingId: string, expired = false) {
  const past = new Date(Date.now() - 2 * 3_600_000);
  await db
    .update(walletFundings)
    .set({ createdAt: past, ...(expired ? { expiresAt: new Date(Date.now() - 60_000) } : {}) })
    .where(eq(walletFundings.id, fundingId));
}

describe("wallet topup with a live key (the sandbox provider)", () => {
  test("an ordinary reference is paid at once: the provider's signed callback credits it once, with its ledger line and wallet.credited", async () => {
    const p = await t.partner();
    const reference = ref();
    const answer = await live(p, 2500.5, reference);
    expect(answer).toMatchObject({ exctnFdbck: { id: 75 }, reference, amount: 2500.5, status: "credited", balance: 2500.5, currency: "NGN" });
    expect(answer.payment).toBeUndefined();
    const funding = await fundingOf(p, reference);
    expect(funding).toMatchObject({ status: "credited", receivedKobo: 250_050, settledBy: "callback" });
    expect(await topUpLines(p)).toMatchObject([{ id: funding.walletEntryId!, amountKobo: 250_050, reference }]);
    expect(await eventsOf(p, "wallet.credited")).toEqual([{ reference, amount: 2500.5, balance: 2500.5 }]);
    expect(await callbacksOf(funding.providerReference)).toMatchObject([{ signatureValid: "yes", outcome: "credited", event: "charge.success" }]);
    // A repeat answers the same top-up; another amount is a conflict; nothing moves.
    expect(await live(p, 2500.5, reference)).toEqual(answer);
    expect((await live(p, 100, reference)).exctnFdbck).toMatchObject({
      id_v4: 409,
      elbrtn: `seed.reference ${reference} was already used for a top-up of 2500.5 naira`,
    });
    expect(await walletBalance(db, p.partnerId)).toBe(250_050);
  });

  test("-unpaid: pending with how to pay; paid later through the sandbox, credited once however often the callback comes", async () => {
    const p = await t.partner();
    const reference = ref("-unpaid");
    const answer = await live(p, 10_000, reference);
    expect(answer).toMatchObject({
      status: "pending",
      amount: 10_000,
      payment: { method: "bank_transfer", bank: "Sandbox Microfinance Bank", accountName: "Sandbox Checkout / Funding", amount: 10_000 },
    });
    expect(answer.payment.accountNumber).toMatch(/^\d{10}$/);
    expect(answer.payment.expires).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(answer.balance).toBeUndefined();
    expect(await walletBalance(db, p.partnerId)).toBe(0);
    expect(await live(p, 10_000, reference)).toEqual(answer); // still pending: the same answer
    const funding = await fundingOf(p, reference);
    expect(await payInSandbox(db, provider, p.partnerId, funding.id, new Date())).toEqual({ status: 200, outcome: "credited" });
    expect(await payInSandbox(db, provider, p.partnerId, funding.id, new Date())).toEqual({ status: 200, outcome: "repeat" });
    expect(await walletBalance(db, p.partnerId)).toBe(1_000_000);
    expect(await live(p, 10_000, reference)).toMatchObject({ status: "credited", balance: 10_000 });
    // Another partner cannot pay it.
    const other = await t.partner();
    await expect(payInSandbox(db, provider, other.partnerId, funding.id, new Date())).rejects.toThrow("no such funding");
  });

  test("-fail fails and -partial is held: nothing credited, with their events", async () => {
    const p = await t.partner();
    const failed = ref("-fail");
    expect(await live(p, 500, failed)).toMatchObject({ status: "failed", note: expect.stringContaining("Declined") });
    const partial = ref("-partial");
    expect(await live(p, 500, partial)).toMatchObject({ status: "held", note: "₦250.00 arrived for a top-up of ₦500.00" });
    expect(await fundingOf(p, partial)).toMatchObject({ status: "held", receivedKobo: 25_000 });
    expect(await topUpLines(p)).toEqual([]);
    expect(await walletBalance(db, p.partnerId)).toBe(0);
    expect((await eventsOf(p, "wallet.funding_failed")).map((e) => e.reference)).toEqual([failed]);
    expect(await eventsOf(p, "wallet.funding_held")).toMatchObject([{ reference: partial, amount: 500, received: 250 }]);
  });

  test("a test key: a credited specimen in the test balance, never money a live key can spend", async () => {
    const p = await t.partner();
    expect(await p.run("wallet topup", { amount: 0.29, reference: "t-a" })).toMatchObject({ status: "credited", amount: 0.29, balance: 0.29 });
    expect(await p.run("wallet topup", { amount: 1.1, reference: "t-b" })).toMatchObject({ balance: 1.39 });
    expect(await p.run("wallet topup", { amount: 1.1, reference: "t-b" })).toMatchObject({ balance: 1.39 });
    expect(await walletBalance(db, p.partnerId)).toBe(0);
    expect(await topUpLines(p)).toEqual([]);
    // One reference is one top-up, whichever key: a live key cannot claim a test top-up.
    expect((await live(p, 1.1, "t-b")).exctnFdbck).toMatchObject({ id_v4: 409, elbrtn: "seed.reference t-b was already used for a test-mode top-up" });
    await live(p, 5, "l-a");
    expect((await p.run("wallet topup", { amount: 5, reference: "l-a" })).exctnFdbck.elbrtn).toBe("seed.reference l-a was already used for a live-mode top-up");
  });

  test("concurrent top-ups with one reference start one funding and credit once", async () => {
    const p = await t.partner();
    const reference = ref();
    const answers = await Promise.all(Array.from({ length: 6 }, () => live(p, 700, reference)));
    for (const answer of answers) expect(answer).toMatchObject({ status: "credited", balance: 700 });
    expect(await topUpLines(p)).toHaveLength(1);
    expect(await walletBalance(db, p.partnerId)).toBe(70_000);
  });
});

describe("the provider's callbacks", () => {
  test("repeats, concurrent copies and a failure after the success: one credit", async () => {
    const p = await t.partner();
    const reference = ref("-unpaid");
    await live(p, 300, reference);
    const funding = await fundingOf(p, reference);
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => deliver(signed(funding.providerReference, { paid: 30_000 }))));
    expect(outcomes.filter((o) => o.outcome === "credited")).toHaveLength(1);
    expect(outcomes.filter((o) => o.outcome === "repeat")).toHaveLength(7);
    expect(await deliver(signed(funding.providerReference, "failed"))).toEqual({ status: 200, outcome: "repeat" });
    expect(await fundingOf(p, reference)).toMatchObject({ status: "credited" });
    expect(await topUpLines(p)).toHaveLength(1);
    expect(await eventsOf(p, "wallet.credited")).toHaveLength(1);
    expect(await callbacksOf(funding.providerReference)).toHaveLength(9);
  });

  test("out of order: a success after a failure changes nothing (the funding failed)", async () => {
    const p = await t.partner();
    const reference = ref("-unpaid");
    await live(p, 300, reference);
    const funding = await fundingOf(p, reference);
    expect((await deliver(signed(funding.providerReference, "failed"))).outcome).toBe("failed");
    expect((await deliver(signed(funding.providerReference, { paid: 30_000 }))).outcome).toBe("repeat");
    expect(await fundingOf(p, reference)).toMatchObject({ status: "failed" });
    expect(await walletBalance(db, p.partnerId)).toBe(0);
  });

  test("over HTTP: a bad signature is 401 and recorded, an unknown reference is 200 and ignored, a good one credits", async () => {
    const p = await t.partner();
    const reference = ref("-unpaid");
    await live(p, 300, reference);
    const funding = await fundingOf(p, reference);
    const post = (body: string, signature?: string, path?: string) => postCallback(t, body, signature, path);
    const good = signed(funding.providerReference, { paid: 30_000 });
    expect((await post(good.body)).status).toBe(401);
    expect((await post(good.body, "0".repeat(128))).status).toBe(401);
    expect((await post(good.body.replace("30000", "3000000"), good.signature)).status).toBe(401);
    expect(await fundingOf(p, reference)).toMatchObject({ status: "pending" });
    const forged = await db.select().from(fundingCallbacks).where(eq(fundingCallbacks.signatureValid, "no"));
    expect(forged.length).toBeGreaterThanOrEqual(3);
    const unknown = signed("SBX_NO_SUCH_PAYMENT", { paid: 100 });
    const ignored = await post(unknown.body, unknown.signature);
    expect([ignored.status, await ignored.json()]).toEqual([200, { status: "ignored" }]);
    expect((await post(good.body, good.signature, "/funding/callbacks/paystack")).status).toBe(404);
    expect((await post("x".repeat(70_000), good.signature)).status).toBe(413);
    const credited = await post(good.body, good.signature);
    expect([credited.status, await credited.json()]).toEqual([200, { status: "credited" }]);
    expect(await walletBalance(db, p.partnerId)).toBe(30_000);
  });

  test("forged callbacks cannot grow the trail: only their opening is kept, and an address past the refusal limit is turned away unread", async () => {
    const limited = await testApp({ REFUSAL_LIMIT_MAX: 3 });
    const nonce = crypto.randomUUID(); // one of a kind: the database is shared
    const forgery = `{"event":"charge.success","id":"${nonce}","padding":"${"x".repeat(60_000)}"}`;
    const post = () => postCallback(limited, forgery, "f".repeat(128));
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await post()).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const refused = await post();
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const kept = (await limited.database.db.select().from(fundingCallbacks).where(eq(fundingCallbacks.signatureValid, "no")))
      .map((row) => Buffer.from(row.body).toString("utf8"))
      .filter((body) => body.includes(nonce));
    // Refused from the fourth on, before the body was read: nothing more stored.
    expect(kept.length).toBe(3);
    expect(kept.every((body) => body.length === 512 && forgery.startsWith(body))).toBe(true);
  });

  test("a callback racing a manual confirmation: one credit, whichever wins", async () => {
    for (let i = 0; i < 3; i++) {
      const p = await t.partner();
      const reference = ref("-unpaid");
      await live(p, 400, reference);
      const funding = await fundingOf(p, reference);
      const [callback, manual] = await Promise.all([
        deliver(signed(funding.providerReference, { paid: 40_000 })),
        confirmTransfer(db, funding.id, { bankReference: `BANK-${crypto.randomUUID()}`, amountKobo: 40_000 }, alice, FOUR_EYES, new Date()).catch(
          (e: Error) => e,
        ),
      ]);
      const credits = [callback.outcome, manual instanceof Error ? manual.message : manual.outcome].filter((o) => o === "credited");
      expect(credits).toHaveLength(1);
      expect(await topUpLines(p)).toHaveLength(1);
      expect(await walletBalance(db, p.partnerId)).toBe(40_000);
    }
  });
});

describe("the background check", () => {
  test("-late: the callback is lost; the check asks the provider and credits it", async () => {
    const p = await t.partner();
    const reference = ref("-late");
    expect(await live(p, 800, reference)).toMatchObject({ status: "pending" });
    const funding = await fundingOf(p, reference);
    expect(await checkFundings(db, provider, new Date(), t.config.FUNDING_CHECK_AFTER_MS)).toBeGreaterThanOrEqual(0);
    expect(await fundingOf(p, reference)).toMatchObject({ status: "pending" }); // too young to ask about
    await age(funding.id);
    await checkFundings(db, provider, new Date(), t.config.FUNDING_CHECK_AFTER_MS);
    expect(await fundingOf(p, reference)).toMatchObject({ status: "credited", settledBy: "check" });
    expect(await walletBalance(db, p.partnerId)).toBe(80_000);
    expect(await live(p, 800, reference)).toMatchObject({ status: "credited", balance: 800 });
  });

  test("an unpaid funding past its expiry expires, with wallet.funding_expired; money arriving after that is held", async () => {
    const p = await t.partner();
    const reference = ref("-unpaid");
    await live(p, 900, reference);
    const funding = await fundingOf(p, reference);
    await age(funding.id);
    await checkFundings(db, provider, new Date(), t.config.FUNDING_CHECK_AFTER_MS);
    expect(await fundingOf(p, reference)).toMatchObject({ status: "pending" }); // asked, still unpaid, not yet expired
    await age(funding.id, true);
    await checkFundings(db, provider, new Date(), t.config.FUNDING_CHECK_AFTER_MS);
    expect(await fundingOf(p, reference)).toMatchObject({ status: "expired", settledBy: "check" });
    expect(await eventsOf(p, "wallet.funding_expired")).toMatchObject([{ reference, amount: 900 }]);
    expect(await live(p, 900, reference)).toMatchObject({ status: "expired", note: "No payment arrived before the funding expired" });
    expect((await deliver(signed(funding.providerReference, { paid: 90_000 }))).outcome).toBe("held");
    expect(await fundingOf(p, reference)).toMatchObject({ status: "held", receivedKobo: 90_000 });
    expect(await walletBalance(db, p.partnerId)).toBe(0);
  });
});

describe("the operator", () => {
  test("below the threshold a manual confirmation credits at once, audited; a bank reference is used once", async () => {
    const p = await t.partner();
    const reference = ref("-unpaid");
    await live(p, 5000, reference);
    const funding = await fundingOf(p, reference);
    const bankReference = `NIP-${crypto.randomUUID()}`;
    const { outcome } = await confirmTransfer(db, funding.id, { bankReference, amountKobo: 500_000 }, alice, FOUR_EYES, new Date());
    expect(outcome).toBe("credited");
    expect(await fundingOf(p, reference)).toMatchObject({ status: "credited", settledBy: "manual" });
    expect(await walletBalance(db, p.partnerId)).toBe(500_000);
    // The funding is settled: a second confirmation is refused; the bank reference cannot be used again elsewhere.
    await expect(confirmTransfer(db, funding.id, { bankReference: "NIP-OTHER-1", amountKobo: 500_000 }, alice, FOUR_EYES, new Date())).rejects.toThrow(
      "this funding is credited",
    );
    const next = ref("-unpaid");
    await live(p, 5000, next);
    await expect(confirmTransfer(db, (await fundingOf(p, next)).id, { bankReference, amountKobo: 500_000 }, alice, FOUR_EYES, new Date())).rejects.toThrow(
      `bank reference ${bankReference} was already used`,
    );
  });

  test("four eyes: from the threshold a second, different administrator approves; the one who asked cannot", async () => {
    const p = await t.partner();
    const reference = ref("-unpaid");
    await live(p, FOUR_EYES / 100, reference);
    const funding = await fundingOf(p, reference);
    const { confirmation, outcome } = await confirmTransfer(
      db,
      funding.id,
      { bankReference: `NIP-${crypto.randomUUID()}`, amountKobo: FOUR_EYES },
      alice,
      FOUR_EYES,
      new Date(),
    );
    expect(outcome).toBe("awaiting_approval");
    expect(await walletBalance(db, p.partnerId)).toBe(0);
    await expect(decideConfirmation(db, confirmation.id, "approve", alice, new Date())).rejects.toThrow("a second administrator must approve");
    // Only one confirmation in play per funding.
    await expect(
      confirmTransfer(db, funding.id, { bankReference: `NIP-${crypto.randomUUID()}`, amountKobo: FOUR_EYES }, bola, FOUR_EYES, new Date()),
    ).rejects.toThrow("already waits for approval");
    expect((await decideConfirmation(db, confirmation.id, "approve", bola, new Date())).outcome).toBe("credited");
    expect(await walletBalance(db, p.partnerId)).toBe(FOUR_EYES);
    const [row] = await db.select().from(fundingConfirmations).where(eq(fundingConfirmations.id, confirmation.id));
    expect(row).toMatchObject({ status: "approved", requestedBy: alice.userId, decidedBy: bola.userId });
    await expect(decideConfirmation(db, confirmation.id, "reject", bola, new Date())).rejects.toThrow("already decided");
  });

  test("a rejected confirmation credits nothing; a held funding is credited with what arrived, or rejected", async () => {
    const p = await t.partner();
    const reference = ref("-unpaid");
    await live(p, FOUR_EYES / 100, reference);
    const funding = await fundingOf(p, reference);
    const { confirmation } = await confirmTransfer(
      db,
      funding.id,
      { bankReference: `NIP-${crypto.randomUUID()}`, amountKobo: FOUR_EYES },
      alice,
      FOUR_EYES,
      new Date(),
    );
    expect((await decideConfirmation(db, confirmation.id, "reject", alice, new Date())).outcome).toBe("rejected");
    expect(await fundingOf(p, reference)).toMatchObject({ status: "pending" });

    const partial = ref("-partial");
    await live(p, 1000, partial);
    const held = await fundingOf(p, partial);
    expect((await resolveHeld(db, held.id, "credit", alice, FOUR_EYES, new Date())).funding.status).toBe("credited");
    expect(await topUpLines(p)).toMatchObject([{ amountKobo: 50_000, reference: partial }]);
    await expect(resolveHeld(db, held.id, "credit", alice, FOUR_EYES, new Date())).rejects.toThrow("not held");

    const rejected = ref("-partial");
    await live(p, 1000, rejected);
    expect((await resolveHeld(db, (await fundingOf(p, rejected)).id, "reject", bola, FOUR_EYES, new Date())).funding.status).toBe("failed");
    expect(await walletBalance(db, p.partnerId)).toBe(50_000);
  });
});
