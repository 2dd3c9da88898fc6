/**
 * Every date either surface takes lies within one calendar, 1900-01-01 to 2099-12-31 (DATE_RANGE,
 * docs/commands.md "Dates"): outside it, or malformed, a date is refused naming the field, the range
 * and what was received — 55/400 on POST /, beside the input in people's words on the portal, the
 * refusal's status and words for a CSV — and nothing is stored. Never a 5xx (PostgreSQL refuses the
 * year 0, and JavaScript writes years past 9999 in a form it cannot read).
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { policies } from "../src/modules/policies/schema";
import { type Browser, signedIn } from "./portal/browser";
import { individual, type TestPartner, testApp } from "./support/harness";
import { approvedPolicy, fullConsumer, insureSeed, productCases, watDate } from "./support/policies";

const t = await testApp();
const db = t.database.db;
const operator = await t.partner({ admin: true });

/** Dates PostgreSQL or JavaScript cannot carry, and dates merely outside the calendar. */
const OUT_OF_RANGE = ["0001-01-01", "0000-01-01", "1899-12-31", "2100-01-01", "9999-12-31"];

const rangeRefusal = (field: string, value: string) => `${field} must be a date from 1900-01-01 to 2099-12-31; received "${value}"`;

function refused(answer: any, status: number, elbrtn: string) {
  expect(answer.exctnFdbck).toEqual({ id: 55, id_v4: status, elbrtn });
}

/** A cursor as a forger would write one: the service's form, with another time in it. */
const forgedCursor = (iso: string) => Buffer.from(`${iso}|${crypto.randomUUID()}`).toString("base64url");
const FORGED_TIMES = ["0000-01-01T00:00:00.000Z", "-000001-01-01T00:00:00.000Z", "+275760-09-13T00:00:00.000Z", "2100-01-01T00:00:00.000Z"];

describe("list filters on POST /", () => {
  const lists: [string, (p: TestPartner) => TestPartner][] = [
    ["dump entt_*", (p) => p],
    ["dump entt_*ADMIN", () => operator],
    ["claim list", (p) => p],
  ];

  test.each(lists)(
    "%s: from and to outside the calendar, malformed or in the wrong order are 55/400 naming the field and what was received",
    async (cmmnd, who) => {
      const p = who(await t.partner());
      for (const date of OUT_OF_RANGE)
        for (const field of ["from", "to"]) refused(await p.run(cmmnd, { [field]: date }), 400, rangeRefusal(`seed.${field}`, date));
      refused(await p.run(cmmnd, { from: "2026-02-30" }), 400, "seed.from is not a real calendar date");
      refused(await p.run(cmmnd, { to: "+275760-09-13" }), 400, "seed.to must be a date in the form YYYY-MM-DD");
      refused(await p.run(cmmnd, { from: "0001-01-01 00:00:00" }), 400, "seed.from must be a date in the form YYYY-MM-DD");
      refused(await p.run(cmmnd, { from: watDate(1), to: watDate(0) }), 400, "seed.to must not be before seed.from");
      for (const iso of FORGED_TIMES) refused(await p.run(cmmnd, { cursor: forgedCursor(iso) }), 400, "seed.cursor is not a cursor this service returned");
      // The calendar's own first and last days are taken.
      expect((await p.run(cmmnd, { from: "1900-01-01", to: "2099-12-31" })).exctnFdbck).toEqual({ id: 75, id_v4: 200 });
    },
  );

  test("the other lists' cursors hold to the same calendar", async () => {
    const p = await t.partner();
    for (const cmmnd of ["dump entt_*CSTMRS", "webhook list", "webhook deliveries"])
      for (const iso of FORGED_TIMES) refused(await p.run(cmmnd, { cursor: forgedCursor(iso) }), 400, "seed.cursor is not a cursor this service returned");
  });
});

