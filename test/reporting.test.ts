/** Insurer bordereaux (issue 17, part 3; docs/reporting.md): premium and claims per insurer and month, reconciled with the ledger, as CSV and XLSX. */
import { describe, expect, test } from "bun:test";
import { and, eq, gte, inArray, lt, notInArray, sql } from "drizzle-orm";
import ExcelJS from "exceljs";
import fc from "fast-check";
import { newId } from "../src/core/ids";
import { claims } from "../src/modules/claims/schema";
import { watMonth } from "../src/modules/enrichment/service";
import { policies } from "../src/modules/policies/schema";
import type { PolicyRecord } from "../src/modules/policies/types";
import { insurerOf, underwriter, underwriters } from "../src/modules/reporting/insurers";
import { claimsBordereau, premiumBordereau } from "../src/modules/reporting/service";
import { walletEntries, wallets } from "../src/modules/wallet/schema";
import { productFamilies } from "../src/products";
import { watToday } from "../src/products/policy-helpers";
import { signedIn } from "./portal/browser";
import { payOverTheWire } from "./support/claims";
import { testApp } from "./support/harness";
import { lifecycleHelpers } from "./support/lifecycle";

const t = await testApp();
const db = t.database.db;
const operator = await t.partner({ admin: true });
const { approved } = lifecycleHelpers(t, operator);

/** A partner with money in its live wallet (put there directly: how it got there is the funding suite's concern). */
async function livePartner(name = `Reporting ${crypto.randomUUID().slice(0, 8)}`) {
  const p = await t.partner({ name });
  await db.insert(wallets).values({ partnerId: p.partnerId, balanceKobo: 1_000_000_000_00 });
  return { ...p, name };
}

/** Commission lines as the commissions piece writes them (the contract in docs/reporting.md): + on approval, − with a refund. */
async function commissionLine(policy: PolicyRecord, kind: "commission" | "commission_reversal", amountKobo: number, at: Date) {
  await db
    .insert(walletEntries)
    .values({ id: newId(), partnerId: policy.partnerId, kind, amountKobo, balanceAfterKobo: 0, policyId: policy.id, createdAt: at });
}

/** Moves a policy and its ledger lines and claims by the same amount of time, into another month: instants keep their order and equality. */
async function shift(policyId: string, toCreatedAt: Date) {
  const [row] = await db.select().from(policies).where(eq(policies.id, policyId));
  const delta = toCreatedAt.getTime() - row!.createdAt.getTime();
  const by = (column: unknown) => sql`${column} + (${delta} * interval '1 millisecond')`;
  await db
    .update(policies)
    .set({ createdAt: by(policies.createdAt), statusAt: by(policies.statusAt), coverStart: by(policies.coverStart), coverEnd: by(policies.coverEnd) })
    .where(eq(policies.id, policyId));
  await db
    .update(walletEntries)
    .set({ createdAt: by(walletEntries.createdAt) })
    .where(eq(walletEntries.policyId, policyId));
  await db
    .update(claims)
    .set({ createdAt: by(claims.createdAt) })
    .where(eq(claims.policyId, policyId));
}

/** A cancelled policy's commission reversal: the commissions piece writes it with the refund; written here per the contract when it did not. */
async function reversedOnCancel(policyId: string, fallbackKobo: number): Promise<number> {
  const policy = await stored(policyId);
  const reversals = (await lines(policyId)).filter((l) => l.kind === "commission_reversal");
  if (reversals.length) return sumOf(reversals, (l) => l.amountKobo);
  if (fallbackKobo) await commissionLine(policy, "commission_reversal", -fallbackKobo, policy.statusAt);
  return -fallbackKobo;
}

const stored = async (id: string) => (await db.select().from(policies).where(eq(policies.id, id)))[0]!;
const lines = (policyId: string) => db.select().from(walletEntries).where(eq(walletEntries.policyId, policyId));
const sumOf = <T>(items: T[], pick: (item: T) => number) => items.reduce((total, item) => total + pick(item), 0);

// Months far from today's, one per test, so what other suites write now is never in them.
let nextYear = 2001;
const freshMonth = () => `${nextYear++}-03`;
const instantIn = (month: string, day = 10) => new Date(`${month}-${String(day).padStart(2, "0")}T09:00:00Z`);

