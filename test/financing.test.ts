import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq, inArray, sql } from "drizzle-orm";
import { type Server, startServer } from "../bench/servers";
import { listAudit } from "../src/modules/audit/service";
import { outboxEvents } from "../src/modules/events/schema";
import { financingJobs } from "../src/modules/financing/jobs";
import { buildSchedule, dueDateOf, formatNaira, lapseNote } from "../src/modules/financing/schedule";
import { financingInstallments, financingPayments, financingPlans } from "../src/modules/financing/schema";
import type { KeyLabel } from "../src/modules/partners/service";
import { policies } from "../src/modules/policies/schema";
import { engine, expectError, type TestPartner, testApp } from "./support/harness";
import { fullConsumer, insureSeed, productCases, watDate } from "./support/policies";

const t = await testApp();
const db = t.database.db;
const operator = await t.partner({ admin: true });

/** A policy of `p` (vehicle third-party for a year by default: ₦15,000, approved at once in test mode). */
async function insured(p: TestPartner, options: { code?: string; label?: KeyLabel; insrncDrtn?: string } = {}) {
  const c = productCases[options.code ?? "vhcl-tprt-1111"]!;
  const label = options.label ?? "test";
  const registered = await p.run("prfl entity", fullConsumer(), label);
  expect(registered.exctnFdbck.id).toBe(75);
  const consumer = registered.id as string;
  const quote = options.insrncDrtn ? { ...c.quote, insrncDrtn: options.insrncDrtn } : c.quote;
  if (quote) expect((await p.run(`dump ipck_${c.code}*PRMM`, quote, label)).exctnFdbck.id).toBe(75);
  const seed = insureSeed(c, options.insrncDrtn ? { insrncDrtn: options.insrncDrtn } : {});
  const answer = await p.run(`entt_${consumer}: insure`, seed, label);
  expect(answer.exctnFdbck.id).toBe(75);
  return {
    reference: answer.id as string,
    status: answer.status as string,
    policyStatus: () => p.run(`dump entt_${consumer}|insr_${c.code}-${answer.id}*STATUS`, undefined, label),
    appr: (review?: unknown) => operator.run(`appr entt_${consumer}|insr_${c.code}-${answer.id}`, review, label),
  };
}

const finance = (p: TestPartner, policy: string, seed: Record<string, unknown> = {}, label: KeyLabel = "test") =>
  p.run("payment financeLoan", { policy, downPayment: 3000, installments: 4, frequency: "weekly", firstDueDate: watDate(), ...seed }, label);

/** A fresh partner with an active plan: ₦15,000 premium, ₦3,000 down, 4 weekly installments of ₦3,000 from today. */
async function planOf(seed: Record<string, unknown> = {}, p?: TestPartner) {
  p ??= await t.partner();
  const policy = await insured(p);
  const plan = await finance(p, policy.reference, seed);
  expect(plan.exctnFdbck).toEqual({ id: 75, id_v4: 200 });
  return { p, policy, plan, planNo: plan.planNo as string };
}

const pay = (
  p: TestPartner,
  planNo: string,
  amount: unknown,
  reference = `pay-${crypto.randomUUID()}`,
  extra: Record<string, unknown> = {},
  label: KeyLabel = "test",
) => p.run("payment recordInstallment", { planNo, amount, reference, ...extra }, label);

/** A run lapses only plans of its key's mode (the operator's test key leaves live plans alone). */
const lapse = (asOf?: string, who: TestPartner = operator, label: KeyLabel = "test") => who.run("payment runLapse", asOf ? { asOf } : {}, label);

/** The outbox of one partner, oldest first (UUID v7 ids keep the order within one transaction). */
const eventsOf = (partnerId: string) =>
  db.select().from(outboxEvents).where(eq(outboxEvents.partnerId, partnerId)).orderBy(outboxEvents.createdAt, outboxEvents.id);

const plansOf = (partnerId: string) => db.select().from(financingPlans).where(eq(financingPlans.partnerId, partnerId));

function expectRefusal(answer: any, status: number, ...fragments: string[]) {
  const feedback = expectError(answer);
  expect(feedback.id).toBe(55);
  expect(feedback.id_v4).toBe(status);
  for (const fragment of fragments) expect(feedback.elbrtn).toContain(fragment);
}

