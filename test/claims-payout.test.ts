/**
 * Issue 37, item 5: paying a claim, through the real surfaces. The account given (`claim payee`:
 * the bank's name enquiry and the name check, an administrator's confirmation of a mismatch), the
 * discharge voucher its approval issues and each change of account versions, the claimant's
 * acceptance (`claim accept`, ten at once too), every sandbox transfer scenario end to end (success,
 * failure and a resend, reversal after success, the lost callback only the background check finds,
 * the transfer that stays pending), the provider's signed callbacks over HTTP (forged, repeated,
 * unknown, another amount, racing the check, after a reversal, too large), the money's invariants
 * over a mix of claims with attempts to pay without an accepted voucher, and the late interest a
 * payout after the settlement deadline carries. Both engines (TEST_ENGINE).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHmac } from "node:crypto";
import { and, asc, eq, inArray, lte } from "drizzle-orm";
import { newId } from "../src/core/ids";
import { auditLog } from "../src/modules/audit/schema";
import { addDays } from "../src/modules/calendar";
import { decisionSettings } from "../src/modules/claims/decisions";
import { confirmPayee } from "../src/modules/claims/payee";
import { acceptAndPay, checkPayouts, payoutSettings, queuePayout, resendPayout, sendPayout } from "../src/modules/claims/payout";
import { claimPayouts, claims, claimVouchers, payoutCallbacks, payoutLedger } from "../src/modules/claims/schema";
import { claimDetail, lockClaim } from "../src/modules/claims/service";
import { currentVoucher, type PayoutRecord } from "../src/modules/claims/settlement-records";
import { outboxEvents } from "../src/modules/events/schema";
import { type PayoutProvider, PayoutRefused } from "../src/modules/payouts";
import { watMidnight } from "../src/products/policy-helpers";
import { givePayee, PAYING_ACCOUNT } from "./support/claims";
import { type TestApp, type TestPartner, testApp } from "./support/harness";
import { fullConsumer, insureSeed, productCases, watDate } from "./support/policies";

// Each test walks claims through the real surfaces: seconds apiece on PGlite.
setDefaultTimeout(60_000);

const t = await testApp();
const db = t.database.db;
const operator = await t.partner({ admin: true });
const admin = { label: "test", partnerId: operator.partnerId };
const settings = payoutSettings(t.config);
const letters = decisionSettings(t.config).letters;
const CHECK_AFTER = t.config.PAYOUT_CHECK_AFTER_MS;

/** GTBank: any bank of the list plays the sandbox's scenarios, which the account number's last digit chooses (docs/payouts.md). */
const GTB = PAYING_ACCOUNT.bankCode;
const ACCOUNT = {
  pays: PAYING_ACCOUNT.accountNumber,
  bankStyle: "0123456788",
  someoneElse: "0123456789",
  fails: "0123456781",
  reversed: "0123456782",
  callbackLost: "0123456783",
  staysPending: "0123456784",
  none: "0000000000",
  paysToo: "0987654320",
} as const;
/** The insured of fullConsumer(), as banks print the name, and as the `8` scenario's bank holds it. */
const PRINTED = "ADAEZE OKAFOR";
const BANK_STYLE = "OKAFOR ADAEZE OLUWASEUN";
const SOMEONE_ELSE = "ADEBAYO OLUWASEUN TUNDE";

/** Noon (Nigerian) of a day: a `now` for the domain functions that is never near midnight. */
const noonOf = (day: string) => new Date(watMidnight(day).getTime() + 12 * 3_600_000);

interface Claim {
  p: TestPartner;
  claimNo: string;
  settlementDue: string;
}

/** A claim on third-party vehicle cover of `p` (a new partner by default), submitted today. */
async function submittedClaim(options: { p?: TestPartner; amount?: number } = {}): Promise<Claim> {
  const p = options.p ?? (await t.partner());
  const consumer = (await p.run("prfl entity", fullConsumer())).id as string;
  const policy = await p.run(`entt_${consumer}: insure`, insureSeed(productCases["vhcl-tprt-1111"]!));
  expect(policy.status).toBe("a");
  const claim = await p.run("claim submit", {
    policy: policy.id,
    incidentDate: watDate(0),
    description: "Rear-ended at a junction on Allen Avenue, Ikeja",
    amount: options.amount ?? 100_000,
  });
  expect(claim.exctnFdbck).toEqual({ id: 75, id_v4: 200 });
  return { p, claimNo: claim.claimNo, settlementDue: claim.settlementDue };
}

/** The claim approved by the operator (within an API key's authority: at once), for `approvedAmount` (the amount claimed by default). */
async function approve(c: Claim, approvedAmount?: number) {
  expect((await operator.run("claim review", { claimNo: c.claimNo, status: "in_review" })).status).toBe("in_review");
  const approved = await operator.run("claim review", { claimNo: c.claimNo, status: "approved", ...(approvedAmount ? { approvedAmount } : {}) });
  expect(approved.status).toBe("approved");
  return approved;
}

async function approvedClaim(options: { p?: TestPartner; amount?: number; approvedAmount?: number } = {}): Promise<Claim> {
  const c = await submittedClaim(options);
  await approve(c, options.approvedAmount);
  return c;
}

const payee = (c: Claim, accountNumber: string, label?: "test" | "live") => c.p.run("claim payee", { claimNo: c.claimNo, bankCode: GTB, accountNumber }, label);
const accept = (c: Claim, version: number) => c.p.run("claim accept", { claimNo: c.claimNo, version });
const status = (c: Claim) => c.p.run("claim status", { claimNo: c.claimNo });

/** The account given and the voucher it issued accepted: the answer of `claim accept`. */
async function payInto(c: Claim, accountNumber: string) {
  const given = await payee(c, accountNumber);
  expect(given.voucher).toMatchObject({ status: "issued", accountNumber });
  return accept(c, given.voucher.version);
}

/** The answer is a 55 with this status and a message containing `text`. */
function refused(answer: any, httpStatus: number, text: string) {
  expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: httpStatus });
  expect(answer.exctnFdbck.elbrtn).toContain(text);
}

// ─── What the database holds of a claim ───

const claimRow = async (claimNo: string) => (await db.select().from(claims).where(eq(claims.claimNo, claimNo)))[0]!;
const attemptOf = (p: PayoutRecord) => Number(p.reference.slice(p.reference.lastIndexOf("-") + 1));
/** The claim's payouts, first attempt first. */
const payoutsOf = async (claimNo: string) =>
  (
    await db
      .select()
      .from(claimPayouts)
      .where(eq(claimPayouts.claimId, (await claimRow(claimNo)).id))
  ).sort((a, b) => attemptOf(a) - attemptOf(b));
const lastPayout = async (claimNo: string) => (await payoutsOf(claimNo)).at(-1)!;
const ledgerOf = async (claimNo: string) =>
  db
    .select()
    .from(payoutLedger)
    .where(eq(payoutLedger.claimId, (await claimRow(claimNo)).id))
    .orderBy(asc(payoutLedger.createdAt), asc(payoutLedger.kind));
const ledgerSum = async (claimNo: string) => (await ledgerOf(claimNo)).reduce((sum, line) => sum + line.amountKobo, 0);
const vouchersOf = async (claimNo: string) =>
  db
    .select({
      version: claimVouchers.version,
      accountNumber: claimVouchers.accountNumber,
      acceptedAt: claimVouchers.acceptedAt,
      supersededAt: claimVouchers.supersededAt,
    })
    .from(claimVouchers)
    .where(eq(claimVouchers.claimId, (await claimRow(claimNo)).id))
    .orderBy(asc(claimVouchers.version));
const eventsOf = async (partnerId: string, type: string) =>
  db
    .select()
    .from(outboxEvents)
    .where(and(eq(outboxEvents.partnerId, partnerId), eq(outboxEvents.type, type)))
    .orderBy(asc(outboxEvents.createdAt));
const trailOf = (reference: string) =>
  db.select().from(payoutCallbacks).where(eq(payoutCallbacks.reference, reference)).orderBy(asc(payoutCallbacks.receivedAt));
