/**
 * One money parser for every amount (issue 13, section 4): a finite JSON number, at most two
 * decimals as written, more than 0 once in kobo, at most a ceiling; kobo from the decimal digits.
 * Unit cases, then every command that takes an amount through the endpoint (both engines), with
 * nothing stored on a refusal, then the portal reaching the same rule.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { MAX_INSURED_NAIRA, MAX_NAIRA, nairaToKobo, toKobo } from "../src/core/money";
import { claims } from "../src/modules/claims/schema";
import { outboxEvents } from "../src/modules/events/schema";
import { financingPayments, financingPlans } from "../src/modules/financing/schema";
import { setAccountMode } from "../src/modules/partners/service";
import { walletEntries } from "../src/modules/wallet/schema";
import { walletBalance } from "../src/modules/wallet/service";
import { inWords } from "../src/portal/words";
import { signedIn } from "./portal/browser";
import { type TestPartner, testApp } from "./support/harness";
import { approvedPolicy, productCases, watDate } from "./support/policies";

// Several commands per test on a busy machine: more than bun's default 5 s.
setDefaultTimeout(30_000);

describe("nairaToKobo", () => {
  test.each([
    [0.29, 29],
    [1.1, 110],
    [0.07, 7],
    [0.3, 30],
    [19.99, 1999],
    [100, 10_000],
    [123_456_789.12, 12_345_678_912],
    [MAX_NAIRA, MAX_NAIRA * 100],
  ])("%p naira is %p kobo, from its digits (no float drift)", (naira, kobo) => {
    expect(nairaToKobo(naira)).toEqual({ kobo });
  });

  test.each([
    [5e-324, "must have at most two decimals (kobo); received 5e-324"],
    [1e-7, "must have at most two decimals (kobo); received 1e-7"],
    [0.30000000000000004, "must have at most two decimals (kobo); received 0.30000000000000004"],
    [1.005, "must have at most two decimals (kobo); received 1.005"],
    [0.001, "must have at most two decimals (kobo); received 0.001"],
    [0, "must be more than 0; received 0"],
    [-0, "must be more than 0; received 0"],
    [-1, "must be more than 0; received -1"],
    [Number.POSITIVE_INFINITY, "must be a finite number of naira"],
    [Number.NaN, "must be a finite number of naira"],
    [MAX_NAIRA + 0.01, `must be at most ${MAX_NAIRA}; received 1000000000.01`],
    [1e21, `must be at most ${MAX_NAIRA}; received 1e+21`],
  ])("%p is refused: %s", (naira, problem) => {
    expect(nairaToKobo(naira)).toEqual({ problem });
  });

  test("a down payment may be 0, never less; insured values have their own ceiling", () => {
    expect(nairaToKobo(0, { zero: "allowed" })).toEqual({ kobo: 0 });
    expect(nairaToKobo(-0.01, { zero: "allowed" })).toEqual({ problem: "must be at least 0; received -0.01" });
    expect(nairaToKobo(MAX_INSURED_NAIRA, { max: MAX_INSURED_NAIRA })).toEqual({ kobo: MAX_INSURED_NAIRA * 100 });
    expect(Number.isSafeInteger(MAX_INSURED_NAIRA * 100)).toBe(true);
    expect(toKobo(1.1)).toBe(110);
    expect(() => toKobo(5e-324)).toThrow();
  });
});

const t = await testApp();
const db = t.database.db;
const operator = await t.partner({ admin: true });

/** A JSON body as written: `amount` is spliced in verbatim (1e999, which JSON.stringify cannot write). */
async function runRaw(p: TestPartner, cmmnd: string, seed: Record<string, unknown>, field: string, literal: string) {
  const body = JSON.stringify(p.envelope(cmmnd, { ...seed, [field]: "@AMOUNT@" })).replace('"@AMOUNT@"', literal);
  return t.post(body);
}

/** Amounts every amount field refuses, written as JSON. */
const REFUSED: [name: string, literal: string, words: string][] = [
  ["5e-324", "5e-324", "must have at most two decimals (kobo)"],
  ["0.30000000000000004", "0.30000000000000004", "must have at most two decimals (kobo)"],
  ["1.005", "1.005", "must have at most two decimals (kobo)"],
  ["1e-7", "1e-7", "must have at most two decimals (kobo)"],
  ["-1", "-1", "must be"],
  ["a string of digits", '"100"', "must be a JSON number, not a string (send 100 without quotes)"],
  // No "(send Infinity without quotes)": that would not be JSON either.
  ["the string Infinity", '"Infinity"', "must be a JSON number, not a string"],
  ["1e999 (Infinity once parsed)", "1e999", "must be a finite number; received Infinity"],
  ["more than the maximum", "1000000000.01", "must be at most 1000000000"],
];

