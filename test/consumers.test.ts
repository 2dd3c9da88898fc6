import { describe, expect, test } from "bun:test";
import { and, count, eq } from "drizzle-orm";
import { consumerDocuments, consumers } from "../src/modules/consumers/schema";
import { individual, PDF_BASE64, PNG_BASE64, testApp } from "./support/harness";

const t = await testApp({ MAX_DOCUMENT_BYTES: 1024 });
const db = t.database.db;
const countFor = async (partnerId: string) => (await db.select({ n: count() }).from(consumers).where(eq(consumers.partnerId, partnerId)))[0]!.n;

describe("prfl entity registers a consumer", () => {
  test("answers id (32 hex) and id_uuid (hyphenated), the same value", async () => {
    const p = await t.partner();
    const answer = await p.run("prfl entity", individual());
    expect(answer.exctnFdbck).toEqual({ id: 75, id_v4: 200 });
    expect(answer.id).toMatch(/^[0-9a-f]{32}$/);
    expect(answer.id_uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(answer.id_uuid.replaceAll("-", "")).toBe(answer.id);
  });

  test("every field of spec 2.3 is accepted and stored; documents are decoded and sniffed", async () => {
    const p = await t.partner();
    const seed = individual({
      name: { first: "Chinedu", middle: "Emeka", last: "Obi" },
      dob: { date: "1985-01-31", proof: PDF_BASE64 },
      ntnlty: "Nigerian",
      stateOfOrigin: "Anambra",
      mrtlStatus: "married",
      socialID: { type: "nidd", id: "12345678901", image: `data:image/png;base64,${PNG_BASE64}` },
      taxId: "TIN-1234",
    });
    const answer = await p.run("prfl entity", seed);
    expect(answer.exctnFdbck.id).toBe(75);
    const [row] = await db.select().from(consumers).where(eq(consumers.id, answer.id_uuid));
    expect(row!.profile).toMatchObject({
      name: { first: "Chinedu", middle: "Emeka", last: "Obi" },
      dob: { date: "1985-01-31" },
      mrtlStatus: "married",
      socialID: { type: "nidd", id: "12345678901" },
    });
    expect(row!.profile).not.toHaveProperty("socialID.image");
    const docs = await db.select().from(consumerDocuments).where(eq(consumerDocuments.consumerId, answer.id_uuid));
    expect(docs.map((d) => [d.field, d.mime]).sort()).toEqual([
      ["dob.proof", "application/pdf"],
      ["socialID.image", "image/png"],
    ]);
  });

  test("an organisation needs name.brand, not a first name or phone", async () => {
    const p = await t.partner();
    const ok = await p.run("prfl entity", { class: "o", name: { brand: "Kano Traders Ltd" }, rc: "RC123456", cac02: PNG_BASE64, cac07: PDF_BASE64 });
    expect(ok.exctnFdbck.id).toBe(75);
    const missing = await p.run("prfl entity", { class: "o", name: { first: "Musa" } });
    expect(missing.exctnFdbck).toEqual({ id: 55, id_v4: 400, elbrtn: "seed.name.brand is required for an organisation consumer (class o)" });
  });
});

describe("bad consumer input gets a specific error and stores nothing", () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ["class missing", { class: undefined }, /^seed\.class is required/],
    ["class unknown", { class: "x" }, /^seed\.class must be one of "h", "o"/],
    ["individual without name.first", { name: { last: "Okafor" } }, /seed\.name\.first is required for an individual/],
    ["individual without phoneNo", { phoneNo: undefined }, /seed\.phoneNo is required for an individual/],
    ["phone with a leading zero after +234", { phoneNo: "+2340803123456" }, /seed\.phoneNo must be \+234 followed by 10 digits with no leading zero/],
    ["phone without +", { phoneNo: "08031234567" }, /seed\.phoneNo must be in international format/],
    ["phone with 9 digits after +234", { phoneNo: "+234803123456" }, /seed\.phoneNo must be \+234 followed by 10 digits/],
    ["phone as a number", { phoneNo: 2348031234567 }, /seed\.phoneNo must be a string; received an integer/],
    ["gender unknown", { gender: "x" }, /seed\.gender must be one of "m", "f"/],
    ["marital status unknown", { mrtlStatus: "engaged" }, /seed\.mrtlStatus must be one of "single", "married", "divorced", "widowed"/],
    ["social id type unknown", { socialID: { type: "nin", id: "1" } }, /seed\.socialID\.type must be one of "nidd", "dlcn", "ipss", "vcrd", "bvnn"/],
    ["date of birth in another format", { dob: { date: "12/04/1990" } }, /seed\.dob\.date must be a date in the form YYYY-MM-DD/],
    ["date of birth not a calendar date", { dob: { date: "1990-02-30" } }, /seed\.dob\.date is not a real calendar date/],
    ["date of birth in the future", { dob: { date: "2099-01-01" } }, /seed\.dob\.date must be a date of birth in the past/],
    ["e-mail malformed", { eMail: "not-an-email" }, /seed\.eMail must be a valid e-mail address/],
    ["a blank optional field", { name: { first: "Ada", middle: "" } }, /seed\.name\.middle is blank: omit optional fields/],
    ["a null field", { ntnlty: null }, /seed\.ntnlty is null: omit optional fields/],
    ["an unknown field", { address: "Lagos" }, /seed has unknown field: address/],
    ["dob as a string, not an object", { dob: "1990-04-12" }, /seed\.dob must be an object; received a string/],
    ["a document that is not base64", { socialID: { type: "nidd", id: "1", image: "not base64!!" } }, /seed\.socialID\.image must be base64/],
    [
      "a document that is neither image nor PDF",
      { socialID: { type: "nidd", id: "1", image: Buffer.from("hello world, plain text").toString("base64") } },
      /seed\.socialID\.image must be a JPEG, PNG, WebP image or a PDF document/,
    ],
    [
      "a document over the size limit",
      { dob: { date: "1990-01-01", proof: Buffer.concat([Buffer.from("%PDF-"), Buffer.alloc(2000)]).toString("base64") } },
      /seed\.dob\.proof is too large: documents may be at most 1024 bytes/,
    ],
  ];

  test.each(cases)("%s", async (_name, change, message) => {
    const p = await t.partner();
    const seed: Record<string, unknown> = { ...individual(), ...change };
    for (const k of Object.keys(seed)) if (seed[k] === undefined) delete seed[k];
    const answer = await p.run("prfl entity", seed);
    expect(answer.exctnFdbck.id).toBe(55);
    expect(answer.exctnFdbck.elbrtn).toMatch(message);
    expect(await countFor(p.partnerId)).toBe(0);
  });

  test("blank fields are 406, type errors 400, oversized documents 413, unknown document types 415", async () => {
    const p = await t.partner();
    expect((await p.run("prfl entity", individual({ ntnlty: "" }))).exctnFdbck.id_v4).toBe(406);
    expect((await p.run("prfl entity", individual({ gender: 1 }))).exctnFdbck.id_v4).toBe(400);
    expect((await p.run("prfl entity", individual({ cac02: Buffer.alloc(3000).toString("base64") }))).exctnFdbck.id_v4).toBe(413);
    expect((await p.run("prfl entity", individual({ cac02: Buffer.from("GIF89a.....").toString("base64") }))).exctnFdbck.id_v4).toBe(415);
  });
});

