/**
 * Issue 37, item 7 — the regulator's view (docs/reporting.md, "The regulator's view"): open claims by
 * age and against the deadline, settlement times (median and 90th percentile), rejection rates and
 * reasons, worked out by hand for small books of partners made here (so nothing another suite writes
 * is counted); test and live never mixed; the page, its CSVs and its workbook; refused filters; the
 * operator's only.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import ExcelJS from "exceljs";
import { newId } from "../src/core/ids";
import { addDays } from "../src/modules/calendar";
import type { RejectionReason } from "../src/modules/claims";
import { type ClaimStatus, claims } from "../src/modules/claims/schema";
import type { PolicyRecord } from "../src/modules/policies/types";
import { NOT_RECORDED, quarterStart } from "../src/modules/reporting/claims-presenter";
import { claimsAgeing, rejections, settlementTimes } from "../src/modules/reporting/claims-report";
import { wallets } from "../src/modules/wallet/schema";
import { watDateTime, watToday } from "../src/products/policy-helpers";
import { type Browser, JARGON, signedIn } from "./portal/browser";
import { type TestPartner, testApp } from "./support/harness";
import { lifecycleHelpers } from "./support/lifecycle";

const t = await testApp();
const db = t.database.db;
const operator = await t.partner({ admin: true });
const { approved } = lifecycleHelpers(t, operator);
const DAY_MS = 86_400_000;
const VEHICLE = "Vehicle, third-party";
const PHONE = "Phone screen protection, basic (phones worth up to ₦200,000)";
/** The product names as a CSV cell: quoted, as they hold a comma. */
const [VEHICLE_CELL, PHONE_CELL] = [VEHICLE, PHONE].map((name) => `"${name}"`) as [string, string];

/** An instant given in Nigerian time, "2011-05-20 10:00". */
const wat = (local: string) => watDateTime(`${local}:00`);
const days = (n: number) => n * DAY_MS;

/** A partner with a funded live wallet and a live vehicle, a live phone and a test vehicle policy. */
async function book(label: string) {
  const name = `${label} ${crypto.randomUUID().slice(0, 8)}`;
  const p = await t.partner({ name });
  await db.insert(wallets).values({ partnerId: p.partnerId, balanceKobo: 1_000_000_000_00 });
  return {
    partner: p,
    name,
    vehicle: (await approved(p, "vhcl-tprt-1111", "live")).row,
    phone: (await approved(p, "phnn-flx1-1111", "live")).row,
    testVehicle: (await approved(p, "vhcl-tprt-1111", "test")).row,
  };
}

/**
 * A claim written as the claims module keeps one (the tests choose its dates): notified at `notified`,
 * decided (approved, or rejected) at `decided`, paid at `settled`; the settlement deadline 60 days after
 * the day of notification unless given.
 */
async function claim(
  policy: PolicyRecord,
  c: {
    status: ClaimStatus;
    notified: Date;
    decided?: Date;
    settled?: Date;
    reason?: RejectionReason;
    reserveKobo?: number;
    dueOn?: string;
    paused?: { since: string; until: string };
    lateInterestKobo?: number;
  },
) {
  const history = [{ status: "submitted" as const, by: "partner", at: c.notified.toISOString() }];
  if (c.decided)
    history.push({ status: (c.status === "rejected" ? "rejected" : "approved") as never, by: `admin:${operator.partnerId}`, at: c.decided.toISOString() });
  if (c.settled) history.push({ status: "paid" as never, by: `admin:${operator.partnerId}`, at: c.settled.toISOString() });
  const approvedOnes = c.status === "approved" || c.status === "paid";
  await db.insert(claims).values({
    id: newId(),
    partnerId: policy.partnerId,
    policyId: policy.id,
    claimNo: `CLM-2011-${crypto.randomUUID().slice(0, 10).toUpperCase()}`,
    status: c.status,
    rejectionReason: c.reason ?? null,
    incidentDate: watToday(c.notified),
    description: "A claim of the regulator's view's tests",
    claimedKobo: 100_000_00,
    approvedKobo: approvedOnes ? 100_000_00 : null,
    excessKobo: approvedOnes ? 0 : null,
    payableKobo: approvedOnes ? 100_000_00 : null,
    history,
    settlementDueOn: c.dueOn ?? addDays(watToday(c.notified), 60),
    pausedSince: c.paused?.since ?? null,
    pausedUntil: c.paused?.until ?? null,
    reserveKobo: c.reserveKobo ?? (c.status === "paid" || c.status === "rejected" || c.status === "withdrawn" ? 0 : 100_000_00),
    settledAt: c.settled ?? null,
    lateInterestKobo: c.lateInterestKobo ?? null,
    createdAt: c.notified,
    updatedAt: c.settled ?? c.decided ?? c.notified,
  });
}

