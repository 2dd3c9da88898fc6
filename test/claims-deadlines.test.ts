/**
 * Issue 37, the clock: deadlines on every claim over the wire and in events, the voucher's working
 * days skipping the shipped holidays, late interest fixed when paid, the background check's
 * claim.due_soon and claim.overdue sent once each (also when two instances look at once), and the
 * operator's public holidays page.
 */
import { describe, expect, test } from "bun:test";
import { and, asc, eq, like } from "drizzle-orm";
import { listAudit } from "../src/modules/audit/service";
import { addDays } from "../src/modules/calendar";
import { clockSettings } from "../src/modules/claims/clock";
import { announceDeadlines } from "../src/modules/claims/deadlines";
import { decisionSettings, reviewClaim } from "../src/modules/claims/decisions";
import { claims } from "../src/modules/claims/schema";
import { outboxEvents } from "../src/modules/events/schema";
import { watMidnight } from "../src/products/policy-helpers";
import { type Browser, signedIn } from "./portal/browser";
import { payClaim } from "./support/claims";
import { type TestPartner, testApp } from "./support/harness";
import { fullConsumer, insureSeed, productCases, watDate } from "./support/policies";

const t = await testApp();
const db = t.database.db;
const operator = await t.partner({ admin: true });
const clock = clockSettings(t.config);
const admin = { label: "test", partnerId: operator.partnerId };

async function claimOn(p: TestPartner) {
  const c = productCases["vhcl-tprt-1111"]!;
  const consumer = (await p.run("prfl entity", fullConsumer())).id as string;
  const policy = await p.run(`entt_${consumer}: insure`, insureSeed(c));
  const claim = await p.run("claim submit", { policy: policy.id, incidentDate: watDate(0), description: "Rear-ended", amount: 100_000 });
  expect(claim.exctnFdbck.id).toBe(75);
  return claim;
}

/** Noon (Nigerian) of a day: a `now` for the domain functions. */
const noonOf = (day: string) => new Date(watMidnight(day).getTime() + 12 * 3_600_000);

const review = (claimNo: string, status: "in_review" | "approved", day: string) =>
  reviewClaim(db, { claimNo, status, by: `admin:${operator.partnerId}`, actor: admin, now: noonOf(day), settings: decisionSettings(t.config) });

/** Paid on `day`: the account given, the voucher accepted, the sandbox's transfer confirmed. */
const pay = (p: { partnerId: string }, claimNo: string, day: string) => payClaim(db, t.config, { claimNo, partnerId: p.partnerId, mode: "test" }, noonOf(day));

const clockEvents = (partnerId: string) =>
  db
    .select()
    .from(outboxEvents)
    .where(and(eq(outboxEvents.partnerId, partnerId), like(outboxEvents.type, "claim.%")))
    .orderBy(asc(outboxEvents.createdAt))
    .then((rows) => rows.filter((r) => r.type === "claim.due_soon" || r.type === "claim.overdue"));

