import { describe, expect, test } from "bun:test";
import { and, eq, inArray, sql } from "drizzle-orm";
import { claims } from "../../src/modules/claims/schema";
import { registerConsumer } from "../../src/modules/consumers/service";
import { compactDailyTotals } from "../../src/modules/dashboard/compaction";
import { dashboardCharts } from "../../src/modules/dashboard/presenter";
import {
  type ChartScope,
  claimsRatioByMonth,
  expiringSoon,
  policiesByProduct,
  policiesByStatus,
  premiumsByDay,
  premiumsByMonth,
  walletBalanceByDay,
} from "../../src/modules/dashboard/statistics";
import { type PolicyStatus, policies } from "../../src/modules/policies/schema";
import { walletEntries } from "../../src/modules/wallet/schema";
import { BarChart, type ChartProps, ColumnChart, LineChart } from "../../views/charts/charts";
import { type TestPartner, testApp } from "../support/harness";
import { signedIn } from "./browser";

const t = await testApp();
const db = t.database.db;
const DAY = 86_400_000;
const now = new Date();
/** An instant `hoursAgo` before now. */
const ago = (hours: number) => new Date(now.getTime() - hours * 3_600_000);
/** YYYY-MM-DD of the WAT day holding `at`. */
const watDay = (at: Date) => new Date(at.getTime() + 3_600_000).toISOString().slice(0, 10);

async function consumerOf(p: TestPartner): Promise<string> {
  const consumer = await registerConsumer(
    db,
    p.partnerId,
    { type: "s", class: "h", name: { first: "Ada", last: "Obi" }, phoneNo: "+2348031234567", eMail: "ada@example.ng" },
    { maxDocumentBytes: 1 << 20 },
  );
  return consumer.id;
}

/** A policy written straight to the table at `createdAt` (issuance is tested elsewhere; here only the figures matter). */
async function policy(
  p: TestPartner,
  consumerId: string,
  o: { createdAt: Date; premiumKobo: number; status?: PolicyStatus; mode?: "test" | "live"; productCode?: string; coverEnd?: Date },
) {
  const id = crypto.randomUUID();
  await db.insert(policies).values({
    id,
    partnerId: p.partnerId,
    consumerId,
    reference: `chart-${id}`,
    productCode: o.productCode ?? "ltix-stnd-1111",
    mode: o.mode ?? "test",
    status: o.status ?? "a",
    route: "approve",
    premiumKobo: o.premiumKobo,
    coverStart: o.createdAt,
    coverEnd: o.coverEnd ?? new Date(o.createdAt.getTime() + 365 * DAY),
    facts: {},
    printed: [],
    certificateToken: id,
    createdAt: o.createdAt,
    statusAt: o.createdAt,
  });
  return id;
}

async function claim(
  p: TestPartner,
  policyId: string,
  o: { createdAt: Date; status: (typeof claims.$inferInsert)["status"]; claimedKobo: number; payableKobo?: number },
) {
  const id = crypto.randomUUID();
  await db.insert(claims).values({
    id,
    partnerId: p.partnerId,
    policyId,
    claimNo: `CLM-${id}`,
    status: o.status,
    incidentDate: watDay(o.createdAt),
    description: "a claim",
    claimedKobo: o.claimedKobo,
    payableKobo: o.payableKobo ?? null,
    history: [],
    settlementDueOn: watDay(new Date(o.createdAt.getTime() + 60 * DAY)),
    reserveKobo: o.claimedKobo,
    createdAt: o.createdAt,
    updatedAt: o.createdAt,
  });
}

const scopeOf = (p: TestPartner, mode: "test" | "live" = "test"): ChartScope => ({ partnerId: p.partnerId, mode });