describe("who underwrites what", () => {
  test("every product has an insurer with a code and a name; health's is the HMO of its type", () => {
    for (const family of productFamilies)
      for (const type of family.types) {
        const insurer = family.insurer(type.code);
        expect(insurer.code).toMatch(/^[a-z]{4}$/);
        expect(insurer.name.length).toBeGreaterThan(3);
      }
    expect(insurerOf("vhcl-tprt-1111")).toEqual({ code: "ldwy", name: "Leadway Assurance" });
    expect(insurerOf("hlth-hygn-1111")).toEqual({ code: "hygn", name: "Hygeia HMO" });
    const codes = underwriters().map((i) => i.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).toContain("aico");
    expect(() => underwriter("zzzz")).toThrow('insurer "zzzz" is not one');
  });
});

describe("premium bordereau", () => {
  test("new policies, a cancellation with its refund and commission reversal, per insurer; test mode and declined policies left out", async () => {
    const month = freshMonth();
    const p = await livePartner();
    const vehicle = await approved(p, "vhcl-tprt-1111", "live");
    const phone = await approved(p, "phnn-flx1-1111", "live");
    const cancelled = await approved(p, "vhcl-tprt-1111", "live");
    const testMode = await approved(p, "vhcl-tprt-1111", "test");
    await commissionLine(vehicle.row, "commission", 1_250_00, vehicle.row.createdAt);
    await commissionLine(cancelled.row, "commission", 1_000_00, cancelled.row.createdAt);
    expect((await cancelled.cancel()).exctnFdbck.id).toBe(75);
    const reversed = await reversedOnCancel(cancelled.row.id, 400_00);
    for (const policy of [vehicle, phone, cancelled, testMode]) await shift(policy.row.id, instantIn(month));

    const leadway = await premiumBordereau(db, underwriter("ldwy"), month);
    const ours = leadway.rows.filter((r) => r.partnerName === p.name);
    const refund = (await lines(cancelled.row.id)).find((l) => l.kind === "refund")!;
    expect(refund.amountKobo).toBeGreaterThan(0);
    // Booked at one instant (moved there together): the order among them is the references'.
    expect(ours.map((r) => `${r.reference} ${r.transaction}`).toSorted()).toEqual(
      [`${vehicle.reference} new`, `${cancelled.reference} new`, `${cancelled.reference} cancellation`].toSorted(),
    );
    const newVehicle = ours.find((r) => r.reference === vehicle.reference)!;
    const cancellation = ours.find((r) => r.transaction === "cancellation")!;
    expect(newVehicle).toMatchObject({ grossKobo: vehicle.row.premiumKobo, commissionKobo: 1_250_00, netKobo: vehicle.row.premiumKobo - 1_250_00 });
    expect(newVehicle.productName).toBe("Vehicle, third-party");
    expect(newVehicle.insuredName).toBe("Adaeze Okafor");
    expect(newVehicle.policyNo).toBe(vehicle.row.policyNo);
    expect(cancellation).toMatchObject({ grossKobo: -refund.amountKobo, commissionKobo: reversed, netKobo: -refund.amountKobo - reversed });
    expect(reversed).toBeLessThan(0);
    expect(leadway.rows.some((r) => r.reference === testMode.reference)).toBe(false);
    expect(leadway.totals.netKobo).toBe(sumOf(leadway.rows, (r) => r.grossKobo) - sumOf(leadway.rows, (r) => r.commissionKobo));

    // The phone is AXA Mansard's, and only on its bordereau.
    expect(leadway.rows.some((r) => r.reference === phone.reference)).toBe(false);
    const axa = await premiumBordereau(db, underwriter("axmi"), month);
    expect(axa.rows.filter((r) => r.partnerName === p.name).map((r) => [r.reference, r.transaction, r.grossKobo])).toEqual([
      [phone.reference, "new", phone.row.premiumKobo],
    ]);
  });

  test("months are Nigerian: a line at 00:30 WAT on the 1st is that month's, one at 23:59 WAT on the last day the month before", async () => {
    const month = freshMonth();
    const [from, to] = watMonth(month);
    const p = await livePartner();
    const first = await approved(p, "vhcl-tprt-1111", "live");
    const last = await approved(p, "vhcl-tprt-1111", "live");
    const after = await approved(p, "vhcl-tprt-1111", "live");
    await shift(first.row.id, new Date(from.getTime() + 30 * 60_000));
    await shift(last.row.id, new Date(from.getTime() - 60_000));
    await shift(after.row.id, to);
    expect(from.toISOString()).toBe(`${previousDay(month)}T23:00:00.000Z`);
    const rows = (await premiumBordereau(db, underwriter("ldwy"), month)).rows.filter((r) => r.partnerName === p.name);
    expect(rows.map((r) => r.reference)).toEqual([first.reference]);
    const before = (await premiumBordereau(db, underwriter("ldwy"), monthBefore(month))).rows.filter((r) => r.partnerName === p.name);
    expect(before.map((r) => r.reference)).toEqual([last.reference]);
  });

  test("mid-term premium changes (endorsements) are rows of their own: the extra premium, then the refund", async () => {
    const month = freshMonth();
    const p = await livePartner();
    const policy = await approved(p, "allr-stnd-1111", "live");
    const endorse = (sumInsured: number) => p.run(`ndrs ${policy.address}`, { id: crypto.randomUUID(), addtnlFact: { sumInsured } }, "live");
    const higher = await endorse(2_000_000);
    expect(higher.endorsement.status).toBe("applied");
    // Each change at its own instant.
    await Bun.sleep(5);
    const lower = await endorse(1_000_000);
    expect(lower.endorsement.status).toBe("applied");
    await shift(policy.row.id, instantIn(month));
    const rows = (await premiumBordereau(db, underwriter("nemi"), month)).rows.filter((r) => r.partnerName === p.name);
    expect(rows.map((r) => [r.transaction, r.grossKobo])).toEqual([
      ["new", policy.row.premiumKobo],
      ["change", Math.round(higher.endorsement.premiumChange * 100)],
      ["change", Math.round(lower.endorsement.premiumChange * 100)],
    ]);
    expect(rows[1]!.grossKobo).toBeGreaterThan(0);
  });

  test("a month of more lines than one page: every line read once, ties on an instant across pages included", async () => {
    const month = freshMonth();
    const p = await livePartner();
    const policy = await approved(p, "allr-stnd-1111", "live");
    await shift(policy.row.id, instantIn(month));
    const moved = await stored(policy.row.id);
    // 1,050 one-kobo refunds, three at each instant: 350 changes, read over two pages.
    await db.insert(walletEntries).values(
      Array.from({ length: 1_050 }, (_, i) => ({
        id: newId(),
        partnerId: p.partnerId,
        kind: "refund" as const,
        amountKobo: 1,
        balanceAfterKobo: 0,
        policyId: policy.row.id,
        createdAt: new Date(moved.createdAt.getTime() + 60_000 + Math.floor(i / 3)),
      })),
    );
    const rows = (await premiumBordereau(db, underwriter("nemi"), month)).rows.filter((r) => r.partnerName === p.name);
    expect(rows.filter((r) => r.transaction === "change").length).toBe(350);
    expect(rows.every((r) => r.transaction === "new" || r.grossKobo === -3)).toBe(true);
    expect(sumOf(rows, (r) => r.grossKobo)).toBe(policy.row.premiumKobo - 1_050);
  });

  test("a month that is no month is refused, naming the field", async () => {
    await expect(premiumBordereau(db, underwriter("ldwy"), "2026-13")).rejects.toThrow("month must be a month as YYYY-MM from 1900-01 to 2099-12");
  });
});

