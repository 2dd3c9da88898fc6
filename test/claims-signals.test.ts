/**
 * Issue 37, item 6: fraud signals. The EXIF reader on real and hostile JPEG bytes (a property: it
 * never throws, whatever the bytes); each rule firing and not; identifiers normalised and kept as
 * keyed hashes; the same device, vehicle or account across partners without either partner seeing
 * anything of the other; re-flagging that counts nothing twice; ten identical submissions at once
 * making one claim with one set of flags; the operator's answers and pages, never the partner's.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { escapeHtml } from "@kitajs/html";
import { and, eq, inArray, sql } from "drizzle-orm";
import fc from "fast-check";
import jpeg from "jpeg-js";
import { loadConfig } from "../src/core/config";
import { newId } from "../src/core/ids";
import { claimCeiling } from "../src/modules/claims/rules";
import { claims } from "../src/modules/claims/schema";
import { outboxEvents } from "../src/modules/events/schema";
import { policies } from "../src/modules/policies/schema";
import { type ClaimSignals, type FlagInput, flagClaim, policyIdentifiers, signalSettings } from "../src/modules/signals";
import { exifDate, photoDate } from "../src/modules/signals/exif";
import { hashedIdentifiers, keyedHash, normalisedIdentifier } from "../src/modules/signals/identifiers";
import { EARLIER_CLAIMS_CAP, flagsOf, type Match, type RuleInput, SIGNAL_SCORES } from "../src/modules/signals/rules";
import { claimFlags, claimIdentifiers } from "../src/modules/signals/schema";
import { flagWords } from "../src/modules/signals/words";
import { sumInsuredIn } from "../src/products/claims";
import { signedIn } from "./portal/browser";
import { PNG_BASE64, type TestPartner, testApp } from "./support/harness";
import { fullConsumer, insureSeed, newImei, productCases, watDate } from "./support/policies";

const t = await testApp({ CLAIM_SIGNAL_REVIEW_SCORE: 30 });
const db = t.database.db;
const operator = await t.partner({ admin: true });
const DAY = 86_400_000;

/** This file's partners: their claims are closed at the end, so no other suite's clock or desk finds them open. */
const made: string[] = [];
const newPartner = async (app = t, options: { name?: string } = {}) => {
  const p = await app.partner(options);
  made.push(p.partnerId);
  return p;
};
afterAll(async () => {
  if (made.length) await db.update(claims).set({ status: "withdrawn", reserveKobo: 0 }).where(inArray(claims.partnerId, made));
});

// ─── JPEG bytes, built here: a real image (jpeg-js) with an EXIF APP1 segment after its JFIF header ───

type Entry = [tag: number, type: number, count: number, value: number];

/** A TIFF structure: IFD0 (DateTime, the Exif IFD's pointer), the Exif IFD (DateTimeOriginal), the strings after. */
function tiff(order: "II" | "MM", dates: { dateTime?: string; original?: string }): Uint8Array {
  const little = order === "II";
  const bytes = new Uint8Array(256);
  const view = new DataView(bytes.buffer);
  bytes.set([order.charCodeAt(0), order.charCodeAt(1)]);
  view.setUint16(2, 42, little);
  view.setUint32(4, 8, little);
  let strings = 160;
  const ascii = (text: string) => {
    const at = strings;
    bytes.set(Buffer.from(`${text}\0`, "latin1"), at);
    strings += text.length + 1;
    return at;
  };
  const ifd = (at: number, entries: Entry[]) => {
    view.setUint16(at, entries.length, little);
    entries.forEach(([tag, type, count, value], i) => {
      const entry = at + 2 + i * 12;
      view.setUint16(entry, tag, little);
      view.setUint16(entry + 2, type, little);
      view.setUint32(entry + 4, count, little);
      view.setUint32(entry + 8, value, little);
    });
    return at + 2 + entries.length * 12 + 4;
  };
  const exifAt = 8 + 2 + 2 * 12 + 4;
  const ifd0: Entry[] = [];
  if (dates.dateTime) ifd0.push([0x0132, 2, 20, ascii(dates.dateTime)]);
  if (dates.original) ifd0.push([0x8769, 4, 1, exifAt]);
  ifd(8, ifd0);
  if (dates.original) ifd(exifAt, [[0x9003, 2, 20, ascii(dates.original)]]);
  return bytes;
}

const plainJpeg = () => new Uint8Array(jpeg.encode({ data: Buffer.alloc(8 * 8 * 4, 0x80), width: 8, height: 8 }, 80).data);

/** A real JPEG with `tiffBytes` as its EXIF (an APP1 "Exif" segment after the JFIF APP0). */
function jpegWithExif(tiffBytes: Uint8Array): Uint8Array {
  const base = plainJpeg();
  const afterApp0 = 4 + ((base[4]! << 8) | base[5]!);
  const app1 = new Uint8Array(4 + 6 + tiffBytes.length);
  app1.set([0xff, 0xe1, (app1.length - 2) >> 8, (app1.length - 2) & 0xff, 0x45, 0x78, 0x69, 0x66, 0, 0]);
  app1.set(tiffBytes, 10);
  return new Uint8Array([...base.subarray(0, afterApp0), ...app1, ...base.subarray(afterApp0)]);
}

const exifOn = (day: string, time = "10:15:00") => `${day.replaceAll("-", ":")} ${time}`;
const photoTaken = (day: string) => jpegWithExif(tiff("II", { original: exifOn(day) }));

