/**
 * Issue 38, item 4 — the complaints report (docs/complaints.md, "The report"): received, resolved,
 * resolved within the deadline, outcomes and redress, open at the period's end by age, by category,
 * product and partner, worked out by hand for complaints written here in a period of 2011 (which no
 * other suite writes); test and live never mixed; the page, its CSVs and its workbook; a refused period.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import ExcelJS from "exceljs";
import { newId } from "../src/core/ids";
import { addDays } from "../src/modules/calendar";
import { complaintsReport } from "../src/modules/complaints/report";
import { type ComplaintOutcome, type ComplaintStatus, complaints } from "../src/modules/complaints/schema";
import { watDateTime } from "../src/products/policy-helpers";
import { signedIn } from "./portal/browser";
import { testApp } from "./support/harness";

setDefaultTimeout(60_000);

const t = await testApp();
const db = t.database.db;
const operator = await t.partner({ admin: true });
const first = await t.partner({ name: `Report partner one ${crypto.randomUUID().slice(0, 6)}` });
const second = await t.partner({ name: `Report partner two ${crypto.randomUUID().slice(0, 6)}` });

/** A complaint as the module keeps one, received on `received` (a 2011 day), closed on `closed` at noon, Nigerian time. */
async function complaint(c: {
  partnerId: string;
  received: string;
  status: ComplaintStatus;
  closed?: string;
  outcome?: ComplaintOutcome;
  redressKobo?: number;
  category?: "claim_delay" | "mis_selling" | "other";
  productCode?: string;
  mode?: "test" | "live";
}) {
  const at = (day: string) => watDateTime(`${day} 12:00:00`);
  await db.insert(complaints).values({
    id: newId(),
    partnerId: c.partnerId,
    complaintNo: `CMP-2011-${crypto.randomUUID().replace(/-/g, "").slice(0, 10).toUpperCase()}`,
    reference: null,
    category: c.category ?? "claim_delay",
    description: "Written by the report's test",
    complainantName: "Report Complainant",
    complainantEmail: "report@example.com",
    complainantPhone: null,
    policyId: null,
    claimId: null,
    productCode: c.productCode ?? null,
    mode: c.mode ?? "live",
    status: c.status,
    history: [],
    receivedOn: c.received,
    acknowledgeDueOn: addDays(c.received, 2),
    resolveDueOn: addDays(c.received, 14),
    acknowledgedAt: c.status === "received" ? null : at(c.received),
    closedAt: c.closed ? at(c.closed) : null,
    outcome: c.outcome ?? null,
    redressKobo: c.redressKobo ?? null,
    resolution: c.outcome ? "Found" : null,
    letter: null,
    createdAt: at(c.received),
    updatedAt: at(c.closed ?? c.received),
  });
}

const A = first.partnerId;
const B = second.partnerId;
// Period: May 2011.
await complaint({
  partnerId: A,
  received: "2011-05-02",
  status: "resolved",
  closed: "2011-05-10",
  outcome: "upheld",
  redressKobo: 500_000,
  productCode: "vhcl-tprt-1111",
});
await complaint({ partnerId: A, received: "2011-05-03", status: "resolved", closed: "2011-05-25", outcome: "not_upheld", category: "mis_selling" }); // late: due 05-17
await complaint({ partnerId: A, received: "2011-04-20", status: "resolved", closed: "2011-05-02", outcome: "partly_upheld", redressKobo: 100_000 }); // received before, resolved within
await complaint({ partnerId: B, received: "2011-05-28", status: "received", category: "other" }); // open, 3 days at 05-31
await complaint({ partnerId: B, received: "2011-05-10", status: "in_progress" }); // open, 21 days
await complaint({ partnerId: B, received: "2011-04-01", status: "acknowledged" }); // open since before: 60 days
await complaint({ partnerId: B, received: "2011-05-15", status: "withdrawn", closed: "2011-05-20" });
await complaint({ partnerId: B, received: "2011-05-20", status: "resolved", closed: "2011-06-05", outcome: "upheld" }); // open at the end, 11 days
await complaint({ partnerId: A, received: "2011-05-05", status: "received", mode: "test" }); // test: never in the live report
await complaint({ partnerId: A, received: "2011-03-01", status: "resolved", closed: "2011-03-10", outcome: "upheld" }); // before the period: nothing