/** A paid claim settled at `settled` (Nigerian time) after `took` ms from its notification, decided an hour before the money went. */
const paid = (policy: PolicyRecord, settledWat: string, took: number, extra: { dueOn?: string; lateInterestKobo?: number } = {}) => {
  const settled = wat(settledWat);
  return claim(policy, { status: "paid", notified: new Date(settled.getTime() - took), decided: new Date(settled.getTime() - 3_600_000), settled, ...extra });
};

const PERIOD = { from: "2011-04-01", to: "2011-06-30" };
const today = watToday(new Date());
/** Noon (Nigerian) `n` days before today. */
const daysAgo = (n: number) => watDateTime(`${addDays(today, -n)} 12:00:00`);

let settled: Awaited<ReturnType<typeof book>>;
let open: Awaited<ReturnType<typeof book>>;
let admin: Browser;

beforeAll(async () => {
  admin = await signedIn(t, operator.portal);
  // ── A book of settlements and decisions in the second quarter of 2011 ──
  settled = await book("Settlements");
  const { vehicle, phone, testVehicle } = settled;
  // Vehicle: 2, 4, 10 and 70 days from notification to money; the last one ten days after its deadline.
  await paid(vehicle, "2011-05-20 10:00", days(2));
  await paid(vehicle, "2011-05-20 10:00", days(4));
  await paid(vehicle, "2011-05-20 10:00", days(10));
  await paid(vehicle, "2011-05-20 10:00", days(70), { lateInterestKobo: 73_973 });
  // Phone: 12 hours, 36 hours and 3 days; the first paid in the period's first minutes, the second in its last (Nigerian time).
  await paid(phone, "2011-04-01 00:30", days(0.5));
  await paid(phone, "2011-06-30 23:30", days(1.5));
  await paid(phone, "2011-05-10 10:00", days(3));
  // Paid just outside the period (30 minutes before it began, 30 minutes after it ended): not counted as paid in it.
  await paid(phone, "2011-03-31 23:30", days(1));
  await paid(phone, "2011-07-01 00:30", days(1));
  // Test mode: never with the live figures.
  await paid(testVehicle, "2011-05-20 10:00", days(100));
  // Rejections decided in the period (one without a recorded reason, as before reasons were kept), one just after it.
  const rejected = (policy: PolicyRecord, decidedWat: string, reason?: RejectionReason) =>
    claim(policy, { status: "rejected", notified: new Date(wat(decidedWat).getTime() - days(5)), decided: wat(decidedWat), reason });
  await rejected(vehicle, "2011-04-15 09:00", "not_covered");
  await rejected(vehicle, "2011-05-15 09:00", "not_covered");
  await rejected(vehicle, "2011-06-15 09:00", "insufficient_evidence");
  await rejected(vehicle, "2011-06-16 09:00");
  await rejected(vehicle, "2011-07-01 00:30", "misrepresentation");
  await rejected(phone, "2011-05-02 09:00", "duplicate");
  await rejected(testVehicle, "2011-05-02 09:00", "excluded_cause");
  // Approved in the period, not paid yet; withdrawn (never decided).
  await claim(vehicle, { status: "approved", notified: wat("2011-06-01 09:00"), decided: wat("2011-06-10 09:00") });
  await claim(vehicle, { status: "withdrawn", notified: wat("2011-05-01 09:00") });

  // ── A book of open claims today ──
  open = await book("Open claims");
  const o = open;
  await claim(o.vehicle, { status: "submitted", notified: daysAgo(7), reserveKobo: 100_000_00 });
  await claim(o.vehicle, { status: "in_review", notified: daysAgo(22), reserveKobo: 50_000_00 });
  await claim(o.vehicle, { status: "approved", notified: daysAgo(55), decided: daysAgo(50), reserveKobo: 40_000_00, dueOn: addDays(today, 5) });
  // Waiting for information for the last 10 days, its deadline 30 days ago before the pause: moved by the 10 days waited, still overdue.
  await claim(o.vehicle, {
    status: "info_requested",
    notified: daysAgo(90),
    reserveKobo: 30_000_00,
    dueOn: addDays(today, -30),
    paused: { since: addDays(today, -10), until: addDays(today, 20) },
  });
  await claim(o.phone, { status: "submitted", notified: daysAgo(38), reserveKobo: 25_000_00, dueOn: addDays(today, 3) });
  await claim(o.phone, { status: "in_review", notified: daysAgo(70), reserveKobo: 20_000_00, dueOn: addDays(today, -10) });
  // Closed: not open.
  await claim(o.vehicle, { status: "paid", notified: daysAgo(20), decided: daysAgo(10), settled: daysAgo(9) });
  await claim(o.vehicle, { status: "rejected", notified: daysAgo(20), decided: daysAgo(10), reason: "other" });
  await claim(o.vehicle, { status: "withdrawn", notified: daysAgo(20) });
  // Test mode.
  await claim(o.testVehicle, { status: "submitted", notified: daysAgo(5), reserveKobo: 10_000_00 });
}, 120_000);