const refusedWith = (answer: any, field: string, words: string) => {
  expect(answer.exctnFdbck).toMatchObject({ id: 55 });
  expect([400, 413]).toContain(answer.exctnFdbck.id_v4);
  expect(answer.exctnFdbck.elbrtn).toContain(`seed.${field}`);
  expect(answer.exctnFdbck.elbrtn).toContain(words);
};

const eventsOf = async (partnerId: string) => (await db.select().from(outboxEvents).where(eq(outboxEvents.partnerId, partnerId))).length;
const ledgerOf = (partnerId: string) => db.select().from(walletEntries).where(eq(walletEntries.partnerId, partnerId));

const activePolicy = (p: TestPartner, code = "vhcl-tprt-1111") => approvedPolicy(p, code);

describe("wallet topup", () => {
  test.each(REFUSED)("%s is refused, nothing credited", async (_name, literal, words) => {
    const p = await t.partner();
    const events = await eventsOf(p.partnerId);
    refusedWith(await runRaw(p, "wallet topup", { reference: "ref-1" }, "amount", literal), "amount", words);
    expect(await ledgerOf(p.partnerId)).toEqual([]);
    expect(await walletBalance(db, p.partnerId)).toBe(0);
    expect(await eventsOf(p.partnerId)).toBe(events);
  });

  test("0 is refused; 0.29, 1.1 and the maximum are credited to the kobo", async () => {
    const p = await t.partner();
    refusedWith(await p.run("wallet topup", { amount: 0, reference: "zero" }, "live"), "amount", "must be more than 0");
    expect(await p.run("wallet topup", { amount: 0.29, reference: "a" }, "live")).toMatchObject({ amount: 0.29, balance: 0.29 });
    expect(await p.run("wallet topup", { amount: 1.1, reference: "b" }, "live")).toMatchObject({ amount: 1.1, balance: 1.39 });
    expect(await p.run("wallet topup", { amount: MAX_NAIRA, reference: "c" }, "live")).toMatchObject({ amount: MAX_NAIRA });
    expect((await ledgerOf(p.partnerId)).map((e) => e.amountKobo).sort((a, b) => a - b)).toEqual([29, 110, MAX_NAIRA * 100]);
    expect(await walletBalance(db, p.partnerId)).toBe(MAX_NAIRA * 100 + 139);
  });
});

describe("claim submit and claim review", () => {
  const claimSeed = (policy: string) => ({
    policy,
    incidentDate: watDate(0),
    description: "Rear bumper damaged in a collision at Ikeja",
    reference: `clm-${crypto.randomUUID()}`,
  });

  test.each(REFUSED)("claim submit: %s is refused, no claim stored", async (_name, literal, words) => {
    const p = await t.partner();
    const policy = await activePolicy(p);
    refusedWith(await runRaw(p, "claim submit", claimSeed(policy), "amount", literal), "amount", words);
    expect(await db.select().from(claims).where(eq(claims.partnerId, p.partnerId))).toEqual([]);
  });

  test("claim submit: 0 is refused; 0.29 naira is claimed as 29 kobo", async () => {
    const p = await t.partner();
    const policy = await activePolicy(p);
    refusedWith(await p.run("claim submit", { ...claimSeed(policy), amount: 0 }), "amount", "must be more than 0");
    expect(await p.run("claim submit", { ...claimSeed(policy), amount: 0.29 })).toMatchObject({ amount: 0.29 });
    expect((await db.select().from(claims).where(eq(claims.partnerId, p.partnerId))).map((c) => c.claimedKobo)).toEqual([29]);
  });

  test.each(REFUSED)("claim review: an approvedAmount of %s is refused, the claim unchanged", async (_name, literal, words) => {
    const p = await t.partner();
    const policy = await activePolicy(p);
    const claim = await p.run("claim submit", { ...claimSeed(policy), amount: 50_000 });
    expect((await operator.run("claim review", { claimNo: claim.claimNo, status: "in_review" })).status).toBe("in_review");
    const before = await db.select().from(claims).where(eq(claims.partnerId, p.partnerId));
    refusedWith(await runRaw(operator, "claim review", { claimNo: claim.claimNo, status: "approved" }, "approvedAmount", literal), "approvedAmount", words);
    expect(await db.select().from(claims).where(eq(claims.partnerId, p.partnerId))).toEqual(before);
  });

  test("claim review: an approvedAmount of 1.1 is 110 kobo", async () => {
    const p = await t.partner();
    const policy = await activePolicy(p);
    const claim = await p.run("claim submit", { ...claimSeed(policy), amount: 50_000 });
    await operator.run("claim review", { claimNo: claim.claimNo, status: "in_review" });
    expect(await operator.run("claim review", { claimNo: claim.claimNo, status: "approved", approvedAmount: 1.1 })).toMatchObject({ approvedAmount: 1.1 });
    expect((await db.select().from(claims).where(eq(claims.partnerId, p.partnerId)))[0]!.approvedKobo).toBe(110);
  });
});