describe("one consumer per e-mail per partner (spec 2.3 rules 2 and 3)", () => {
  test("the same e-mail returns the existing id and updates the given fields", async () => {
    const p = await t.partner();
    const seed = individual();
    const first = await p.run("prfl entity", seed);
    const again = await p.run("prfl entity", {
      class: "h",
      eMail: seed.eMail.toUpperCase(),
      addrss: { addrss: "5 Aminu Kano Crescent, Abuja" },
      name: { middle: "Ngozi" },
    });
    expect(again.exctnFdbck.id).toBe(75);
    expect(again.id).toBe(first.id);
    expect(await countFor(p.partnerId)).toBe(1);
    const [row] = await db.select().from(consumers).where(eq(consumers.id, first.id_uuid));
    expect(row!.profile).toMatchObject({
      name: { first: "Adaeze", middle: "Ngozi", last: "Okafor" },
      addrss: { addrss: "5 Aminu Kano Crescent, Abuja" },
      phoneNo: seed.phoneNo,
    });
  });

  test("an update that breaks a rule changes nothing", async () => {
    const p = await t.partner();
    const seed = individual();
    const first = await p.run("prfl entity", seed);
    const bad = await p.run("prfl entity", { class: "o", eMail: seed.eMail, addrss: { addrss: "Elsewhere" } });
    expect(bad.exctnFdbck.elbrtn).toContain("seed.name.brand is required");
    const [row] = await db.select().from(consumers).where(eq(consumers.id, first.id_uuid));
    expect(row!.class).toBe("h");
    expect(row!.profile.addrss).toEqual(seed.addrss);
  });

  test("concurrent registrations of one e-mail make one consumer", async () => {
    const p = await t.partner();
    const seed = individual();
    const answers = await Promise.all(Array.from({ length: 8 }, () => p.run("prfl entity", seed)));
    expect(answers.every((a) => a.exctnFdbck.id === 75)).toBe(true);
    expect(new Set(answers.map((a) => a.id)).size).toBe(1);
    expect(await countFor(p.partnerId)).toBe(1);
  });

  test("the same e-mail under another partner is another consumer", async () => {
    const [a, b] = [await t.partner(), await t.partner()];
    const seed = individual();
    const [ra, rb] = [await a.run("prfl entity", seed), await b.run("prfl entity", seed)];
    expect(ra.id).not.toBe(rb.id);
  });

  test("consumers without e-mail are each new", async () => {
    const p = await t.partner();
    const { eMail: _, ...seed } = individual();
    const [r1, r2] = [await p.run("prfl entity", seed), await p.run("prfl entity", seed)];
    expect(r1.id).not.toBe(r2.id);
  });
});