const live = (p: TestPartner) => ({ mode: "live" as const, partnerId: p.partnerId });

describe("open claims by age, against the deadline", () => {
  test("by band and product, within time, due within 7 days or overdue (a waiting claim's deadline moved by the days waited), with their reserve", async () => {
    const ageing = await claimsAgeing(db, live(open.partner), today, 7);
    const line = (productCode: string | null, band: string | null) => ageing.lines.find((l) => l.productCode === productCode && l.band === band);
    const all = (band: string | null) => line(null, band);
    expect(all("0-15")).toMatchObject({ claims: 1, withinTime: 1, dueSoon: 0, overdue: 0, reserveKobo: 100_000_00 });
    expect(all("16-30")).toMatchObject({ claims: 1, withinTime: 1, reserveKobo: 50_000_00 });
    expect(all("31-45")).toMatchObject({ claims: 1, dueSoon: 1, reserveKobo: 25_000_00 });
    expect(all("46-60")).toMatchObject({ claims: 1, dueSoon: 1, reserveKobo: 40_000_00 });
    expect(all("over-60")).toMatchObject({ claims: 2, withinTime: 0, dueSoon: 0, overdue: 2, reserveKobo: 50_000_00 });
    expect(all(null)).toEqual({ productCode: null, band: null, claims: 6, withinTime: 2, dueSoon: 2, overdue: 2, reserveKobo: 265_000_00 });
    expect(line("vhcl-tprt-1111", null)).toMatchObject({ claims: 4, withinTime: 2, dueSoon: 1, overdue: 1, reserveKobo: 220_000_00 });
    expect(line("phnn-flx1-1111", null)).toMatchObject({ claims: 2, withinTime: 0, dueSoon: 1, overdue: 1, reserveKobo: 45_000_00 });
    expect(line("phnn-flx1-1111", "0-15")).toBeUndefined();
  });

  test("the band edges: day 15 is in 0–15, day 16 in 16–30, day 60 in 46–60, day 61 over 60; a deadline today is due soon, yesterday's overdue", async () => {
    const edges = await book("Edges");
    for (const age of [0, 15, 16, 30, 31, 45, 46, 60, 61])
      await claim(edges.vehicle, { status: "submitted", notified: daysAgo(age), dueOn: addDays(today, 30) });
    await claim(edges.phone, { status: "submitted", notified: daysAgo(1), dueOn: today });
    await claim(edges.phone, { status: "submitted", notified: daysAgo(1), dueOn: addDays(today, -1) });
    await claim(edges.phone, { status: "submitted", notified: daysAgo(1), dueOn: addDays(today, 7) });
    await claim(edges.phone, { status: "submitted", notified: daysAgo(1), dueOn: addDays(today, 8) });
    const ageing = await claimsAgeing(db, live(edges.partner), today, 7);
    const vehicle = (band: string) => ageing.lines.find((l) => l.productCode === "vhcl-tprt-1111" && l.band === band)?.claims;
    expect([vehicle("0-15"), vehicle("16-30"), vehicle("31-45"), vehicle("46-60"), vehicle("over-60")]).toEqual([2, 2, 2, 2, 1]);
    expect(ageing.lines.find((l) => l.productCode === "phnn-flx1-1111" && l.band === null)).toMatchObject({ claims: 4, withinTime: 1, dueSoon: 2, overdue: 1 });
  });

  test("test mode is its own: the test claim alone, none of the live ones", async () => {
    const ageing = await claimsAgeing(db, { mode: "test", partnerId: open.partner.partnerId }, today, 7);
    expect(ageing.lines.find((l) => l.productCode === null && l.band === null)).toMatchObject({ claims: 1, reserveKobo: 10_000_00 });
    expect(ageing.lines.find((l) => l.productCode === null && l.band === "0-15")).toMatchObject({ claims: 1 });
  });

  test("a partner without claims has a total of noughts", async () => {
    const empty = await t.partner();
    expect((await claimsAgeing(db, live(empty), today, 7)).lines).toEqual([
      { productCode: null, band: null, claims: 0, withinTime: 0, dueSoon: 0, overdue: 0, reserveKobo: 0 },
    ]);
  });
});