const paidSteps = async (claimNo: string) => (await claimRow(claimNo)).history.filter((step) => step.status === "paid").length;

/** Everything a payout callback or a check could change about a claim: compared before and after what must change nothing. */
async function snapshot(c: Claim) {
  const claim = await claimRow(c.claimNo);
  return {
    claim: {
      status: claim.status,
      updatedAt: claim.updatedAt,
      settledAt: claim.settledAt,
      lateInterestKobo: claim.lateInterestKobo,
      steps: claim.history.length,
    },
    payouts: (await payoutsOf(c.claimNo)).map((p) => ({ reference: p.reference, status: p.status, statusReason: p.statusReason, updatedAt: p.updatedAt })),
    ledger: await ledgerOf(c.claimNo),
    events: (await db.select({ id: outboxEvents.id }).from(outboxEvents).where(eq(outboxEvents.partnerId, c.p.partnerId))).length,
  };
}

// ─── The provider's callbacks, as Paystack sends them ───

const sign = (body: string, secret = t.config.PAYOUT_PROVIDER_SECRET) => createHmac("sha512", secret).update(body).digest("hex");

type TransferEvent = "transfer.success" | "transfer.failed" | "transfer.reversed";

/** A transfer event for a payout in Paystack's shape (docs/payouts.md, "The callback and its signature"); the reference first, so a forgery's kept opening names it. */
function transferEvent(
  payout: Pick<PayoutRecord, "reference" | "providerReference" | "amountKobo" | "bankCode" | "accountNumber" | "accountName">,
  event: TransferEvent,
  amountKobo = payout.amountKobo,
) {
  return JSON.stringify({
    event,
    data: {
      reference: payout.reference,
      transfer_code: payout.providerReference,
      amount: amountKobo,
      currency: "NGN",
      status: event.slice("transfer.".length),
      domain: "test",
      failures: null,
      reason: "Claim settlement",
      source: "balance",
      recipient: {
        active: true,
        currency: "NGN",
        name: payout.accountName,
        type: "nuban",
        details: { account_number: payout.accountNumber, account_name: payout.accountName, bank_code: payout.bankCode },
      },
      fee_charged: 0,
      gateway_response: event === "transfer.success" ? null : event === "transfer.failed" ? "Dormant account" : "Reversed by the beneficiary bank",
    },
  });
}