describe("payment financeLoan and payment recordInstallment", () => {
  const financeSeed = (policy: string) => ({ policy, installments: 4, frequency: "weekly", firstDueDate: watDate() });
  const plansOf = (partnerId: string) => db.select().from(financingPlans).where(eq(financingPlans.partnerId, partnerId));

  test.each(REFUSED)("financeLoan: a downPayment of %s is refused, no plan stored", async (_name, literal, words) => {
    const p = await t.partner();
    const policy = await activePolicy(p);
    refusedWith(await runRaw(p, "payment financeLoan", financeSeed(policy), "downPayment", literal), "downPayment", words);
    expect(await plansOf(p.partnerId)).toEqual([]);
  });

  test("financeLoan: a downPayment of 0 is taken, 1000.1 is 100010 kobo", async () => {
    const p = await t.partner();
    const [first, second] = [await activePolicy(p), await activePolicy(p)];
    expect((await p.run("payment financeLoan", { ...financeSeed(first), downPayment: 0 })).exctnFdbck.id).toBe(75);
    expect((await p.run("payment financeLoan", { ...financeSeed(second), downPayment: 1000.1 })).downPayment).toBe(1000.1);
    expect((await plansOf(p.partnerId)).map((plan) => plan.downPaymentKobo).sort((a, b) => a - b)).toEqual([0, 100_010]);
  });

  test.each(REFUSED)("recordInstallment: an amount of %s is refused, nothing paid", async (_name, literal, words) => {
    const p = await t.partner();
    const plan = await p.run("payment financeLoan", { ...financeSeed(await activePolicy(p)), downPayment: 3000 });
    const events = await eventsOf(p.partnerId);
    refusedWith(await runRaw(p, "payment recordInstallment", { planNo: plan.planNo, reference: "inst-1" }, "amount", literal), "amount", words);
    expect((await plansOf(p.partnerId))[0]!.paidKobo).toBe(0);
    expect(await db.select().from(financingPayments).where(eq(financingPayments.partnerId, p.partnerId))).toEqual([]);
    expect(await eventsOf(p.partnerId)).toBe(events);
  });

  test("recordInstallment: 0 is refused; 0.29 pays 29 kobo", async () => {
    const p = await t.partner();
    const plan = await p.run("payment financeLoan", { ...financeSeed(await activePolicy(p)), downPayment: 3000 });
    refusedWith(await p.run("payment recordInstallment", { planNo: plan.planNo, amount: 0, reference: "zero" }), "amount", "must be more than 0");
    expect(await p.run("payment recordInstallment", { planNo: plan.planNo, amount: 0.29, reference: "inst-1" })).toMatchObject({ amount: 0.29 });
    expect((await plansOf(p.partnerId))[0]!.paidKobo).toBe(29);
  });
});

describe("insured values in product seeds follow the same rule", () => {
  test.each([
    ["goodsValue", "gtrn-stnd-1111", "goodsValue"],
    ["sumInsured", "allr-stnd-1111", "sumInsured"],
  ])("a quote with %s of 5e-324 or 0.30000000000000004 is refused naming the field", async (_name, code, field) => {
    const p = await t.partner();
    const c = productCases[code]!;
    for (const literal of ["5e-324", "0.30000000000000004", "1.005"])
      refusedWith(await runRaw(p, `dump ipck_${code}*PRMM`, { ...c.quote }, field, literal), field, "must have at most two decimals (kobo)");
  });

  test("credit life loanAmount is kobo: a whole number of kobo", async () => {
    const p = await t.partner();
    refusedWith(await runRaw(p, "dump ipck_crlt-psnl-1111*PRMM", {}, "loanAmount", "5e-324"), "loanAmount", "must be a JSON integer");
    expect((await p.run("dump ipck_crlt-psnl-1111*PRMM", { loanAmount: 50_000_000 })).exctnFdbck.id).toBe(75);
  });
});

describe("the portal reaches the same rule through the same parser", () => {
  test("a top-up typed as 0.30000000000000004 is refused by wallet topup's rule, in the portal's words; 0.29 is 29 kobo", async () => {
    const p = await t.partner();
    await setAccountMode(db, p.partnerId, "live"); // a live top-up reaches the wallet (test mode keeps a test balance)
    const b = await signedIn(t, p.portal);
    await b.get("/portal/wallet");
    const refused = await b.post("/portal/wallet/topup", { amount: "0.30000000000000004", reference: "PORTAL-1" });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(inWords("seed.amount must have at most two decimals (kobo); received 0.30000000000000004"));
    expect(refused.text).toContain("Amount must have at most two decimals; received 0.30000000000000004");
    expect(await walletBalance(db, p.partnerId)).toBe(0);
    expect((await b.post("/portal/wallet/topup", { amount: "0.29", reference: "PORTAL-2" })).status).toBe(200);
    expect(await walletBalance(db, p.partnerId)).toBe(29);
  });
});