describe("the schedule", () => {
  test("equal installments in kobo, the remainder on the last one", () => {
    expect(buildSchedule(1_400_000, 3, "weekly", "2026-03-02").map((i) => i.amountKobo)).toEqual([466_666, 466_666, 466_668]);
    expect(buildSchedule(1_200_000, 4, "weekly", "2026-03-02").map((i) => i.amountKobo)).toEqual([300_000, 300_000, 300_000, 300_000]);
    expect(buildSchedule(1_299_950, 7, "monthly", "2026-03-02").reduce((sum, i) => sum + i.amountKobo, 0)).toBe(1_299_950);
  });

  test("monthly due dates keep the day of month, clamped to the month's end without drifting", () => {
    expect([0, 1, 2, 3, 4].map((k) => dueDateOf("2026-01-31", "monthly", k))).toEqual(["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31"]);
    expect(dueDateOf("2028-01-31", "monthly", 1)).toBe("2028-02-29"); // leap year
    expect(dueDateOf("2026-01-30", "monthly", 1)).toBe("2026-02-28");
    expect([0, 1, 2].map((k) => dueDateOf("2026-11-30", "monthly", k))).toEqual(["2026-11-30", "2026-12-30", "2027-01-30"]);
  });

  test("weekly and biweekly add 7 and 14 days, across month and year ends", () => {
    expect([0, 1, 2].map((k) => dueDateOf("2026-12-24", "weekly", k))).toEqual(["2026-12-24", "2026-12-31", "2027-01-07"]);
    expect([0, 1, 2].map((k) => dueDateOf("2026-02-20", "biweekly", k))).toEqual(["2026-02-20", "2026-03-06", "2026-03-20"]);
  });

  test("the lapse note names the installment, its amount, due date and the grace", () => {
    const missed = { number: 2, amountKobo: 1_250_000, paidKobo: 0, dueDate: "2026-10-01" };
    expect(lapseNote(missed, 4, 7)).toBe("Lapsed: installment 2 of 4 (₦12,500.00, due 2026-10-01) unpaid after 7 days' grace");
    expect(lapseNote({ ...missed, paidKobo: 500_050 }, 4, 1)).toBe(
      "Lapsed: installment 2 of 4 (₦12,500.00, due 2026-10-01) partly unpaid (₦7,499.50 outstanding) after 1 day's grace",
    );
    expect(lapseNote(missed, 4, 0)).toBe("Lapsed: installment 2 of 4 (₦12,500.00, due 2026-10-01) unpaid after its due date (no grace days)");
    expect(formatNaira(123_456_789_01)).toBe("₦123,456,789.01");
    expect(formatNaira(5)).toBe("₦0.05");
  });
});

