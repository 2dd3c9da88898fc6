import { describe, expect, test } from "bun:test";
import { and, sql } from "drizzle-orm";
import { policies, policyTextMatch } from "../../src/modules/policies";
import { engine, individual, type TestPartner, testApp } from "../support/harness";
import { fullConsumer, insureSeed, newImei, productCases, watDate } from "../support/policies";
import { type Browser, signedIn } from "./browser";

const t = await testApp({ INSURER_DELAY_MS: 0 });
const operator = await t.partner({ admin: true, name: `Operator ${crypto.randomUUID().slice(0, 6)}` });

/** Letters only, so a name is one word of its own: "Quxvbn". */
const word = () => `Q${Array.from({ length: 6 }, () => "bcdfghjklmnpqrstvwxz"[Math.floor(Math.random() * 20)]).join("")}`;
/** A Nigerian mobile number unique to this call: its stored form and the ways people type it. */
function newPhone() {
  const ten = `803${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
  return { stored: `+234${ten}`, spaced: `0${ten.slice(0, 3)} ${ten.slice(3, 6)} ${ten.slice(6)}`, local: `0${ten}`, bare: ten };
}
const plateNumber = () => `LND${String(Math.floor(Math.random() * 9000) + 1000)}AB`;

/** A consumer of `p` with a vehicle policy (plate) and a phone policy (IMEI), both approved in test mode. */
async function insured(p: TestPartner, name = { first: "Ngozi", last: word() }) {
  const phone = newPhone();
  const consumer = (await p.run("prfl entity", individual({ name, phoneNo: phone.stored }))).id as string;
  const plate = plateNumber();
  const imei = newImei();
  const vehicleCase = productCases["vhcl-tprt-1111"]!;
  await p.run(`dump ipck_${vehicleCase.code}*PRMM`, vehicleCase.quote);
  const vehicle = await p.run(`entt_${consumer}: insure`, insureSeed(vehicleCase, { addtnlFact: { ...vehicleCase.addtnlFact(), rgstrtId: plate } }));
  const phoneCase = productCases["phnn-flx1-1111"]!;
  await p.run(`dump ipck_${phoneCase.code}*PRMM`, phoneCase.quote);
  const device = await p.run(`entt_${consumer}: insure`, insureSeed(phoneCase, { addtnlFact: { brand: "Tecno", model: "Spark 20", uIdnt: imei } }));
  expect([vehicle.status, device.status]).toEqual(["a", "a"]);
  return { consumer, name, phone, plate, imei, vehicle: vehicle as { id: string; policyNo: string }, device: device as { id: string; policyNo: string } };
}

/** The policy numbers (or references) the list's rows link to, in order. */
const rowLinks = (html: string) => [...html.matchAll(/<td><a href="[^"]+">([^<]+)<\/a><\/td>/g)].map((m) => m[1]);
const countLine = (html: string) => /<p class="list-count" role="status">([^<]*)<\/p>/.exec(html)?.[1];

describe("Find on the partner's Policies", () => {
  test("by policy number, the insured's name, phone as typed, plate with or without spaces and IMEI; each list counts what it shows", async () => {
    const p = await t.partner();
    const other = await t.partner();
    const a = await insured(p);
    const b = await insured(p);
    // Another partner's policy for someone of the same name is never among this partner's.
    const theirs = await insured(other, a.name);
    const browser = await signedIn(t, p.portal);
    const find = async (q: string) => {
      const page = await browser.get(`/portal/policies?${new URLSearchParams({ q })}`);
      expect(page.status, q).toBe(200);
      return page.text;
    };
    const both = [a.device.policyNo, a.vehicle.policyNo];

    // The rows show the policy number in a column of its own, linking to the policy.
    const all = await browser.get("/portal/policies");
    expect(all.text).toContain('<th scope="col">Policy</th>');
    expect(all.text).toContain('<th scope="col">Insured</th>');
    expect(all.text).toContain(`<a href="/portal/policies/${a.vehicle.id}">${a.vehicle.policyNo}</a>`);
    expect(countLine(all.text)).toBe("4 policies");

    for (const q of [a.vehicle.policyNo, a.vehicle.policyNo.toLowerCase(), ` ${a.vehicle.policyNo} `]) {
      const page = await find(q);
      expect(rowLinks(page), q).toEqual([a.vehicle.policyNo]);
      expect(countLine(page)).toBe("1 policy");
      // What was typed stays in the box.
      expect(page).toContain(`value="${q.trim()}"`);
    }
    for (const q of [`${a.name.first} ${a.name.last}`, a.name.last, a.name.last.slice(0, 5).toLowerCase(), `ngo ${a.name.last.slice(0, 5)}`])
      expect(rowLinks(await find(q)), q).toEqual(both);
    for (const q of [a.phone.spaced, a.phone.local, a.phone.bare, a.phone.stored, `+234 ${a.phone.bare.slice(0, 3)} ${a.phone.bare.slice(3)}`])
      expect(rowLinks(await find(q)), q).toEqual(both);
    const spaced = `${a.plate.slice(0, 3)} ${a.plate.slice(3, 6)} ${a.plate.slice(6)}`;
    for (const q of [a.plate, spaced, spaced.toLowerCase(), `${a.plate.slice(0, 3)}-${a.plate.slice(3)}`])
      expect(rowLinks(await find(q)), q).toEqual([a.vehicle.policyNo]);
    for (const q of [a.imei, `${a.imei.slice(0, 5)} ${a.imei.slice(5, 10)} ${a.imei.slice(10)}`, `${a.imei.slice(0, 8)}-${a.imei.slice(8)}`])
      expect(rowLinks(await find(q)), q).toEqual([a.device.policyNo]);
    expect(rowLinks(await find(b.phone.spaced))).toEqual([b.device.policyNo, b.vehicle.policyNo]);
    expect(rowLinks(await find(`${a.name.first} ${a.name.last}`))).not.toContain(theirs.vehicle.policyNo);

    // Nothing found: the line says so, the count is nought.
    const none = await find("Nobody Atall");
    expect(none).toContain("No policies match.");
    expect(countLine(none)).toBe("0 policies");
    // Find works with the other filters, and the CSV downloads what it finds.
    expect(rowLinks(await find(a.name.last))).toHaveLength(2);
    const vehicles = await browser.get(`/portal/policies?${new URLSearchParams({ q: a.name.last, product: "vhcl-tprt-1111" })}`);
    expect(rowLinks(vehicles.text)).toEqual([a.vehicle.policyNo]);
    const csv = await browser.get(`/portal/policies.csv?${new URLSearchParams({ q: a.phone.spaced })}`);
    expect(csv.status).toBe(200);
    const lines = csv.text.trim().split("\r\n");
    expect(lines).toHaveLength(3);
    expect(lines.slice(1).every((line) => line.includes(a.consumer))).toBe(true);
  });

  test("a text too long to be an identifier is refused beside the box, and lists nothing", async () => {
    const p = await t.partner();
    await insured(p);
    const browser = await signedIn(t, p.portal);
    const page = await browser.get(`/portal/policies?q=${"A".repeat(101)}`);
    expect(page.status).toBe(400);
    expect(page.text).toMatch(/<p id="f-q-error" class="error">Find takes at most 100 characters/);
    expect(rowLinks(page.text)).toEqual([]);
    expect((await browser.get(`/portal/policies.csv?q=${"A".repeat(101)}`)).status).toBe(400);
  });
});

describe("the operator's Transactions", () => {
  /** A live policy of `p` for `consumer` (pending: the insurer decides live vehicle third-party). */
  async function livePolicy(p: TestPartner, consumer: string) {
    await p.run("wallet topup", { amount: 1_000_000, reference: `fund-${crypto.randomUUID()}` }, "live");
    const c = productCases["vhcl-tprt-1111"]!;
    await p.run(`dump ipck_${c.code}*PRMM`, c.quote, "live");
    const answer = await p.run(`entt_${consumer}: insure`, insureSeed(c, { addtnlFact: { ...c.addtnlFact(), rgstrtId: plateNumber() } }), "live");
    expect(answer.exctnFdbck.id).toBe(75);
    return answer as { id: string; status: string };
  }

  let admin: Browser;
  const list = async (query: Record<string, string>) => {
    const page = await admin.get(`/admin/policies?${new URLSearchParams(query)}`);
    expect(page.status, JSON.stringify(query)).toBe(200);
    return page.text;
  };

  test("live business by default; test policies when asked, marked; a partner's own; status, product and dates; each counted", async () => {
    const p = await t.partner({ name: `Kobo Bank ${word()}` });
    const a = await insured(p);
    const live = await livePolicy(p, a.consumer);
    admin = await signedIn(t, operator.portal);

    // The partner select lists the partners, not the administrators' own operator account.
    const page = await list({});
    expect(page).toContain(`<option value="${p.partnerId}">${p.name}</option>`);
    expect(page).not.toContain(`<option value="${operator.partnerId}"`);
    expect(page).toContain('<th scope="col">Partner</th>');

    const own = { partner: p.partnerId };
    // Live by default: the specimens stay out unless asked for.
    const liveOnly = await list(own);
    expect(rowLinks(liveOnly)).toEqual([live.id]);
    expect(countLine(liveOnly)).toBe("1 policy");
    expect(liveOnly).not.toContain("Test</span>");
    const testOnly = await list({ ...own, mode: "test" });
    expect(rowLinks(testOnly)).toEqual([a.device.policyNo, a.vehicle.policyNo]);
    expect(testOnly).toContain('<option value="test" selected>');
    const everything = await list({ ...own, mode: "all" });
    expect(rowLinks(everything)).toEqual([live.id, a.device.policyNo, a.vehicle.policyNo]);
    expect(countLine(everything)).toBe("3 policies");
    // Each test policy is marked as one.
    expect(everything.match(/<span class="badge badge-info">Test<\/span>/g)).toHaveLength(2);

    expect(rowLinks(await list({ ...own, mode: "all", status: "p" }))).toEqual([live.id]);
    expect(rowLinks(await list({ ...own, mode: "all", product: "phnn-flx1-1111" }))).toEqual([a.device.policyNo]);
    expect(rowLinks(await list({ ...own, mode: "all", from: watDate(0), to: watDate(0) }))).toHaveLength(3);
    const tomorrow = await list({ ...own, mode: "all", from: watDate(1) });
    expect(rowLinks(tomorrow)).toEqual([]);
    expect(countLine(tomorrow)).toBe("0 policies");

    // Find across every partner: by the insured's phone, live business unless asked; a test policy by its number.
    expect(rowLinks(await list({ q: a.phone.spaced }))).toEqual([live.id]);
    expect(rowLinks(await list({ q: a.phone.spaced, mode: "all" }))).toEqual([live.id, a.device.policyNo, a.vehicle.policyNo]);
    expect(rowLinks(await list({ q: a.vehicle.policyNo, mode: "test" }))).toEqual([a.vehicle.policyNo]);

    // "Show more" and the CSV carry the same filters.
    expect(page).toContain('href="/admin/policies.csv"');
    const csv = await admin.get(`/admin/policies.csv?${new URLSearchParams({ ...own, mode: "all" })}`);
    const records = csv.text.trim().split("\r\n");
    expect(records).toHaveLength(4);
    expect(records.slice(1).every((line) => line.startsWith(`${p.name},`))).toBe(true);
    expect((await admin.get(`/admin/policies.csv?${new URLSearchParams(own)}`)).text.trim().split("\r\n")).toHaveLength(2);
  });

  test("a partner's page ignores the operator's filters: its own policies only, of both modes", async () => {
    const p = await t.partner();
    const other = await t.partner();
    const a = await insured(p);
    await insured(other);
    const browser = await signedIn(t, p.portal);
    const page = await browser.get(`/portal/policies?partner=${other.partnerId}&mode=all`);
    expect(rowLinks(page.text)).toEqual([a.device.policyNo, a.vehicle.policyNo]);
    expect(page.text).not.toContain('name="partner"');
    expect(page.text).not.toContain('name="mode"');
  });
});

describe("pages name a policy by its number and whose it is", () => {
  test("the policy page, a pending policy's (its product, the reference in small print) and the cancellation's", async () => {
    const p = await t.partner();
    const a = await insured(p, { first: "Chiamaka", last: word() });
    const insuredName = `${a.name.first} ${a.name.last}`;
    const browser = await signedIn(t, p.portal);
    const detail = await browser.get(`/portal/policies/${a.vehicle.id}`);
    expect(detail.text).toContain(`<title>${a.vehicle.policyNo} (${insuredName})`);
    expect(detail.text).toContain(`<h1>${a.vehicle.policyNo} (${insuredName})</h1>`);
    expect(detail.text).toContain(`Reference <span>${a.vehicle.id}</span>`);
    const cancel = await browser.get(`/portal/policies/${a.vehicle.id}/cancel`);
    expect(cancel.text).toContain(`Cancel policy <span>${a.vehicle.policyNo} (${insuredName})</span>`);
    expect(cancel.text).toContain(`hx-confirm="Cancel policy ${a.vehicle.policyNo} (${insuredName})?`);
    const change = await browser.get(`/portal/policies/${a.device.id}/change`);
    expect(change.text).toContain(`Change policy <span>${a.device.policyNo} (${insuredName})</span>`);

    // Pending, a policy has no number yet: its product and the insured, the reference in small print.
    await p.run("wallet topup", { amount: 1_000_000, reference: `fund-${crypto.randomUUID()}` }, "live");
    const { id: consumer } = await p.run("prfl entity", fullConsumer());
    const marine = productCases["mrnn-stnd-1111"]!;
    await p.run(`dump ipck_${marine.code}*PRMM`, marine.quote);
    const pending = await p.run(`entt_${consumer}: insure`, insureSeed(marine), "live");
    expect(pending.status).toBe("p");
    const waiting = await browser.get(`/portal/policies/${pending.id}`);
    expect(waiting.text).toMatch(/<h1>Marine[^<]* \(Adaeze Okafor\)<\/h1>/);
    expect(waiting.text).toContain(`<small>Reference <span>${pending.id}</span></small>`);
    // The operator's page says the same.
    const admin = await signedIn(t, operator.portal);
    const row = await admin.get(`/admin/policies?${new URLSearchParams({ q: a.vehicle.policyNo, mode: "test" })}`);
    const href = /<a href="(\/admin\/policies\/[0-9a-f-]{36})">/.exec(row.text)?.[1];
    expect((await admin.get(href!)).text).toContain(`<h1>${a.vehicle.policyNo} (${insuredName})</h1>`);
  });
});