describe("dates in seeds on POST /", () => {
  /** Issue `code` with `facts` over its valid ones; the answer, and how many policies the partner then has. */
  async function insureWith(p: TestPartner, code: string, facts: Record<string, unknown>) {
    const c = productCases[code]!;
    const consumer = (await p.run("prfl entity", fullConsumer())).id;
    if (c.quote) expect((await p.run(`dump ipck_${c.code}*PRMM`, c.quote)).exctnFdbck.id).toBe(75);
    const seed = insureSeed(c);
    const answer = await p.run(`entt_${consumer}: insure`, { ...seed, addtnlFact: { ...seed.addtnlFact, ...facts } });
    const stored = await db.select().from(policies).where(eq(policies.partnerId, p.partnerId));
    return { answer, stored: stored.length };
  }

  test.each([
    ["crlt-psnl-1111", { disbursementDate: "0001-01-01", loanStartDate: "0001-01-01" }, "disbursementDate", "0001-01-01"],
    ["crlt-psnl-1111", { loanEndDate: "0000-01-01" }, "loanEndDate", "0000-01-01"],
    ["lrgg-stnd-1111", { LoanEndDate: "2100-01-01" }, "LoanEndDate", "2100-01-01"],
    ["mexx-stnd-1111", { coverStartDate: "9999-12-31" }, "coverStartDate", "9999-12-31"],
    ["mexx-stnd-1111", { proformaDate: "1899-12-31" }, "proformaDate", "1899-12-31"],
    ["ltix-stnd-1111", { departureDate: "9999-12-30", returnDate: "9999-12-31" }, "departureDate", "9999-12-30"],
  ])("%s: %o is 55/400 and stores nothing", async (code, facts, field, value) => {
    const p = await t.partner();
    const { answer, stored } = await insureWith(p, code, facts);
    refused(answer, 400, rangeRefusal(`seed.addtnlFact.${field}`, value));
    expect(stored).toBe(0);
  });

  test("a date and time outside the calendar (goods in transit) is 55/400 naming the range", async () => {
    const p = await t.partner();
    const { answer, stored } = await insureWith(p, "gtrn-stnd-1111", { dprtrDateTime: "9999-12-31 08:00:00", estmtdArrvlDateTime: "9999-12-31 18:00:00" });
    refused(
      answer,
      400,
      'seed.addtnlFact.dprtrDateTime must be a date and time from 1900-01-01 00:00:00 to 2099-12-31 23:59:59; received "9999-12-31 08:00:00"',
    );
    expect(stored).toBe(0);
  });

  test("a date of birth, a lapse run's day and a statement's month outside the calendar", async () => {
    const p = await t.partner();
    refused(await p.run("prfl entity", individual({ dob: { date: "1899-12-31" } })), 400, rangeRefusal("seed.dob.date", "1899-12-31"));
    // The date of birth's own rule still applies inside the calendar.
    refused(
      await p.run("prfl entity", individual({ dob: { date: "1900-01-01" } })),
      400,
      "seed.dob.date must be a date of birth in the past (at most 120 years ago)",
    );
    refused(await operator.run("payment runLapse", { asOf: "0000-01-01" }), 400, rangeRefusal("seed.asOf", "0000-01-01"));
    refused(
      await p.run("wallet statement", { month: "0000-01" }),
      400,
      `seed.month must be a month as YYYY-MM from 1900-01 to 2099-12, such as ${watDate().slice(0, 7)}; received "0000-01"`,
    );
  });
});

