/**
 * The small details of issue 36: a consumer found by the phone number as typed, a plate typed with
 * spaces, phone numbers in CSV without an apostrophe, and the words of the pages (the cancel
 * confirmation, dates in words, a one-day gap, one "Cover", the menu label, the plan's consumer,
 * a refund's sign kept with its amount).
 */
import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { normaliseRegistryValue } from "../../src/modules/enrichment/registry";
import { policies } from "../../src/modules/policies/schema";
import { wireValue } from "../../src/products/forms";
import { day, gapDays, naira, noteText, sentence } from "../../views/format";
import { individual, type TestPartner, testApp } from "../support/harness";
import { approvedPolicy, fullConsumer, insureSeed, productCases, watDate } from "../support/policies";
import { signedIn } from "./browser";

const t = await testApp({ INSURER_DELAY_MS: 0 });
const operator = await t.partner({ admin: true });

/** An attribute's text as the browser reads it. */
const unescaped = (html: string) => html.replaceAll("&#x27;", "'").replaceAll("&#39;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");
const confirmOf = (html: string) => unescaped(/hx-confirm="([^"]*)"/.exec(html)?.[1] ?? "");

/** An approved test-mode vehicle policy of a new consumer of `p`, with its stored row. */
async function vehiclePolicy(p: TestPartner) {
  const consumer = (await p.run("prfl entity", fullConsumer())).id as string;
  const answer = await p.run(`entt_${consumer}: insure`, insureSeed(productCases["vhcl-tprt-1111"]!));
  expect(answer.status).toBe("a");
  const [row] = await t.database.db
    .select()
    .from(policies)
    .where(and(eq(policies.partnerId, p.partnerId), eq(policies.reference, answer.id)));
  return { consumer, reference: answer.id as string, row: row! };
}