describe("chart figures", () => {
  test("premium by day is bucketed by the Nigerian day: 23:30 UTC counts on the next WAT day; declined premium is left out", async () => {
    const p = await t.partner();
    const c = await consumerOf(p);
    // Yesterday 23:30 UTC is today 00:30 WAT (when today in WAT started at least 30 minutes ago).
    const todayWat = watDay(now);
    const lateUtc = new Date(Date.parse(`${todayWat}T00:00:00Z`) - 30 * 60_000);
    await policy(p, c, { createdAt: lateUtc, premiumKobo: 10_000 });
    await policy(p, c, { createdAt: ago(24 * 3), premiumKobo: 25_000 });
    await policy(p, c, { createdAt: ago(24 * 3), premiumKobo: 99_999, status: "d" });
    await policy(p, c, { createdAt: ago(24 * 45), premiumKobo: 7_000 }); // outside the 30 days
    const days = await premiumsByDay(db, scopeOf(p), now);
    expect(days).toHaveLength(30);
    expect(days.at(-1)!.key).toBe(todayWat);
    const of = (key: string) => days.find((d) => d.key === key);
    if (lateUtc.getTime() <= now.getTime()) expect(of(todayWat)).toEqual({ key: todayWat, premiumKobo: 10_000, policies: 1 });
    expect(of(watDay(ago(24 * 3)))).toEqual({ key: watDay(ago(24 * 3)), premiumKobo: 25_000, policies: 1 });
    expect(days.reduce((sum, d) => sum + d.premiumKobo, 0)).toBe(35_000);
  });

  test("premium by month: twelve WAT months, oldest first, the month boundary in WAT", async () => {
    const p = await t.partner();
    const c = await consumerOf(p);
    const month = watDay(now).slice(0, 7);
    // 23:30 UTC on the last day of the month before is 00:30 WAT on the 1st of this month.
    const firstWat = Date.parse(`${month}-01T00:00:00Z`);
    const boundary = new Date(firstWat - 30 * 60_000);
    const beforeBoundary = new Date(firstWat - 90 * 60_000); // 23:30 WAT, last day of the month before
    await policy(p, c, { createdAt: boundary, premiumKobo: 1_000 });
    await policy(p, c, { createdAt: beforeBoundary, premiumKobo: 2_000 });
    const months = await premiumsByMonth(db, scopeOf(p), now);
    expect(months).toHaveLength(12);
    expect(months.at(-1)!.key).toBe(month);
    const thisMonth = months.at(-1)!;
    const lastMonth = months.at(-2)!;
    expect(thisMonth.premiumKobo).toBe(boundary.getTime() <= now.getTime() ? 1_000 : 0);
    expect(lastMonth.premiumKobo).toBe(2_000);
    expect(months.slice(0, 10).every((m) => m.premiumKobo === 0)).toBe(true);
  });

  test("policies by product and by status follow every change of status (the daily totals are kept by the database)", async () => {
    const p = await t.partner();
    const c = await consumerOf(p);
    const pending = await policy(p, c, { createdAt: ago(2), premiumKobo: 5_000, status: "p", productCode: "gtrn-stnd-1111" });
    await policy(p, c, { createdAt: ago(2), premiumKobo: 5_000, status: "a", productCode: "gtrn-stnd-1111" });
    await policy(p, c, { createdAt: ago(50), premiumKobo: 5_000, status: "a", productCode: "ltix-stnd-1111" });
    expect(await policiesByProduct(db, scopeOf(p))).toEqual([
      { productCode: "gtrn-stnd-1111", policies: 2 },
      { productCode: "ltix-stnd-1111", policies: 1 },
    ]);
    expect(await policiesByStatus(db, scopeOf(p))).toEqual({ p: 1, a: 2, d: 0, l: 0, c: 0, e: 0 });
    await db.update(policies).set({ status: "d" }).where(eq(policies.id, pending));
    expect(await policiesByStatus(db, scopeOf(p))).toEqual({ p: 0, a: 2, d: 1, l: 0, c: 0, e: 0 });
    // Declined: its premium leaves the premium charts, the policy stays in the product count.
    expect((await premiumsByDay(db, scopeOf(p), now)).reduce((sum, d) => sum + d.premiumKobo, 0)).toBe(10_000);
    await db.update(policies).set({ premiumKobo: 6_000 }).where(eq(policies.productCode, "ltix-stnd-1111"));
    expect((await premiumsByDay(db, scopeOf(p), now)).reduce((sum, d) => sum + d.premiumKobo, 0)).toBe(11_000);
    // Aged by a week: it moves to that day.
    await db
      .update(policies)
      .set({ createdAt: ago(24 * 7 + 2) })
      .where(eq(policies.productCode, "ltix-stnd-1111"));
    const days = await premiumsByDay(db, scopeOf(p), now);
    expect(days.find((d) => d.key === watDay(ago(24 * 7 + 2)))!.premiumKobo).toBe(6_000 + (watDay(ago(50)) === watDay(ago(24 * 7 + 2)) ? 0 : 0));
    expect(days.reduce((sum, d) => sum + d.premiumKobo, 0)).toBe(11_000);
  });

  test("the daily totals equal a count of the policies after many-row inserts, updates and deletes in single statements", async () => {
    const p = await t.partner();
    const c = await consumerOf(p);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++)
      ids.push(
        await policy(p, c, {
          createdAt: ago(i * 13),
          premiumKobo: 1_000 * (i + 1),
          status: i % 3 === 0 ? "p" : "a",
          productCode: i % 2 ? "gtrn-stnd-1111" : "ltix-stnd-1111",
        }),
      );
    await db
      .update(policies)
      .set({ status: "e" })
      .where(and(eq(policies.partnerId, p.partnerId), eq(policies.status, "a")));
    await db
      .update(policies)
      .set({ premiumKobo: sql`${policies.premiumKobo} * 2`, createdAt: sql`${policies.createdAt} - interval '3 days'` })
      .where(inArray(policies.id, ids.slice(0, 5)));
    await db.update(policies).set({ remindedDays: 7 }).where(eq(policies.partnerId, p.partnerId)); // no counted column: nothing moves
    await db.delete(policies).where(inArray(policies.id, ids.slice(10)));
    const counted = await db.execute(sql`select to_char(((created_at at time zone 'UTC') + interval '1 hour')::date, 'YYYY-MM-DD') as day, product_code, status,
      count(*)::int as policies, sum(premium_kobo)::bigint as premium from policies where partner_id = ${p.partnerId} group by 1, 2, 3 order by 1, 2, 3`);
    // The lines of a key add up (writers only add lines); the compaction folds them into one each.
    const totals = () =>
      db.execute(sql`select to_char(day, 'YYYY-MM-DD') as day, product_code, status, sum(policies)::int as policies, sum(premium_kobo)::bigint as premium
        from policy_daily_totals where partner_id = ${p.partnerId} group by 1, 2, 3 having sum(policies) <> 0 order by 1, 2, 3`);
    const lines = async () => {
      const result = await db.execute(
        sql`select count(*)::int as n, count(*) filter (where not folded)::int as unfolded from policy_daily_totals where partner_id = ${p.partnerId}`,
      );
      return ((result as { rows?: unknown[] }).rows ?? result) as unknown as [{ n: number; unfolded: number }];
    };
    const plain = (rows: unknown) =>
      JSON.stringify(((rows as { rows?: unknown[] }).rows ?? rows) as unknown[], (_, v) =>
        typeof v === "bigint" ? Number(v) : typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v,
      );
    expect(plain(counted)).toContain("gtrn-stnd-1111");
    expect(plain(await totals())).toBe(plain(counted));
    const [before] = await lines();
    expect(before.unfolded).toBeGreaterThan(0);

    // The suite's other partners share the database: the job folds a batch of keys at a time, until none is left.
    let passes = 0;
    while ((await compactDailyTotals(db)) > 0) passes++;
    expect(passes).toBeGreaterThan(0);
    const [after] = await lines();
    expect(after.unfolded).toBe(0);
    expect(after.n).toBe(JSON.parse(plain(counted)).length);
    expect(plain(await totals())).toBe(plain(counted));
    // Nothing left to fold: a second run changes nothing.
    await compactDailyTotals(db);
    expect(plain(await totals())).toBe(plain(counted));
  });

  test("each mode sees only its own policies", async () => {
    const p = await t.partner();
    const c = await consumerOf(p);
    await policy(p, c, { createdAt: ago(1), premiumKobo: 3_000, mode: "live" });
    await policy(p, c, { createdAt: ago(1), premiumKobo: 4_000, mode: "test" });
    const sum = async (mode: "test" | "live") => (await premiumsByDay(db, scopeOf(p, mode), now)).reduce((s, d) => s + d.premiumKobo, 0);
    expect(await sum("live")).toBe(3_000);
    expect(await sum("test")).toBe(4_000);
  });

  test("claims ratio: open claims count what is claimed, approved and paid ones what is payable, rejected nothing; no premium, no ratio", async () => {
    const p = await t.partner();
    const c = await consumerOf(p);
    const id = await policy(p, c, { createdAt: ago(1), premiumKobo: 100_000, mode: "live" });
    await claim(p, id, { createdAt: ago(1), status: "submitted", claimedKobo: 10_000 });
    await claim(p, id, { createdAt: ago(1), status: "paid", claimedKobo: 50_000, payableKobo: 30_000 });
    await claim(p, id, { createdAt: ago(1), status: "rejected", claimedKobo: 70_000 });
    const months = await claimsRatioByMonth(db, scopeOf(p, "live"), now);
    expect(months).toHaveLength(12);
    const month = months.find((m) => m.month === watDay(ago(1)).slice(0, 7))!;
    expect(month).toEqual({ month: watDay(ago(1)).slice(0, 7), claimsKobo: 40_000, premiumKobo: 100_000, ratio: 0.4 });
    expect(months.filter((m) => m !== month).every((m) => m.ratio === null)).toBe(true);
    // The same partner's test mode has no live claims.
    expect((await claimsRatioByMonth(db, scopeOf(p, "test"), now)).every((m) => m.claimsKobo === 0)).toBe(true);
  });

  test("wallet balance: the end of each day from the ledger, a quiet day keeps the day before's, the balance before the 30 days carries in", async () => {
    const p = await t.partner();
    const line = (createdAt: Date, amountKobo: number, balanceAfterKobo: number) =>
      db
        .insert(walletEntries)
        .values({ id: crypto.randomUUID(), partnerId: p.partnerId, kind: "topup", amountKobo, balanceAfterKobo, reference: crypto.randomUUID(), createdAt });
    await line(ago(24 * 40), 50_000, 50_000);
    await line(ago(24 * 5), 10_000, 60_000);
    await line(ago(24 * 5 - 0.01), 5_000, 65_000);
    const days = await walletBalanceByDay(db, p.partnerId, now);
    expect(days).toHaveLength(30);
    expect(days[0]!.balanceKobo).toBe(50_000);
    const fifth = days.findIndex((d) => d.day === watDay(ago(24 * 5 - 0.01)));
    expect(days[fifth]!.balanceKobo).toBe(65_000);
    expect(days[fifth - 1]!.balanceKobo).toBe(fifth > 0 && days[fifth - 1]!.day === watDay(ago(24 * 5)) ? 60_000 : 50_000);
    expect(days.at(-1)!.balanceKobo).toBe(65_000);
    const empty = await t.partner();
    expect((await walletBalanceByDay(db, empty.partnerId, now)).every((d) => d.balanceKobo === 0)).toBe(true);
  });

  test("expiring soon: approved policies whose cover ends within 30 days", async () => {
    const p = await t.partner();
    const c = await consumerOf(p);
    await policy(p, c, { createdAt: ago(24 * 300), premiumKobo: 1, coverEnd: new Date(now.getTime() + 10 * DAY) });
    await policy(p, c, { createdAt: ago(24 * 300), premiumKobo: 1, coverEnd: new Date(now.getTime() + 40 * DAY) });
    await policy(p, c, { createdAt: ago(24 * 300), premiumKobo: 1, coverEnd: new Date(now.getTime() + 10 * DAY), status: "c" });
    expect(await expiringSoon(db, scopeOf(p), now)).toBe(1);
  });

  test("a partner never sees another's figures; the operator sees every partner's live business", async () => {
    const everyone = async () => {
      const charts = await dashboardCharts(db, { mode: "live" }, now);
      return charts.find((ch) => ch.chart.id === "chart-premium-day")!.chart.points.reduce((s, pt) => s + (pt.value ?? 0), 0);
    };
    const before = await everyone();
    const a = await t.partner();
    const b = await t.partner();
    await policy(a, await consumerOf(a), { createdAt: ago(1), premiumKobo: 111_100, mode: "live" });
    await policy(b, await consumerOf(b), { createdAt: ago(1), premiumKobo: 222_200, mode: "live" });
    const total = async (p: TestPartner) => (await premiumsByDay(db, scopeOf(p, "live"), now)).reduce((s, d) => s + d.premiumKobo, 0);
    expect(await total(a)).toBe(111_100);
    expect(await total(b)).toBe(222_200);
    expect((await everyone()) - before).toBe(333_300);

    const page = await (await signedIn(t, { ...a.portal })).get("/portal");
    // a is in test mode: its live premium is not on its test dashboard, and b's never is.
    expect(page.text).not.toContain("₦2,222.00");
    const operator = await t.partner({ admin: true });
    const admin = await signedIn(t, operator.portal);
    const adminPage = await admin.get("/admin/dashboard");
    expect(adminPage.status).toBe(200);
    expect(adminPage.text).toContain("Premium by day");
    // Partners cannot open the operator's dashboard.
    const partnerTry = await (await signedIn(t, b.portal)).get("/admin/dashboard");
    expect(partnerTry.status).not.toBe(200);
  });
});

