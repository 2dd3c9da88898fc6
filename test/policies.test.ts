import { describe, expect, test } from "bun:test";
import { and, count, eq, sql, sum } from "drizzle-orm";
import { coverDays } from "../src/core/time";
import { auditLog } from "../src/modules/audit/schema";
import { outboxEvents } from "../src/modules/events/schema";
import { decideAll } from "../src/modules/issuance/review";
import { simulatedInsurer, underwriteDuePolicies } from "../src/modules/issuance/underwriting";
import type { KeyLabel } from "../src/modules/partners/service";
import { policies } from "../src/modules/policies/schema";
import { walletEntries, wallets } from "../src/modules/wallet/schema";
import { coverPeriod, day } from "../views/format";
import { individual, PNG_BASE64, type TestPartner, testApp } from "./support/harness";
import { fullConsumer, insureSeed, newImei, type ProductCase, productCases } from "./support/policies";

const t = await testApp({ INSURER_DELAY_MS: 1000 });
const db = t.database.db;
const operator = await t.partner({ admin: true });

const MAGIC = { pdf: "%PDF", docx: "PK", jpg: "\xff\xd8\xff" } as const;

/** Let the background job underwrite everything due by now + the insurer's delay. */
const underwrite = () => underwriteDuePolicies(db, simulatedInsurer, new Date(Date.now() + 60_000), { batch: 1000 });

async function register(p: TestPartner, seed = fullConsumer()) {
  const answer = await p.run("prfl entity", seed);
  expect(answer.exctnFdbck.id).toBe(75);
  return answer.id as string;
}

async function insure(p: TestPartner, c: ProductCase, label: KeyLabel = "test", overrides: Record<string, unknown> = {}, consumer?: string) {
  consumer ??= await register(p);
  if (c.quote) expect((await p.run(`dump ipck_${c.code}*PRMM`, c.quote, label)).exctnFdbck.id).toBe(75);
  const seed = insureSeed(c, overrides);
  const answer = await p.run(`entt_${consumer}: insure`, seed, label);
  const status = (l = label) => p.run(`dump entt_${consumer}|insr_${c.code}-${answer.id}*STATUS`, undefined, l);
  // The operator reviews with a key of the policy's mode, as partners act on their records.
  const approve = (review?: unknown) => operator.run(`appr entt_${consumer}|insr_${c.code}-${answer.id}`, review, label);
  return { answer, seed, consumer, status, approve };
}

const balanceOf = async (partnerId: string) => ((await db.select().from(wallets).where(eq(wallets.partnerId, partnerId)))[0]?.balanceKobo ?? 0) / 100;

describe("test mode: every product is approved at once with a specimen certificate", () => {
  for (const c of Object.values(productCases)) {
    test(c.code, async () => {
      const p = await t.partner();
      const { answer, seed, status } = await insure(p, c);
      expect(answer.exctnFdbck).toEqual({ id: 75, id_v4: 200 });
      expect(answer.id).toBe(seed.id);
      expect(answer.status).toBe("a");
      expect(answer.policyNo).toMatch(/^TST-[A-Z]{4}-\d{4}-[0-9A-Z]{12}$/);
      expect(answer.certUrl).toContain("/certificates/");
      const record = await status();
      expect(record).toMatchObject({ status: "a", policyNo: answer.policyNo, exctnFdbck: { id: 75, id_v4: 200 } });
      expect(record.tmstmp).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(["pdf", "docx", "jpg"]).toContain(record.crtfctType);
      if (record.crtfct)
        expect(
          Buffer.from(record.crtfct, "base64")
            .toString("latin1")
            .startsWith(MAGIC[record.crtfctType as keyof typeof MAGIC]),
        ).toBe(true);
      const hosted = await t.app.handle(new Request(record.certUrl));
      expect(hosted.status).toBe(200);
      expect(
        Buffer.from(await hosted.arrayBuffer())
          .toString("latin1")
          .startsWith(MAGIC[record.crtfctType as keyof typeof MAGIC]),
      ).toBe(true);
      expect(await balanceOf(p.partnerId)).toBe(0); // nothing billed in test mode
    }, 30_000);
  }

  test("the certificate forms follow spec 2.6", async () => {
    const p = await t.partner();
    const forms: Record<string, [string, boolean]> = {};
    for (const code of ["mexx-stnd-1111", "mrnn-stnd-1111", "crlt-sme1-1111", "lrgg-stnd-1111", "ltix-stnd-1111", "vhcl-tprt-1111", "phnn-flx1-1111"]) {
      const { status } = await insure(p, productCases[code]!);
      const record = await status();
      forms[code] = [record.crtfctType, "crtfct" in record];
    }
    expect(forms).toEqual({
      "mexx-stnd-1111": ["docx", true],
      "mrnn-stnd-1111": ["pdf", true],
      "crlt-sme1-1111": ["pdf", true],
      "lrgg-stnd-1111": ["jpg", true],
      "ltix-stnd-1111": ["pdf", false],
      "vhcl-tprt-1111": ["pdf", false],
      "phnn-flx1-1111": ["pdf", false],
    });
  }, 60_000);
});