describe("the EXIF reader", () => {
  test("reads DateTimeOriginal, else DateTime, in either byte order, from real JPEG bytes", () => {
    const both = jpegWithExif(tiff("II", { dateTime: "2026:11:21 09:00:00", original: "2026:11:20 14:05:09" }));
    // The bytes are a real JPEG: it decodes.
    expect(jpeg.decode(both, { useTArray: true }).width).toBe(8);
    expect(photoDate(both)).toEqual({ day: "2026-11-20", time: "14:05:09", tag: "DateTimeOriginal" });
    expect(photoDate(jpegWithExif(tiff("MM", { dateTime: "2025:01:02 03:04:05" })))).toEqual({ day: "2025-01-02", time: "03:04:05", tag: "DateTime" });
    expect(photoDate(jpegWithExif(tiff("MM", { original: "2024:02:29 23:59:59" })))).toEqual({ day: "2024-02-29", time: "23:59:59", tag: "DateTimeOriginal" });
  });

  test("no date: a JPEG without EXIF, another format, a blank or impossible date, nothing at all", () => {
    expect(photoDate(plainJpeg())).toBeNull();
    expect(photoDate(Buffer.from(PNG_BASE64, "base64"))).toBeNull();
    expect(photoDate(new Uint8Array())).toBeNull();
    expect(photoDate(jpegWithExif(tiff("II", { original: "0000:00:00 00:00:00" })))).toBeNull();
    expect(photoDate(jpegWithExif(tiff("II", { original: "2026:02:30 10:00:00" })))).toBeNull();
    expect(photoDate(jpegWithExif(tiff("II", { original: "2026:11:20 25:00:00" })))).toBeNull();
    expect(exifDate("2026:11:20")).toBeNull();
    expect(exifDate(null)).toBeNull();
  });

  test("hostile bytes: every truncation, lengths of 0 and 1, offsets outside, a huge entry count, an IFD pointing at itself, endless segments", () => {
    const good = photoTaken("2026-11-20");
    // Every prefix: either no date, or the date (once the whole EXIF has arrived) — never a throw.
    for (let n = 0; n <= good.length; n++) {
      const found = photoDate(good.subarray(0, n));
      expect(found === null || found.day === "2026-11-20").toBe(true);
    }
    const soi = [0xff, 0xd8];
    expect(photoDate(new Uint8Array([...soi, 0xff, 0xe1, 0x00, 0x00]))).toBeNull();
    expect(photoDate(new Uint8Array([...soi, 0xff, 0xe1, 0x00, 0x01, 0x45]))).toBeNull();
    // A segment claiming 65,535 bytes when there are 20.
    expect(photoDate(new Uint8Array([...soi, 0xff, 0xe1, 0xff, 0xff, 0x45, 0x78, 0x69, 0x66, 0, 0, 0x49, 0x49, 42, 0, 8, 0, 0, 0, 0xff, 0xff]))).toBeNull();
    // IFD0 beyond the bytes; an entry count of 65,535; an ASCII value claiming 4 GB at an offset outside.
    const outside = tiff("II", {});
    new DataView(outside.buffer).setUint32(4, 0xfffffff0, true);
    expect(photoDate(jpegWithExif(outside))).toBeNull();
    const many = tiff("II", { dateTime: "2026:11:20 10:00:00" });
    new DataView(many.buffer).setUint16(8, 0xffff, true);
    expect(photoDate(jpegWithExif(many))).toEqual({ day: "2026-11-20", time: "10:00:00", tag: "DateTime" });
    const huge = tiff("II", { dateTime: "2026:11:20 10:00:00" });
    new DataView(huge.buffer).setUint32(8 + 2 + 4, 0xffffffff, true);
    new DataView(huge.buffer).setUint32(8 + 2 + 8, 0xfffffff0, true);
    expect(photoDate(jpegWithExif(huge))).toBeNull();
    // The Exif IFD pointer pointing back at IFD0: read once, no loop.
    const loop = tiff("II", { dateTime: "2026:11:20 10:00:00", original: "2026:11:19 10:00:00" });
    new DataView(loop.buffer).setUint32(8 + 2 + 12 + 8, 8, true);
    expect(photoDate(jpegWithExif(loop))).toEqual({ day: "2026-11-20", time: "10:00:00", tag: "DateTime" });
    // Fill bytes, markers without a length, and more segments than the reader reads.
    const fill = photoTaken("2026-11-20");
    expect(photoDate(new Uint8Array([...soi, 0xff, 0xff, 0xff, 0xd0, ...fill.subarray(2)]))).toEqual(photoDate(fill));
    const segments = Array.from({ length: 100 }, () => [0xff, 0xe2, 0x00, 0x02]).flat();
    expect(photoDate(new Uint8Array([...soi, ...segments, ...fill.subarray(2)]))).toBeNull();
    // Megabytes of fill bytes: the reader looks at its first bytes only.
    const endless = new Uint8Array(4_000_000).fill(0xff);
    endless.set(soi);
    const started = performance.now();
    expect(photoDate(endless)).toBeNull();
    expect(performance.now() - started).toBeLessThan(100);
  });

  test("never throws, on random bytes, on random bytes after a JPEG's first marker, on a real photograph with bytes changed", () => {
    const good = photoTaken("2026-11-20");
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), (bytes) => {
        const found = photoDate(bytes);
        return found === null || /^\d{4}-\d{2}-\d{2}$/.test(found.day);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), (bytes) => {
        photoDate(new Uint8Array([0xff, 0xd8, 0xff, 0xe1, ...bytes]));
        return true;
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat({ max: good.length - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 12 }), (changes) => {
        const changed = new Uint8Array(good);
        for (const [at, value] of changes) changed[at] = value;
        photoDate(changed);
        photoDate(changed.subarray(0, changes[0]![0]));
        return true;
      }),
      { numRuns: 3000 },
    );
  });
});