describe("dashboard pages", () => {
  test("a new partner's dashboard says nothing yet for each chart, with no picture", async () => {
    const p = await t.partner();
    const page = await (await signedIn(t, p.portal)).get("/portal");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Premium by day");
    expect(page.text).toContain("Nothing yet: no premium in the last 30 days.");
    expect(page.text).toContain("Nothing yet: no policies.");
    expect(page.text).toContain("Nothing yet: the wallet has held no money in the last 30 days.");
    expect(page.text).not.toContain("<svg");
  });

  test("with policies, the charts are SVG pictures with a table of the same figures in naira", async () => {
    const p = await t.partner();
    const c = await consumerOf(p);
    await policy(p, c, { createdAt: ago(1), premiumKobo: 1_234_500, productCode: "gtrn-stnd-1111" });
    const browser = await signedIn(t, p.portal);
    const page = await browser.get("/portal");
    expect(page.text).toContain('role="img"');
    expect(page.text).toContain("Show as a table");
    expect(page.text).toContain("₦12,345.00");
    // The htmx fragment convention: an HX-Request gets the page's content without the shell.
    const fragment = await browser.get("/portal", { "hx-request": "true" });
    expect(fragment.text).toContain("Premium by day");
    expect(fragment.text).not.toContain("<html");
  });
});