describe("payment financeLoan", () => {
  test("answers the plan and its schedule: equal split, remainder last, weekly dates", async () => {
    const p = await t.partner();
    const policy = await insured(p);
    const plan = await finance(p, policy.reference, { downPayment: 1000, installments: 3, frequency: "weekly", firstDueDate: watDate(2) });
    expect(plan).toEqual({
      planNo: expect.stringMatching(/^FIN-\d{4}-[0-9A-HJKMNP-TV-Z]{10}$/),
      policy: policy.reference,
      status: "active",
      premium: 15000,
      downPayment: 1000,
      financed: 14000,
      installments: 3,
      frequency: "weekly",
      graceDays: 7, // FINANCING_GRACE_DAYS
      currency: "NGN",
      schedule: [
        { number: 1, dueDate: watDate(2), amount: 4666.66 },
        { number: 2, dueDate: watDate(9), amount: 4666.66 },
        { number: 3, dueDate: watDate(16), amount: 4666.68 },
      ],
      nextDueDate: watDate(2),
      tmstmp: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      exctnFdbck: { id: 75, id_v4: 200 },
    });
    expect(plan.planNo.slice(4, 8)).toBe(watDate().slice(0, 4));
  });

  test("biweekly, a down payment with kobo, and a chosen grace", async () => {
    const { plan } = await planOf({ downPayment: 2000.5, installments: 7, frequency: "biweekly", firstDueDate: watDate(), graceDays: 0 });
    expect(plan.financed).toBe(12999.5);
    expect(plan.graceDays).toBe(0);
    expect(plan.schedule).toEqual([0, 1, 2, 3, 4, 5, 6].map((k) => ({ number: k + 1, dueDate: watDate(14 * k), amount: k === 6 ? 1857.08 : 1857.07 })));
  });

  test("monthly from the 31st of a month: dates clamp to shorter months", async () => {
    // Any 62 days hold a 31st.
    const first = Array.from({ length: 63 }, (_, d) => watDate(d)).find((d) => d.endsWith("-31"))!;
    const { plan } = await planOf({ downPayment: 0, installments: 4, frequency: "monthly", firstDueDate: first });
    const [y, m] = first.split("-").map(Number) as [number, number];
    const expected = [0, 1, 2, 3].map((k) => {
      const last = new Date(Date.UTC(y, m - 1 + k + 1, 0));
      return last.toISOString().slice(0, 10); // from a 31st, every due date is its month's last day
    });
    expect(plan.schedule).toEqual(expected.map((dueDate, i) => ({ number: i + 1, dueDate, amount: 3750 })));
  });

  test("a pending policy can be financed; a declined one cannot, and nothing is stored", async () => {
    const p = await t.partner();
    expect((await p.run("wallet topup", { amount: 10_000_000, reference: `fund-${crypto.randomUUID()}` }, "live")).exctnFdbck.id).toBe(75);
    const pending = await insured(p, { code: "crlt-sme1-1111", label: "live" });
    expect(pending.status).toBe("p");
    const declined = await insured(p, { code: "crlt-sme1-1111", label: "live" });
    expect((await declined.appr({ status: "d", statusNote: "Borrower outside insurable age band" })).status).toBe("d");

    expectRefusal(await finance(p, declined.reference, {}, "live"), 409, `policy ${declined.reference} was declined`, "only approved or pending policies");
    expect(await plansOf(p.partnerId)).toHaveLength(0);
    const plan = await finance(p, pending.reference, { downPayment: 0, installments: 2, frequency: "monthly" }, "live");
    expect(plan.exctnFdbck.id).toBe(75);
  }, 30_000);

  test("a plan follows its policy's mode: a test key cannot finance or pay a live policy's plan, nor a live key a test one's", async () => {
    const p = await t.partner();
    expect((await p.run("wallet topup", { amount: 10_000_000, reference: `fund-${crypto.randomUUID()}` }, "live")).exctnFdbck.id).toBe(75);
    const live = await insured(p, { code: "crlt-sme1-1111", label: "live" });
    expectRefusal(
      await finance(p, live.reference, {}, "test"),
      403,
      `policy ${live.reference} was issued in live mode`,
      "with a live key, and this key runs in test mode",
    );
    expect(await plansOf(p.partnerId)).toHaveLength(0);
    const livePlan = await finance(p, live.reference, { downPayment: 0, installments: 2, frequency: "monthly" }, "live");
    expect(livePlan.exctnFdbck.id).toBe(75);
    expectRefusal(await pay(p, livePlan.planNo, 100, undefined, {}, "test"), 403, "was issued in live mode: its premium is financed and paid with a live key");

    const { planNo } = await planOf({}, p);
    expectRefusal(await pay(p, planNo, 100, undefined, {}, "live"), 403, "was issued in test mode", "and this key runs in live mode");
    const payments = await db.select().from(financingPayments).where(eq(financingPayments.partnerId, p.partnerId));
    expect(payments).toHaveLength(0);
    expect((await pay(p, livePlan.planNo, 100, undefined, {}, "live")).exctnFdbck.id).toBe(75);
  }, 30_000);

  test("refusals name the field and store nothing", async () => {
    const p = await t.partner();
    const other = await t.partner();
    const policy = await insured(p);
    const othersPolicy = await insured(other);

    const cases: [Record<string, unknown>, number, string][] = [
      [{ policy: crypto.randomUUID() }, 404, "seed.policy: no policy"],
      [{ policy: othersPolicy.reference }, 404, `seed.policy: no policy ${othersPolicy.reference} of this partner`],
      [{ policy: "not a reference!" }, 400, "seed.policy must be the policy's transaction reference"],
      [{ downPayment: 15000 }, 400, "seed.downPayment must be less than the premium of policy"],
      [{ downPayment: 20000 }, 400, "15000 naira"],
      [{ downPayment: -1 }, 400, "seed.downPayment must be at least 0"],
      [{ downPayment: "3000" }, 400, "seed.downPayment must be a JSON number, not a string (send 3000 without quotes)"],
      [{ downPayment: 10.005 }, 400, "seed.downPayment must have at most two decimals"],
      [{ installments: 1 }, 400, "seed.installments must be at least 2; received 1"],
      [{ installments: 13 }, 400, "seed.installments must be at most 12; received 13"],
      [{ installments: 2.5 }, 400, "seed.installments must be a JSON integer"],
      [{ installments: "4" }, 400, "seed.installments must be a JSON number, not a string (send 4 without quotes)"],
      [{ frequency: "daily" }, 400, 'seed.frequency must be one of "weekly", "biweekly", "monthly"'],
      [{ firstDueDate: watDate(-1) }, 400, `seed.firstDueDate ${watDate(-1)} is in the past: the first installment must be due today (${watDate()}) or later`],
      [{ firstDueDate: watDate(63) }, 400, "must be due within 62 days"],
      [{ firstDueDate: "2026-02-30" }, 400, "seed.firstDueDate is not a real calendar date"],
      [{ firstDueDate: "01/12/2026" }, 400, "seed.firstDueDate must be a date in the form YYYY-MM-DD"],
      [{ graceDays: 31 }, 400, "seed.graceDays must be at most 30"],
      [{ downPayment: 14999.99, installments: 2 }, 400, "seed.installments: ₦0.01 financed in 2 installments is under ₦1.00 each"],
      [{ installments: 12, frequency: "monthly", firstDueDate: watDate(40) }, 400, "after the cover of policy"],
      [{ tenure: 4 }, 400, "seed has unknown field: tenure"],
      [{ frequency: null }, 406, "seed.frequency is null"],
      [{ policy: "" }, 406, "seed.policy is blank"],
    ];
    for (const [seed, status, message] of cases) {
      const answer = await finance(p, policy.reference, seed);
      expectRefusal(answer, status, message);
      if (message.startsWith("seed.")) expect(answer.exctnFdbck.elbrtn.startsWith(message.split(" ")[0]!)).toBe(true);
    }
    expectRefusal(await p.run("payment financeLoan", { policy: policy.reference }), 400, "seed.downPayment is required");
    expect(await plansOf(p.partnerId)).toHaveLength(0);
    expect((await eventsOf(p.partnerId)).filter((e) => e.type.startsWith("financing."))).toHaveLength(0);
  }, 30_000);

  test("one plan per policy: a second is 409 naming the first, also when both arrive at once", async () => {
    const { p, policy, planNo } = await planOf();
    expectRefusal(await finance(p, policy.reference), 409, `policy ${policy.reference} already has financing plan ${planNo}`);
    const another = await insured(p);
    const answers = await Promise.all(Array.from({ length: 5 }, () => finance(p, another.reference)));
    expect(answers.filter((a) => a.exctnFdbck.id === 75)).toHaveLength(1);
    for (const a of answers.filter((a) => a.exctnFdbck.id !== 75)) expectRefusal(a, 409, "already has financing plan");
    expect(await plansOf(p.partnerId)).toHaveLength(2);
  });

  test("the policy may be sent as 32 hexadecimal characters", async () => {
    const p = await t.partner();
    const policy = await insured(p);
    const plan = await finance(p, policy.reference.replaceAll("-", "").toUpperCase());
    expect(plan).toMatchObject({ exctnFdbck: { id: 75 }, policy: policy.reference });
  });
});