describe("the portal's and the operator's lists and CSV downloads", () => {
  /** The page's error beside the input named `input`. */
  const errorBeside = (html: string, input: string) => new RegExp(`<p id="f-${input}-error" class="error">([^<]*)</p>`).exec(html)?.[1];

  async function lists(): Promise<[string, Browser][]> {
    const p = await t.partner();
    await approvedPolicy(p, "vhcl-tprt-1111");
    const partner = await signedIn(t, p.portal);
    const admin = await signedIn(t, operator.portal);
    return [
      ["/portal/policies", partner],
      ["/portal/claims", partner],
      ["/admin/policies", admin],
      ["/admin/claims", admin],
    ];
  }

  test("a date outside the calendar is a 400 with the refusal beside its input, in words; the CSV answers the same words", async () => {
    for (const [path, b] of await lists()) {
      for (const date of ["0001-01-01", "9999-12-31"]) {
        const page = await b.get(`${path}?from=${date}`);
        expect(page.status, path).toBe(400);
        expect(errorBeside(page.text, "from"), path).toBe(`From must be a date from 1900-01-01 to 2099-12-31; received &quot;${date}&quot;`);
        // What was typed stays in the box.
        expect(page.text, path).toContain(`value="${date}"`);
        const csv = await b.get(`${path}.csv?to=${date}`);
        expect(csv.status, path).toBe(400);
        expect(csv.text, path).toBe(`To must be a date from 1900-01-01 to 2099-12-31; received "${date}"`);
      }
      const malformed = await b.get(`${path}?to=2026-13-01`);
      expect(malformed.status, path).toBe(400);
      expect(errorBeside(malformed.text, "to"), path).toBe("To is not a real calendar date");
      const reversed = await b.get(`${path}?from=${watDate(1)}&to=${watDate(0)}`);
      expect(reversed.status, path).toBe(400);
      expect(errorBeside(reversed.text, "to"), path).toBe("To must not be before From");
      const forged = await b.get(`${path}?rows=1&cursor=${forgedCursor("0000-01-01T00:00:00.000Z")}`);
      expect(forged.status, path).toBe(400);
      // The calendar's own bounds list as usual.
      const whole = await b.get(`${path}?from=1900-01-01&to=2099-12-31`);
      expect(whole.status, path).toBe(200);
      expect((await b.get(`${path}.csv?from=1900-01-01&to=2099-12-31`)).status, path).toBe(200);
    }
  });

  test("months outside the calendar: statements and bordereaux refuse them in words", async () => {
    const p = await t.partner();
    const partner = await signedIn(t, p.portal);
    const admin = await signedIn(t, operator.portal);
    const words = "Month must be a month as YYYY-MM from 1900-01 to 2099-12, such as";
    for (const month of ["0000-01", "1899-12"]) {
      const statement = await partner.get(`/portal/statements?month=${month}`);
      expect(statement.status).toBe(400);
      expect(statement.text).toContain(words);
      expect((await partner.get(`/portal/statements.csv?month=${month}`)).status).toBe(400);
      const usage = await partner.get(`/portal/wallet/usage?month=${month}`);
      expect(usage.status).toBe(400);
      expect(usage.text).toContain("Month must be a month as YYYY-MM from 1900-01 to 2099-12");
      const report = await admin.get(`/admin/reports?month=${month}&insurer=ldwy`);
      expect(report.status).toBe(400);
      expect(report.text).toContain("Month must be a month as YYYY-MM from 1900-01 to 2099-12");
      expect((await admin.get(`/admin/reports/premium.csv?month=${month}&insurer=ldwy`)).status).toBe(400);
    }
  });

  test("the cancel form's day: beside its input, in words, the policy left in force; the refund preview says why", async () => {
    const p = await t.partner();
    const reference = await approvedPolicy(p, "vhcl-tprt-1111");
    const b = await signedIn(t, p.portal);
    await b.get(`/portal/policies/${reference}/cancel`);
    const posted = await b.post(`/portal/policies/${reference}/cancel`, { effectiveDate: "9999-12-31", reason: "insured_request" });
    expect(posted.status).toBe(400);
    expect(errorBeside(posted.text, "effectiveDate")).toBe(
      "First day without cover must be a date from 1900-01-01 to 2099-12-31; received &quot;9999-12-31&quot;",
    );
    const preview = await b.get(`/portal/policies/${reference}/cancel/refund?effectiveDate=2026-13-01`, { "hx-request": "true" });
    expect(preview.status).toBe(200);
    expect(preview.text).toContain("First day without cover is not a real calendar date");
    const [policy] = await db.select().from(policies).where(eq(policies.reference, reference));
    expect(policy!.status).toBe("a");
  });
});