describe("deadlines", () => {
  test("a claim is due for settlement 60 days after its notification, said in every answer and the list", async () => {
    const p = await t.partner();
    const claim = await claimOn(p);
    expect(claim.settlementDue).toBe(watDate(60));
    expect(claim).not.toHaveProperty("voucherDue");
    expect((await p.run("claim status", { claimNo: claim.claimNo })).settlementDue).toBe(watDate(60));
    expect((await p.run("claim list", {})).list[0].settlementDue).toBe(watDate(60));
  });

  test("admitting liability on Christmas Eve 2026 makes the voucher due on 5 January 2027: the shipped holidays are skipped", async () => {
    const p = await t.partner();
    const { claimNo } = await claimOn(p);
    await review(claimNo, "in_review", watDate(0));
    const approved = await review(claimNo, "approved", "2026-12-24");
    expect(approved.voucherDueOn).toBe("2027-01-05");
    expect((await p.run("claim status", { claimNo })).voucherDue).toBe("2027-01-05");
  });

  test("paid ten days after the deadline: the late interest is paid with the claim and fixed on it, in its answer and event", async () => {
    const p = await t.partner();
    const { claimNo, settlementDue } = await claimOn(p);
    await review(claimNo, "in_review", watDate(0));
    await review(claimNo, "approved", watDate(1));
    const paid = await pay(p, claimNo, addDays(settlementDue, 10));
    // ₦100,000 × 27 % × 10 / 365 = ₦739.73 (73,972.6 kobo)
    expect(paid).toMatchObject({ status: "paid", lateInterestKobo: 73_973 });
    expect(paid.payout).toMatchObject({ status: "success", payableKobo: 10_000_000, lateInterestKobo: 73_973, amountKobo: 10_073_973 });
    const answer = await p.run("claim status", { claimNo });
    expect(answer).toMatchObject({ lateInterest: 739.73, payout: { status: "success", amount: 100_739.73, lateInterest: 739.73 } });
    const events = await db.select().from(outboxEvents).where(eq(outboxEvents.partnerId, p.partnerId)).orderBy(asc(outboxEvents.createdAt));
    expect(events.filter((e) => e.type === "claim.updated").at(-1)!.payload).toMatchObject({ status: "paid", lateInterest: 739.73 });
  });

  test("paid on its last day: no interest", async () => {
    const p = await t.partner();
    const { claimNo, settlementDue } = await claimOn(p);
    await review(claimNo, "in_review", watDate(0));
    await review(claimNo, "approved", watDate(0));
    const paid = await pay(p, claimNo, settlementDue);
    expect(paid).toMatchObject({ status: "paid", lateInterestKobo: null });
    expect(await p.run("claim status", { claimNo })).not.toHaveProperty("lateInterest");
  });
});

/**
 * The background check as the worker runs it: pass after pass while a pass sent something. The suite's
 * other claims share the database, and a pass takes the first hundred due.
 */
async function announceAll(now: Date) {
  while ((await announceDeadlines(db, clock, now)) > 0);
}

describe("the background check", () => {
  test("claim.due_soon a week before, claim.overdue the day after, each once, also with two instances looking at once", async () => {
    const p = await t.partner();
    const { claimNo, settlementDue } = await claimOn(p);
    const closed = await claimOn(p);
    await p.run("claim withdraw", { claimNo: closed.claimNo });

    await announceAll(noonOf(addDays(settlementDue, -8)));
    expect(await clockEvents(p.partnerId)).toEqual([]);

    await Promise.all([announceAll(noonOf(addDays(settlementDue, -7))), announceAll(noonOf(addDays(settlementDue, -7)))]);
    await announceAll(noonOf(addDays(settlementDue, -1)));
    let events = await clockEvents(p.partnerId);
    expect(events.map((e) => [e.type, e.payload])).toEqual([
      ["claim.due_soon", expect.objectContaining({ claimNo, status: "submitted", deadline: "settlement", dueOn: settlementDue, daysLeft: 7 })],
    ]);

    await Promise.all([announceAll(noonOf(addDays(settlementDue, 1))), announceAll(noonOf(addDays(settlementDue, 1)))]);
    await announceAll(noonOf(addDays(settlementDue, 30)));
    events = await clockEvents(p.partnerId);
    expect(events.map((e) => [e.type, e.payload.deadline, e.payload.daysOverdue ?? e.payload.daysLeft])).toEqual([
      ["claim.due_soon", "settlement", 7],
      ["claim.overdue", "settlement", 1],
    ]);
    expect(events.every((e) => e.payload.claimNo === claimNo)).toBe(true); // the withdrawn claim has no deadline
  });

  test("an approved claim's voucher is announced on its own deadline; a paid claim on neither", async () => {
    const p = await t.partner();
    const { claimNo } = await claimOn(p);
    await review(claimNo, "in_review", watDate(0));
    const approved = await review(claimNo, "approved", "2026-12-24");
    await announceAll(noonOf(addDays(approved.voucherDueOn!, 1)));
    const events = await clockEvents(p.partnerId);
    expect(events.map((e) => [e.type, e.payload.deadline])).toContainEqual(["claim.overdue", "voucher"]);

    const paid = await claimOn(p);
    await review(paid.claimNo, "in_review", watDate(0));
    await review(paid.claimNo, "approved", watDate(0));
    await pay(p, paid.claimNo, watDate(0));
    await announceAll(noonOf(addDays(paid.settlementDue, 5)));
    expect((await clockEvents(p.partnerId)).filter((e) => e.payload.claimNo === paid.claimNo)).toEqual([]);
  });
});