describe("live mode follows the transitions of spec 3", () => {
  async function livePartner() {
    const p = await t.partner();
    expect((await p.run("wallet topup", { amount: 10_000_000, reference: `fund-${crypto.randomUUID()}` }, "live")).exctnFdbck.id).toBe(75);
    return p;
  }

  test("insurer-processed products stay pending until the insurer answers, then approve", async () => {
    const p = await livePartner();
    const { answer, status } = await insure(p, productCases["vhcl-tprt-1111"]!, "live");
    expect(answer).toMatchObject({ status: "p", exctnFdbck: { id: 75 } });
    expect(answer).not.toHaveProperty("policyNo");
    expect((await status()).status).toBe("p");
    await underwrite();
    const record = await status();
    expect(record.status).toBe("a");
    expect(record.policyNo).toMatch(/^POL-VHCL-/);
    // Live vehicle and device answer with policyNo only (spec 2.6: test mode adds certUrl).
    expect(record).not.toHaveProperty("certUrl");
    expect(record).not.toHaveProperty("crtfct");
    expect(record).not.toHaveProperty("crtfctType");
  });

  test("the records a decision answers with are the policies as stored (the UPDATE returns only their ids)", async () => {
    const p = await livePartner();
    const references = [];
    for (let i = 0; i < 2; i++) references.push((await insure(p, productCases["vhcl-tprt-1111"]!, "live")).answer.id as string);
    const read = () => db.select().from(policies).where(eq(policies.partnerId, p.partnerId)).orderBy(policies.reference);
    const pending = await read();
    expect(pending.map((policy) => policy.status)).toEqual(["p", "p"]);
    const decided = await db.transaction((tx) =>
      decideAll(
        tx,
        pending.map((policy, i) => ({ policy, decision: i ? { status: "d", note: "not this one", by: "insurer" } : { status: "a", by: "insurer" } })),
        new Date(),
      ),
    );
    expect(decided).toEqual(await read());
    expect(decided.map((policy) => policy.status)).toEqual(["a", "d"]);
  });

  // Spec 3: how each product is decided in live mode, and the certificate form of 2.6 once approved.
  const LIVE_ROUTES: Record<string, "insurer" | "approve" | "manual"> = {
    "vhcl-tprt-1111": "insurer",
    "vhcl-cmpr-1111": "manual",
    "phnn-flx1-1111": "insurer",
    "lapt-flx2-1111": "insurer",
    "ltix-stnd-1111": "insurer",
    "gtrn-stnd-1111": "insurer",
    "mexx-stnd-1111": "approve",
    "mrnn-stnd-1111": "manual",
    "mrnn-cmpr-1111": "manual",
    "crlt-sme1-1111": "manual",
    "crlt-psnl-1111": "manual",
    "crlt-kymn-1111": "manual",
    "crlt-mrtg-1111": "manual",
    "lrgg-stnd-1111": "manual",
    "hlth-axam-1111": "insurer",
    "allr-stnd-1111": "insurer",
    "firb-stnd-1111": "insurer",
  };
  const LIVE_FORMS: Record<string, "inline" | "hosted" | "policyNo"> = { vhcl: "policyNo", phnn: "policyNo", lapt: "policyNo", ltix: "hosted" };

  test("every product is covered by the route table", () => {
    expect(Object.keys(LIVE_ROUTES).sort()).toEqual(Object.keys(productCases).sort());
  });

  for (const c of Object.values(productCases)) {
    test(`${c.code}: register, quote, insure, status in live mode, approved by its route (${LIVE_ROUTES[c.code]})`, async () => {
      const p = await livePartner();
      const before = await balanceOf(p.partnerId);
      const { answer, status, approve } = await insure(p, c, "live");
      const route = LIVE_ROUTES[c.code]!;
      expect(answer.exctnFdbck).toEqual({ id: 75, id_v4: 200 });
      expect(answer.status).toBe(route === "approve" ? "a" : "p");
      expect(await balanceOf(p.partnerId)).toBeLessThan(before); // the premium is debited
      if (route === "insurer") {
        await underwrite();
        expect((await status()).status).toBe("a");
      } else if (route === "manual") {
        await underwrite();
        expect((await status()).status).toBe("p"); // the insurer loop leaves manual reviews alone
        expect(await approve()).toMatchObject({ status: "a", exctnFdbck: { id: 75 } });
      }
      const record = await status();
      expect(record).toMatchObject({ status: "a", policyNo: expect.stringMatching(/^POL-[A-Z]{4}-\d{4}-[0-9A-Z]{12}$/) });
      const form = LIVE_FORMS[c.code.slice(0, 4)] ?? "inline";
      expect("crtfct" in record).toBe(form === "inline");
      expect("certUrl" in record).toBe(form === "hosted");
      if (form === "inline")
        expect(
          Buffer.from(record.crtfct, "base64")
            .toString("latin1")
            .startsWith(MAGIC[record.crtfctType as keyof typeof MAGIC]),
        ).toBe(true);
      if (form === "hosted") expect((await t.app.handle(new Request(record.certUrl))).status).toBe(200);
    }, 30_000);
  }

  test("marine export is approved at once with its certificate in the answer", async () => {
    const p = await livePartner();
    const { answer, status } = await insure(p, productCases["mexx-stnd-1111"]!, "live");
    expect(answer.status).toBe("a");
    expect(answer.crtfctType).toBe("docx");
    expect(Buffer.from(answer.crtfct, "base64").subarray(0, 2).toString()).toBe("PK");
    expect((await status()).status).toBe("a");
  });

  test("comprehensive vehicle: with proof of ownership approved at once; without, manual review", async () => {
    const p = await livePartner();
    const c = productCases["vhcl-cmpr-1111"]!;
    const withProof = await insure(p, c, "live", { addtnlFact: { ...c.addtnlFact(), proofOfOwnrsh: PNG_BASE64 } });
    expect(withProof.answer).toMatchObject({ status: "a", crtfctType: "pdf" });
    const without = await insure(p, c, "live");
    expect(without.answer.status).toBe("p");
    await underwrite();
    expect((await without.status()).status).toBe("p"); // the insurer loop leaves manual reviews alone
    const approved = await without.approve();
    expect(approved).toMatchObject({ status: "a", policyNo: expect.stringMatching(/^POL-VHCL-/), exctnFdbck: { id: 75 } });
    expect((await without.status()).status).toBe("a");
  });

  test.each(["mrnn-stnd-1111", "crlt-psnl-1111", "lrgg-stnd-1111"])(
    "%s waits for manual review; an admin may decline with a note, refunding the premium",
    async (code) => {
      const p = await livePartner();
      const before = await balanceOf(p.partnerId);
      const { answer, status, approve } = await insure(p, productCases[code]!, "live");
      expect(answer.status).toBe("p");
      const charged = await balanceOf(p.partnerId);
      expect(charged).toBeLessThan(before);
      const refusedWithoutNote = await approve({ status: "d" });
      expect(refusedWithoutNote.exctnFdbck.elbrtn).toContain("seed.statusNote is required to decline");
      const declined = await approve({ status: "d", statusNote: "unreadable company documents" });
      expect(declined).toMatchObject({ status: "d", statusNote: "unreadable company documents" });
      expect(await status()).toMatchObject({ status: "d", statusNote: "unreadable company documents" });
      expect(await balanceOf(p.partnerId)).toBe(before);
      expect((await approve()).exctnFdbck).toMatchObject({ id: 55, id_v4: 409 });
    },
  );

  test("the command's review is audited as the portal's is, naming the key; an API issuance is in the API log, not the audit log", async () => {
    const p = await livePartner();
    const { answer, approve } = await insure(p, productCases["crlt-psnl-1111"]!, "live");
    expect((await approve({ status: "d", statusNote: "outside the age band" })).status).toBe("d");
    const rows = await db.select().from(auditLog).where(eq(auditLog.subject, answer.id)).orderBy(auditLog.at);
    expect(rows.map((r) => [r.action, r.actor, r.partnerId])).toEqual([["policy.decline", "API key live", p.partnerId]]);
    expect(rows[0]!.details).toEqual({ statusNote: "outside the age band", policyNo: null });
  });

  test("appr is for the operator only", async () => {
    const p = await livePartner();
    const { consumer, answer } = await insure(p, productCases["crlt-sme1-1111"]!, "live");
    const refused = await p.run(`appr entt_${consumer}|insr_crlt-sme1-1111-${answer.id}`);
    expect(refused.exctnFdbck).toMatchObject({ id: 55, id_v4: 403 });
  });

  test("a device holds one active policy: the second is declined and refunded", async () => {
    const p = await livePartner();
    const c = productCases["phnn-flx1-1111"]!;
    const imei = newImei();
    const fact = { brand: "Tecno", model: "Camon 20", uIdnt: imei };
    const first = await insure(p, c, "live", { addtnlFact: fact });
    await underwrite();
    expect((await first.status()).status).toBe("a");
    const before = await balanceOf(p.partnerId);
    const second = await insure(p, c, "live", { addtnlFact: fact });
    await underwrite();
    const record = await second.status();
    expect(record.status).toBe("d");
    expect(record.statusNote).toContain("already insured");
    expect(await balanceOf(p.partnerId)).toBe(before);
  });

  test("marine goodsValue differing from the item sum is declined (spec 7)", async () => {
    const p = await livePartner();
    const c = productCases["mexx-stnd-1111"]!;
    const { answer, status } = await insure(p, c, "live", { addtnlFact: { ...c.addtnlFact(), goodsValue: 4_000_000 } });
    expect(answer.exctnFdbck.id).toBe(75);
    expect(answer.status).toBe("d");
    expect((await status()).statusNote).toMatch(/sum/i);
  });

  test("goods in an excluded category are declined by the insurer", async () => {
    const p = await livePartner();
    const c = productCases["gtrn-stnd-1111"]!;
    const { status } = await insure(p, c, "live", { addtnlFact: { ...c.addtnlFact(), goodsDscrptn: "Gas cylinders for restaurants" } });
    await underwrite();
    const record = await status();
    expect(record.status).toBe("d");
    expect(record.statusNote).toMatch(/excluded/i);
  });

  test("test keys never create live policies, even on a live account", async () => {
    const p = await livePartner();
    await p.run("set env_live", undefined, "legacy");
    const { answer } = await insure(p, productCases["vhcl-tprt-1111"]!, "test");
    expect(answer.status).toBe("a");
    const [row] = await db
      .select()
      .from(policies)
      .where(and(eq(policies.partnerId, p.partnerId), eq(policies.reference, answer.id)));
    expect(row!.mode).toBe("test");
    const legacy = await insure(p, productCases["vhcl-tprt-1111"]!, "legacy");
    expect(legacy.answer.status).toBe("p"); // the legacy key follows the account toggle
  });
});

