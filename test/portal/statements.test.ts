/**
 * The monthly statement in the portal (issue 17, docs/commissions.md): the partner's page with its
 * month picker, the PDF and the CSV, all with the figures of the one service function; the operator's
 * commission rates (errors beside the field, audited) and any partner's statement.
 */
import { describe, expect, test } from "bun:test";
import { and, eq, sql } from "drizzle-orm";
import { newId } from "../../src/core/ids";
import { formatNaira } from "../../src/core/money";
import { auditLog } from "../../src/modules/audit/schema";
import { commissionOn, rateFor } from "../../src/modules/commissions/earning";
import { previousMonth } from "../../src/modules/commissions/model";
import { changeRate, partnerStatement } from "../../src/modules/commissions/service";
import { currentWatMonth } from "../../src/modules/enrichment/service";
import { policies } from "../../src/modules/policies/schema";
import { walletEntries, wallets } from "../../src/modules/wallet/schema";
import { pdfText } from "../certificates/parse";
import { type TestPartner, testApp } from "../support/harness";
import { fullConsumer, insureSeed, productCases } from "../support/policies";
import { type Browser, signedIn } from "./browser";

const t = await testApp();
const db = t.database.db;
const operator = await t.partner({ admin: true });
const month = currentWatMonth(new Date());
const CODE = "mexx-stnd-1111";

/** A partner with a funded wallet and one live marine export policy (approved at once) earning 12.5 %. */
async function withLiveBusiness(): Promise<{ p: TestPartner; premiumKobo: number }> {
  const p = await t.partner();
  await db.transaction(async (tx) => {
    await tx.insert(wallets).values({ partnerId: p.partnerId, balanceKobo: 10_000_000_00 });
    await tx.insert(walletEntries).values({
      id: newId(),
      partnerId: p.partnerId,
      kind: "topup",
      amountKobo: 10_000_000_00,
      balanceAfterKobo: 10_000_000_00,
      reference: "fund-1",
      createdAt: new Date(),
    });
  });
  await changeRate(db, { label: "operator", partnerId: operator.partnerId }, { productCode: CODE, partnerId: p.partnerId, basisPoints: 1250 }, new Date());
  const c = productCases[CODE]!;
  const consumer = (await p.run("prfl entity", fullConsumer(), "live")).id as string;
  expect((await p.run(`dump ipck_${CODE}*PRMM`, c.quote, "live")).exctnFdbck.id).toBe(75);
  const answer = await p.run(`entt_${consumer}: insure`, insureSeed(c), "live");
  expect(answer.status).toBe("a");
  const [row] = await db
    .select()
    .from(policies)
    .where(and(eq(policies.partnerId, p.partnerId), eq(policies.reference, answer.id)));
  return { p, premiumKobo: row!.premiumKobo };
}

/** A download's bytes, with the browser's session. */
async function fetchFile(b: Browser, path: string) {
  const response = await t.app.handle(new Request(`http://localhost${path}`, { headers: { cookie: `session=${b.cookie("session")}` } }));
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    disposition: response.headers.get("content-disposition"),
    bytes: new Uint8Array(await response.arrayBuffer()),
  };
}

describe("the partner's statement page", () => {
  test("the month's figures, by product, with PDF and CSV downloads of the same figures", async () => {
    const { p, premiumKobo } = await withLiveBusiness();
    const commission = commissionOn(premiumKobo, 1250);
    const b = await signedIn(t, p.portal);
    const home = await b.get("/portal");
    expect(home.text).toContain('href="/portal/statements"');
    const shown = await b.get(`/portal/statements?month=${month}`);
    expect(shown.status).toBe(200);
    for (const text of [
      "Monthly statement",
      "Net due",
      "Commission earned",
      "Marine export",
      formatNaira(premiumKobo),
      formatNaira(commission),
      formatNaira(10_000_000_00 - premiumKobo + commission),
    ])
      expect(shown.text).toContain(text);
    expect(shown.text).toContain(`/portal/statements.pdf?month=${month}`);

    const pdf = await fetchFile(b, `/portal/statements.pdf?month=${month}`);
    expect([pdf.status, pdf.type]).toEqual([200, "application/pdf"]);
    expect(pdf.disposition).toContain(`${month}.pdf`);
    const { text } = await pdfText(pdf.bytes);
    for (const words of ["Monthly statement", p.name, "Net due", formatNaira(commission)]) expect(text).toContain(words);

    const csv = await fetchFile(b, `/portal/statements.csv?month=${month}`);
    expect([csv.status, csv.type]).toEqual([200, "text/csv; charset=utf-8"]);
    const lines = new TextDecoder()
      .decode(csv.bytes)
      .replace(/^\uFEFF/, "")
      .split("\r\n");
    const statement = await partnerStatement(db, p.partnerId, month);
    expect(lines).toContain(`Net due,Commission earned,${-commission / 100}`);
    expect(lines).toContain(`Wallet,Closing balance,${statement.closingKobo / 100}`);
    expect(lines).toContain(`Net due,Net due,${statement.netDueKobo / 100}`);
    expect(lines.some((line) => line.startsWith(`Marine export`) && line.includes(`,1,${premiumKobo / 100},0,${commission / 100},0`))).toBe(true);
  });

  test("last month by default; a malformed or future month is refused beside the picker", async () => {
    const { p } = await withLiveBusiness();
    const b = await signedIn(t, p.portal);
    const fallback = await b.get("/portal/statements");
    expect(fallback.status).toBe(200);
    expect(fallback.text).toContain(`value="${previousMonth(month)}"`);
    expect(fallback.text).toContain("No live policies, premiums or commission in this month.");
    const malformed = await b.get("/portal/statements?month=October");
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain('id="f-month-error"');
    expect(malformed.text).toContain("must be a month as YYYY-MM");
    const future = await b.get("/portal/statements?month=2099-12");
    expect(future.status).toBe(400);
    expect(future.text).toContain("2099-12 is in the future");
    expect((await fetchFile(b, "/portal/statements.csv?month=2099-12")).status).toBe(400);
    expect((await fetchFile(b, "/portal/statements.pdf?month=13-2026")).status).toBe(400);
  });
});