describe("identifiers", () => {
  test("normalised before hashing: plates, VINs, phones and e-mails as people type them are one value", () => {
    expect(normalisedIdentifier("plate", " lnd-123 ab")).toBe("LND123AB");
    expect(normalisedIdentifier("vin", "2t1 burhe0-jc074316")).toBe("2T1BURHE0JC074316");
    for (const phone of ["08031234567", "+234 803 123 4567", "2348031234567", "8031234567", "00234-803-123-4567"])
      expect(normalisedIdentifier("phone", phone)).toBe("+2348031234567");
    expect(normalisedIdentifier("phone", "+44 20 7946 0958")).toBe("+442079460958");
    expect(normalisedIdentifier("email", " Ada@Example.NG ")).toBe("ada@example.ng");
    expect(normalisedIdentifier("imei", "35-209900-176148-1")).toBe("352099001761481");
    expect(normalisedIdentifier("consumer", "F5C43ABA-DFDD-4674-B30F-334F6DD987A1")).toBe("f5c43abadfdd4674b30f334f6dd987a1");
    expect(normalisedIdentifier("bank_account", "058 : 0123-456-789")).toBe("058:0123456789");
    expect(normalisedIdentifier("phone", "not a phone")).toBeNull();
  });

  test("kept as keyed hashes: the same value meets itself, the kind and the key keep it apart, and the value is not in them", async () => {
    const { key } = await signalSettings(db, t.config);
    const same = hashedIdentifiers(key, { claimant: { consumerId: newId(), phone: "0803 123 4567" }, insured: { plate: "lnd 123 ab" } });
    const again = hashedIdentifiers(key, { claimant: { consumerId: newId(), phone: "+2348031234567" }, insured: { plate: "LND123AB" } });
    expect(Buffer.from(same.find((i) => i.kind === "phone")!.hash)).toEqual(Buffer.from(again.find((i) => i.kind === "phone")!.hash));
    expect(Buffer.from(same.find((i) => i.kind === "plate")!.hash)).toEqual(Buffer.from(again.find((i) => i.kind === "plate")!.hash));
    expect(same.every((i) => i.hash.length === 32)).toBe(true);
    expect(Buffer.from(keyedHash(key, "imei", "123"))).not.toEqual(Buffer.from(keyedHash(key, "bank_account", "123")));
    const other = await signalSettings(db, { ...t.config, SIGNALS_KEY: "k".repeat(40) });
    expect(Buffer.from(keyedHash(other.key, "imei", "123"))).not.toEqual(Buffer.from(keyedHash(key, "imei", "123")));
    expect(Buffer.from(other.key.export())).toEqual(Buffer.from("k".repeat(40)));
    // Made once and kept: asked again (or by another instance), the same key.
    expect(Buffer.from((await signalSettings(db, t.config)).key.export())).toEqual(Buffer.from(key.export()));
    const kept = await db.execute(sql`select count(*)::int as n from service_secrets where name = 'signals'`);
    expect(JSON.stringify(kept)).toContain('"n":1');
    expect(() => loadConfig({ SIGNALS_KEY: "too short" })).toThrow("SIGNALS_KEY");
  });
});

// ─── The rules, without a database ───

const coverStart = new Date("2026-11-01T09:00:00Z");
const rules = (overrides: Partial<RuleInput> = {}): RuleInput => ({
  partnerId: "partner-a",
  policyId: "policy-1",
  incidentDate: "2026-11-20",
  coverStart,
  submittedAt: new Date("2026-11-22T10:00:00Z"),
  claimedKobo: 5_000_000,
  ceilingKobo: null,
  photoDates: [],
  matches: [],
  earlyDays: 7,
  ...overrides,
});
const match = (m: Partial<Match> & Pick<Match, "kind">): Match => ({
  hash: "aa",
  claimId: newId(),
  policyId: newId(),
  partnerId: "partner-b",
  earlier: true,
  ...m,
});
const fired = (input: RuleInput) => flagsOf(input).map((f) => f.rule);