describe("settlement times", () => {
  test("median and 90th percentile from notification to money received, per product and in all; the paid late and their interest", async () => {
    const lines = await settlementTimes(db, live(settled.partner), PERIOD);
    const of = (code: string | null) => lines.find((l) => l.productCode === code)!;
    const inDays = (seconds: number) => seconds / 86_400;
    // Vehicle [2, 4, 10, 70]: median half-way from 4 to 10 = 7; 90th at rank 1 + 0.9 × 3 = 3.7: 10 + 0.7 × 60 = 52.
    expect(of("vhcl-tprt-1111")).toMatchObject({ paid: 4, late: 1, lateInterestKobo: 73_973 });
    expect(inDays(of("vhcl-tprt-1111").medianSeconds)).toBeCloseTo(7, 9);
    expect(inDays(of("vhcl-tprt-1111").p90Seconds)).toBeCloseTo(52, 9);
    // Phone [0.5, 1.5, 3] (the two paid just outside the period left out): median 1.5; 90th at rank 2.8: 1.5 + 0.8 × 1.5 = 2.7.
    expect(of("phnn-flx1-1111")).toMatchObject({ paid: 3, late: 0, lateInterestKobo: 0 });
    expect(inDays(of("phnn-flx1-1111").medianSeconds)).toBeCloseTo(1.5, 9);
    expect(inDays(of("phnn-flx1-1111").p90Seconds)).toBeCloseTo(2.7, 9);
    // All [0.5, 1.5, 2, 3, 4, 10, 70]: median the 4th, 3; 90th at rank 6.4: 10 + 0.4 × 60 = 34.
    expect(of(null)).toMatchObject({ paid: 7, late: 1, lateInterestKobo: 73_973 });
    expect(inDays(of(null).medianSeconds)).toBeCloseTo(3, 9);
    expect(inDays(of(null).p90Seconds)).toBeCloseTo(34, 9);
    expect(lines).toHaveLength(3);
  });

  test("test mode is its own; another partner's and a period without payments count nothing", async () => {
    const test = await settlementTimes(db, { mode: "test", partnerId: settled.partner.partnerId }, PERIOD);
    expect(test.map((l) => [l.productCode, l.paid, l.medianSeconds / 86_400])).toEqual([
      ["vhcl-tprt-1111", 1, 100],
      [null, 1, 100],
    ]);
    expect(await settlementTimes(db, live(open.partner), PERIOD)).toEqual([
      { productCode: null, paid: 0, medianSeconds: 0, p90Seconds: 0, late: 0, lateInterestKobo: 0 },
    ]);
    expect((await settlementTimes(db, live(settled.partner), { from: "2011-08-01", to: "2011-08-31" }))[0]).toMatchObject({ productCode: null, paid: 0 });
  });
});