const MAY = { mode: "live" as const, from: "2011-05-01", to: "2011-05-31" };

describe("the figures", () => {
  test("received, resolved, within the deadline, outcomes, redress, withdrawn and open at the end", async () => {
    const report = await complaintsReport(db, MAY);
    expect(report.totals).toMatchObject({
      received: 6,
      resolved: 3,
      resolvedInTime: 2,
      upheld: 1,
      partlyUpheld: 1,
      notUpheld: 1,
      withdrawn: 1,
      redressKobo: 600_000,
      open: 4,
    });
    expect(report.ageing).toEqual([
      { band: "0-7", open: 1 },
      { band: "8-14", open: 1 },
      { band: "15-30", open: 1 },
      { band: "over-30", open: 1 },
    ]);
  });

  test("by category, product and partner", async () => {
    const report = await complaintsReport(db, MAY);
    const category = Object.fromEntries(report.byCategory.map((l) => [l.key, [l.received, l.resolved, l.open]]));
    expect(category).toEqual({ claim_delay: [4, 2, 3], mis_selling: [1, 1, 0], other: [1, 0, 1] });
    const product = Object.fromEntries(report.byProduct.map((l) => [String(l.key), l.received]));
    expect(product).toEqual({ "vhcl-tprt-1111": 1, null: 5 });
    const partner = Object.fromEntries(report.byPartner.map((l) => [l.key, [l.received, l.resolved, l.redressKobo]]));
    expect(partner).toEqual({ [A]: [2, 3, 600_000], [B]: [4, 0, 0] });
  });

  test("test complaints are reported apart", async () => {
    const report = await complaintsReport(db, { ...MAY, mode: "test" });
    expect(report.totals).toMatchObject({ received: 1, open: 1, resolved: 0 });
  });
});

describe("the page and its files", () => {
  test("the page, each table as CSV, and the workbook", async () => {
    const admin = await signedIn(t, operator.portal);
    const query = "from=2011-05-01&to=2011-05-31&mode=live";
    const page = await admin.get(`/admin/reports/complaints?${query}`);
    expect(page.status).toBe(200);
    for (const words of ["Complaints report", "Open by age", "By category", "Claim delay", "Policy sale or mis-selling", "By partner", first.name!])
      expect(page.text).toContain(words);
    const csv = await admin.get(`/admin/reports/complaints/summary.csv?${query}`);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const [heading, line] = csv.text
      .replace(/^\uFEFF/, "")
      .trim()
      .split(/\r?\n/);
    expect(heading).toBe("Period,Received,Resolved,Resolved within the deadline,Upheld,Partly upheld,Not upheld,Withdrawn,Redress (₦),Open at the end");
    expect(line).toBe("2011-05-01 to 2011-05-31,6,3,2,1,1,1,1,6000,4");
    const ageing = await admin.get(`/admin/reports/complaints/ageing.csv?${query}`);
    expect(ageing.text).toContain("Over 30 days,1");

    const xlsx = await t.app.handle(
      new Request(`http://localhost/admin/reports/complaints.xlsx?${query}`, { headers: { cookie: `session=${admin.cookie("session")}` } }),
    );
    expect(xlsx.headers.get("content-type")).toContain("spreadsheetml");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await xlsx.arrayBuffer());
    expect(workbook.worksheets.map((s) => s.name)).toEqual(["Summary", "Open by age", "By category", "By product", "By partner"]);
    expect(workbook.getWorksheet("Summary")!.getRow(2).getCell(2).value).toBe(6);
  });

  test("a period that ends before it starts is refused beside its field, and its files with words", async () => {
    const admin = await signedIn(t, operator.portal);
    const page = await admin.get("/admin/reports/complaints?from=2011-05-31&to=2011-05-01");
    expect(page.status).toBe(400);
    expect(page.text).toContain("has-error");
    const csv = await admin.get("/admin/reports/complaints/summary.csv?from=2011-05-31&to=2011-05-01");
    expect(csv.status).toBe(400);
    const bad = await admin.get("/admin/reports/complaints?from=May");
    expect(bad.status).toBe(400);
  });

  test("the operator's only", async () => {
    const browser = await signedIn(t, first.portal);
    expect((await browser.get("/admin/reports/complaints")).status).toBe(403);
  });
});