async function postCallback(body: string, signature: string | null, app: TestApp = t, provider = "sandbox") {
  const response = await app.app.handle(
    new Request(`http://localhost/payouts/callbacks/${provider}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(signature === null ? {} : { "x-paystack-signature": signature }) },
      body,
    }),
  );
  return { status: response.status, outcome: ((await response.json()) as { status: string }).status };
}

/** A callback signed with the provider's secret, over HTTP. */
const deliver = (payout: PayoutRecord, event: TransferEvent, amountKobo?: number) => {
  const body = transferEvent(payout, event, amountKobo);
  return postCallback(body, sign(body));
};

/** The background check as the payout's own clock makes it due (its last change `CHECK_AFTER` ago) or, with `early`, a millisecond before. */
const checkWhenDue = (payout: PayoutRecord, early = false) =>
  checkPayouts(db, settings, new Date(payout.updatedAt.getTime() + CHECK_AFTER - (early ? 1 : 0)), CHECK_AFTER);

describe("the account to pay into (claim payee)", () => {
  test("an account in the insured's name matches: kept with the bank's name for it, version 1 of the voucher names it; the same account again changes nothing", async () => {
    const c = await approvedClaim();
    const given = await payee(c, ACCOUNT.pays);
    expect(given).toMatchObject({
      exctnFdbck: { id: 75, id_v4: 200 },
      status: "approved",
      payee: { bankCode: GTB, bank: "Guaranty Trust Bank (GTBank)", accountNumber: ACCOUNT.pays, accountName: PRINTED, nameCheck: "matched" },
      voucher: { version: 1, status: "issued", approvedAmount: 100_000, excess: 0, payable: 100_000, accountNumber: ACCOUNT.pays, accountName: PRINTED },
    });
    expect(given).not.toHaveProperty("payout");
    const row = await claimRow(c.claimNo);
    expect(row).toMatchObject({ payeeBankCode: GTB, payeeAccountNumber: ACCOUNT.pays, payeeAccountName: PRINTED, payeeNameCheck: "matched" });
    expect(row.voucherIssuedAt).toBeInstanceOf(Date);
    expect(await eventsOf(c.p.partnerId, "claim.voucher_issued")).toHaveLength(1);
    // The voucher's PDF is there to read, over the wire.
    const voucher = await c.p.run("claim voucher", { claimNo: c.claimNo });
    expect(voucher).toMatchObject({ claimNo: c.claimNo, version: 1, status: "issued", voucherType: "pdf" });
    expect(Buffer.from(voucher.voucherDocument, "base64").subarray(0, 5).toString("latin1")).toBe("%PDF-");

    const again = await payee(c, ACCOUNT.pays);
    expect(again).toMatchObject({ exctnFdbck: { id: 75 }, voucher: { version: 1, status: "issued" }, payee: { nameCheck: "matched" } });
    expect(await vouchersOf(c.claimNo)).toHaveLength(1);
    expect((await claimRow(c.claimNo)).updatedAt).toEqual(row.updatedAt);
    expect(await eventsOf(c.p.partnerId, "claim.voucher_issued")).toHaveLength(1);
  });

  test("ending 8: the bank holds the name its own way (surname first, a middle name added), which still matches", async () => {
    const c = await approvedClaim();
    expect(await payee(c, ACCOUNT.bankStyle)).toMatchObject({
      payee: { accountNumber: ACCOUNT.bankStyle, accountName: BANK_STYLE, nameCheck: "matched" },
      voucher: { version: 1, status: "issued", accountName: BANK_STYLE },
    });
    expect(await payInto(c, ACCOUNT.bankStyle)).toMatchObject({ status: "paid", payout: { status: "success", amount: 100_000 } });
  });

  test("given before the decision: kept and checked, no voucher yet; the approval issues version 1 naming it", async () => {
    const c = await submittedClaim();
    const given = await payee(c, ACCOUNT.pays);
    expect(given).toMatchObject({ status: "submitted", payee: { accountNumber: ACCOUNT.pays, nameCheck: "matched" } });
    expect(given).not.toHaveProperty("voucher");
    refused(await accept(c, 1), 409, `claim ${c.claimNo} is submitted: only an approved claim has a discharge voucher to accept`);
    await approve(c, 80_000);
    expect(await status(c)).toMatchObject({ status: "approved", voucher: { version: 1, status: "issued", payable: 80_000, accountNumber: ACCOUNT.pays } });
  });

  test("ending 9: someone else's name — no voucher, nothing to accept, until an administrator confirms the account; then version 1 is issued and pays", async () => {
    const c = await approvedClaim();
    const given = await payee(c, ACCOUNT.someoneElse);
    expect(given).toMatchObject({ status: "approved", payee: { accountNumber: ACCOUNT.someoneElse, accountName: SOMEONE_ELSE, nameCheck: "mismatch" } });
    expect(given).not.toHaveProperty("voucher");
    expect(await vouchersOf(c.claimNo)).toEqual([]);
    refused(await accept(c, 1), 409, `claim ${c.claimNo} has no discharge voucher yet: it is issued once the account to pay into is given (claim payee)`);
    expect(await payoutsOf(c.claimNo)).toEqual([]);

    const confirmed = await confirmPayee(db, { claimNo: c.claimNo, by: `admin:${operator.partnerId}`, actor: admin, letters, now: new Date() });
    expect(confirmed).toMatchObject({
      payeeNameCheck: "confirmed",
      payeeConfirmedBy: `admin:${operator.partnerId}`,
      voucher: { version: 1, accountName: SOMEONE_ELSE },
    });
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "claim.payee_confirm"), eq(auditLog.subject, c.claimNo)));
    expect(audit!.details).toMatchObject({ accountNumber: ACCOUNT.someoneElse, accountName: SOMEONE_ELSE });
    // Confirmed once: a second confirmation has nothing to confirm.
    await expect(confirmPayee(db, { claimNo: c.claimNo, by: "admin:x", actor: admin, letters, now: new Date() })).rejects.toThrow("was confirmed already");
    expect(await status(c)).toMatchObject({ payee: { nameCheck: "confirmed" }, voucher: { version: 1, status: "issued" } });
    expect(await accept(c, 1)).toMatchObject({ status: "paid", payout: { status: "success", voucherVersion: 1 } });
    expect(await lastPayout(c.claimNo)).toMatchObject({ accountNumber: ACCOUNT.someoneElse, accountName: SOMEONE_ELSE, status: "success" });
  });

  test("no such account, a bank code not in the list, a malformed number: 400 naming the field, nothing stored", async () => {
    const c = await approvedClaim();
    const before = await snapshot(c);
    refused(await payee(c, ACCOUNT.none), 400, `seed.accountNumber ${ACCOUNT.none} at Guaranty Trust Bank (GTBank): the bank found no such account`);
    refused(
      await c.p.run("claim payee", { claimNo: c.claimNo, bankCode: "999", accountNumber: ACCOUNT.pays }),
      400,
      "seed.bankCode 999 is not a bank code we know",
    );
    const malformed = await c.p.run("claim payee", { claimNo: c.claimNo, bankCode: GTB, accountNumber: "12345" });
    expect(malformed.exctnFdbck).toMatchObject({ id: 55, id_v4: 400 });
    expect(malformed.exctnFdbck.elbrtn).toContain("seed.accountNumber");
    expect(await snapshot(c)).toEqual(before);
    expect(await claimRow(c.claimNo)).toMatchObject({ payeeBankCode: null, payeeAccountNumber: null, payeeAccountName: null, payeeNameCheck: null });
    expect(await vouchersOf(c.claimNo)).toEqual([]);
  });

  test("a key of the other mode is 403, another partner's claim 404; neither stores anything", async () => {
    const c = await approvedClaim();
    const before = await snapshot(c);
    refused(await payee(c, ACCOUNT.pays, "live"), 403, "its claims are handled with a test key, and this key runs in live mode");
    const stranger = await t.partner();
    refused(
      await stranger.run("claim payee", { claimNo: c.claimNo, bankCode: GTB, accountNumber: ACCOUNT.pays }),
      404,
      `no claim ${c.claimNo} among this partner's claims`,
    );
    refused(await stranger.run("claim accept", { claimNo: c.claimNo, version: 1 }), 404, `no claim ${c.claimNo} among this partner's claims`);
    expect(await snapshot(c)).toEqual(before);
    expect((await claimRow(c.claimNo)).payeeAccountNumber).toBeNull();
  });

  test("a change of account on an approved claim issues version 2, replacing 1: accepting 1 is refused naming 2, and 2 pays into the new account", async () => {
    const c = await approvedClaim();
    expect((await payee(c, ACCOUNT.pays)).voucher).toMatchObject({ version: 1, accountNumber: ACCOUNT.pays });
    const changed = await payee(c, ACCOUNT.paysToo);
    expect(changed).toMatchObject({ payee: { accountNumber: ACCOUNT.paysToo }, voucher: { version: 2, status: "issued", accountNumber: ACCOUNT.paysToo } });
    const versions = await vouchersOf(c.claimNo);
    expect(versions.map((v) => [v.version, v.accountNumber, v.supersededAt !== null])).toEqual([
      [1, ACCOUNT.pays, true],
      [2, ACCOUNT.paysToo, false],
    ]);
    expect(await c.p.run("claim voucher", { claimNo: c.claimNo, version: 1 })).toMatchObject({ version: 1, status: "superseded" });

    const stale = await accept(c, 1);
    refused(stale, 409, `seed.version 1 of the voucher of claim ${c.claimNo} was replaced by version 2 (the account to pay into changed): accept version 2`);
    refused(await accept(c, 3), 409, "has no voucher version 3; the one in force is version 2");
    expect(await payoutsOf(c.claimNo)).toEqual([]);
    expect((await vouchersOf(c.claimNo)).every((v) => v.acceptedAt === null)).toBe(true);

    expect(await accept(c, 2)).toMatchObject({ status: "paid", voucher: { version: 2, status: "accepted" }, payout: { status: "success", voucherVersion: 2 } });
    expect(await lastPayout(c.claimNo)).toMatchObject({ accountNumber: ACCOUNT.paysToo, voucherVersion: 2 });
  });

  test("refused once a payout is on its way or made, and on a rejected claim", async () => {
    const onItsWay = await approvedClaim();
    expect(await payInto(onItsWay, ACCOUNT.staysPending)).toMatchObject({ status: "approved", payout: { status: "pending" } });
    const before = await snapshot(onItsWay);
    refused(await payee(onItsWay, ACCOUNT.pays), 409, `claim ${onItsWay.claimNo} has a payout on its way to its account: the account can no longer change`);
    expect(await snapshot(onItsWay)).toEqual(before);

    const made = await approvedClaim();
    expect(await payInto(made, ACCOUNT.pays)).toMatchObject({ status: "paid" });
    refused(await payee(made, ACCOUNT.paysToo), 409, `claim ${made.claimNo} is paid: the account to pay it into can no longer change`);
    expect(await vouchersOf(made.claimNo)).toHaveLength(1);

    const rejected = await submittedClaim();
    await operator.run("claim review", { claimNo: rejected.claimNo, status: "in_review" });
    expect((await operator.run("claim review", { claimNo: rejected.claimNo, status: "rejected", rejectionReason: "not_covered" })).status).toBe("rejected");
    refused(await payee(rejected, ACCOUNT.pays), 409, `claim ${rejected.claimNo} is rejected: the account to pay it into can no longer change`);
  });
});

describe("the claimant's acceptance (claim accept)", () => {
  test("refused without a voucher, in words that say what is missing; nothing queued", async () => {
    const c = await approvedClaim();
    refused(
      await accept(c, 1),
      409,
      `claim ${c.claimNo} has no discharge voucher yet: it is issued once the account to pay into is given (claim payee) and its name matches the insured's or an administrator confirms it`,
    );
    expect(await payoutsOf(c.claimNo)).toEqual([]);
    expect((await claimRow(c.claimNo)).status).toBe("approved");
  });

  test("a repeat of the acceptance answers as the first did and queues nothing more", async () => {
    const c = await approvedClaim();
    const first = await payInto(c, ACCOUNT.pays);
    expect(first).toMatchObject({ status: "paid", voucher: { version: 1, status: "accepted", channel: "api" }, payout: { status: "success" } });
    const [acceptance] = await vouchersOf(c.claimNo);
    const repeat = await accept(c, 1);
    const { exctnFdbck: _a, ...firstClaim } = first;
    const { exctnFdbck: _b, ...repeatClaim } = repeat;
    expect(repeat.exctnFdbck).toEqual({ id: 75, id_v4: 200 });
    expect(repeatClaim).toEqual(firstClaim);
    expect(await payoutsOf(c.claimNo)).toHaveLength(1);
    expect(await ledgerOf(c.claimNo)).toHaveLength(1);
    // The acceptance keeps its first time.
    expect(await vouchersOf(c.claimNo)).toEqual([acceptance!]);
  });

  test("ten identical acceptances at once: one payout, one ledger line, the claim paid once, every answer 75", async () => {
    const c = await approvedClaim({ amount: 250_000 });
    expect((await payee(c, ACCOUNT.pays)).voucher.version).toBe(1);
    const answers = await Promise.all(Array.from({ length: 10 }, () => accept(c, 1)));
    expect(answers.map((a) => a.exctnFdbck)).toEqual(Array.from({ length: 10 }, () => ({ id: 75, id_v4: 200 })));
    expect(answers.every((a) => a.voucher.status === "accepted" && a.voucher.version === 1)).toBe(true);
    // The acceptance that queued the payout answers once it is paid; the others, the claim as they found it, its payout on its way or made.
    expect(answers.some((a) => a.status === "paid" && a.payout.status === "success")).toBe(true);
    for (const a of answers) {
      expect(["approved", "paid"]).toContain(a.status);
      expect(["queued", "pending", "success"]).toContain(a.payout.status);
      expect(a.payout.reference).toBe(`${c.claimNo.toLowerCase()}-1`);
    }
    const payouts = await payoutsOf(c.claimNo);
    expect(payouts).toHaveLength(1);
    expect(payouts[0]).toMatchObject({ status: "success", amountKobo: 25_000_000, voucherVersion: 1, reference: `${c.claimNo.toLowerCase()}-1` });
    expect((await ledgerOf(c.claimNo)).map((l) => [l.kind, l.amountKobo])).toEqual([["claim_paid", 25_000_000]]);
    expect(await paidSteps(c.claimNo)).toBe(1);
    expect(await status(c)).toMatchObject({ status: "paid", payout: { status: "success", amount: 250_000 } });
    // Once settled, any of them again answers the paid claim.
    expect(await accept(c, 1)).toMatchObject({ exctnFdbck: { id: 75 }, status: "paid" });
  });
});