describe("the partner filter", () => {
  test("one partner's figures are exactly its own; without one, every partner's (these two partners' among them)", async () => {
    expect((await settlementTimes(db, live(open.partner), PERIOD))[0]!.paid).toBe(0);
    const every = await settlementTimes(db, { mode: "live" }, PERIOD);
    expect(every.find((l) => l.productCode === null)!.paid).toBeGreaterThanOrEqual(7);
    const everyOpen = (await claimsAgeing(db, { mode: "live" }, today, 7)).lines.find((l) => l.productCode === null && l.band === null)!;
    // The open book's six and the settled book's one approved claim, at least.
    expect(everyOpen.claims).toBeGreaterThanOrEqual(7);
    const settledOpen = (await claimsAgeing(db, live(settled.partner), today, 7)).lines.find((l) => l.productCode === null && l.band === null)!;
    expect(settledOpen).toMatchObject({ claims: 1, overdue: 1, reserveKobo: 100_000_00 });
  });
});

describe("rejections", () => {
  test("decided in the period by the history's decision step, rejected, and the reasons (one not recorded)", async () => {
    const { decisions, reasons } = await rejections(db, live(settled.partner), PERIOD);
    const decided = (code: string | null) => decisions.find((d) => d.productCode === code);
    // Vehicle: four paid and one approved (decided in the period), four rejected in it (the fifth a half-hour after it ended).
    expect(decided("vhcl-tprt-1111")).toEqual({ productCode: "vhcl-tprt-1111", decided: 9, rejected: 4 });
    // Phone: decided an hour before each payment — the one paid at 00:30 on 1 April was decided on 31 March; the one paid at 00:30 on 1 July, on 30 June.
    expect(decided("phnn-flx1-1111")).toEqual({ productCode: "phnn-flx1-1111", decided: 4, rejected: 1 });
    expect(decided(null)).toEqual({ productCode: null, decided: 13, rejected: 5 });
    const reason = (code: string | null, why: RejectionReason | null) => reasons.find((r) => r.productCode === code && r.reason === why)?.rejected;
    expect([reason(null, "not_covered"), reason(null, "insufficient_evidence"), reason(null, "duplicate"), reason(null, null)]).toEqual([2, 1, 1, 1]);
    expect(reason(null, "misrepresentation")).toBeUndefined();
    expect([reason("vhcl-tprt-1111", "not_covered"), reason("vhcl-tprt-1111", null), reason("phnn-flx1-1111", "duplicate")]).toEqual([2, 1, 1]);
  });

  test("test mode is its own", async () => {
    const { decisions, reasons } = await rejections(db, { mode: "test", partnerId: settled.partner.partnerId }, PERIOD);
    // The test claim paid (approved an hour before) and the test rejection.
    expect(decisions.find((d) => d.productCode === null)).toEqual({ productCode: null, decided: 2, rejected: 1 });
    expect(reasons.filter((r) => r.productCode === null)).toEqual([{ productCode: null, reason: "excluded_cause", rejected: 1 }]);
  });
});