describe("the operator's commission rates and statements", () => {
  const PRODUCT = "mrnn-cmpr-1111";

  test("the list of products; a rate set in plain words, refused beside the field, a partner's own rate, removed; audited", async () => {
    const admin = await signedIn(t, operator.portal);
    const p = await t.partner();
    const list = await admin.get("/admin/commissions");
    expect(list.status).toBe(200);
    expect(list.text).toContain(`href="/admin/commissions/${PRODUCT}"`);
    await admin.get(`/admin/commissions/${PRODUCT}`);
    const refused = await admin.post(`/admin/commissions/${PRODUCT}`, { rate: "12.345" });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('id="f-rate-error"');
    expect(refused.text).toContain("at most two decimals");
    expect(refused.text).toContain('value="12.345"');
    const saved = await admin.post(`/admin/commissions/${PRODUCT}`, { rate: "12.5" });
    expect([saved.status, saved.location]).toEqual([303, `/admin/commissions/${PRODUCT}?done=rate`]);
    const page = await admin.get(saved.location!);
    expect(page.text).toContain("Now: 12.5 %.");
    expect(page.text).toContain("The rate is saved.");
    const noPartner = await admin.post(`/admin/commissions/${PRODUCT}/partners`, { partner: "", partnerRate: "15" });
    expect(noPartner.status).toBe(400);
    expect(noPartner.text).toContain('id="f-partner-error"');
    const own = await admin.post(`/admin/commissions/${PRODUCT}/partners`, { partner: p.partnerId, partnerRate: "15" });
    expect(own.status).toBe(303);
    expect(await rateFor(db, p.partnerId, PRODUCT)).toBe(1500);
    expect((await admin.get(own.location!)).text).toContain(`/admin/commissions/${PRODUCT}/partners/${p.partnerId}/remove`);
    expect((await admin.post(`/admin/commissions/${PRODUCT}/partners/${p.partnerId}/remove`, {})).status).toBe(303);
    expect(await rateFor(db, p.partnerId, PRODUCT)).toBe(1250);
    const audits = await db.select().from(auditLog).where(sql`${auditLog.subject} = ${PRODUCT} and ${auditLog.action} like 'commission.%'`);
    expect(audits.map((a) => a.action)).toEqual(expect.arrayContaining(["commission.rate_set", "commission.rate_remove"]));
    expect((await admin.get("/admin/commissions/zzzz-none-1111")).status).toBe(404);
    // Other suites share the database: no product-wide rate is left behind.
    await changeRate(db, { label: "operator", partnerId: operator.partnerId }, { productCode: PRODUCT, partnerId: null, basisPoints: null }, new Date());
  });

  test("any partner's statement, and its downloads", async () => {
    const { p } = await withLiveBusiness();
    const admin = await signedIn(t, operator.portal);
    const picker = await admin.get("/admin/statements");
    expect(picker.status).toBe(200);
    expect(picker.text).toContain(p.name);
    const shown = await admin.get(`/admin/statements?partner=${p.partnerId}&month=${month}`);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain("Marine export");
    const csv = await fetchFile(admin, `/admin/statements.csv?partner=${p.partnerId}&month=${month}`);
    expect(csv.status).toBe(200);
    expect(new TextDecoder().decode(csv.bytes)).toContain(`Statement,${p.name}`);
    expect((await fetchFile(admin, `/admin/statements.pdf?partner=${p.partnerId}&month=${month}`)).type).toBe("application/pdf");
    expect((await admin.get(`/admin/statements?partner=nobody&month=${month}`)).status).toBe(400);
    // A partner's staff cannot open the operator's pages.
    const b = await signedIn(t, p.portal);
    expect((await b.get(`/admin/statements?partner=${p.partnerId}`)).status).not.toBe(200);
  });
});