describe("the sandbox's transfers, end to end", () => {
  test("anything else: paid at once — the payout a success, one ledger line of what was payable, the claim paid with its settlement time", async () => {
    const c = await approvedClaim({ amount: 120_000, approvedAmount: 90_000.5 });
    const paid = await payInto(c, ACCOUNT.pays);
    expect(paid).toMatchObject({
      status: "paid",
      approvedAmount: 90_000.5,
      payable: 90_000.5,
      voucher: { version: 1, status: "accepted", channel: "api" },
      payout: { status: "success", amount: 90_000.5, reference: `${c.claimNo.toLowerCase()}-1`, voucherVersion: 1 },
    });
    expect(paid).not.toHaveProperty("lateInterest");
    expect(paid.payout.settled).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const [payout] = await payoutsOf(c.claimNo);
    expect(payout).toMatchObject({
      status: "success",
      amountKobo: 9_000_050,
      payableKobo: 9_000_050,
      lateInterestKobo: 0,
      queuedBy: "voucher",
      provider: "sandbox",
    });
    expect(payout!.providerReference).toMatch(/^TRF_[0-9a-f]{16}$/);
    expect(payout!.settledAt).toBeInstanceOf(Date);
    const ledger = await ledgerOf(c.claimNo);
    expect(ledger.map((l) => [l.kind, l.amountKobo, l.mode, l.payoutId])).toEqual([["claim_paid", 9_000_050, "test", payout!.id]]);
    const claim = await claimRow(c.claimNo);
    expect(claim).toMatchObject({ status: "paid", reserveKobo: 0, lateInterestKobo: null });
    expect(claim.settledAt).toEqual(payout!.settledAt);
    expect(claim.history.at(-1)).toMatchObject({ status: "paid", by: "payout" });
    const [voucher] = await vouchersOf(c.claimNo);
    expect(voucher!.acceptedAt).toBeInstanceOf(Date);
    // The sandbox's own callback went through the callback path, and left its trail.
    expect((await trailOf(payout!.reference)).map((r) => [r.event, r.signatureValid, r.outcome])).toEqual([["transfer.success", "yes", "applied"]]);
    expect((await eventsOf(c.p.partnerId, "claim.updated")).at(-1)!.payload).toMatchObject({ claimNo: c.claimNo, status: "paid" });
  });

  test("ending 1: the transfer fails — the bank's reason kept, the claim still approved, claim.payout_failed; a resend of the same account fails again; a new account needs its voucher accepted, which pays", async () => {
    const c = await approvedClaim();
    const failed = await payInto(c, ACCOUNT.fails);
    expect(failed).toMatchObject({ status: "approved", payout: { status: "failed", reason: "Dormant account", amount: 100_000 } });
    const [first] = await payoutsOf(c.claimNo);
    expect(first).toMatchObject({ status: "failed", statusReason: "Dormant account", settledAt: null });
    expect(await ledgerOf(c.claimNo)).toEqual([]);
    const failures = await eventsOf(c.p.partnerId, "claim.payout_failed");
    expect(failures).toHaveLength(1);
    expect(failures[0]!.payload).toMatchObject({ claimNo: c.claimNo, payout: { status: "failed", reason: "Dormant account", reference: first!.reference } });
    // A repeat of the acceptance sends nothing: only an administrator sends a payout again.
    expect(await accept(c, 1)).toMatchObject({ status: "approved", payout: { status: "failed" } });
    expect(await payoutsOf(c.claimNo)).toHaveLength(1);

    // The same account again (the code allows it: the voucher in force is accepted): a new attempt, its own reference — and the same bank answer.
    const resent = await resendPayout(db, settings, { claimNo: c.claimNo, by: `admin:${operator.partnerId}`, actor: admin, now: new Date() });
    expect(resent).toMatchObject({
      reference: `${c.claimNo.toLowerCase()}-2`,
      voucherVersion: 1,
      queuedBy: `admin:${operator.partnerId}`,
      amountKobo: 10_000_000,
    });
    expect((await payoutsOf(c.claimNo)).map((p) => [p.reference, p.status])).toEqual([
      [first!.reference, "failed"],
      [resent.reference, "failed"],
    ]);
    expect(await eventsOf(c.p.partnerId, "claim.payout_failed")).toHaveLength(2);
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "claim.payout_resend"), eq(auditLog.subject, c.claimNo)));
    expect(audit!.details).toMatchObject({ amountKobo: 10_000_000, reference: resent.reference });

    // The partner gives another account: voucher version 2, which the claimant must accept; a resend is refused until then.
    expect((await payee(c, ACCOUNT.pays)).voucher).toMatchObject({ version: 2, status: "issued", accountNumber: ACCOUNT.pays });
    await expect(resendPayout(db, settings, { claimNo: c.claimNo, by: "admin:x", actor: admin, now: new Date() })).rejects.toThrow(
      `the voucher in force of claim ${c.claimNo} (the account changed) is not accepted yet: its acceptance sends the payout`,
    );
    expect(await payoutsOf(c.claimNo)).toHaveLength(2);
    const paid = await accept(c, 2);
    expect(paid).toMatchObject({ status: "paid", voucher: { version: 2, status: "accepted" }, payout: { status: "success", voucherVersion: 2 } });
    expect(paid.payout.reference).toBe(`${c.claimNo.toLowerCase()}-3`);
    expect((await ledgerOf(c.claimNo)).map((l) => [l.kind, l.amountKobo])).toEqual([["claim_paid", 10_000_000]]);
    // Paid: nothing is sent again.
    await expect(resendPayout(db, settings, { claimNo: c.claimNo, by: "admin:x", actor: admin, now: new Date() })).rejects.toThrow(
      `claim ${c.claimNo} is paid: only an approved claim is paid`,
    );
  });

  test("ending 2: paid, then reversed — the claim approved again, settledAt cleared, a reversal line bringing the ledger to 0, claim.payout_reversed; a resend goes again, and a new account pays it", async () => {
    const c = await approvedClaim();
    const answer = await payInto(c, ACCOUNT.reversed);
    expect(answer).toMatchObject({
      status: "approved",
      payout: { status: "reversed", reason: "Reversed by the beneficiary bank: the account could not be credited" },
    });
    expect(answer).not.toHaveProperty("lateInterest");
    const [payout] = await payoutsOf(c.claimNo);
    expect(payout).toMatchObject({ status: "reversed", statusReason: "Reversed by the beneficiary bank: the account could not be credited" });
    expect((await ledgerOf(c.claimNo)).map((l) => [l.kind, l.amountKobo])).toEqual([
      ["claim_paid", 10_000_000],
      ["reversal", -10_000_000],
    ]);
    expect(await ledgerSum(c.claimNo)).toBe(0);
    const claim = await claimRow(c.claimNo);
    expect(claim).toMatchObject({ status: "approved", settledAt: null, lateInterestKobo: null, reserveKobo: 10_000_000 });
    expect(claim.history.map((s) => s.status).slice(-3)).toEqual(["approved", "paid", "approved"]);
    expect(claim.history.at(-1)).toMatchObject({ by: "payout", note: "Reversed by the beneficiary bank: the account could not be credited" });
    const reversed = await eventsOf(c.p.partnerId, "claim.payout_reversed");
    expect(reversed).toHaveLength(1);
    expect(reversed[0]!.payload).toMatchObject({ claimNo: c.claimNo, status: "approved", payout: { status: "reversed", reference: payout!.reference } });
    expect(await eventsOf(c.p.partnerId, "claim.payout_failed")).toEqual([]);
    // Both delivered at the moment of the transfer (one `now`): in the trail, in either order.
    expect((await trailOf(payout!.reference)).map((r) => `${r.event} ${r.outcome}`).sort()).toEqual(["transfer.reversed applied", "transfer.success applied"]);

    // The administrator sends it again to the same account: paid and reversed again, the ledger still at 0.
    const resent = await resendPayout(db, settings, { claimNo: c.claimNo, by: "admin:ops", actor: admin, now: new Date() });
    expect(resent.reference).toBe(`${c.claimNo.toLowerCase()}-2`);
    expect((await payoutsOf(c.claimNo)).map((p) => p.status)).toEqual(["reversed", "reversed"]);
    expect(await ledgerOf(c.claimNo)).toHaveLength(4);
    expect(await ledgerSum(c.claimNo)).toBe(0);
    expect((await claimRow(c.claimNo)).status).toBe("approved");

    // Another account: version 2 to accept, and the claim is paid for good.
    expect((await payee(c, ACCOUNT.pays)).voucher.version).toBe(2);
    expect(await accept(c, 2)).toMatchObject({ status: "paid", payout: { status: "success", voucherVersion: 2 } });
    expect(await ledgerSum(c.claimNo)).toBe(10_000_000);
    expect((await claimRow(c.claimNo)).settledAt).toBeInstanceOf(Date);
    expect(await eventsOf(c.p.partnerId, "claim.payout_reversed")).toHaveLength(2);
  });

  test("ending 3: the callback is lost — pending, the claim approved, until the background check asks the provider once the payout is due", async () => {
    const c = await approvedClaim();
    expect(await payInto(c, ACCOUNT.callbackLost)).toMatchObject({ status: "approved", payout: { status: "pending" } });
    const payout = await lastPayout(c.claimNo);
    expect(payout).toMatchObject({ status: "pending", settledAt: null });
    expect(await trailOf(payout.reference)).toEqual([]);
    const before = await snapshot(c);
    await checkWhenDue(payout, true);
    expect(await snapshot(c)).toEqual(before);

    expect(await checkWhenDue(payout)).toBeGreaterThanOrEqual(1);
    const settled = await lastPayout(c.claimNo);
    expect(settled).toMatchObject({ status: "success" });
    expect(settled.settledAt).toEqual(new Date(payout.updatedAt.getTime() + CHECK_AFTER));
    expect(await status(c)).toMatchObject({ status: "paid", payout: { status: "success" } });
    expect((await ledgerOf(c.claimNo)).map((l) => [l.kind, l.amountKobo])).toEqual([["claim_paid", 10_000_000]]);
    // Looked at again later: nothing more to do.
    const after = await snapshot(c);
    await checkPayouts(db, settings, new Date(payout.updatedAt.getTime() + 10 * CHECK_AFTER), CHECK_AFTER);
    expect(await snapshot(c)).toEqual(after);
  });

  test("ending 4: the transfer stays pending — the check asks and leaves it pending, the claim approved, nothing in the ledger; nothing can be resent", async () => {
    const c = await approvedClaim();
    expect(await payInto(c, ACCOUNT.staysPending)).toMatchObject({ status: "approved", payout: { status: "pending" } });
    const payout = await lastPayout(c.claimNo);
    await checkWhenDue(payout);
    await checkPayouts(db, settings, new Date(payout.updatedAt.getTime() + 5 * CHECK_AFTER), CHECK_AFTER);
    expect(await lastPayout(c.claimNo)).toMatchObject({ status: "pending", settledAt: null });
    expect(await claimRow(c.claimNo)).toMatchObject({ status: "approved", settledAt: null });
    expect(await ledgerOf(c.claimNo)).toEqual([]);
    await expect(resendPayout(db, settings, { claimNo: c.claimNo, by: "admin:x", actor: admin, now: new Date() })).rejects.toThrow(
      `claim ${c.claimNo} has no failed payout to send again`,
    );
    expect(await payoutsOf(c.claimNo)).toHaveLength(1);
  });

  test("the check reaches every payout due: transfers that stay pending do not keep a lost callback from being found", async () => {
    const stuck = await approvedClaim();
    await payInto(stuck, ACCOUNT.staysPending);
    const lost = await approvedClaim();
    await payInto(lost, ACCOUNT.callbackLost);
    const payout = await lastPayout(lost.claimNo);
    // One payout a round (as 100 a round meets a hundred transfers stuck at the provider): as many rounds as payouts are due
    // (the database is shared: others' too), each asking the next one, reach them all — the stuck one first, being older.
    const now = new Date(payout.updatedAt.getTime() + CHECK_AFTER);
    const due = await db
      .select({ id: claimPayouts.id })
      .from(claimPayouts)
      .where(and(inArray(claimPayouts.status, ["queued", "pending"]), lte(claimPayouts.updatedAt, new Date(now.getTime() - CHECK_AFTER))));
    expect(due.length).toBeGreaterThanOrEqual(2);
    for (let round = 0; round < due.length; round++) await checkPayouts(db, settings, now, CHECK_AFTER, 1);
    expect(await status(lost)).toMatchObject({ status: "paid", payout: { status: "success" } });
    expect(await lastPayout(stuck.claimNo)).toMatchObject({ status: "pending" });
  });
});