describe("payment recordInstallment", () => {
  test("part payments and payments over several installments, oldest first, until completion", async () => {
    const { p, planNo, policy } = await planOf();
    const first = await pay(p, planNo, 1000, "rcpt-001");
    expect(first).toEqual({
      planNo,
      reference: "rcpt-001",
      amount: 1000,
      paidAt: watDate(),
      outstanding: 11000,
      paidInstallments: 0,
      nextDueDate: watDate(),
      status: "active",
      currency: "NGN",
      tmstmp: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      exctnFdbck: { id: 75, id_v4: 200 },
    });
    const second = await pay(p, planNo, 5000, "rcpt-002");
    expect(second).toMatchObject({ outstanding: 6000, paidInstallments: 2, nextDueDate: watDate(14), status: "active" });

    const status = await p.run("payment status", { planNo: planNo.toLowerCase() });
    expect(status).toMatchObject({
      planNo,
      policy: policy.reference,
      status: "active",
      paid: 6000,
      outstanding: 6000,
      nextDueDate: watDate(14),
      schedule: [
        { number: 1, dueDate: watDate(), amount: 3000, paid: 3000, paidTmstmp: expect.any(String) },
        { number: 2, dueDate: watDate(7), amount: 3000, paid: 3000, paidTmstmp: expect.any(String) },
        { number: 3, dueDate: watDate(14), amount: 3000, paid: 0 },
        { number: 4, dueDate: watDate(21), amount: 3000, paid: 0 },
      ],
      payments: [
        { reference: "rcpt-001", amount: 1000, paidAt: watDate(), tmstmp: first.tmstmp },
        { reference: "rcpt-002", amount: 5000, paidAt: watDate(), tmstmp: second.tmstmp },
      ],
    });
    expect(status.schedule[2]).not.toHaveProperty("paidTmstmp");

    const third = await pay(p, planNo, 4500.5, "rcpt-003");
    expect(third).toMatchObject({ outstanding: 1499.5, paidInstallments: 3, nextDueDate: watDate(21) });
    const last = await pay(p, planNo, 1499.5, "rcpt-004");
    expect(last).toMatchObject({ outstanding: 0, paidInstallments: 4, nextDueDate: null, status: "completed" });
    const closed = await p.run("payment status", { planNo });
    expect(closed).toMatchObject({ status: "completed", paid: 12000, outstanding: 0, nextDueDate: null, closedTmstmp: expect.any(String) });

    // A completed plan takes nothing more; the repeat of its last payment still answers as the first time.
    expectRefusal(await pay(p, planNo, 10, "rcpt-005"), 409, `plan ${planNo} is completed`);
    expect(await pay(p, planNo, 1499.5, "rcpt-004")).toEqual(last);

    const types = (await eventsOf(p.partnerId)).map((e) => e.type).filter((type) => type.startsWith("financing."));
    expect(types).toEqual([
      "financing.plan_created",
      "financing.installment_recorded",
      "financing.installment_recorded",
      "financing.installment_recorded",
      "financing.installment_recorded",
      "financing.completed",
    ]);
    const events = await eventsOf(p.partnerId);
    expect(events.find((e) => e.type === "financing.plan_created")!.payload).toMatchObject({
      planNo,
      policy: policy.reference,
      financed: 12000,
      schedule: expect.any(Array),
    });
    expect(events.find((e) => e.type === "financing.completed")!.payload).toEqual({
      planNo,
      policy: policy.reference,
      financed: 12000,
      installments: 4,
      mode: "test",
    });
    expect(events.filter((e) => e.type === "financing.installment_recorded").map((e) => e.payload.reference)).toEqual([
      "rcpt-001",
      "rcpt-002",
      "rcpt-003",
      "rcpt-004",
    ]);
    expect(events.find((e) => e.type === "financing.installment_recorded")!.payload).toEqual({
      planNo,
      policy: policy.reference,
      reference: "rcpt-001",
      amount: 1000,
      paidAt: watDate(),
      outstanding: 11000,
      paidInstallments: 0,
      nextDueDate: watDate(),
      status: "active",
      mode: "test",
    });
  });

  test("overpayment is refused with the outstanding figure, and changes nothing", async () => {
    const { p, planNo } = await planOf();
    await pay(p, planNo, 2000);
    expectRefusal(await pay(p, planNo, 10000.01, "too-much"), 409, "seed.amount 10000.01 naira is more than the 10000 naira outstanding on plan");
    const status = await p.run("payment status", { planNo });
    expect(status).toMatchObject({ paid: 2000, outstanding: 10000 });
    expect(status.payments).toHaveLength(1);
    // Exactly the outstanding is fine.
    expect((await pay(p, planNo, 10000, "too-much")).status).toBe("completed");
  });

  test("refusals name the field and store nothing", async () => {
    const { p, planNo } = await planOf();
    const other = await t.partner();
    const cases: [unknown, number, string][] = [
      [{ planNo, amount: "1000", reference: "r1" }, 400, "seed.amount must be a JSON number, not a string (send 1000 without quotes)"],
      [{ planNo, amount: 0, reference: "r1" }, 400, "seed.amount must be more than 0"],
      [{ planNo, amount: -5, reference: "r1" }, 400, "seed.amount must be more than 0"],
      [{ planNo, amount: 10.001, reference: "r1" }, 400, "seed.amount must have at most two decimals"],
      [{ planNo, amount: 100, reference: "has space" }, 400, "seed.reference must be 1-64 letters, digits"],
      [{ planNo, amount: 100, reference: "x".repeat(65) }, 400, "seed.reference must be 1-64"],
      [{ planNo, amount: 100 }, 400, "seed.reference is required"],
      [{ planNo: "FIN-2026-NOTAPLAN00", amount: 100, reference: "r1" }, 404, "seed.planNo: no financing plan FIN-2026-NOTAPLAN00"],
      [{ planNo: "PLAN-1", amount: 100, reference: "r1" }, 400, "seed.planNo must be a plan number"],
      [{ planNo, amount: 100, reference: "r1", paidAt: watDate(1) }, 400, `seed.paidAt ${watDate(1)} is in the future`],
      [{ planNo, amount: 100, reference: "r1", paidAt: watDate(-1) }, 400, `seed.paidAt ${watDate(-1)} is before plan ${planNo} was created`],
      [{ planNo, amount: 100, reference: "r1", note: "x" }, 400, "seed has unknown field: note"],
      [{ planNo, amount: null, reference: "r1" }, 406, "seed.amount is null"],
    ];
    for (const [seed, status, message] of cases) expectRefusal(await p.run("payment recordInstallment", seed), status, message);
    // Another partner's plan does not exist for them.
    expectRefusal(await pay(other, planNo, 100), 404, `no financing plan ${planNo} for this partner`);
    expectRefusal(await other.run("payment status", { planNo }), 404, `no financing plan ${planNo}`);
    expect(
      await db
        .select()
        .from(financingPayments)
        .where(inArray(financingPayments.partnerId, [p.partnerId, other.partnerId])),
    ).toHaveLength(0);
    expect((await p.run("payment status", { planNo })).outstanding).toBe(12000);
  });

  test("a repeated reference returns the first result unchanged; another amount or plan is 409", async () => {
    const { p, planNo } = await planOf();
    const { planNo: otherPlan } = await planOf({}, p);
    const first = await pay(p, planNo, 2500, "bank-ref.77_A", { paidAt: watDate() });
    await pay(p, planNo, 1000); // the plan moves on
    const repeat = await pay(p, planNo, 2500, "bank-ref.77_A");
    expect(repeat).toEqual(first);
    expectRefusal(
      await pay(p, planNo, 2600, "bank-ref.77_A"),
      409,
      `seed.reference bank-ref.77_A was already used for a payment of 2500 naira on plan ${planNo}`,
    );
    expectRefusal(await pay(p, otherPlan, 2500, "bank-ref.77_A"), 409, `on plan ${planNo}`);
    expect((await p.run("payment status", { planNo })).paid).toBe(3500);
    expect((await p.run("payment status", { planNo: otherPlan })).paid).toBe(0);
  });

  test("concurrent repeats of one reference store exactly one payment", async () => {
    const { p, planNo } = await planOf();
    const answers = await Promise.all(Array.from({ length: 8 }, () => pay(p, planNo, 4000, "same-receipt")));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]).toMatchObject({ outstanding: 8000, paidInstallments: 1 });
    const stored = await db.select().from(financingPayments).where(eq(financingPayments.partnerId, p.partnerId));
    expect(stored).toHaveLength(1);
    expect((await eventsOf(p.partnerId)).filter((e) => e.type === "financing.installment_recorded")).toHaveLength(1);
    expect((await p.run("payment status", { planNo })).paid).toBe(4000);
  });

  test("concurrent different payments on one plan all apply, in some order", async () => {
    const { p, planNo } = await planOf();
    const answers = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => pay(p, planNo, 2000, `split-${n}`)));
    expect(answers.every((a) => a.exctnFdbck.id === 75)).toBe(true);
    expect(answers.map((a) => a.outstanding).sort((a, b) => a - b)).toEqual([0, 2000, 4000, 6000, 8000, 10000]);
    expect((await p.run("payment status", { planNo })).status).toBe("completed");
  });
});