describe("the rules", () => {
  test("nothing to say: no flag", () => {
    expect(flagsOf(rules())).toEqual([]);
  });

  test("the same device, vehicle or account on another policy, counted by policies and partners; the same policy is not another", () => {
    const onOthers = rules({
      matches: [
        match({ kind: "imei", policyId: "p2", partnerId: "partner-b" }),
        match({ kind: "imei", policyId: "p3", partnerId: "partner-a" }),
        match({ kind: "imei", policyId: "p3", partnerId: "partner-a" }),
        match({ kind: "vin", policyId: "p4" }),
        match({ kind: "plate", policyId: "p4" }),
        match({ kind: "bank_account", policyId: "p5", partnerId: "partner-c" }),
      ],
    });
    const flags = flagsOf(onOthers);
    expect(flags.find((f) => f.rule === "same_device")).toEqual({
      rule: "same_device",
      score: SIGNAL_SCORES.same_device,
      inputs: { kinds: ["imei"], otherPolicies: 2, otherPartners: 1, atLeast: false },
    });
    expect(flags.find((f) => f.rule === "same_vehicle")!.inputs).toEqual({ kinds: ["vin", "plate"], otherPolicies: 1, otherPartners: 1, atLeast: false });
    expect(flagWords(flags.find((f) => f.rule === "same_device")!)).toBe("The same phone (IMEI) is claimed on 2 other policies, at 1 other partner.");
    expect(flagWords(flags.find((f) => f.rule === "same_vehicle")!)).toBe("The same vehicle (VIN and plate) is claimed on 1 other policy, at 1 other partner.");
    expect(flagWords(flags.find((f) => f.rule === "same_bank_account")!)).toBe("The same bank account is claimed on 1 other policy, at 1 other partner.");
    expect(fired(rules({ matches: [match({ kind: "imei", policyId: "policy-1" }), match({ kind: "serial", policyId: "policy-1" })] }))).toEqual([]);
    const serial = flagsOf(rules({ matches: [match({ kind: "serial", partnerId: "partner-a" })] }))[0]!;
    expect(flagWords(serial)).toBe("The same laptop (serial number) is claimed on 1 other policy, all at this partner.");
  });

  test("an incident within CLAIM_SIGNAL_EARLY_DAYS of the cover's first day (Nigerian days)", () => {
    expect(flagsOf(rules({ incidentDate: "2026-11-01" }))).toEqual([
      {
        rule: "early_claim",
        score: SIGNAL_SCORES.early_claim,
        inputs: { coverFirstDay: "2026-11-01", incidentDate: "2026-11-01", days: 0, earlyDays: 7 },
      },
    ]);
    expect(fired(rules({ incidentDate: "2026-11-08" }))).toEqual(["early_claim"]);
    expect(fired(rules({ incidentDate: "2026-11-09" }))).toEqual([]);
    expect(fired(rules({ incidentDate: "2026-11-03", earlyDays: 1 }))).toEqual([]);
    // 23:30 UTC on 31 October is already 1 November in Nigeria.
    expect(flagsOf(rules({ incidentDate: "2026-11-01", coverStart: new Date("2026-10-31T23:30:00Z") }))[0]!.inputs).toMatchObject({ days: 0 });
    expect(flagWords(flagsOf(rules({ incidentDate: "2026-11-03" }))[0]!)).toBe("The incident (3 Nov 2026) was 2 days after the cover started (1 Nov 2026).");
  });

  test("a photograph dated before the cover started or after the claim was made; the claim's own day is not after", () => {
    const at = (day: string) => ({ day, time: "10:00:00", tag: "DateTimeOriginal" as const });
    const flag = flagsOf(rules({ photoDates: [at("2026-10-30"), null, at("2026-11-22"), at("2026-11-23")] }))[0]!;
    expect(flag).toEqual({
      rule: "photo_date",
      score: SIGNAL_SCORES.photo_date,
      inputs: { coverFirstDay: "2026-11-01", submittedOn: "2026-11-22", photos: 4, dated: 3, before: ["2026-10-30"], after: ["2026-11-23"] },
    });
    expect(flagWords(flag)).toBe(
      "Of the 4 photographs with the claim, 1 is dated 30 Oct 2026, before the cover started (1 Nov 2026); 1 is dated 23 Nov 2026, after the claim was made (22 Nov 2026).",
    );
    expect(fired(rules({ photoDates: [at("2026-11-01"), at("2026-11-22"), null] }))).toEqual([]);
    expect(flagWords(flagsOf(rules({ photoDates: [at("2025-01-01")] }))[0]!)).toBe(
      "The photograph with the claim is dated 1 Jan 2025, before the cover started (1 Nov 2026).",
    );
  });

  test("an amount at 95 % of the sum insured or more, only where the product has one", () => {
    expect(flagsOf(rules({ claimedKobo: 95_000, ceilingKobo: 100_000 }))).toEqual([
      { rule: "at_ceiling", score: SIGNAL_SCORES.at_ceiling, inputs: { claimedKobo: 95_000, ceilingKobo: 100_000, percent: 95 } },
    ]);
    expect(fired(rules({ claimedKobo: 94_999, ceilingKobo: 100_000 }))).toEqual([]);
    expect(fired(rules({ claimedKobo: 10_000_000_000, ceilingKobo: null }))).toEqual([]);
    expect(flagWords(flagsOf(rules({ claimedKobo: 49_000_000, ceilingKobo: 50_000_000 }))[0]!)).toBe(
      "The amount claimed, ₦490,000.00, is 98% of the sum insured, ₦500,000.00.",
    );
  });

  test("earlier claims by the claimant: per claim up to the cap; a later claim, or another item's match, is not one", () => {
    const mine = "partner-a";
    const c1 = newId();
    const flag = flagsOf(
      rules({
        matches: [
          match({ kind: "consumer", claimId: c1, partnerId: mine }),
          match({ kind: "phone", claimId: c1, partnerId: mine }),
          match({ kind: "email", partnerId: "partner-b" }),
          match({ kind: "phone", earlier: false }),
          match({ kind: "imei", policyId: "policy-1" }),
        ],
      }),
    )[0]!;
    expect(flag).toEqual({
      rule: "earlier_claims",
      score: 2 * SIGNAL_SCORES.earlier_claims,
      inputs: { earlierClaims: 2, atThisPartner: 1, atOtherPartners: 1, kinds: ["consumer", "phone", "email"], atLeast: false },
    });
    expect(flagWords(flag)).toBe(
      "The claimant made 2 earlier claims: 1 at this partner and 1 at other partners (found by the same insured, phone number and e-mail).",
    );
    const five = rules({ matches: Array.from({ length: 5 }, () => match({ kind: "national_id" })) });
    expect(flagsOf(five)[0]!.score).toBe(EARLIER_CLAIMS_CAP);
    expect(fired(rules({ matches: [match({ kind: "phone", earlier: false })] }))).toEqual([]);
  });

  test("every rule at once, highest score first", () => {
    const all = rules({
      incidentDate: "2026-11-02",
      claimedKobo: 100,
      ceilingKobo: 100,
      photoDates: [{ day: "2020-01-01", time: "00:00:00", tag: "DateTime" }],
      matches: [match({ kind: "imei" }), match({ kind: "plate" }), match({ kind: "bank_account" }), match({ kind: "email" })],
    });
    expect(fired(all)).toEqual(["same_device", "same_vehicle", "same_bank_account", "photo_date", "early_claim", "at_ceiling", "earlier_claims"]);
  });
});

// ─── Through the service: claims submitted over the wire ───

const digits = (n: number) => Array.from({ length: n }, (_, i) => (i === 0 ? 1 + Math.floor(Math.random() * 9) : Math.floor(Math.random() * 10))).join("");
const VIN_LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789";
const newVin = () => `2T1${Array.from({ length: 14 }, () => VIN_LETTERS[Math.floor(Math.random() * VIN_LETTERS.length)]).join("")}`;
const newPlate = () => `S${digits(5)}KJ`;

/** A claimant of their own: a phone, e-mail and identity number no other test uses. */
const person = (overrides: Record<string, unknown> = {}) => ({
  ...fullConsumer(),
  phoneNo: `+23481${digits(8)}`,
  eMail: `claimant.${crypto.randomUUID().slice(0, 8)}@example.ng`,
  socialID: { type: "nidd", id: digits(11), image: PNG_BASE64 },
  ...overrides,
});

async function consumerOf(p: TestPartner, seed: Record<string, unknown> = person()): Promise<string> {
  return (await p.run("prfl entity", seed)).id as string;
}