const query = (extra: Record<string, string> = {}) => new URLSearchParams({ ...PERIOD, partner: settled.partner.partnerId, ...extra }).toString();
const csvLines = (text: string) =>
  text
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");

describe("the operator's page", () => {
  test("the figures in words, charts with their tables, the downloads carrying the filters; the navigation offers it beside the bordereaux", async () => {
    const page = await admin.get(`/admin/reports/regulator?${query()}`);
    expect(page.status).toBe(200);
    const html = page.text;
    expect(html).toContain("<h1>Claims for the regulator</h1>");
    expect(html).toMatch(/href="\/admin\/reports\/regulator"[^>]*>\s*Claims for the regulator\s*</);
    expect(html.indexOf('href="/admin/reports"')).toBeLessThan(html.indexOf('href="/admin/reports/regulator"'));
    expect(html).toContain(`Live business of ${settled.name}`);
    expect(html).toContain("claims paid and decided from 1 Apr 2011 to 30 Jun 2011");
    for (const words of [
      VEHICLE,
      "Median 7.0 days",
      "90th percentile 52.0 days",
      "168.0 hours",
      "1,248.0 hours",
      "₦739.73",
      "44.4 %",
      "38.5 %",
      "The loss is not covered by the terms of the policy",
      NOT_RECORDED,
      "Open claims by age",
      "Days from notification to money received",
      "Rejection rate by product",
      "Rejections by reason",
    ])
      expect(html).toContain(words.replaceAll("'", "&#39;"));
    // Products by name and reasons by their words, never their codes.
    for (const code of ["vhcl-tprt-1111", "phnn-flx1-1111", "not_covered", "insufficient_evidence", "info_requested"]) expect(html).not.toContain(`>${code}<`);
    expect(html).not.toMatch(/>\s*(?:not_covered|vhcl-tprt-1111)\s*</);
    for (const pattern of JARGON) expect(html.replace(/<[^>]+>/g, " ")).not.toMatch(pattern);
    // Each chart is an image with a summary, its figures in the table beside it.
    expect(html).toMatch(/role="img" aria-label="Rejections by reason, [^"]+The figures are in the table beside it\."/);
    expect(html).toContain(`href="/admin/reports/regulator/settlement-times.csv?${query()}"`);
    expect(html).toContain(`href="/admin/reports/regulator.xlsx?${query()}"`);
  });

  test("without a period: this quarter so far, in live mode, every partner", async () => {
    const page = await admin.get("/admin/reports/regulator");
    expect(page.status).toBe(200);
    expect(page.text).toMatch(new RegExp(`id="f-from"[^>]*value="${quarterStart(today)}"`));
    expect(page.text).toMatch(new RegExp(`id="f-to"[^>]*value="${today}"`));
    expect(page.text).toContain("Live business of every partner");
  });

  test("a partner id that is no partner's is no filter: every partner's figures", async () => {
    const page = await admin.get(`/admin/reports/regulator?${query({ partner: crypto.randomUUID() })}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Live business of every partner");
  });

  test("test business on its own: the test claims' figures, none of the live ones", async () => {
    const page = await admin.get(`/admin/reports/regulator?${query({ mode: "test" })}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`Test business of ${settled.name}`);
    expect(page.text).toContain("Median 100.0 days");
    expect(page.text).not.toContain("Median 7.0 days");
  });

  test("refused filters are shown beside their field and no figures are drawn: a date that is not one, an end before the start, an unknown mode", async () => {
    const bad = await admin.get(`/admin/reports/regulator?${query({ from: "2011-02-30" })}`);
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/id="f-from-error"[^>]*>[^<]*From is not a real calendar date/);
    expect(bad.text).not.toContain("Open claims by age");
    const backwards = await admin.get(`/admin/reports/regulator?${query({ from: "2011-06-30", to: "2011-04-01" })}`);
    expect(backwards.status).toBe(400);
    expect(backwards.text).toMatch(/id="f-to-error"[^>]*>[^<]*To must not be before From/);
    // What was typed stays in the form.
    expect(backwards.text).toMatch(/id="f-from"[^>]*value="2011-06-30"/);
    const mode = await admin.get(`/admin/reports/regulator?${query({ mode: "sandbox" })}`);
    expect(mode.status).toBe(400);
    expect(mode.text).toMatch(/id="f-mode-error"[^>]*>[^<]*Mode must be live or test/);
    for (const path of ["/admin/reports/regulator/ageing.csv", "/admin/reports/regulator.xlsx"]) {
      const file = await admin.get(`${path}?${query({ to: "2011-6-30" })}`);
      expect(file.status).toBe(400);
      expect(file.headers.get("content-disposition")).toBeNull();
      expect(file.text).toContain("To must be a date in the form YYYY-MM-DD");
    }
  });

  test("partner staff are refused the page and its files", async () => {
    const partner = await signedIn(t, settled.partner.portal);
    for (const path of [
      "/admin/reports/regulator",
      ...["ageing", "settlement-times", "rejection-rates", "rejection-reasons"].map((table) => `/admin/reports/regulator/${table}.csv`),
      "/admin/reports/regulator.xlsx",
    ])
      expect((await partner.get(`${path}?${query()}`)).status).toBe(403);
  });
});