describe("payment runLapse", () => {
  test("lapses a plan past its grace: plan and policy get the note, events are written, payments are refused", async () => {
    const { p, planNo, policy } = await planOf({ graceDays: 3 });
    await pay(p, planNo, 3000); // installment 1; installment 2 is due in 7 days
    const stillInGrace = await lapse(watDate(10)); // due + 3 days = day 10: still in grace
    expect(stillInGrace.lapsed.map((l: any) => l.planNo)).not.toContain(planNo);

    const run = await lapse(watDate(11));
    expect(run.exctnFdbck).toEqual({ id: 75, id_v4: 200 });
    expect(run.asOf).toBe(watDate(11));
    expect(run.count).toBe(run.lapsed.length);
    const note = `Lapsed: installment 2 of 4 (₦3,000.00, due ${watDate(7)}) unpaid after 3 days' grace`;
    expect(run.lapsed.find((l: any) => l.planNo === planNo)).toEqual({
      planNo,
      policy: policy.reference,
      partnerId: p.partnerId,
      missedInstallment: 2,
      dueDate: watDate(7),
      statusNote: note,
    });

    const record = await policy.policyStatus();
    expect(record).toMatchObject({ status: "l", statusNote: note, exctnFdbck: { id: 75 } });
    // The number it was approved with stays (as in its events and the lists), without a certificate of cover it no longer gives.
    expect(record.policyNo).toMatch(/^TST-/);
    expect(record).not.toHaveProperty("certUrl");
    expect(await p.run("payment status", { planNo })).toMatchObject({
      status: "lapsed",
      statusNote: note,
      outstanding: 9000,
      closedTmstmp: expect.any(String),
    });
    expectRefusal(await pay(p, planNo, 3000), 409, `plan ${planNo} has lapsed and takes no more payments (${note})`);
    expectRefusal(await finance(p, policy.reference), 409, "has lapsed: only approved or pending policies can be financed");

    const events = await eventsOf(p.partnerId);
    const lapsedEvents = events.filter((e) => e.type === "policy.lapsed" || e.type === "financing.lapsed");
    expect(lapsedEvents.map((e) => e.type)).toEqual(["policy.lapsed", "financing.lapsed"]);
    expect(lapsedEvents[0]!.payload).toMatchObject({ id: policy.reference, status: "l", statusNote: note });
    expect(lapsedEvents[1]!.payload).toEqual({
      planNo,
      policy: policy.reference,
      missedInstallment: 2,
      dueDate: watDate(7),
      outstanding: 9000,
      statusNote: note,
      mode: "test",
    });

    // The same run again lapses nothing.
    const again = await lapse(watDate(11));
    expect(again).toMatchObject({ lapsed: [], count: 0 });
    expect((await eventsOf(p.partnerId)).filter((e) => e.type.endsWith(".lapsed"))).toHaveLength(2);

    // An administrator's run over the JSON surface is audited as the portal's is, naming the key.
    const runs = (await listAudit(db, { action: "financing.run_lapse" }, { limit: 100 })).items;
    expect(runs.find((row) => (row.details.plans as string[]).includes(planNo))).toMatchObject({
      actor: "API key test",
      actorUserId: null,
      partnerId: null,
      subject: watDate(11),
      details: { asOf: watDate(11), count: run.count },
    });
  });

  test("a partly paid installment says what is still owed; paid-up and completed plans never lapse", async () => {
    const partly = await planOf({ graceDays: 0 });
    await pay(partly.p, partly.planNo, 1000.5);
    const current = await planOf({ graceDays: 0 });
    await pay(current.p, current.planNo, 6000); // two installments ahead: next due in 14 days
    const done = await planOf({ graceDays: 0 });
    await pay(done.p, done.planNo, 12000);

    const run = await lapse(watDate(1));
    const mine = run.lapsed.filter((l: any) => [partly.planNo, current.planNo, done.planNo].includes(l.planNo));
    expect(mine).toEqual([
      expect.objectContaining({
        planNo: partly.planNo,
        statusNote: `Lapsed: installment 1 of 4 (₦3,000.00, due ${watDate()}) partly unpaid (₦1,999.50 outstanding) after its due date (no grace days)`,
      }),
    ]);
    expect((await current.p.run("payment status", { planNo: current.planNo })).status).toBe("active");
    expect((await done.p.run("payment status", { planNo: done.planNo })).status).toBe("completed");
    expect((await done.policy.policyStatus()).status).toBe("a");
  });

  test("a declined policy keeps its status when its plan lapses", async () => {
    const p = await t.partner();
    expect((await p.run("wallet topup", { amount: 10_000_000, reference: `fund-${crypto.randomUUID()}` }, "live")).exctnFdbck.id).toBe(75);
    const pending = await insured(p, { code: "crlt-sme1-1111", label: "live" });
    const plan = await finance(p, pending.reference, { downPayment: 0, installments: 2, frequency: "monthly", graceDays: 0 }, "live");
    expect(plan.exctnFdbck.id).toBe(75);
    expect((await pending.appr({ status: "d", statusNote: "Borrower outside insurable age band" })).status).toBe("d");
    expectRefusal(await pay(p, plan.planNo, 100, undefined, {}, "live"), 409, "was declined: the plan takes no more payments");
    const run = await lapse(watDate(1), operator, "live");
    expect(run.lapsed.map((l: any) => l.planNo)).toContain(plan.planNo);
    expect(await pending.policyStatus()).toMatchObject({ status: "d", statusNote: "Borrower outside insurable age band" });
    const types = (await eventsOf(p.partnerId)).map((e) => e.type);
    expect(types).toContain("financing.lapsed");
    expect(types).not.toContain("policy.lapsed");
  }, 30_000);

  test("several runs at once lapse each plan exactly once", async () => {
    const plans = await Promise.all(Array.from({ length: 6 }, () => planOf({ graceDays: 0 })));
    const runs = await Promise.all(Array.from({ length: 5 }, () => lapse(watDate(1))));
    expect(runs.every((r) => r.exctnFdbck.id === 75)).toBe(true);
    const lapsedNos = runs.flatMap((r) => r.lapsed.map((l: any) => l.planNo as string));
    expect(new Set(lapsedNos).size).toBe(lapsedNos.length); // nobody lapsed twice
    for (const { planNo } of plans) expect(lapsedNos.filter((n) => n === planNo)).toHaveLength(1);
    for (const { p } of plans) {
      const types = (await eventsOf(p.partnerId)).map((e) => e.type);
      expect(types.filter((type) => type === "policy.lapsed")).toHaveLength(1);
      expect(types.filter((type) => type === "financing.lapsed")).toHaveLength(1);
    }
  });

  test("administrators only: a partner gets 403 and nothing lapses; bad asOf names the field", async () => {
    const { p, planNo } = await planOf({ graceDays: 0 });
    expectRefusal(await lapse(watDate(5), p), 403, "payment runLapse' is available only to the operator's administrator account");
    expect((await p.run("payment status", { planNo })).status).toBe("active");
    expectRefusal(await lapse("2026-13-01"), 400, "seed.asOf is not a real calendar date");
    expectRefusal(await operator.run("payment runLapse", { asOf: 20261201 }), 400, "seed.asOf must be a string");
  });

  test("without asOf the run uses today (Nigerian time): nothing due today lapses", async () => {
    const { p, planNo } = await planOf({ graceDays: 0 });
    const run = await lapse();
    expect(run.asOf).toBe(watDate());
    expect(run.lapsed.map((l: any) => l.planNo)).not.toContain(planNo);
    expect((await p.run("payment status", { planNo })).status).toBe("active");
  });

  test("the background job lapses due plans, at most once per LAPSE_INTERVAL_MS per process", async () => {
    const interval = 3_600_000;
    const [job] = financingJobs(db, { ...t.config, LAPSE_INTERVAL_MS: interval });
    const dayAfter = new Date(Date.now() + 86_400_000);
    const first = await planOf({ graceDays: 0 });
    expect(await job!.run(dayAfter)).toBeGreaterThanOrEqual(1);
    expect((await first.p.run("payment status", { planNo: first.planNo })).status).toBe("lapsed");
    expect((await first.policy.policyStatus()).status).toBe("l");

    const second = await planOf({ graceDays: 0 });
    expect(await job!.run(new Date(dayAfter.getTime() + 60_000))).toBe(0); // within the interval: not run
    expect((await second.p.run("payment status", { planNo: second.planNo })).status).toBe("active");
    expect(await job!.run(new Date(dayAfter.getTime() + interval))).toBeGreaterThanOrEqual(1);
    expect((await second.p.run("payment status", { planNo: second.planNo })).status).toBe("lapsed");
    for (const { p } of [first, second]) expect((await eventsOf(p.partnerId)).filter((e) => e.type.endsWith(".lapsed"))).toHaveLength(2);
  });
});