describe("the desk", () => {
  test("the operator's claims put overdue and nearly due open claims first; a claim's page says where its deadlines stand", async () => {
    const p = await t.partner();
    const overdue = await claimOn(p);
    const soon = await claimOn(p);
    const later = await claimOn(p);
    await db
      .update(claims)
      .set({ settlementDueOn: addDays(watDate(0), -3) })
      .where(eq(claims.claimNo, overdue.claimNo));
    await db
      .update(claims)
      .set({ settlementDueOn: addDays(watDate(0), 2) })
      .where(eq(claims.claimNo, soon.claimNo));
    const browser = await signedIn(t, operator.portal);
    const desk = (await browser.get("/admin/claims")).text;
    const section = desk.slice(desk.indexOf('id="due-first-title"'), desk.indexOf("</section>", desk.indexOf('id="due-first-title"')));
    expect(section).toMatch(/Due first: \d+ open claims? overdue or due within 7 days/);
    expect(section.indexOf(overdue.claimNo)).toBeGreaterThan(-1);
    expect(section.indexOf(overdue.claimNo)).toBeLessThan(section.indexOf(soon.claimNo));
    expect(section).not.toContain(later.claimNo);
    expect(section).toContain("overdue by 3 days");
    expect(section).toContain("2 days left");

    const page = (await browser.get(`/admin/claims/${later.claimNo}`)).text;
    expect(page).toContain("Settle by");
    expect(page).toContain("60 days left");
    const partnerPage = (await (await signedIn(t, p.portal)).get(`/portal/claims/${overdue.claimNo}`)).text;
    expect(partnerPage).toContain("overdue by 3 days");
  });
});

describe("the operator's public holidays", () => {
  test("listed from today; added and removed with an audit row; a bad or repeated date refused beside the field", async () => {
    const browser: Browser = await signedIn(t, operator.portal);
    const listed = await browser.get("/admin/holidays");
    expect(listed.status).toBe(200);
    expect(listed.text).toContain("Public holidays");
    expect(listed.text).toContain("Christmas Day");

    const day = "2031-06-12";
    const added = await browser.post("/admin/holidays", { day, name: "Democracy Day" });
    expect(added.status).toBe(200);
    expect(added.text).toContain("Democracy Day is a public holiday.");
    expect(added.text).toContain("12 Jun 2031");

    const again = await browser.post("/admin/holidays", { day, name: "Democracy Day" });
    expect(again.status).toBe(409);
    expect(again.text).toMatch(/id="f-day-error"[^>]*>[^<]*2031-06-12 is already a public holiday \(Democracy Day\)/);
    const bad = await browser.post("/admin/holidays", { day: "2031-02-30", name: "" });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("not a real calendar date");

    const removed = await browser.post(`/admin/holidays/${day}/remove`, {});
    expect(removed.text).toContain("Democracy Day is no longer a public holiday.");
    const audit = await listAudit(db, { partnerId: operator.partnerId }, { limit: 5 });
    expect(audit.items.map((a) => a.action)).toEqual(expect.arrayContaining(["holiday.add", "holiday.remove"]));
    expect((await browser.get("/admin/holidays")).text).not.toContain("12 Jun 2031");
  });

  test("a partner cannot reach it", async () => {
    const p = await t.partner();
    expect((await (await signedIn(t, p.portal)).get("/admin/holidays")).status).toBe(403);
  });
});