/** The settings of payouts with the test mode's sandbox changed by `change` (a provider that loses every callback, or does not answer). */
const withProvider = (change: (sandbox: PayoutProvider) => Partial<PayoutProvider>) => {
  const sandbox = settings.provider("test");
  const changed: PayoutProvider = { ...sandbox, ...change(sandbox) };
  return { ...settings, provider: () => changed };
};
const acceptWith = (c: Claim, using: ReturnType<typeof withProvider>, version = 1, now = new Date()) =>
  acceptAndPay(db, using, { partnerId: c.p.partnerId, mode: "test", claimNo: c.claimNo, version, channel: "api", by: "test", now });

describe("when the provider's word does not come with the transfer", () => {
  test("every callback lost: the check settles by what the provider says — a success pays, a failure fails, a reversal pays and reopens in one go", async () => {
    const quiet = withProvider(() => ({ immediateCallbacks: () => [] }));
    const [paid, failed, reversed] = [await approvedClaim(), await approvedClaim(), await approvedClaim()];
    for (const [c, accountNumber] of [
      [paid, ACCOUNT.pays],
      [failed, ACCOUNT.fails],
      [reversed, ACCOUNT.reversed],
    ] as const) {
      await payee(c, accountNumber);
      await acceptWith(c, quiet);
      expect(await lastPayout(c.claimNo)).toMatchObject({ status: "pending" });
    }
    const latest = Math.max(...(await Promise.all([paid, failed, reversed].map(async (c) => (await lastPayout(c.claimNo)).updatedAt.getTime()))));
    expect(await checkPayouts(db, settings, new Date(latest + CHECK_AFTER), CHECK_AFTER)).toBeGreaterThanOrEqual(3);

    expect(await status(paid)).toMatchObject({ status: "paid", payout: { status: "success" } });
    expect(await ledgerSum(paid.claimNo)).toBe(10_000_000);

    expect(await status(failed)).toMatchObject({ status: "approved", payout: { status: "failed", reason: "Dormant account" } });
    expect(await ledgerOf(failed.claimNo)).toEqual([]);
    expect(await eventsOf(failed.p.partnerId, "claim.payout_failed")).toHaveLength(1);

    expect(await status(reversed)).toMatchObject({ status: "approved", payout: { status: "reversed" } });
    expect((await ledgerOf(reversed.claimNo)).map((l) => [l.kind, l.amountKobo])).toEqual([
      ["claim_paid", 10_000_000],
      ["reversal", -10_000_000],
    ]);
    expect((await claimRow(reversed.claimNo)).history.map((s) => s.status).slice(-3)).toEqual(["approved", "paid", "approved"]);
    expect(await claimRow(reversed.claimNo)).toMatchObject({ settledAt: null });
    expect(await eventsOf(reversed.p.partnerId, "claim.payout_reversed")).toHaveLength(1);
  });

  test("the provider does not answer the send: the payout stays queued, and the check sends it again under the same reference, which pays it once", async () => {
    const c = await approvedClaim();
    await payee(c, ACCOUNT.pays);
    const silent = withProvider(() => ({
      createTransfer: async () => {
        throw new Error("connect ETIMEDOUT");
      },
    }));
    await acceptWith(c, silent);
    const queued = await lastPayout(c.claimNo);
    expect(queued).toMatchObject({ status: "queued", providerReference: null, sentAt: null });
    expect(await claimRow(c.claimNo)).toMatchObject({ status: "approved" });
    // Not due yet: left alone; due: sent (the sandbox's callback follows), one payout, one line.
    await checkWhenDue(queued, true);
    expect(await lastPayout(c.claimNo)).toMatchObject({ status: "queued" });
    await checkWhenDue(queued);
    expect(await payoutsOf(c.claimNo)).toHaveLength(1);
    expect(await lastPayout(c.claimNo)).toMatchObject({ status: "success", reference: queued.reference });
    expect(await status(c)).toMatchObject({ status: "paid" });
    expect(await ledgerOf(c.claimNo)).toHaveLength(1);
  });

  test("the provider refuses the transfer outright: the payout fails with its words, the claim stays approved, for an administrator to send again", async () => {
    const c = await approvedClaim();
    await payee(c, ACCOUNT.pays);
    const refusing = withProvider(() => ({
      createTransfer: async () => {
        throw new PayoutRefused("invalid_account", "the recipient's account was closed by the bank");
      },
    }));
    await acceptWith(c, refusing);
    expect(await lastPayout(c.claimNo)).toMatchObject({
      status: "failed",
      statusReason: "the recipient's account was closed by the bank",
      providerReference: null,
    });
    expect(await claimRow(c.claimNo)).toMatchObject({ status: "approved" });
    expect((await eventsOf(c.p.partnerId, "claim.payout_failed"))[0]!.payload).toMatchObject({
      payout: { status: "failed", reason: "the recipient's account was closed by the bank" },
    });
    // Sent again with the real sandbox: a new reference, paid.
    const again = await resendPayout(db, settings, { claimNo: c.claimNo, by: "admin:ops", actor: admin, now: new Date() });
    expect(again.reference).toBe(`${c.claimNo.toLowerCase()}-2`);
    expect(await status(c)).toMatchObject({ status: "paid", payout: { status: "success", reference: again.reference } });
    expect(await ledgerSum(c.claimNo)).toBe(10_000_000);
  });

  test("a reversal before any success (its success callback lost) fails the payout without touching the ledger; a success after it is ignored", async () => {
    const c = await approvedClaim();
    await payInto(c, ACCOUNT.staysPending);
    const payout = await lastPayout(c.claimNo);
    expect(await deliver(payout, "transfer.reversed")).toEqual({ status: 200, outcome: "applied" });
    expect(await lastPayout(c.claimNo)).toMatchObject({ status: "reversed" });
    expect(await claimRow(c.claimNo)).toMatchObject({ status: "approved", settledAt: null });
    expect(await ledgerOf(c.claimNo)).toEqual([]);
    expect(await eventsOf(c.p.partnerId, "claim.payout_failed")).toHaveLength(1);
    expect(await eventsOf(c.p.partnerId, "claim.payout_reversed")).toEqual([]);
    expect(await deliver(payout, "transfer.success")).toEqual({ status: 200, outcome: "ignored" });
    expect(await ledgerOf(c.claimNo)).toEqual([]);
    expect((await claimRow(c.claimNo)).status).toBe("approved");
  });
});