if (engine !== "postgres") console.warn("SKIPPED (PGlite run): two app processes lapsing together need PostgreSQL; run with TEST_ENGINE=postgres");

describe.skipIf(engine !== "postgres")("two app processes on one PostgreSQL", () => {
  test("lapse each plan once, on request and from their background loops", async () => {
    const repository = join(import.meta.dir, "..");
    const logDir = mkdtempSync(join(tmpdir(), "financing-apps-"));
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("NIID_")));
    const env = {
      ...inherited,
      DATABASE_URL: process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL,
      NIID_START: "false",
      LOG_LEVEL: "warn",
      RATE_LIMIT_MAX: "100000",
      WORKER: "true",
      WORKER_INTERVAL_MS: "100",
      LAPSE_INTERVAL_MS: "200",
    };
    const servers: Server[] = [];
    try {
      // One after the other: each takes a free port before the next looks for one.
      for (const name of ["app-1", "app-2"]) servers.push(await startServer({ name, script: "src/main.ts", env, logDir, cwd: repository }));
      const post = (server: Server, p: TestPartner, cmmnd: string, seed: unknown) =>
        fetch(server.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(p.envelope(cmmnd, seed)) }).then(
          (r) => r.json() as Promise<any>,
        );

      // On request: both processes run payment runLapse at the same moment.
      const requested = await Promise.all(Array.from({ length: 6 }, () => planOf({ graceDays: 0 })));
      const runs = await Promise.all(servers.flatMap((server) => [1, 2, 3].map(() => post(server, operator, "payment runLapse", { asOf: watDate(1) }))));
      expect(runs.every((r) => r.exctnFdbck.id === 75)).toBe(true);
      const lapsedNos = runs.flatMap((r) => r.lapsed.map((l: any) => l.planNo as string));
      for (const { planNo } of requested) expect(lapsedNos.filter((n) => n === planNo)).toHaveLength(1);

      // In the background: plans overdue today are lapsed by whichever loop claims them first.
      const overdue = await Promise.all(Array.from({ length: 6 }, () => planOf({ graceDays: 0 })));
      const ids = (
        await db
          .select({ id: financingPlans.id })
          .from(financingPlans)
          .where(
            inArray(
              financingPlans.planNo,
              overdue.map((o) => o.planNo),
            ),
          )
      ).map((r) => r.id);
      await db.transaction(async (tx) => {
        await tx
          .update(financingPlans)
          .set({ nextDueDate: watDate(-3) })
          .where(inArray(financingPlans.id, ids));
        await tx
          .update(financingInstallments)
          .set({ dueDate: watDate(-3) })
          .where(and(inArray(financingInstallments.planId, ids), eq(financingInstallments.number, 1)));
      });
      const deadline = Date.now() + 15_000;
      let remaining = ids.length;
      while (remaining > 0 && Date.now() < deadline) {
        await Bun.sleep(100);
        remaining = (
          await db
            .select({ id: financingPlans.id })
            .from(financingPlans)
            .where(and(inArray(financingPlans.id, ids), eq(financingPlans.status, "active")))
        ).length;
      }
      expect(remaining).toBe(0);

      for (const { p, policy } of [...requested, ...overdue]) {
        const types = (await eventsOf(p.partnerId)).map((e) => e.type);
        expect(types.filter((type) => type === "policy.lapsed")).toHaveLength(1);
        expect(types.filter((type) => type === "financing.lapsed")).toHaveLength(1);
        expect((await policy.policyStatus()).status).toBe("l");
      }
      const [lapsedPolicy] = await db
        .select({ note: policies.statusNote })
        .from(policies)
        .innerJoin(financingPlans, eq(financingPlans.policyId, policies.id))
        .where(eq(financingPlans.id, ids[0]!));
      expect(lapsedPolicy!.note).toBe(`Lapsed: installment 1 of 4 (₦3,000.00, due ${watDate(-3)}) unpaid after its due date (no grace days)`);
      for (const server of servers) expect(server.stderr()).not.toContain("background job failed");
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      rmSync(logDir, { recursive: true, force: true });
    }
  }, 120_000);
});

test("the outbox and the plan rows agree: one financing.lapsed per lapsed plan of this run", async () => {
  // A plan reinstated with its policy (docs/lifecycle.md) runs again and may lapse again: each lapse has its event.
  const reinstated = sql`${financingPlans.id} in (select plan_id from policy_reinstatements where plan_id is not null)`;
  const lapsedPlans = await db
    .select({ partnerId: financingPlans.partnerId, count: sql<number>`count(*)::int` })
    .from(financingPlans)
    .where(and(eq(financingPlans.status, "lapsed"), sql`not ${reinstated}`))
    .groupBy(financingPlans.partnerId);
  const reinstatedPlans = new Set((await db.select({ planNo: financingPlans.planNo }).from(financingPlans).where(reinstated)).map((p) => p.planNo));
  for (const { partnerId, count } of lapsedPlans) {
    const events = (await eventsOf(partnerId)).filter((e) => e.type === "financing.lapsed" && !reinstatedPlans.has((e.payload as { planNo: string }).planNo));
    expect(events).toHaveLength(count);
  }
});