describe("the kernel's policyTextMatch", () => {
  test("a name more than 300 insured share is found policy by policy: the same rows, newest first, with filters, counted", async () => {
    const p = await t.partner();
    const common = word();
    // Three with policies, and 300 more namesakes without any (made directly: the threshold is what matters).
    const withPolicies = [await insured(p, { first: common, last: word() }), await insured(p, { first: common, last: word() })];
    await t.database.db.execute(sql`
      insert into consumers (id, partner_id, class, email, profile, created_at, updated_at)
      select gen_random_uuid(), ${p.partnerId}::uuid, 'h', null, jsonb_build_object('class', 'h', 'name', jsonb_build_object('first', ${common}::text, 'last', 'Namesake' || k)), now(), now()
      from generate_series(1, 300) as k`);
    const last = await insured(p, { first: common, last: word() });
    const browser = await signedIn(t, p.portal);
    const page = await browser.get(`/portal/policies?${new URLSearchParams({ q: common })}`);
    const expected = [last, ...withPolicies.reverse()].flatMap((a) => [a.device.policyNo, a.vehicle.policyNo]);
    expect(rowLinks(page.text)).toEqual(expected);
    expect(countLine(page.text)).toBe("6 policies");
    const vehicles = await browser.get(`/portal/policies?${new URLSearchParams({ q: common, product: "vhcl-tprt-1111" })}`);
    expect(rowLinks(vehicles.text)).toEqual([last, ...withPolicies].map((a) => a.vehicle.policyNo));
    expect(countLine(vehicles.text)).toBe("3 policies");
    // A number, a plate or a phone typed is still found whatever the name's commonness; and the operator's list reads the same.
    expect(rowLinks((await browser.get(`/portal/policies?${new URLSearchParams({ q: last.plate })}`)).text)).toEqual([last.vehicle.policyNo]);
    const admin = await signedIn(t, operator.portal);
    const operatorPage = await admin.get(`/admin/policies?${new URLSearchParams({ q: common, mode: "all", partner: p.partnerId })}`);
    expect(rowLinks(operatorPage.text)).toEqual(expected);
    expect(countLine(operatorPage.text)).toBe("6 policies");
  });

  test("a condition any query of policies can use (a search across the portal)", async () => {
    const p = await t.partner();
    const a = await insured(p);
    const ids = async (q: string) =>
      (
        await t.database.db
          .select({ reference: policies.reference })
          .from(policies)
          .where(and(sql`${policies.partnerId} = ${p.partnerId}`, policyTextMatch(q)))
      )
        .map((row) => row.reference)
        .sort();
    expect(await ids(a.phone.spaced)).toEqual([a.device.id, a.vehicle.id].sort());
    expect(await ids(a.imei)).toEqual([a.device.id]);
    expect(await ids("")).toEqual([]);
    expect(await ids("%' or 1=1 --")).toEqual([]);
  });

  test("each kind of identifier is read through an index, never by scanning the book", async () => {
    const plans: string[] = [];
    for (const typed of ["Ada Okafor", "0803 123 4567", "LND 123 AB", "356938035643809", "POL-VHCL-2026-ABCDEFGHJKMN"]) {
      const plan = await t.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        return tx.execute(sql`explain ${tx.select().from(policies).where(policyTextMatch(typed)).limit(25)}`);
      });
      // postgres.js answers an array of rows, PGlite an object with `rows`.
      const rows = (Array.isArray(plan) ? plan : (plan as unknown as { rows: unknown[] }).rows) as Record<string, string>[];
      plans.push(rows.map((row) => row["QUERY PLAN"]).join("\n"));
    }
    const text = plans.join("\n");
    for (const index of [
      "policies_policy_no_idx",
      "policies_device_idx",
      "policies_plate_idx",
      "policies_consumer_created_idx",
      "consumers_phone_idx",
      "consumers_name_words_idx",
    ])
      expect(text, `${engine}: ${index}\n${text}`).toContain(index);
    expect(text).not.toContain("Seq Scan");
  });
});