describe("the provider's callbacks over HTTP (POST /payouts/callbacks/sandbox)", () => {
  test("a forged signature is 401, trailed as invalid with the body's opening, and changes nothing; the genuine one then pays", async () => {
    const c = await approvedClaim();
    await payInto(c, ACCOUNT.callbackLost);
    const payout = await lastPayout(c.claimNo);
    const body = transferEvent(payout, "transfer.success");
    const before = await snapshot(c);
    const invalidBefore = (await db.select({ id: payoutCallbacks.id }).from(payoutCallbacks).where(eq(payoutCallbacks.signatureValid, "no"))).length;
    const forgeries: [string, string | null][] = [
      [body, null],
      [body, "0".repeat(128)],
      [body, sign(body, "sk_somebody_elses_secret_entirely")],
      [body, sign(body, t.config.PAYMENT_PROVIDER_SECRET)], // the funding callbacks' secret is not the payouts'
      [body.replace(String(payout.amountKobo), String(payout.amountKobo * 10)), sign(body)],
      [`${body} `, sign(body)],
    ];
    for (const [forged, signature] of forgeries) expect(await postCallback(forged, signature)).toEqual({ status: 401, outcome: "rejected" });
    expect(await snapshot(c)).toEqual(before);
    const invalid = await db.select().from(payoutCallbacks).where(eq(payoutCallbacks.signatureValid, "no"));
    expect(invalid.length - invalidBefore).toBe(forgeries.length);
    const ours = invalid.filter((row) => Buffer.from(row.body).toString("utf8").includes(payout.reference));
    expect(ours).toHaveLength(forgeries.length);
    expect(ours.every((row) => row.outcome === "rejected" && row.reference === null && row.body.length <= 512)).toBe(true);

    expect(await postCallback(body, sign(body))).toEqual({ status: 200, outcome: "applied" });
    expect(await postCallback(body, sign(body).toUpperCase())).toEqual({ status: 200, outcome: "repeat" });
    expect((await claimRow(c.claimNo)).status).toBe("paid");
    expect(await ledgerOf(c.claimNo)).toHaveLength(1);
  });

  test("a valid repeat is 200 repeat; an unknown reference, a body that is not the provider's and an unknown provider change nothing", async () => {
    const c = await approvedClaim();
    await payInto(c, ACCOUNT.pays);
    const payout = await lastPayout(c.claimNo);
    const before = await snapshot(c);
    // The sandbox already delivered this success; the same again, as Paystack retries it:
    expect(await deliver(payout, "transfer.success")).toEqual({ status: 200, outcome: "repeat" });
    expect(await deliver(payout, "transfer.success")).toEqual({ status: 200, outcome: "repeat" });
    // A failure after the success is not believed.
    expect(await deliver(payout, "transfer.failed")).toEqual({ status: 200, outcome: "ignored" });
    expect(await snapshot(c)).toEqual(before);
    expect((await trailOf(payout.reference)).map((r) => r.outcome).sort()).toEqual(["applied", "ignored", "repeat", "repeat"]);

    const unknown = { ...payout, reference: `clm-2026-nosuchclaim-${crypto.randomUUID().slice(0, 8)}-1`, providerReference: "TRF_0000000000000000" };
    expect(await deliver(unknown, "transfer.success")).toEqual({ status: 200, outcome: "ignored" });
    expect((await trailOf(unknown.reference)).map((r) => [r.signatureValid, r.outcome])).toEqual([["yes", "ignored"]]);
    const notJson = "not the provider's JSON";
    expect(await postCallback(notJson, sign(notJson))).toEqual({ status: 200, outcome: "ignored" });
    // Disagreeing with itself (a success whose status says failed): settles nothing.
    const confused = transferEvent(payout, "transfer.success").replace('"status":"success"', '"status":"failed"');
    expect(await postCallback(confused, sign(confused))).toEqual({ status: 200, outcome: "ignored" });
    const other = transferEvent(payout, "transfer.success");
    expect(await postCallback(other, sign(other), t, "paystack")).toEqual({ status: 404, outcome: "unknown provider" });
    expect(await snapshot(c)).toEqual(before);
  });

  test("a callback for another amount than the payout's is ignored and changes nothing; the right amount then settles it", async () => {
    const c = await approvedClaim();
    await payInto(c, ACCOUNT.staysPending);
    const payout = await lastPayout(c.claimNo);
    const before = await snapshot(c);
    for (const amountKobo of [payout.amountKobo - 1, payout.amountKobo + 1, payout.amountKobo * 100])
      expect(await deliver(payout, "transfer.success", amountKobo)).toEqual({ status: 200, outcome: "ignored" });
    expect(await deliver(payout, "transfer.failed", 1)).toEqual({ status: 200, outcome: "ignored" });
    expect(await snapshot(c)).toEqual(before);
    expect(await deliver(payout, "transfer.success")).toEqual({ status: 200, outcome: "applied" });
    expect(await status(c)).toMatchObject({ status: "paid", payout: { status: "success" } });
    expect((await ledgerOf(c.claimNo)).map((l) => l.amountKobo)).toEqual([payout.amountKobo]);
  });

  test("a callback racing the background check for a lost-callback payout: paid once, one ledger line, whichever wins", async () => {
    for (let i = 0; i < 3; i++) {
      const c = await approvedClaim();
      await payInto(c, ACCOUNT.callbackLost);
      const payout = await lastPayout(c.claimNo);
      const [callback] = await Promise.all([
        deliver(payout, "transfer.success"),
        checkWhenDue(payout),
        checkWhenDue(payout), // a second instance's check at the same moment
      ]);
      expect(callback.status).toBe(200);
      expect(["applied", "repeat"]).toContain(callback.outcome);
      expect(await lastPayout(c.claimNo)).toMatchObject({ status: "success" });
      expect((await ledgerOf(c.claimNo)).map((l) => [l.kind, l.amountKobo])).toEqual([["claim_paid", 10_000_000]]);
      expect(await paidSteps(c.claimNo)).toBe(1);
      expect((await claimRow(c.claimNo)).status).toBe("paid");
    }
  });

  test("a reversal after success reopens the claim and gives the ledger its money back; a success arriving after the reversal is ignored", async () => {
    const c = await approvedClaim();
    await payInto(c, ACCOUNT.callbackLost);
    const payout = await lastPayout(c.claimNo);
    expect(await deliver(payout, "transfer.success")).toEqual({ status: 200, outcome: "applied" });
    expect((await claimRow(c.claimNo)).status).toBe("paid");
    expect(await deliver(payout, "transfer.reversed")).toEqual({ status: 200, outcome: "applied" });
    const reopened = await claimRow(c.claimNo);
    expect(reopened).toMatchObject({ status: "approved", settledAt: null });
    expect((await ledgerOf(c.claimNo)).map((l) => [l.kind, l.amountKobo])).toEqual([
      ["claim_paid", 10_000_000],
      ["reversal", -10_000_000],
    ]);
    expect(await eventsOf(c.p.partnerId, "claim.payout_reversed")).toHaveLength(1);

    const before = await snapshot(c);
    expect(await deliver(payout, "transfer.reversed")).toEqual({ status: 200, outcome: "repeat" });
    expect(await deliver(payout, "transfer.success")).toEqual({ status: 200, outcome: "ignored" });
    expect(await deliver(payout, "transfer.failed")).toEqual({ status: 200, outcome: "ignored" });
    await checkPayouts(db, settings, new Date(payout.updatedAt.getTime() + 10 * CHECK_AFTER), CHECK_AFTER);
    expect(await snapshot(c)).toEqual(before);
    expect(await ledgerSum(c.claimNo)).toBe(0);
  });

  test("a body over the callback's size is refused (413) and counted as a refusal of the address", async () => {
    const limited = await testApp({ REFUSAL_LIMIT_MAX: 3 });
    const big = `{"event":"transfer.success","padding":"${"x".repeat(70_000)}"}`;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await postCallback(big, sign(big), limited)).status);
    expect(statuses).toEqual([413, 413, 413, 429, 429]);
    // Past the limit, the address is turned away before its body is read, a genuine callback too.
    const c = await approvedClaim();
    await payInto(c, ACCOUNT.staysPending);
    const payout = await lastPayout(c.claimNo);
    const body = transferEvent(payout, "transfer.success");
    expect((await postCallback(body, sign(body), limited)).status).toBe(429);
    expect((await lastPayout(c.claimNo)).status).toBe("pending");
    // Another app (another address's count) takes it.
    expect(await postCallback(body, sign(body))).toEqual({ status: 200, outcome: "applied" });
  });
});