describe("transaction references (spec 2.5)", () => {
  const c = productCases["phnn-flx1-1111"]!;

  test("a UUID is echoed; 32 hex is auto-formatted; up to 32 letters and digits are kept as sent", async () => {
    const p = await t.partner();
    const consumer = await register(p);
    const uuid = crypto.randomUUID();
    expect((await insure(p, c, "test", { id: uuid.toUpperCase() }, consumer)).answer.id).toBe(uuid);
    const hex = crypto.randomUUID().replaceAll("-", "");
    const formatted = (await insure(p, c, "test", { id: hex }, consumer)).answer;
    expect(formatted.id).toBe(`${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`);
    const alnum = `gtrn${Date.now()}abcXYZ`;
    const kept = await insure(p, c, "test", { id: alnum }, consumer);
    expect(kept.answer.id).toBe(alnum);
    expect((await kept.status()).status).toBe("a");
  });

  test.each([
    ["too long", "a".repeat(33)],
    ["punctuation", "tx-ref/1"],
    ["a number", 12345],
  ])("%s is invalid", async (_n, id) => {
    const p = await t.partner();
    const { answer } = await insure(p, c, "test", { id });
    expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 400 });
    expect(answer.exctnFdbck.elbrtn).toContain("seed.id is invalid");
  });

  test("a reused reference is refused and nothing is stored", async () => {
    const p = await t.partner();
    const consumer = await register(p);
    const id = crypto.randomUUID();
    expect((await insure(p, c, "test", { id }, consumer)).answer.exctnFdbck.id).toBe(75);
    const again = await insure(p, c, "test", { id }, consumer);
    expect(again.answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 409 });
    expect(again.answer.exctnFdbck.elbrtn).toContain("seed.id is already in use");
    const [n] = await db.select({ n: count() }).from(policies).where(eq(policies.partnerId, p.partnerId));
    expect(n!.n).toBe(1);
  });

  test("the same reference sent concurrently is stored exactly once", async () => {
    const p = await t.partner();
    const consumer = await register(p);
    const seed = insureSeed(c);
    const answers = await Promise.all(Array.from({ length: 10 }, () => p.run(`entt_${consumer}: insure`, seed)));
    expect(answers.filter((a) => a.exctnFdbck.id === 75)).toHaveLength(1);
    expect(answers.filter((a) => a.exctnFdbck.elbrtn?.includes("already in use"))).toHaveLength(9);
    const [n] = await db.select({ n: count() }).from(policies).where(eq(policies.partnerId, p.partnerId));
    expect(n!.n).toBe(1);
  });

  test("the same reference under another partner is theirs to use", async () => {
    const [a, b] = [await t.partner(), await t.partner()];
    const id = crypto.randomUUID();
    expect((await insure(a, c, "test", { id })).answer.exctnFdbck.id).toBe(75);
    expect((await insure(b, c, "test", { id })).answer.exctnFdbck.id).toBe(75);
  });
});