/** An approved test policy of `code` for `consumer`, its insured item as given; its reference. */
async function policyOf(p: TestPartner, consumer: string, code: string, addtnlFact?: Record<string, unknown>): Promise<string> {
  const c = productCases[code]!;
  if (c.quote) await p.run(`dump ipck_${code}*PRMM`, c.quote);
  const answer = await p.run(`entt_${consumer}: insure`, insureSeed(c, addtnlFact ? { addtnlFact: { ...c.addtnlFact(), ...addtnlFact } } : {}));
  expect(answer.status).toBe("a");
  return answer.id as string;
}

const phone = (imei: string) => ({ brand: "Samsung", model: "Galaxy A54", uIdnt: imei });
const vehicle = (chsssId = newVin(), rgstrtId = newPlate()) => ({ chsssId, rgstrtId });

async function claimOn(p: TestPartner, policy: string, extra: Record<string, unknown> = {}) {
  const answer = await p.run("claim submit", { policy, incidentDate: watDate(0), description: "Damaged", amount: 50_000, ...extra });
  expect(answer.exctnFdbck.id).toBe(75);
  return answer as { claimNo: string };
}

const claimRow = async (claimNo: string) => (await db.select().from(claims).where(eq(claims.claimNo, claimNo)))[0]!;
const rulesOn = async (claimNo: string) => {
  const claim = await claimRow(claimNo);
  const rows = await db.select().from(claimFlags).where(eq(claimFlags.claimId, claim.id));
  return Object.fromEntries(rows.map((r) => [r.rule, r]));
};
/** The operator's answer, with the signals: an assessment changes nothing the rules read. */
const operatorView = (claimNo: string) => operator.run("claim assess", { claimNo, reserve: 1_000, reserveReason: "Looked at" });

/** Make a policy's cover start `days` ago (the incident may then be that long after it). */
async function coverStartedAgo(reference: string, days: number) {
  await db
    .update(policies)
    .set({ coverStart: new Date(Date.now() - days * DAY) })
    .where(eq(policies.reference, reference));
}

describe("cross-partner matching", () => {
  test("the same phone at two partners: the operator sees it in words; the partners see nothing of it or of each other", async () => {
    const a = await newPartner(t, { name: `Alpha Mobile ${crypto.randomUUID().slice(0, 6)}` });
    const b = await newPartner();
    const imei = newImei();
    const policyA = await policyOf(a, await consumerOf(a), "phnn-flx1-1111", phone(imei));
    const first = await claimOn(a, policyA);
    const policyB = await policyOf(b, await consumerOf(b), "phnn-flx1-1111", phone(imei));
    const second = await claimOn(b, policyB);

    const answer = await operatorView(second.claimNo);
    expect(answer.exctnFdbck.id).toBe(75);
    expect(answer.signals.flags).toContainEqual({
      rule: "same_device",
      score: 40,
      words: "The same phone (IMEI) is claimed on 1 other policy, at 1 other partner.",
    });
    expect(answer.signals.needsSecondReviewer).toBe(true);
    expect(answer.signals.score).toBe(answer.signals.flags.reduce((sum: number, f: { score: number }) => sum + f.score, 0));
    // The first claim now shares its phone with the second: looked at again, it would say so (the rule reads both ways).
    expect((await rulesOn(first.claimNo)).same_device).toBeUndefined();

    // What B's answers and events carry: no signals, nothing of A.
    const bAnswers = [
      await b.run("claim status", { claimNo: second.claimNo }),
      await b.run("claim list", {}),
      await b.run("claim submit", { policy: policyB, incidentDate: watDate(0), description: "Damaged", amount: 50_000 }),
    ];
    const [claimB] = await db.select().from(claims).where(eq(claims.claimNo, second.claimNo));
    const events = await db.select({ payload: outboxEvents.payload }).from(outboxEvents).where(eq(outboxEvents.partnerId, b.partnerId));
    const stored = await db.select().from(claimFlags).where(eq(claimFlags.claimId, claimB!.id));
    for (const text of [...bAnswers, ...events].map((x) => JSON.stringify(x)))
      for (const secret of ["signals", "same_device", a.partnerId, policyA, first.claimNo, "Alpha Mobile", imei]) expect(text).not.toContain(secret);
    // What the flags keep of A: counts only.
    for (const secret of [a.partnerId, policyA, first.claimNo, imei, "Alpha"]) expect(JSON.stringify(stored)).not.toContain(secret);
    // The identifiers are hashes: neither the IMEI nor a phone number is stored.
    const identifiers = await db.select().from(claimIdentifiers).where(eq(claimIdentifiers.claimId, claimB!.id));
    expect(identifiers.map((i) => i.kind).sort()).toEqual(["consumer", "email", "imei", "national_id", "phone"]);
    const dump = JSON.stringify(identifiers.map((i) => ({ ...i, hash: Buffer.from(i.hash).toString("latin1") })));
    expect(dump).not.toContain(imei);
    expect(identifiers.every((i) => i.hash.length === 32)).toBe(true);
    // B's partner portal shows nothing of it either.
    const page = await (await signedIn(t, b.portal)).get(`/portal/claims/${second.claimNo}`);
    expect(page.status).toBe(200);
    for (const secret of ["Signals", "Flagged", "IMEI) is claimed"]) expect(page.text).not.toContain(secret);
  });

  test("the same vehicle by VIN and plate on another policy; a vehicle of its own is not flagged", async () => {
    const a = await newPartner();
    const b = await newPartner();
    const [vin, plate] = [newVin(), newPlate()];
    await claimOn(a, await policyOf(a, await consumerOf(a), "vhcl-tprt-1111", vehicle(vin, plate)));
    const flagged = await claimOn(b, await policyOf(b, await consumerOf(b), "vhcl-tprt-1111", vehicle(vin, plate)));
    const own = await claimOn(b, await policyOf(b, await consumerOf(b), "vhcl-tprt-1111", vehicle()));
    const onlyPlate = await claimOn(b, await policyOf(b, await consumerOf(b), "vhcl-tprt-1111", vehicle(newVin(), plate)));
    expect((await rulesOn(flagged.claimNo)).same_vehicle?.inputs).toEqual({ kinds: ["vin", "plate"], otherPolicies: 1, otherPartners: 1, atLeast: false });
    expect((await rulesOn(own.claimNo)).same_vehicle).toBeUndefined();
    // The plate alone: on the two policies claimed before, one at another partner.
    expect((await rulesOn(onlyPlate.claimNo)).same_vehicle?.inputs).toEqual({ kinds: ["plate"], otherPolicies: 2, otherPartners: 1, atLeast: false });
  });

  test("sandbox claims meet sandbox claims only: a live claim with the same phone matches none of them", async () => {
    const p = await newPartner();
    const imei = newImei();
    const policy = await policyOf(p, await consumerOf(p), "phnn-flx1-1111", phone(imei));
    await claimOn(p, policy);
    const settings = await signalSettings(db, t.config);
    // A claim of another policy with the same phone, in each mode.
    const other = await policyOf(p, await consumerOf(p), "phnn-flx1-1111", phone(newImei()));
    const [otherRow] = await db.select().from(policies).where(eq(policies.reference, other));
    const input = (mode: "test" | "live"): FlagInput => ({
      claimId: newId(),
      partnerId: p.partnerId,
      policyId: otherRow!.id,
      mode,
      claimant: { consumerId: newId() },
      insured: { imei },
      incidentDate: watDate(0),
      coverStart: new Date(Date.now() - 60 * DAY),
      submittedAt: new Date(),
      claimedKobo: 100,
      ceilingKobo: null,
      photos: [],
      settings,
    });
    const [live, sandbox] = [input("live"), input("test")];
    try {
      expect((await db.transaction((tx) => flagClaim(tx, live))).flags).toEqual([]);
      expect((await db.transaction((tx) => flagClaim(tx, sandbox))).flags.map((f) => f.rule)).toEqual(["same_device"]);
    } finally {
      await db.delete(claimIdentifiers).where(inArray(claimIdentifiers.claimId, [live.claimId, sandbox.claimId]));
      await db.delete(claimFlags).where(inArray(claimFlags.claimId, [live.claimId, sandbox.claimId]));
    }
  });
});