describe("the money's invariants", () => {
  test("over a mix of claims: the ledger is the successful payouts, each claim paid at most once, every payout under an accepted voucher — and no way around it", async () => {
    const p = await t.partner();
    const mix: Record<string, Claim> = {};
    for (const [name, accountNumber] of Object.entries({
      pays: ACCOUNT.pays,
      bankStyle: ACCOUNT.bankStyle,
      fails: ACCOUNT.fails,
      reversed: ACCOUNT.reversed,
      callbackLost: ACCOUNT.callbackLost,
      staysPending: ACCOUNT.staysPending,
    })) {
      mix[name] = await approvedClaim({ p, amount: 50_000 + Object.keys(mix).length * 1_000.25 });
      await payInto(mix[name]!, accountNumber);
    }
    // A failure paid into another account; a reversal sent again.
    expect((await payee(mix.fails!, ACCOUNT.pays)).voucher.version).toBe(2);
    await accept(mix.fails!, 2);
    await resendPayout(db, settings, { claimNo: mix.reversed!.claimNo, by: "admin:ops", actor: admin, now: new Date() });
    await checkWhenDue(await lastPayout(mix.callbackLost!.claimNo));
    // Never accepted, never paid: an approved claim with its voucher issued, and one waiting for an administrator.
    const unaccepted = await approvedClaim({ p });
    await payee(unaccepted, ACCOUNT.pays);
    const mismatched = await approvedClaim({ p });
    await payee(mismatched, ACCOUNT.someoneElse);

    // Attempts to pay without an accepted voucher.
    await sendPayout(db, settings, newId(), new Date()); // no such payout: nothing
    refused(await accept(unaccepted, 2), 409, "has no voucher version 2");
    refused(await accept(mismatched, 1), 409, "has no discharge voucher yet");
    expect((await payee(unaccepted, ACCOUNT.paysToo)).voucher.version).toBe(2);
    refused(await accept(unaccepted, 1), 409, "was replaced by version 2");
    await expect(resendPayout(db, settings, { claimNo: unaccepted.claimNo, by: "admin:x", actor: admin, now: new Date() })).rejects.toThrow(
      "has no failed payout to send again",
    );
    // A success callback for a payout that failed, and for a reference of an attempt that does not exist yet.
    const failedPayout = (await payoutsOf(mix.fails!.claimNo))[0]!;
    expect(await deliver(failedPayout, "transfer.success")).toEqual({ status: 200, outcome: "ignored" });
    const future = { ...failedPayout, reference: `${unaccepted.claimNo.toLowerCase()}-1` };
    expect(await deliver(future, "transfer.success")).toEqual({ status: 200, outcome: "ignored" });
    // A second live payout of a claim is refused by the database itself, whoever asks.
    const pending = mix.staysPending!;
    const inForce = (await currentVoucher(db, (await claimRow(pending.claimNo)).id))!;
    expect(inForce.acceptedAt).toBeInstanceOf(Date);
    await expect(
      db.transaction(async (tx) =>
        queuePayout(tx, await lockClaim(tx, {}, pending.claimNo), inForce, {
          provider: settings.provider("test"),
          clock: settings.clock,
          queuedBy: "test",
          now: new Date(),
        }),
      ),
    ).rejects.toThrow(`claim ${pending.claimNo} has a payout on its way or made already: it is never paid twice`);
    // The partner changing the account while the claimant accepts the version in force: one of them wins, never both.
    const racing = await approvedClaim({ p });
    expect((await payee(racing, ACCOUNT.pays)).voucher.version).toBe(1);
    const [changed, accepted] = await Promise.all([payee(racing, ACCOUNT.paysToo), accept(racing, 1)]);
    const paidInto = (await payoutsOf(racing.claimNo))[0]?.accountNumber;
    if (accepted.exctnFdbck.id === 75) {
      // Refused on the money on its way, or on the claim it paid.
      refused(changed, 409, "can no longer change");
      expect(paidInto).toBe(ACCOUNT.pays);
    } else {
      refused(accepted, 409, "was replaced by version 2");
      expect(changed.voucher.version).toBe(2);
      expect(paidInto).toBeUndefined();
    }

    // The invariants, over every claim of the partner.
    const own = await db.select({ id: claims.id, claimNo: claims.claimNo, status: claims.status }).from(claims).where(eq(claims.partnerId, p.partnerId));
    const ids = own.map((c) => c.id);
    const payouts = await db.select().from(claimPayouts).where(inArray(claimPayouts.claimId, ids));
    const ledger = await db.select().from(payoutLedger).where(inArray(payoutLedger.claimId, ids));
    const vouchers = await db.select().from(claimVouchers).where(inArray(claimVouchers.claimId, ids));
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    // In this mix every reversal came after a success: each reversed payout was paid out once and came back once.
    const everSucceeded = payouts.filter((x) => x.status === "success" || x.status === "reversed");
    expect(sum(ledger.map((l) => l.amountKobo))).toBe(sum(payouts.filter((x) => x.status === "success").map((x) => x.amountKobo)));
    expect(sum(ledger.filter((l) => l.kind === "claim_paid").map((l) => l.amountKobo))).toBe(sum(everSucceeded.map((x) => x.amountKobo)));
    expect(sum(ledger.filter((l) => l.kind === "reversal").map((l) => l.amountKobo))).toBe(
      -sum(payouts.filter((x) => x.status === "reversed").map((x) => x.amountKobo)),
    );
    for (const line of ledger) expect(payouts.find((x) => x.id === line.payoutId)!.claimId).toBe(line.claimId);
    for (const claim of own) {
      const mine = payouts.filter((x) => x.claimId === claim.id);
      expect(mine.filter((x) => ["queued", "pending", "success"].includes(x.status)).length).toBeLessThanOrEqual(1);
      // Paid exactly when one payout stands as a success.
      expect(claim.status === "paid").toBe(mine.some((x) => x.status === "success"));
      for (const payout of mine) {
        const under = vouchers.find((v) => v.claimId === claim.id && v.version === payout.voucherVersion)!;
        expect(under.acceptedAt).not.toBeNull();
        expect(under.acceptedAt!.getTime()).toBeLessThanOrEqual(payout.createdAt.getTime());
        expect([under.bankCode, under.accountNumber, under.payableKobo]).toEqual([payout.bankCode, payout.accountNumber, payout.payableKobo]);
      }
    }
    expect(
      own
        .filter((c) => c.status === "paid")
        .map((c) => c.claimNo)
        .sort(),
    ).toEqual([mix.pays!, mix.bankStyle!, mix.fails!, mix.callbackLost!, ...(paidInto ? [racing] : [])].map((c) => c.claimNo).sort());
    for (const c of [unaccepted, mismatched]) expect(payouts.filter((x) => x.claimId === own.find((o) => o.claimNo === c.claimNo)!.id)).toEqual([]);
  });
});