describe("a consumer is found by the phone number as people type it", () => {
  test("partner and operator search alike: 0803 123 4567, 08031234567, +234 803 123 4567, 2348031234567, 8031234567", async () => {
    const p = await t.partner();
    // A number of its own, so the operator's search over every partner finds this consumer alone.
    const local = `803${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
    const last = `Phonefind${crypto.randomUUID().slice(0, 6).replace(/\d/g, "x")}`;
    await p.run("prfl entity", individual({ name: { first: "Zainab", last }, phoneNo: `+234${local}` }));
    const spaced = `0${local.slice(0, 3)} ${local.slice(3, 6)} ${local.slice(6)}`;
    const typings = [
      spaced,
      `0${local}`,
      `+234 ${local.slice(0, 3)} ${local.slice(3, 6)} ${local.slice(6)}`,
      `234${local}`,
      local,
      `0${local.slice(0, 3)}-${local.slice(3)}`,
    ];
    const partner = await signedIn(t, p.portal);
    const admin = await signedIn(t, operator.portal);
    for (const typed of typings) {
      const q = encodeURIComponent(typed);
      expect((await partner.get(`/portal/consumers?q=${q}`)).text, typed).toContain(last);
      expect((await admin.get(`/admin/consumers?q=${q}`)).text, typed).toContain(last);
    }
    // Another number finds nobody; names still match as before.
    expect((await partner.get(`/portal/consumers?q=${encodeURIComponent(`0${local.slice(0, 9)}${(Number(local.at(-1)) + 1) % 10}`)}`)).text).not.toContain(
      last,
    );
    expect((await partner.get("/portal/consumers?q=zainab")).text).toContain(last);
  });
});

describe("a plate typed with spaces or hyphens", () => {
  test("one rule: the issuance form sends it as vehicle checks compare it", () => {
    const plate = { kind: "plate", path: "addtnlFact.rgstrtId", label: "Registration plate" } as const;
    for (const typed of ["LND 123 AB", "lnd-123ab", " lnd 123-ab ", "LND123AB"]) {
      expect(wireValue(plate, typed)).toBe("LND123AB");
      expect(normaliseRegistryValue("registration", typed)).toBe("LND123AB");
    }
  });

  test("is accepted at issuance in the portal and stored as the plate", async () => {
    const p = await t.partner();
    const { id: consumer } = await p.run("prfl entity", fullConsumer());
    const b = await signedIn(t, p.portal);
    const form = await b.get(`/portal/quote?product=vhcl-tprt-1111&consumer=${consumer}`);
    expect(form.text).toContain("spaces and hyphens do not matter");
    const vehicle = { brand: "Toyota", model: "Corolla", year: "2018", chsssId: "2T1BURHE0JC074316", engineId: "2ZR1234567", rgstrtId: "abc 123-de" };
    const fields = Object.fromEntries(Object.entries(vehicle).map(([k, v]) => [`addtnlFact.${k}`, v]));
    const reference = crypto.randomUUID();
    const issued = await b.post("/portal/quote/issue", { product: "vhcl-tprt-1111", insrncDrtn: "1y", consumer, id: reference, ...fields });
    expect(issued.status).toBe(303);
    const [row] = await t.database.db.select().from(policies).where(eq(policies.reference, reference));
    expect(row!.facts.rgstrtId).toBe("ABC123DE");
  });
});

describe("CSV exports defuse formulas only", () => {
  test("the consumers CSV writes a phone number as it is", async () => {
    const p = await t.partner();
    await p.run("prfl entity", individual({ name: { first: "=SUM(1)", last: "Okafor" } }));
    const b = await signedIn(t, p.portal);
    const csv = await b.get("/portal/consumers.csv");
    expect(csv.status).toBe(200);
    expect(csv.text).toContain(",+2348031234567,");
    expect(csv.text).not.toContain("'+234");
    // What a spreadsheet would run is still defused.
    expect(csv.text).toContain(",'=SUM(1) Okafor,");
  });
});

describe("the pages' words", () => {
  test("the cancel confirmation says what happens, who is told and that it can be reinstated", async () => {
    const p = await t.partner({ name: "Kano Brokers" });
    const { reference, row } = await vehiclePolicy(p);
    const partner = await signedIn(t, p.portal);
    const own = confirmOf((await partner.get(`/portal/policies/${reference}/cancel`)).text);
    expect(own).toStartWith(
      `Cancel policy ${row.policyNo} (Adaeze Okafor)? The cover stops from the first day without cover, and your systems are told at once.`,
    );
    expect(own).toContain("It can be reinstated within 30 days of that day");
    expect(own).not.toContain("cannot be undone");
    expect(own).not.toContain("the partner's");
    const admin = await signedIn(t, operator.portal);
    const operators = confirmOf((await admin.get(`/admin/policies/${row.id}/cancel`)).text);
    expect(operators).toContain("Kano Brokers's systems are told at once");
    expect(operators).toContain("It can be reinstated within 30 days");
  });

  test("a cancelled policy's page gives the day in words; a reinstatement the same day reads as one day without cover", async () => {
    const p = await t.partner();
    const { reference } = await vehiclePolicy(p);
    const b = await signedIn(t, p.portal);
    await b.get(`/portal/policies/${reference}/cancel`);
    expect((await b.post(`/portal/policies/${reference}/cancel`, { effectiveDate: watDate(3), reason: "insured_request" })).status).toBe(303);
    const cancelled = await b.get(`/portal/policies/${reference}`);
    expect(cancelled.text).toContain(`Cancelled from ${day(watDate(3))}: the insured asked to cancel`);
    expect(cancelled.text).not.toContain(watDate(3));

    const other = await vehiclePolicy(p);
    await p.run(`cncl entt_${other.consumer}|insr_vhcl-tprt-1111-${other.reference}`, { id: crypto.randomUUID(), reason: "duplicate" });
    const today = day(watDate());
    const confirm = await b.get(`/portal/policies/${other.reference}/reinstate`);
    expect(confirm.text).toContain(`No cover on ${today}: claims for incidents then are refused.`);
    const id = /name="id" value="([^"]+)"/.exec(confirm.text)?.[1];
    expect((await b.post(`/portal/policies/${other.reference}/reinstate`, { id: id! })).status).toBe(303);
    const reinstated = await b.get(`/portal/policies/${other.reference}`);
    expect(reinstated.text).toContain(`Reinstated on ${today}: no cover on ${today}`);
    expect(reinstated.text).not.toContain(`to ${today}`);
    // The JSON surface keeps its note as it was.
    const status = await p.run(`dump entt_${other.consumer}|insr_vhcl-tprt-1111-${other.reference}*STATUS`);
    expect(status.statusNote).toBe(`Reinstated on ${watDate()}: no cover from ${watDate()} to ${watDate()}`);
  });

  test("notes in words: ISO dates as days, a one-day span as that day", () => {
    expect(noteText("Cancelled from 2026-11-27: the insured asked to cancel")).toBe("Cancelled from 27 Nov 2026: the insured asked to cancel");
    expect(noteText("Reinstated on 2026-11-27: no cover from 2026-11-27 to 2026-11-27")).toBe("Reinstated on 27 Nov 2026: no cover on 27 Nov 2026");
    expect(noteText("no cover from 2026-11-27 to 2026-12-03")).toBe("no cover from 27 Nov 2026 to 3 Dec 2026");
    // A note a person typed keeps their words.
    expect(noteText("found the phone")).toBe("found the phone");
    // Not dates, or a value as typed: left as they are.
    expect(noteText('Due 2026-02-30; received "2026-11-27"; ref 12026-11-271')).toBe('Due 2026-02-30; received "2026-11-27"; ref 12026-11-271');
    expect(gapDays(new Date("2026-11-27T08:00:00Z"), new Date("2026-11-27T09:00:00Z"))).toBe("on 27 Nov 2026");
    expect(gapDays(new Date("2026-11-27T08:00:00Z"), new Date("2026-11-29T09:00:00Z"))).toBe("from 27 Nov 2026 to 29 Nov 2026");
  });

  test("the system's own messages start with a capital", () => {
    expect(sentence("no insurance record was found for plate LND123AB")).toBe("No insurance record was found for plate LND123AB");
  });

  test("a refund's minus sign is joined to its amount", () => {
    expect(naira(-2_160_000)).toBe("−\u2060₦21,600.00");
    expect(naira(2_160_000)).toBe("₦21,600.00");
  });

  test('the policy page says "Cover" once: the period is the "Cover period"', async () => {
    const p = await t.partner();
    const reference = await approvedPolicy(p, "phnn-flx1-1111");
    const page = (await (await signedIn(t, p.portal)).get(`/portal/policies/${reference}`)).text;
    expect(page).toContain("<dt>Cover period</dt>");
    expect(page.match(/<dt>Cover<\/dt>/g)).toHaveLength(1);
  });

  test('the menu names the bordereaux page as its title does, not "Reports"', async () => {
    const admin = await signedIn(t, operator.portal);
    const reports = await admin.get("/admin/reports");
    expect(reports.status).toBe(200);
    expect(reports.text).toContain("<h1>Insurer bordereaux</h1>");
    expect(reports.text).toMatch(/href="\/admin\/reports"[^>]*>\s*Insurer bordereaux\s*</);
    expect(reports.text).not.toMatch(/>\s*Reports\s*</);
  });

  test("the financing plan page names the consumer, linked to their page", async () => {
    const p = await t.partner();
    const { reference, consumer } = await vehiclePolicy(p);
    const b = await signedIn(t, p.portal);
    await b.get(`/portal/financing/new?policy=${reference}`);
    const created = await b.post("/portal/financing", {
      policy: reference,
      downPayment: "3,000",
      installments: "4",
      frequency: "weekly",
      firstDueDate: watDate(0),
      graceDays: "",
    });
    expect(created.status).toBe(303);
    const plan = await b.get(created.location!);
    expect(plan.text).toContain(`<dt>Consumer</dt><dd><a href="/portal/consumers/${consumer}">Adaeze Okafor</a></dd>`);
    const planNo = /\/portal\/financing\/([^?]+)/.exec(created.location!)![1];
    const admin = await signedIn(t, operator.portal);
    expect((await admin.get(`/admin/financing/${planNo}`)).text).toMatch(
      /<dt>Consumer<\/dt><dd><a href="\/admin\/consumers\/[0-9a-f-]{36}">Adaeze Okafor<\/a><\/dd>/,
    );
  });
});