describe("chart views", () => {
  const base: ChartProps = {
    id: "t",
    title: "Premium by day",
    description: "What was written.",
    labelHeading: "Day",
    valueHeading: "Premium",
    unit: "naira",
    points: [
      { label: "1 Nov 2026", short: "1 Nov", value: 150_000 },
      { label: "2 Nov 2026", short: "2 Nov", value: 0 },
      { label: "3 Nov 2026", short: "3 Nov", value: 300_000 },
    ],
    empty: "Nothing yet.",
  };

  test("a column chart fills its box with text at the page's size, is one image with a summary, and has its table alternative", () => {
    const html = String(ColumnChart(base));
    // Positions across are shares of the width, not a scaled viewBox (which shrank the text on a phone).
    expect(html).toContain('<svg class="chart-svg" width="100%" height="220"');
    expect(html).not.toContain("viewBox");
    expect(html).toContain('<rect class="chart-bar" x="6.35%" width="22.63%"');
    expect(html).toContain('role="img"');
    expect(html).toContain('aria-label="Premium by day, 1 Nov 2026 to 3 Nov 2026. Highest: ₦3,000.00 (3 Nov 2026). The figures are in the table below."');
    expect(html).toContain("<details><summary>Show as a table</summary>");
    expect(html).toContain('<th scope="row">3 Nov 2026</th><td class="num">₦3,000.00</td>');
    // Two bars: a zero day draws none.
    expect(html.match(/<rect/g)).toHaveLength(2);
  });

  test("a bar chart names each bar and writes its figure; a line chart breaks where a figure is missing", () => {
    const bars = String(BarChart({ ...base, unit: "count", points: [{ label: "Travel <b>", value: 7 }] }));
    expect(bars).toContain("Travel &lt;b&gt;");
    expect(bars).toContain('<span class="chart-figure">7</span>');
    expect(bars).toContain('<rect class="chart-bar" height="14" width="100.00%"');
    const line = String(
      LineChart({
        ...base,
        unit: "percent",
        extra: [{ heading: "Claims", unit: "naira" }],
        points: [
          { label: "Jan", value: 0.5, extra: [100] },
          { label: "Feb", value: 0.25, extra: [50] },
          { label: "Mar", value: null, extra: [0] },
          { label: "Apr", value: 0.1, extra: [10] },
        ],
      }),
    );
    expect(line.match(/<polyline/g)).toHaveLength(1);
    expect(line.match(/<circle/g)).toHaveLength(3);
    expect(line).toContain('<td class="num">50.0 %</td><td class="num">₦1.00</td>');
    expect(line).toContain('<td class="num">—</td>');
  });

  test("all zero: the plain empty line, no picture and no table", () => {
    const html = String(ColumnChart({ ...base, points: base.points.map((pt) => ({ ...pt, value: 0 })) }));
    expect(html).toContain('<p class="empty">Nothing yet.</p>');
    expect(html).not.toContain("<svg");
    expect(html).not.toContain("<table");
  });
});