describe("listing consumers", () => {
  test("dump entt_*CSTMRS lists own consumers newest first, a page at a time", async () => {
    const p = await t.partner();
    const other = await t.partner();
    await other.run("prfl entity", individual());
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await p.run("prfl entity", individual({ name: { first: `N${i}` } }))).id);
    const first = await p.run("dump entt_*CSTMRS", { limit: 2 });
    expect(first.exctnFdbck.id).toBe(75);
    expect(first.list.map((c: any) => c.id)).toEqual([ids[4], ids[3]]);
    expect(first.list[0]).toMatchObject({
      id_uuid: expect.any(String),
      class: "h",
      name: { first: "N4" },
      tmstmp: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    expect(first.list[0]).not.toHaveProperty("partnerId");
    const second = await p.run("dump entt_*CSTMRS", { limit: 2, cursor: first.nextCursor });
    const third = await p.run("dump entt_*CSTMRS", { limit: 2, cursor: second.nextCursor });
    expect([...second.list, ...third.list].map((c: any) => c.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(third.nextCursor).toBeNull();
  });

  test("without a seed the first page of 20 is listed", async () => {
    const p = await t.partner();
    await p.run("prfl entity", individual());
    const answer = await p.run("dump entt_*CSTMRS");
    expect(answer.list).toHaveLength(1);
    expect(answer.nextCursor).toBeNull();
  });

  test("bad paging input is named", async () => {
    const p = await t.partner();
    expect((await p.run("dump entt_*CSTMRS", { limit: 0 })).exctnFdbck.elbrtn).toBe("seed.limit must be at least 1; received 0");
    expect((await p.run("dump entt_*CSTMRS", { limit: "5" })).exctnFdbck.elbrtn).toMatch(/^seed\.limit must be a JSON number, not a string/);
    expect((await p.run("dump entt_*CSTMRS", { cursor: "garbage" })).exctnFdbck.elbrtn).toBe("seed.cursor is not a cursor this service returned");
  });

  test("dump entt_*CSTMRS_ADMIN lists every partner's consumers with their partner", async () => {
    const operator = await t.partner({ admin: true });
    const [a, b] = [await t.partner(), await t.partner()];
    const ra = await a.run("prfl entity", individual());
    const rb = await b.run("prfl entity", individual());
    const answer = await operator.run("dump entt_*CSTMRS_ADMIN", { limit: 100 });
    const seen = new Map(answer.list.map((c: any) => [c.id, c.partnerId]));
    expect(seen.get(ra.id)).toBe(a.partnerId);
    expect(seen.get(rb.id)).toBe(b.partnerId);
  });

  test("a partner never sees another's consumers", async () => {
    const [a, b] = [await t.partner(), await t.partner()];
    await a.run("prfl entity", individual());
    expect((await b.run("dump entt_*CSTMRS")).list).toEqual([]);
    const [n] = await db
      .select({ n: count() })
      .from(consumers)
      .where(and(eq(consumers.partnerId, b.partnerId)));
    expect(n!.n).toBe(0);
  });
});