describe("issuance refusals change nothing", () => {
  const c = productCases["vhcl-tprt-1111"]!;
  const stored = async (partnerId: string) => (await db.select({ n: count() }).from(policies).where(eq(policies.partnerId, partnerId)))[0]!.n;

  test("a consumer registered under another partner: 409 consumer not found", async () => {
    const [a, b] = [await t.partner(), await t.partner()];
    const theirs = await register(a);
    const { answer } = await insure(b, c, "test", {}, theirs);
    expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 409 });
    expect(answer.exctnFdbck.elbrtn).toContain("consumer not found");
    expect(await stored(b.partnerId)).toBe(0);
  });

  test("a consumer without the product's required fields is named", async () => {
    const p = await t.partner();
    const { gender: _g, dob: _d, ...thin } = individual();
    const consumer = await register(p, thin as ReturnType<typeof individual>);
    const { answer } = await insure(p, c, "test", {}, consumer);
    expect(answer.exctnFdbck.id).toBe(55);
    expect(answer.exctnFdbck.elbrtn).toContain("lacks gender, dob.date");
  });

  test("a blank or null addtnlFact field is 406", async () => {
    const p = await t.partner();
    const blank = await insure(p, c, "test", { addtnlFact: { ...c.addtnlFact(), engineId: "" } });
    expect(blank.answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 406 });
    expect(blank.answer.exctnFdbck.elbrtn).toContain("seed.addtnlFact.engineId is blank");
    const nul = await insure(p, c, "test", { addtnlFact: { ...c.addtnlFact(), model: null } });
    expect(nul.answer.exctnFdbck.id_v4).toBe(406);
    expect(await stored(p.partnerId)).toBe(0);
  });

  test("a numeric field sent as a string names the field", async () => {
    const p = await t.partner();
    const cmpr = productCases["vhcl-cmpr-1111"]!;
    const { answer } = await insure(p, cmpr, "test", { addtnlFact: { ...cmpr.addtnlFact(), vhclValueForInsrnc: "5000000" } });
    expect(answer.exctnFdbck.elbrtn).toContain("seed.addtnlFact.vhclValueForInsrnc must be a JSON number, not a string");
  });

  test("an unknown product is 400 product specified not supported", async () => {
    const p = await t.partner();
    const { answer } = await insure(p, { ...c, code: "vhcl-bike-1111", quote: undefined });
    expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 400 });
    expect(answer.exctnFdbck.elbrtn).toContain("product specified not supported");
  });

  test("a webHook that is not a URL is named", async () => {
    const p = await t.partner();
    const { answer } = await insure(p, c, "test", { addtnlFact: { ...c.addtnlFact(), webHook: "not a url" } });
    expect(answer.exctnFdbck.elbrtn).toContain("seed.addtnlFact.webHook");
  });
});