describe("each rule over the wire", () => {
  test("early claim: on the day the cover started, flagged; three weeks in, not; CLAIM_SIGNAL_EARLY_DAYS decides", async () => {
    const p = await newPartner();
    const consumer = await consumerOf(p);
    const early = await claimOn(p, await policyOf(p, consumer, "phnn-flx1-1111", phone(newImei())));
    expect((await rulesOn(early.claimNo)).early_claim?.inputs).toEqual({ coverFirstDay: watDate(0), incidentDate: watDate(0), days: 0, earlyDays: 7 });
    const later = await policyOf(p, await consumerOf(p), "phnn-flx1-1111", phone(newImei()));
    await coverStartedAgo(later, 21);
    expect((await rulesOn((await claimOn(p, later)).claimNo)).early_claim).toBeUndefined();
    // Two days in: early under the default, not with CLAIM_SIGNAL_EARLY_DAYS=1.
    const strict = await testApp({ CLAIM_SIGNAL_EARLY_DAYS: 1 });
    const q = await newPartner(strict);
    const twoDays = await policyOf(q, await consumerOf(q), "phnn-flx1-1111", phone(newImei()));
    await coverStartedAgo(twoDays, 2);
    expect((await rulesOn((await claimOn(q, twoDays)).claimNo)).early_claim).toBeUndefined();
  });

  test("amount at the ceiling: 96 % of a comprehensive vehicle's sum insured, flagged; a small claim and a third-party claim are not", async () => {
    const p = await newPartner();
    const comprehensive = await policyOf(p, await consumerOf(p), "vhcl-cmpr-1111", vehicle());
    const [policy] = await db.select().from(policies).where(eq(policies.reference, comprehensive));
    expect(sumInsuredIn(claimCeiling(policy!))).toBe(500_000_000);
    const high = await claimOn(p, comprehensive, { amount: 4_800_000 });
    expect((await rulesOn(high.claimNo)).at_ceiling).toMatchObject({ score: 15, inputs: { claimedKobo: 480_000_000, ceilingKobo: 500_000_000, percent: 96 } });
    expect((await rulesOn((await claimOn(p, comprehensive, { amount: 100_000 })).claimNo)).at_ceiling).toBeUndefined();
    const thirdParty = await policyOf(p, await consumerOf(p), "vhcl-tprt-1111", vehicle());
    expect((await rulesOn((await claimOn(p, thirdParty, { amount: 5_000_000 })).claimNo)).at_ceiling).toBeUndefined();
  });

  test("photographs: one taken before the cover, flagged; one taken after the claim, flagged; one of the day, a PNG and a JPEG without EXIF, not", async () => {
    const p = await newPartner();
    const document = (bytes: Uint8Array, name = "photo.jpg") => ({ name, content: Buffer.from(bytes).toString("base64") });
    const policy = await policyOf(p, await consumerOf(p), "phnn-flx1-1111", phone(newImei()));
    const before = await claimOn(p, policy, { documents: [document(photoTaken("2020-03-04")), document(photoTaken(watDate(0)))] });
    expect((await rulesOn(before.claimNo)).photo_date?.inputs).toEqual({
      coverFirstDay: watDate(0),
      submittedOn: watDate(0),
      photos: 2,
      dated: 2,
      before: ["2020-03-04"],
      after: [],
    });
    const after = await claimOn(p, policy, { documents: [document(photoTaken(watDate(2)))] });
    expect((await rulesOn(after.claimNo)).photo_date?.inputs).toMatchObject({ before: [], after: [watDate(2)] });
    const fine = await claimOn(p, policy, {
      documents: [document(photoTaken(watDate(0))), document(plainJpeg()), { name: "x.png", content: PNG_BASE64 }],
    });
    expect((await rulesOn(fine.claimNo)).photo_date).toBeUndefined();
  });

  test("earlier claims: the same consumer again at the partner; the same phone at another partner; a first claim has none", async () => {
    const a = await newPartner();
    const b = await newPartner();
    const claimant = person();
    const consumer = await consumerOf(a, claimant);
    const first = await claimOn(a, await policyOf(a, consumer, "phnn-flx1-1111", phone(newImei())));
    expect((await rulesOn(first.claimNo)).earlier_claims).toBeUndefined();
    const second = await claimOn(a, await policyOf(a, consumer, "phnn-flx1-1111", phone(newImei())));
    expect((await rulesOn(second.claimNo)).earlier_claims).toMatchObject({
      score: 10,
      inputs: { earlierClaims: 1, atThisPartner: 1, atOtherPartners: 0, kinds: ["consumer", "phone", "email", "national_id"] },
    });
    // At another partner, the phone typed another way: two earlier claims, elsewhere.
    const samePhone = person({ phoneNo: claimant.phoneNo });
    const third = await claimOn(b, await policyOf(b, await consumerOf(b, samePhone), "phnn-flx1-1111", phone(newImei())));
    expect((await rulesOn(third.claimNo)).earlier_claims).toMatchObject({
      score: 20,
      inputs: { earlierClaims: 2, atThisPartner: 0, atOtherPartners: 2, kinds: ["phone"] },
    });
    // Below the review score alone (with the early claim: 20 + 20 = 40, reached).
    const answer = await operatorView(third.claimNo);
    expect(answer.signals.score).toBe(40);
    expect(answer.signals.needsSecondReviewer).toBe(true);
  });

  test("a claim the rules do not flag: score 0, no second reviewer; an early claim alone stays below the review score", async () => {
    const p = await newPartner();
    const quiet = await policyOf(p, await consumerOf(p), "phnn-flx1-1111", phone(newImei()));
    await coverStartedAgo(quiet, 30);
    const claim = await claimOn(p, quiet);
    expect((await operatorView(claim.claimNo)).signals).toEqual({ score: 0, needsSecondReviewer: false, flags: [] });
    const early = await claimOn(p, await policyOf(p, await consumerOf(p), "phnn-flx1-1111", phone(newImei())));
    expect((await operator.run("claim review", { claimNo: early.claimNo, status: "in_review" })).signals).toEqual({
      score: 20,
      needsSecondReviewer: false,
      flags: [{ rule: "early_claim", score: 20, words: `The incident (${dayWords(watDate(0))}) was on the day the cover started.` }],
    });
  });
});

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const dayWords = (iso: string) => `${Number(iso.slice(8))} ${MONTHS[Number(iso.slice(5, 7)) - 1]} ${iso.slice(0, 4)}`;