/** The day before the 1st of `month` (YYYY-MM-DD). */
function previousDay(month: string): string {
  return new Date(Date.parse(`${month}-01T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}
const monthBefore = (month: string) => previousDay(month).slice(0, 7);

describe("claims bordereau", () => {
  test("every claim reported in the month on the insurer's live policies, with reserve and paid", async () => {
    const month = freshMonth();
    const p = await livePartner();
    const phone = await approved(p, "phnn-flx1-1111", "live");
    const submit = async (amount: number) => {
      const answer = await p.run(
        "claim submit",
        { policy: phone.reference, incidentDate: watToday(new Date()), description: "Screen cracked on a tiled floor", amount },
        "live",
      );
      expect(answer.exctnFdbck).toEqual({ id: 75, id_v4: 200 });
      return answer.claimNo as string;
    };
    const open = await submit(30_000);
    const paid = await submit(20_000);
    for (const status of ["in_review", "approved"]) {
      const extra = status === "approved" ? { approvedAmount: 18_000 } : {};
      const answer = await operator.run("claim review", { claimNo: paid, status, ...extra }, "live");
      expect(answer.exctnFdbck).toEqual({ id: 75, id_v4: 200 });
    }
    expect((await payOverTheWire(p, paid, "live")).status).toBe("paid");
    await shift(phone.row.id, instantIn(month));
    const bordereau = await claimsBordereau(db, underwriter("axmi"), month);
    const ours = bordereau.rows.filter((r) => r.partnerName === p.name);
    expect(ours.map((r) => r.claimNo).toSorted()).toEqual([open, paid].toSorted());
    const openRow = ours.find((r) => r.claimNo === open)!;
    expect(openRow).toMatchObject({ status: "submitted", claimedKobo: 30_000_00, reserveKobo: 30_000_00, paidKobo: 0, reference: phone.reference });
    const paidRow = ours.find((r) => r.claimNo === paid)!;
    expect(paidRow.status).toBe("paid");
    expect(paidRow.reserveKobo).toBe(0);
    expect(paidRow.paidKobo).toBeGreaterThan(0);
    expect(paidRow.paidKobo).toBeLessThanOrEqual(18_000_00);
    expect(bordereau.totals.paidKobo).toBe(sumOf(bordereau.rows, (r) => r.paidKobo));
    expect((await claimsBordereau(db, underwriter("ldwy"), month)).rows.some((r) => r.partnerName === p.name)).toBe(false);
  });
});

describe("the premium bordereaux reconcile with the ledger", () => {
  const CODES = ["vhcl-tprt-1111", "phnn-flx1-1111", "hlth-axam-1111", "allr-stnd-1111"];
  test("for any month of activity, the totals across insurers are the month's premium less refunds, and its commissions, of live written policies", async () => {
    const p = await livePartner();
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            code: fc.constantFrom(...CODES),
            cancel: fc.boolean(),
            commission: fc.integer({ min: 0, max: 5_000_00 }),
            reversal: fc.integer({ min: 0, max: 2_000_00 }),
            day: fc.integer({ min: 1, max: 28 }),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        async (activity) => {
          const month = freshMonth();
          const ids: string[] = [];
          for (const spec of activity) {
            const policy = await approved(p, spec.code, "live");
            ids.push(policy.row.id);
            if (spec.commission) await commissionLine(policy.row, "commission", spec.commission, policy.row.createdAt);
            if (spec.cancel) {
              expect((await policy.cancel()).exctnFdbck.id).toBe(75);
              if (spec.commission) await reversedOnCancel(policy.row.id, Math.min(spec.reversal, spec.commission));
            }
            await shift(policy.row.id, instantIn(month, spec.day));
          }
          const [from, to] = watMonth(month);
          const ledger = async (kinds: string[]) => {
            const [row] = await db
              .select({ total: sql<string>`coalesce(sum(${walletEntries.amountKobo}), 0)` })
              .from(walletEntries)
              .innerJoin(policies, eq(policies.id, walletEntries.policyId))
              .where(
                and(
                  inArray(walletEntries.kind, kinds as ("premium" | "refund")[]),
                  gte(walletEntries.createdAt, from),
                  lt(walletEntries.createdAt, to),
                  eq(policies.mode, "live"),
                  notInArray(policies.status, ["p", "d"]),
                ),
              );
            return Number(row!.total);
          };
          const bordereaux = await Promise.all(underwriters().map((insurer) => premiumBordereau(db, insurer, month)));
          // The ledger is the partner's: premium a debit, refunds a credit.
          expect(sumOf(bordereaux, (b) => b.totals.grossKobo) + (await ledger(["premium", "refund"]))).toBe(0);
          expect(sumOf(bordereaux, (b) => b.totals.commissionKobo)).toBe(await ledger(["commission", "commission_reversal"]));
          // And against the activity itself: every policy once as new, each cancellation once.
          const rows = bordereaux.flatMap((b) => b.rows).filter((r) => r.partnerName === p.name);
          expect(rows.filter((r) => r.transaction === "new").length).toBe(activity.length);
          expect(rows.filter((r) => r.transaction === "cancellation").length).toBe(activity.filter((a) => a.cancel).length);
          const commissionLines = (await Promise.all(ids.map(lines))).flat().filter((l) => l.kind.startsWith("commission"));
          expect(sumOf(rows, (r) => r.commissionKobo)).toBe(sumOf(commissionLines, (l) => l.amountKobo));
        },
      ),
      { numRuns: 8 },
    );
  }, 120_000);
});

describe("the admin's reports page and downloads", () => {
  test("operators pick a month and an insurer, see both bordereaux, and download them as CSV and XLSX", async () => {
    const month = freshMonth();
    const p = await livePartner(`Reporting =HYPERLINK ${crypto.randomUUID().slice(0, 6)}`);
    const vehicle = await approved(p, "vhcl-tprt-1111", "live");
    await commissionLine(vehicle.row, "commission", 1_500_00, vehicle.row.createdAt);
    await shift(vehicle.row.id, instantIn(month));

    const admin = await signedIn(t, operator.portal);
    const picker = await admin.get("/admin/reports");
    expect(picker.status).toBe(200);
    expect(picker.text).toContain("Leadway Assurance");
    expect(picker.text).toContain('href="/admin/reports"');
    const pageOf = await admin.get(`/admin/reports?month=${month}&insurer=ldwy`);
    expect(pageOf.status).toBe(200);
    expect(pageOf.text).toContain("Premium bordereau, Leadway Assurance");
    expect(pageOf.text).toContain(vehicle.reference);
    expect(pageOf.text).toContain("Claims bordereau, Leadway Assurance");
    expect(pageOf.text).toContain(`/admin/reports/premium.xlsx?month=${month}&insurer=ldwy`);

    const refused = await admin.get("/admin/reports?month=2026-13&insurer=ldwy");
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("Month must be a month as YYYY-MM from 1900-01 to 2099-12");
    expect((await admin.get(`/admin/reports/premium.csv?month=${month}&insurer=nope`)).status).toBe(400);

    const csv = await admin.get(`/admin/reports/premium.csv?month=${month}&insurer=ldwy`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-disposition")).toBe(`attachment; filename="premium-bordereau-ldwy-${month}.csv"`);
    const records = csv.text
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(records[0]).toBe(
      "Partner,Policy reference,Policy number,Product,Insured,Cover start,Cover end,Transaction,Booked on,Gross premium (NGN),Commission (NGN),Net to insurer (NGN)",
    );
    const premium = vehicle.row.premiumKobo;
    const ours = records.find((r) => r.includes(vehicle.reference))!;
    expect(ours.startsWith(`'Reporting =HYPERLINK`) || ours.startsWith("Reporting =HYPERLINK")).toBe(true);
    expect(ours.endsWith(`,New,${month}-10,${premium / 100},1500,${(premium - 1_500_00) / 100}`)).toBe(true);
    expect(records.at(-1)!.startsWith("Total,")).toBe(true);

    // The XLSX, read back: header, frozen first row, naira formats, real dates, the totals row.
    const response = await t.app.handle(
      new Request(`http://localhost/admin/reports/premium.xlsx?month=${month}&insurer=ldwy`, { headers: { cookie: `session=${admin.cookie("session")}` } }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    // A streamed file still carries the service's security headers.
    expect(response.headers.get("content-security-policy")).toContain("default-src");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe("Partner");
    expect(sheet.getRow(1).getCell(12).value).toBe("Net to insurer (NGN)");
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    let found = 0;
    sheet.eachRow((row) => {
      if (row.getCell(2).value !== vehicle.reference) return;
      found++;
      expect(row.getCell(1).value).toBe(p.name);
      expect(row.getCell(8).value).toBe("New");
      expect(row.getCell(9).value).toEqual(new Date(`${month}-10T00:00:00Z`));
      expect(row.getCell(10).value).toBe(premium / 100);
      expect(row.getCell(10).numFmt).toContain("#,##0.00");
      expect(row.getCell(11).value).toBe(1500);
    });
    expect(found).toBe(1);
    const last = sheet.getRow(sheet.rowCount);
    expect(last.getCell(1).value).toBe("Total");
    expect(last.font?.bold).toBe(true);

    const claimsXlsx = await t.app.handle(
      new Request(`http://localhost/admin/reports/claims.xlsx?month=${month}&insurer=ldwy`, { headers: { cookie: `session=${admin.cookie("session")}` } }),
    );
    expect(claimsXlsx.status).toBe(200);
  });

  test("partner staff are refused the reports", async () => {
    const p = await t.partner();
    const staff = await signedIn(t, p.portal);
    expect((await staff.get("/admin/reports")).status).toBe(403);
    expect((await staff.get("/admin/reports/premium.xlsx?month=2026-01&insurer=ldwy")).status).toBe(403);
  });
});