describe("the wallet", () => {
  test("top-up credits once per reference; a repeat returns the first result; another amount conflicts", async () => {
    const p = await t.partner();
    const first = await p.run("wallet topup", { amount: 2500.5, reference: "bank-0001" }, "live");
    expect(first).toMatchObject({ reference: "bank-0001", amount: 2500.5, balance: 2500.5, currency: "NGN", exctnFdbck: { id: 75 } });
    const repeat = await p.run("wallet topup", { amount: 2500.5, reference: "bank-0001" }, "live");
    expect(repeat).toEqual(first);
    expect(await balanceOf(p.partnerId)).toBe(2500.5);
    const conflict = await p.run("wallet topup", { amount: 100, reference: "bank-0001" }, "live");
    expect(conflict.exctnFdbck).toMatchObject({ id: 55, id_v4: 409 });
    expect((await p.run("wallet topup", { amount: "100", reference: "x" }, "live")).exctnFdbck.elbrtn).toContain(
      "seed.amount must be a JSON number, not a string",
    );
    expect((await p.run("wallet topup", { amount: 1.234, reference: "x" }, "live")).exctnFdbck.elbrtn).toContain("seed.amount must have at most two decimals");
    expect((await p.run("wallet topup", { amount: -5, reference: "x" }, "live")).exctnFdbck.id).toBe(55);
  });

  test("concurrent top-ups with one reference credit once", async () => {
    const p = await t.partner();
    const answers = await Promise.all(Array.from({ length: 8 }, () => p.run("wallet topup", { amount: 1000, reference: "same" }, "live")));
    expect(answers.every((a) => a.exctnFdbck.id === 75 && a.balance === 1000)).toBe(true);
    expect(await balanceOf(p.partnerId)).toBe(1000);
  });

  test("live issuance without enough balance is refused (402) and stores nothing", async () => {
    const p = await t.partner();
    await p.run("wallet topup", { amount: 100, reference: "small" }, "live");
    const { answer } = await insure(p, productCases["vhcl-tprt-1111"]!, "live");
    expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 402 });
    expect(answer.exctnFdbck.elbrtn).toContain("insufficient wallet balance");
    const [n] = await db.select({ n: count() }).from(policies).where(eq(policies.partnerId, p.partnerId));
    expect(n!.n).toBe(0);
    expect(await balanceOf(p.partnerId)).toBe(100);
  });

  test("a partner that never topped up is refused (402, balance 0) and nothing is stored", async () => {
    const p = await t.partner();
    const { answer } = await insure(p, productCases["vhcl-tprt-1111"]!, "live");
    expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 402 });
    expect(answer.exctnFdbck.elbrtn).toContain("the balance is 0 naira");
    const [n] = await db.select({ n: count() }).from(policies).where(eq(policies.partnerId, p.partnerId));
    expect(n!.n).toBe(0);
    expect(await db.select().from(walletEntries).where(eq(walletEntries.partnerId, p.partnerId))).toHaveLength(0);
  });

  test("one statement pays for a live policy: its ledger line names it; a reused reference debits nothing", async () => {
    const p = await t.partner();
    await p.run("wallet topup", { amount: 50_000, reference: "float" }, "live");
    const first = await insure(p, productCases["vhcl-tprt-1111"]!, "live");
    expect(first.answer.exctnFdbck.id).toBe(75);
    const [policy] = await db.select().from(policies).where(eq(policies.partnerId, p.partnerId));
    const lines = await db
      .select()
      .from(walletEntries)
      .where(and(eq(walletEntries.partnerId, p.partnerId), eq(walletEntries.kind, "premium")));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ policyId: policy!.id, amountKobo: -policy!.premiumKobo, balanceAfterKobo: 5_000_000 - policy!.premiumKobo });
    const again = await p.run(`entt_${first.consumer}: insure`, first.seed, "live");
    expect(again.exctnFdbck.elbrtn).toContain("seed.id is already in use");
    // Also when the balance no longer covers a second premium: the stored policy is what it hears of (409), not 402.
    const [{ premiumKobo }] = [policy!];
    await db
      .update(wallets)
      .set({ balanceKobo: premiumKobo - 1 })
      .where(eq(wallets.partnerId, p.partnerId));
    const short = await p.run(`entt_${first.consumer}: insure`, first.seed, "live");
    expect(short.exctnFdbck).toMatchObject({ id: 55, id_v4: 409 });
    expect(short.exctnFdbck.elbrtn).toContain("seed.id is already in use");
    await db
      .update(wallets)
      .set({ balanceKobo: 5_000_000 - premiumKobo })
      .where(eq(wallets.partnerId, p.partnerId));
    expect(await balanceOf(p.partnerId)).toBe(50_000 - policy!.premiumKobo / 100);
    const events = await db.select().from(outboxEvents).where(eq(outboxEvents.partnerId, p.partnerId));
    expect(events.filter((e) => (e.payload as { id?: string }).id === first.answer.id)).toHaveLength(1);
  });

  test("concurrent live issuances never overdraw; the ledger sums to the balance", async () => {
    const p = await t.partner();
    await p.run("wallet topup", { amount: 50_000, reference: "float" }, "live"); // room for three 15,000 premiums
    const consumer = await register(p);
    await p.run("dump ipck_vhcl-tprt-1111*PRMM", { insrncDrtn: "1y" }, "live");
    const answers = await Promise.all(Array.from({ length: 8 }, () => p.run(`entt_${consumer}: insure`, insureSeed(productCases["vhcl-tprt-1111"]!), "live")));
    expect(answers.filter((a) => a.exctnFdbck.id === 75)).toHaveLength(3);
    expect(answers.filter((a) => a.exctnFdbck.id_v4 === 402)).toHaveLength(5);
    expect(await balanceOf(p.partnerId)).toBe(5000);
    const [ledger] = await db
      .select({ total: sum(walletEntries.amountKobo) })
      .from(walletEntries)
      .where(eq(walletEntries.partnerId, p.partnerId));
    expect(Number(ledger!.total) / 100).toBe(5000);
  });
});