describe("flagging again", () => {
  /** The input the claims module builds for a stored claim (src/modules/claims/service.ts, signalInput). */
  async function inputOf(claimNo: string, extra: Partial<FlagInput> = {}): Promise<FlagInput> {
    const claim = await claimRow(claimNo);
    const [policy] = await db.select().from(policies).where(eq(policies.id, claim.policyId));
    return {
      claimId: claim.id,
      partnerId: claim.partnerId,
      policyId: policy!.id,
      mode: policy!.mode,
      ...(await policyIdentifiers(db, policy!)),
      incidentDate: claim.incidentDate,
      coverStart: policy!.coverStart,
      submittedAt: claim.createdAt,
      claimedKobo: claim.claimedKobo,
      ceilingKobo: sumInsuredIn(claimCeiling(policy!)),
      photos: [],
      settings: await signalSettings(db, t.config),
      ...extra,
    };
  }
  const countsOf = async (claimId: string) => ({
    identifiers: (await db.select().from(claimIdentifiers).where(eq(claimIdentifiers.claimId, claimId))).length,
    flags: (await db.select().from(claimFlags).where(eq(claimFlags.claimId, claimId))).sort((x, y) => x.rule.localeCompare(y.rule)),
  });

  test("the same claim flagged again counts nothing twice; an account given later is kept and matched; a flag keeps when it was raised", async () => {
    const a = await newPartner();
    const b = await newPartner();
    const one = await claimOn(a, await policyOf(a, await consumerOf(a), "phnn-flx1-1111", phone(newImei())));
    const two = await claimOn(b, await policyOf(b, await consumerOf(b), "phnn-flx1-1111", phone(newImei())));
    const claimTwo = await claimRow(two.claimNo);
    const before = await countsOf(claimTwo.id);
    // Inside a transaction, as the claims module calls it (the input read before: PGlite has one connection).
    const flagged = async (claimNo: string, extra: Partial<FlagInput> = {}): Promise<ClaimSignals> => {
      const input = await inputOf(claimNo, extra);
      return db.transaction((tx) => flagClaim(tx, input));
    };
    const again = await flagged(two.claimNo);
    const twice = await flagged(two.claimNo);
    expect(twice).toEqual(again);
    expect(await countsOf(claimTwo.id)).toEqual(before);

    const account = { bankCode: "058", accountNumber: `01${digits(8)}` };
    await flagged(one.claimNo, { bankAccount: account });
    const paid = await flagged(two.claimNo, { bankAccount: { ...account, accountNumber: ` ${account.accountNumber} ` } });
    expect(paid.flags.find((f) => f.rule === "same_bank_account")?.inputs).toEqual({
      kinds: ["bank_account"],
      otherPolicies: 1,
      otherPartners: 1,
      atLeast: false,
    });
    // Flagged again without the account (a new photograph): the account is still the claim's.
    const later = await flagged(two.claimNo, { photos: [photoTaken("2019-05-05")] });
    expect(later.flags.map((f) => f.rule).sort()).toEqual(["early_claim", "photo_date", "same_bank_account"]);
    const after = await countsOf(claimTwo.id);
    expect(after.identifiers).toBe(before.identifiers + 1);
    const early = (rows: typeof after.flags) => rows.find((f) => f.rule === "early_claim")!;
    expect(early(after.flags).createdAt).toEqual(early(before.flags).createdAt);
    // And without the photograph again: its flag goes, nothing else changes.
    expect((await flagged(two.claimNo)).flags.map((f) => f.rule).sort()).toEqual(["early_claim", "same_bank_account"]);
  });

  test("claim respond with photographs flags the claim again, with all of its photographs; an answer without one changes nothing", async () => {
    const p = await newPartner();
    const policy = await policyOf(p, await consumerOf(p), "phnn-flx1-1111", phone(newImei()));
    const { claimNo } = await claimOn(p, policy, { documents: [{ name: "receipt.png", content: PNG_BASE64 }] });
    const ask = () => operator.run("claim review", { claimNo, status: "info_requested", note: "Send photographs" });
    await operator.run("claim review", { claimNo, status: "in_review" });
    await ask();
    const plain = await p.run("claim respond", { claimNo, note: "A receipt", documents: [{ name: "r.png", content: PNG_BASE64 }] });
    expect(plain.exctnFdbck.id).toBe(75);
    expect(Object.keys(await rulesOn(claimNo))).toEqual(["early_claim"]);
    await ask();
    const photo = { name: "screen.jpg", content: Buffer.from(photoTaken("2021-06-07")).toString("base64") };
    const answered = await p.run("claim respond", { claimNo, note: "The photograph", documents: [photo] });
    expect(answered.exctnFdbck.id).toBe(75);
    expect(JSON.stringify(answered)).not.toContain("signals");
    const found = await rulesOn(claimNo);
    expect(Object.keys(found).sort()).toEqual(["early_claim", "photo_date"]);
    expect(found.photo_date!.inputs).toMatchObject({ photos: 1, before: ["2021-06-07"] });
  });
});