describe("the files", () => {
  test("settlement times and rejection rates as CSV: products by name, days to two decimals and hours to one, naira, the all-products line last", async () => {
    const settlement = await admin.get(`/admin/reports/regulator/settlement-times.csv?${query()}`);
    expect(settlement.status).toBe(200);
    expect(settlement.headers.get("content-disposition")).toBe(
      `attachment; filename="claims-settlement-times-live-${settled.name.toLowerCase().replace(/ /g, "-")}-2011-04-01-to-2011-06-30.csv"`,
    );
    expect(csvLines(settlement.text)).toEqual([
      "Product,Claims paid,Median (days),90th percentile (days),Median (hours),90th percentile (hours),Paid after the deadline,Late interest (NGN)",
      `${PHONE_CELL},3,1.5,2.7,36,64.8,0,0`,
      `${VEHICLE_CELL},4,7,52,168,1248,1,739.73`,
      "All products,7,3,34,72,816,1,739.73",
    ]);
    const rates = await admin.get(`/admin/reports/regulator/rejection-rates.csv?${query()}`);
    expect(csvLines(rates.text)).toEqual([
      "Product,Claims decided,Rejected,Rejection rate (%)",
      `${PHONE_CELL},4,1,25`,
      `${VEHICLE_CELL},9,4,44.44`,
      "All products,13,5,38.46",
    ]);
  });

  test("rejection reasons: every documented reason for all products, each product's used ones, shares of the product's rejections", async () => {
    const reasons = csvLines((await admin.get(`/admin/reports/regulator/rejection-reasons.csv?${query()}`)).text);
    expect(reasons[0]).toBe("Product,Reason,Rejections,Share of the product's rejections (%)");
    expect(reasons.slice(1, 2)).toEqual([`${PHONE_CELL},The same loss was already claimed,1,100`]);
    expect(reasons.slice(2, 5)).toEqual([
      `${VEHICLE_CELL},The loss is not covered by the terms of the policy,2,50`,
      `${VEHICLE_CELL},The documents sent do not establish the loss or its amount,1,25`,
      `${VEHICLE_CELL},${NOT_RECORDED},1,25`,
    ]);
    const all = reasons.slice(5);
    expect(all).toHaveLength(11);
    expect(all[0]).toBe("All products,The loss is not covered by the terms of the policy,2,40");
    expect(all).toContain("All products,The cause of the loss is excluded by the policy,0,0");
    expect(all.at(-1)).toBe(`All products,${NOT_RECORDED},1,20`);
  });

  test("the ageing as CSV: each product's bands with open claims and its total, then every band over all products", async () => {
    const ageing = await admin.get(`/admin/reports/regulator/ageing.csv?${new URLSearchParams({ partner: open.partner.partnerId })}`);
    expect(ageing.headers.get("content-disposition")).toContain(`-${today}.csv"`);
    expect(csvLines(ageing.text)).toEqual([
      "Product,Age since notification,Open claims,Within time,Due within 7 days,Overdue,Reserve (NGN)",
      `${PHONE_CELL},31–45 days,1,0,1,0,25000`,
      `${PHONE_CELL},Over 60 days,1,0,0,1,20000`,
      `${PHONE_CELL},All ages,2,0,1,1,45000`,
      `${VEHICLE_CELL},0–15 days,1,1,0,0,100000`,
      `${VEHICLE_CELL},16–30 days,1,1,0,0,50000`,
      `${VEHICLE_CELL},46–60 days,1,0,1,0,40000`,
      `${VEHICLE_CELL},Over 60 days,1,0,0,1,30000`,
      `${VEHICLE_CELL},All ages,4,2,1,1,220000`,
      "All products,0–15 days,1,1,0,0,100000",
      "All products,16–30 days,1,1,0,0,50000",
      "All products,31–45 days,1,0,1,0,25000",
      "All products,46–60 days,1,0,1,0,40000",
      "All products,Over 60 days,2,0,0,2,50000",
      "All products,All ages,6,2,2,2,265000",
    ]);
  });

  test("one workbook of the four tables, read back: sheet names, headers, numbers as numbers", async () => {
    const response = await t.app.handle(
      new Request(`http://localhost/admin/reports/regulator.xlsx?${query()}`, { headers: { cookie: `session=${admin.cookie("session")}` } }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(response.headers.get("content-disposition")).toContain("claims-for-the-regulator-live-");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    expect(workbook.worksheets.map((s) => s.name)).toEqual(["Open claims by age", "Settlement times", "Rejection rates", "Rejection reasons"]);
    const settlement = workbook.getWorksheet("Settlement times")!;
    expect(settlement.getRow(1).values).toEqual([
      undefined,
      "Product",
      "Claims paid",
      "Median (days)",
      "90th percentile (days)",
      "Median (hours)",
      "90th percentile (hours)",
      "Paid after the deadline",
      "Late interest (NGN)",
    ]);
    expect(settlement.getRow(3).values).toEqual([undefined, VEHICLE, 4, 7, 52, 168, 1248, 1, 739.73]);
    expect(settlement.getRow(4).values).toEqual([undefined, "All products", 7, 3, 34, 72, 816, 1, 739.73]);
    expect(settlement.getRow(3).getCell(8).numFmt).toBe('"₦"#,##0.00;[Red]-"₦"#,##0.00');
    expect(workbook.getWorksheet("Rejection rates")!.getRow(4).values).toEqual([undefined, "All products", 13, 5, 38.46]);
    // This partner's one open claim: approved in June 2011 and not paid, long overdue.
    const ageing = workbook.getWorksheet("Open claims by age")!;
    expect(ageing.rowCount).toBe(1 + 2 + 6);
    expect(ageing.getRow(2).values).toEqual([undefined, VEHICLE, "Over 60 days", 1, 0, 0, 1, 100_000]);
    expect(ageing.getRow(9).values).toEqual([undefined, "All products", "All ages", 1, 0, 0, 1, 100_000]);
  });
});