describe("status and transaction lists", () => {
  test("status of an unknown reference, or of another partner's policy, is 404", async () => {
    const [a, b] = [await t.partner(), await t.partner()];
    const { consumer, answer } = await insure(a, productCases["phnn-flx1-1111"]!);
    const other = await b.run(`dump entt_${consumer}|insr_phnn-flx1-1111-${answer.id}*STATUS`);
    expect(other.exctnFdbck).toMatchObject({ id: 55, id_v4: 404 });
    const unknown = await a.run(`dump entt_${consumer}|insr_phnn-flx1-1111-${crypto.randomUUID()}*STATUS`);
    expect(unknown.exctnFdbck.id_v4).toBe(404);
  });

  test("dump entt_* filters by status and product and pages with a cursor; ADMIN sees every partner", async () => {
    const p = await t.partner();
    await p.run("wallet topup", { amount: 1_000_000, reference: "list" }, "live");
    const consumer = await register(p);
    const refs: string[] = [];
    for (let i = 0; i < 3; i++) refs.push((await insure(p, productCases["phnn-flx1-1111"]!, "test", {}, consumer)).answer.id);
    const live = await insure(p, productCases["crlt-sme1-1111"]!, "live", {}, consumer);
    const all = await p.run("dump entt_*", { limit: 2 });
    expect(all.list.map((x: any) => x.id)).toEqual([live.answer.id, refs[2]]);
    expect(all.list[0]).toMatchObject({ productCode: "crlt-sme1-1111", status: "p", prmm: 500_000, currency: "NGN", mode: "live", consumerId: consumer });
    const rest = await p.run("dump entt_*", { limit: 2, cursor: all.nextCursor });
    expect(rest.list.map((x: any) => x.id)).toEqual([refs[1], refs[0]]);
    expect(rest.nextCursor).toBeNull();
    expect((await p.run("dump entt_*", { status: "p" })).list.map((x: any) => x.id)).toEqual([live.answer.id]);
    expect((await p.run("dump entt_*", { productCode: "phnn-flx1-1111" })).list).toHaveLength(3);
    const today = new Date(Date.now() + 3_600_000).toISOString().slice(0, 10);
    expect((await p.run("dump entt_*", { from: today, to: today })).list).toHaveLength(4);
    expect((await p.run("dump entt_*", { to: "2000-01-01" })).list).toHaveLength(0);
    expect((await p.run("dump entt_*", { status: "x" })).exctnFdbck.elbrtn).toContain("seed.status must be one of");
    const admin = await operator.run("dump entt_*ADMIN", { limit: 100 });
    expect(admin.list.find((x: any) => x.id === live.answer.id)).toMatchObject({ partnerId: p.partnerId });
    expect((await p.run("dump entt_*ADMIN")).exctnFdbck.id_v4).toBe(403);
  });

  test("every status change leaves its event in the outbox", async () => {
    const p = await t.partner();
    await p.run("wallet topup", { amount: 1_000_000, reference: "events" }, "live");
    const { answer, approve } = await insure(p, productCases["crlt-mrtg-1111"]!, "live");
    await approve();
    const events = await db.select().from(outboxEvents).where(eq(outboxEvents.partnerId, p.partnerId)).orderBy(outboxEvents.createdAt);
    expect(events.map((e) => e.type)).toEqual(["wallet.credited", "policy.pending", "policy.approved"]);
    expect(events[2]!.payload).toMatchObject({ id: answer.id, status: "a" });
  });
});