describe("concurrency", () => {
  test("ten identical submissions at once: one claim, and one set of flags, its own", async () => {
    const a = await newPartner();
    const b = await newPartner();
    const imei = newImei();
    await claimOn(a, await policyOf(a, await consumerOf(a), "phnn-flx1-1111", phone(imei)));
    const policy = await policyOf(b, await consumerOf(b), "phnn-flx1-1111", phone(imei));
    const seed = { policy, incidentDate: watDate(0), description: "Screen cracked", amount: 40_000, reference: `same-${crypto.randomUUID()}` };
    const answers = await Promise.all(Array.from({ length: 10 }, () => b.run("claim submit", seed)));
    expect(answers.every((x) => x.exctnFdbck.id === 75)).toBe(true);
    expect(new Set(answers.map((x) => x.claimNo)).size).toBe(1);
    const stored = await db
      .select()
      .from(claims)
      .where(and(eq(claims.partnerId, b.partnerId), eq(claims.reference, seed.reference)));
    expect(stored).toHaveLength(1);
    const [row] = await db.select().from(policies).where(eq(policies.reference, policy));
    const identifiers = await db.select().from(claimIdentifiers).where(eq(claimIdentifiers.policyId, row!.id));
    expect(new Set(identifiers.map((i) => i.claimId))).toEqual(new Set([stored[0]!.id]));
    expect(identifiers).toHaveLength(5);
    const flags = await db.select().from(claimFlags).where(eq(claimFlags.claimId, stored[0]!.id));
    expect(flags.map((f) => f.rule).sort()).toEqual(["early_claim", "same_device"]);
  });
});

describe("the operator's pages", () => {
  test("the claim page has a Signals card in words; the list and the desk mark the flagged claim with its score; the partner's page has none", async () => {
    const a = await newPartner();
    const b = await newPartner();
    const imei = newImei();
    await claimOn(a, await policyOf(a, await consumerOf(a), "phnn-flx1-1111", phone(imei)));
    const policy = await policyOf(b, await consumerOf(b), "phnn-flx1-1111", phone(imei));
    const { claimNo } = await claimOn(b, policy, { documents: [{ name: "old.jpg", content: Buffer.from(photoTaken("2022-02-02")).toString("base64") }] });
    const admin = await signedIn(t, operator.portal);
    const page = await admin.get(`/admin/claims/${claimNo}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h2 id="claim-signals-title">Signals</h2>');
    for (const words of [
      "3 signals, score 90: a second administrator must confirm the decision on this claim.",
      "The same phone (IMEI) is claimed on 1 other policy, at 1 other partner.",
      `The photograph with the claim is dated 2 Feb 2022, before the cover started (${dayWords(watDate(0))}).`,
      "(+40)",
      "Flagged, score 90: second reviewer",
    ])
      expect(page.text).toContain(escapeHtml(words));
    // No wire names or rule keys on the page.
    for (const code of ["same_device", "photo_date", "needsSecondReviewer", "early_claim"]) expect(page.text).not.toContain(code);
    const list = await admin.get(`/admin/claims?partner=${b.partnerId}`);
    expect(list.text).toContain(escapeHtml("Flagged, score 90: second reviewer"));
    // On the desk once overdue (long overdue: at the top, whatever else the suite has made overdue).
    await db.update(claims).set({ settlementDueOn: "2001-01-01" }).where(eq(claims.claimNo, claimNo));
    const desk = await admin.get("/admin/claims");
    const dueFirst = desk.text.slice(desk.text.indexOf('id="due-first-title"'), desk.text.indexOf("</section>", desk.text.indexOf('id="due-first-title"')));
    expect(dueFirst).toContain(claimNo);
    expect(dueFirst).toContain(escapeHtml("Flagged, score 90: second reviewer"));
    // The partner's list and page: nothing.
    const partner = await signedIn(t, b.portal);
    for (const path of ["/portal/claims", `/portal/claims/${claimNo}`]) {
      const text = (await partner.get(path)).text;
      expect(text).not.toContain("Signals");
      expect(text).not.toContain("Flagged");
    }
    // A claim without flags says so.
    const quiet = await policyOf(b, await consumerOf(b), "phnn-flx1-1111", phone(newImei()));
    await coverStartedAgo(quiet, 30);
    const calm = await admin.get(`/admin/claims/${(await claimOn(b, quiet)).claimNo}`);
    expect(calm.text).toContain("No fraud rule flagged this claim.");
  });
});