describe("late interest, paid with the claim", () => {
  test("a payout queued after the settlement deadline carries the interest to the kobo; the claim's lateInterest is the same; on the deadline's own day there is none", async () => {
    const late = await approvedClaim({ amount: 100_000 });
    // The account given, accepted and paid 10 days after the deadline: ₦100,000 × 27 % × 10 / 365 = ₦739.726… → ₦739.73 (docs/claims.md, "The clock").
    const tenDaysLate = noonOf(addDays(late.settlementDue, 10));
    expect((await givePayee(db, t.config, { claimNo: late.claimNo, partnerId: late.p.partnerId, mode: "test" }, tenDaysLate)).voucher).toMatchObject({
      version: 1,
      accountNumber: PAYING_ACCOUNT.accountNumber,
    });
    await acceptAndPay(db, settings, {
      partnerId: late.p.partnerId,
      mode: "test",
      claimNo: late.claimNo,
      version: 1,
      channel: "api",
      by: "test",
      now: tenDaysLate,
    });
    const payout = await lastPayout(late.claimNo);
    expect(payout).toMatchObject({ status: "success", payableKobo: 10_000_000, lateInterestKobo: 73_973, amountKobo: 10_073_973 });
    expect((await ledgerOf(late.claimNo)).map((l) => [l.kind, l.amountKobo])).toEqual([["claim_paid", 10_073_973]]);
    expect(await claimRow(late.claimNo)).toMatchObject({ status: "paid", lateInterestKobo: 73_973, settledAt: tenDaysLate });
    expect(await status(late)).toMatchObject({
      status: "paid",
      payable: 100_000,
      lateInterest: 739.73,
      payout: { status: "success", amount: 100_739.73, lateInterest: 739.73 },
    });

    const onTime = await approvedClaim({ amount: 100_000 });
    await payee(onTime, ACCOUNT.pays);
    await acceptAndPay(db, settings, {
      partnerId: onTime.p.partnerId,
      mode: "test",
      claimNo: onTime.claimNo,
      version: 1,
      channel: "api",
      by: "test",
      now: noonOf(onTime.settlementDue),
    });
    expect(await lastPayout(onTime.claimNo)).toMatchObject({ status: "success", lateInterestKobo: 0, amountKobo: 10_000_000 });
    const paidOnTime = await status(onTime);
    expect(paidOnTime).toMatchObject({ status: "paid", payout: { amount: 100_000 } });
    expect(paidOnTime).not.toHaveProperty("lateInterest");
    expect(paidOnTime.payout).not.toHaveProperty("lateInterest");
  });

  test("the interest is the day the payout is queued: a failure on time, then another account accepted 30 days late, pays that day's interest, to the kobo of an odd amount", async () => {
    const c = await approvedClaim({ amount: 333_333.33 });
    await payee(c, ACCOUNT.fails);
    await acceptAndPay(db, settings, {
      partnerId: c.p.partnerId,
      mode: "test",
      claimNo: c.claimNo,
      version: 1,
      channel: "api",
      by: "test",
      now: noonOf(c.settlementDue),
    });
    expect(await lastPayout(c.claimNo)).toMatchObject({ status: "failed", lateInterestKobo: 0 });
    expect((await payee(c, ACCOUNT.pays)).voucher.version).toBe(2);
    const resendDay = noonOf(addDays(c.settlementDue, 30));
    await acceptAndPay(db, settings, { partnerId: c.p.partnerId, mode: "test", claimNo: c.claimNo, version: 2, channel: "api", by: "test", now: resendDay });
    // 33,333,333 kobo × 2,700 × 30 / (10,000 × 365) = 739,726.019… → 739,726 kobo.
    const interest = Math.round((33_333_333 * 2_700 * 30) / (10_000 * 365));
    expect(interest).toBe(739_726);
    expect(await lastPayout(c.claimNo)).toMatchObject({ status: "success", lateInterestKobo: interest, amountKobo: 33_333_333 + interest });
    expect(await ledgerSum(c.claimNo)).toBe(33_333_333 + interest);
    expect((await claimDetail(db, { partnerId: c.p.partnerId }, c.claimNo)).lateInterestKobo).toBe(interest);
  });
});