describe("hosted certificates and verification", () => {
  test("GET /verify/<policyNo> confirms a policy without exposing the insured; unknown numbers are not genuine", async () => {
    const p = await t.partner();
    const { answer } = await insure(p, productCases["vhcl-tprt-1111"]!);
    const page = await t.app.handle(new Request(`http://localhost/verify/${answer.policyNo}`));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(answer.policyNo);
    expect(html).toContain("SPECIMEN");
    expect(html).toContain("A. Okafor");
    expect(html).not.toContain("Adaeze");
    const missing = await t.app.handle(new Request("http://localhost/verify/POL-XXXX-2026-NOPE"));
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("not genuine");
  });

  test("one cover period everywhere: a year from today is today to the day before a year from today, on the verify page as on every other", async () => {
    const p = await t.partner();
    const { answer } = await insure(p, productCases["vhcl-tprt-1111"]!);
    const [stored] = await db.select().from(policies).where(eq(policies.policyNo, answer.policyNo));
    const { firstDay, lastDay } = coverDays(stored!.coverStart, stored!.coverEnd);
    const yearLater = new Date(`${firstDay}T00:00:00Z`);
    yearLater.setUTCFullYear(yearLater.getUTCFullYear() + 1);
    yearLater.setUTCDate(yearLater.getUTCDate() - 1);
    expect(lastDay).toBe(yearLater.toISOString().slice(0, 10));
    const html = await (await t.app.handle(new Request(`http://localhost/verify/${answer.policyNo}`))).text();
    expect(html).toContain(`<dd>${coverPeriod(stored!.coverStart, stored!.coverEnd)}</dd>`);
    // The insurer and the insured vehicle, for the officer checking it.
    expect(html).toContain("<dt>Insurer</dt><dd>Sandbox Insurance Plc</dd>");
    expect(html).toMatch(/<dt>Insured item<\/dt><dd>[^<]+, registration [A-Z0-9]+<\/dd>/);
    expect(coverPeriod(stored!.coverStart, stored!.coverEnd)).toBe(`${day(firstDay)} to ${day(lastDay)}`);
    expect(html).not.toContain("00:00:00");
  });

  test("certificate links need the exact token", async () => {
    expect((await t.app.handle(new Request("http://localhost/certificates/guess"))).status).toBe(404);
  });
});

describe("the rows an issuance appends name their partner without a foreign key", () => {
  test("so a partner can never be deleted nor truncated, and its policies and events stay", async () => {
    const p = await t.partner();
    await insure(p, productCases["vhcl-tprt-1111"]!);
    const refused = { cause: { message: expect.stringContaining("partners are never deleted") } };
    const run = async (statement: ReturnType<typeof sql>) => db.execute(statement);
    await expect(run(sql`delete from partners where id = ${p.partnerId}`)).rejects.toMatchObject(refused);
    await expect(run(sql`truncate partners cascade`)).rejects.toMatchObject(refused);
    const [stored] = await db.select({ policies: count() }).from(policies).where(eq(policies.partnerId, p.partnerId));
    expect(stored!.policies).toBe(1);
    const [events] = await db.select({ events: count() }).from(outboxEvents).where(eq(outboxEvents.partnerId, p.partnerId));
    expect(events!.events).toBeGreaterThan(0);
  });
});
