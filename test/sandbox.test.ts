/**
 * The sandbox that teaches (issue 8, docs/sandbox.md): in test mode, magic transaction references
 * make the simulated insurer decline, stay pending, or decide later — all through POST /, with the
 * status answers and the events (outbox and real webhook deliveries) of real decisions. Live mode
 * ignores them.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { asc, eq } from "drizzle-orm";
import { outboxEvents } from "../src/modules/events/schema";
import { simulatedInsurer, underwriteDuePolicies } from "../src/modules/issuance/underwriting";
import { policies } from "../src/modules/policies/schema";
import { MAGIC_REFERENCES, magicReference } from "../src/modules/sandbox/references";
import { walletEntries, wallets } from "../src/modules/wallet/schema";
import { deliverDueWebhooks, deliverySettings, dispatchOutboxEvents } from "../src/modules/webhooks/dispatcher";
import { serviceJobs } from "../src/worker/jobs";
import { startWorker } from "../src/worker/loop";
import { PNG_BASE64, type TestPartner, testApp } from "./support/harness";
import { fullConsumer, insureSeed, type ProductCase, productCases } from "./support/policies";
import { startReceiver } from "./support/webhook-receiver";

const DELAY_MS = 1_500;
const t = await testApp({ INSURER_DELAY_MS: DELAY_MS, WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_TIMEOUT_MS: 2000 });
const db = t.database.db;
const operator = await t.partner({ admin: true });
const receiver = await startReceiver();
afterAll(() => receiver.stop());

/** A reference unique to this run, starting with `prefix`: letters and digits only, at most 32. */
const ref = (prefix: string) => `${prefix}${crypto.randomUUID().replaceAll("-", "")}`.slice(0, 32);

/** Underwrite everything due `afterMs` from now (the background job's clock). */
const underwriteAt = (afterMs: number) => underwriteDuePolicies(db, simulatedInsurer, new Date(Date.now() + afterMs), { batch: 1000 });

async function insure(p: TestPartner, code: string, reference: string, label: "test" | "live" | "legacy" = "test", addtnlFact?: Record<string, unknown>) {
  const c: ProductCase = productCases[code]!;
  const consumer = (await p.run("prfl entity", fullConsumer(), label)).id as string;
  if (c.quote) expect((await p.run(`dump ipck_${c.code}*PRMM`, c.quote, label)).exctnFdbck.id).toBe(75);
  const seed = insureSeed(c, { id: reference, ...(addtnlFact ? { addtnlFact: { ...c.addtnlFact(), ...addtnlFact } } : {}) });
  const answer = await p.run(`entt_${consumer}: insure`, seed, label);
  const address = `entt_${consumer}|insr_${c.code}-${answer.id}`;
  return {
    answer,
    seed,
    status: (l: typeof label = label) => p.run(`dump ${address}*STATUS`, undefined, l),
    review: (seed?: unknown) => operator.run(`appr ${address}`, seed),
  };
}

/** The events of one policy, oldest first, as the outbox holds them. */
async function eventsOf(partnerId: string, reference: string) {
  const rows = await db.select().from(outboxEvents).where(eq(outboxEvents.partnerId, partnerId)).orderBy(asc(outboxEvents.createdAt), asc(outboxEvents.id));
  return rows.filter((row) => row.payload.id === reference);
}
const typesOf = async (partnerId: string, reference: string) => (await eventsOf(partnerId, reference)).map((e) => e.type);
const noWalletActivity = async (partnerId: string) => expect(await db.select().from(walletEntries).where(eq(walletEntries.partnerId, partnerId))).toEqual([]);

/** The statusNote each family's sandbox decline gives (its own spec-7 reason where the spec has one). */
const DECLINE_NOTES: Record<string, RegExp> = {
  "vhcl-tprt-1111": /^Vehicle details not matching national records: the registry lists ABC123DE with make Honda, not Toyota\.$/,
  "vhcl-cmpr-1111": /^Vehicle details not matching national records: the registry lists ABC123DE with make Honda, not Toyota\.$/,
  "phnn-flx1-1111": /^Device already insured: IMEI \d{15} is covered by another active policy/,
  "lapt-flx2-1111": /^Device already insured: Serial number 5CD\d+ is covered by another active policy/,
  "gtrn-stnd-1111": /^Goods in an excluded category: .*"Laptops and phones"/,
  "mexx-stnd-1111": /^Marine goodsValue differs from the sum of item values: .*PI-2026-0042.*₦5,000,000\.00/,
  "mrnn-stnd-1111": /^Marine goodsValue differs from the sum of item values: /,
  "mrnn-cmpr-1111": /^Marine goodsValue differs from the sum of item values: /,
  "crlt-sme1-1111": /^Borrower outside the insurable age band: .*ages 18 to 65/,
  "crlt-psnl-1111": /^Borrower outside the insurable age band: /,
  "crlt-kymn-1111": /^Borrower outside the insurable age band: /,
  "crlt-mrtg-1111": /^Borrower outside the insurable age band: /,
  "lrgg-stnd-1111": /^Loan guaranty amount differs between quote and issuance: LoanAmount ₦1,000,000\.00 at issuance/,
  "ltix-stnd-1111": /^Declined by the insurer: travel cover to Germany could not be accepted/,
  "hlth-axam-1111": /^Declined by the insurer: the enrolment at Reddington Hospital could not be accepted/,
  "allr-stnd-1111": /^Declined by the insurer: the property described as "Laptop, camera and two phones"/,
  "firb-stnd-1111": /^Declined by the insurer: the premises and property described as "Shop stock and fittings"/,
};

describe("the magic table", () => {
  test("matches by prefix in any case, longest prefix first, and only in test mode", () => {
    expect(magicReference("test", "SBXDECLINE1")?.prefix).toBe("SBXDECLINE");
    expect(magicReference("test", "sbxdecline")?.prefix).toBe("SBXDECLINE");
    expect(magicReference("test", "SbXpEnDiNg42")?.prefix).toBe("SBXPENDING");
    expect(magicReference("test", "sbxslow7")?.prefix).toBe("SBXSLOW");
    expect(magicReference("test", "SBXSLOWDECLINE7")?.prefix).toBe("SBXSLOWDECLINE");
    expect(magicReference("test", "SBX123")).toBeNull();
    expect(magicReference("test", "XSBXDECLINE")).toBeNull();
    expect(magicReference("test", "3f2a9c1e-0d5b-4c8e-9f61-2b7d4e8a1c30")).toBeNull();
    for (const magic of MAGIC_REFERENCES) expect(magicReference("live", `${magic.prefix}1`)).toBeNull();
  });

  test("every product family has its own decline note", () => {
    expect(Object.keys(DECLINE_NOTES).sort()).toEqual(Object.keys(productCases).sort());
  });
});

describe("SBXDECLINE: declined at once with the product's own reason", () => {
  for (const code of Object.keys(productCases)) {
    test(code, async () => {
      const p = await t.partner();
      const reference = ref("SBXDECLINE");
      const { answer, status } = await insure(p, code, reference);
      expect(answer.exctnFdbck).toEqual({ id: 75, id_v4: 200 });
      expect(answer).toMatchObject({ id: reference, status: "d", statusNote: expect.stringMatching(DECLINE_NOTES[code]!) });
      // A decline carries no policy number and no certificate (spec 2.6).
      for (const field of ["policyNo", "certUrl", "crtfct", "crtfctType"]) expect(answer).not.toHaveProperty(field);
      const record = await status();
      expect(record).toEqual({
        status: "d",
        statusNote: answer.statusNote,
        tmstmp: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        exctnFdbck: { id: 75, id_v4: 200 },
      });
      expect(await typesOf(p.partnerId, reference)).toEqual(["policy.declined"]);
      const [event] = await eventsOf(p.partnerId, reference);
      expect(event!.payload).toMatchObject({ id: reference, status: "d", statusNote: answer.statusNote, mode: "test", productCode: code });
      await noWalletActivity(p.partnerId);
    }, 30_000);
  }

  test("the prefix is case-insensitive and the reference is stored and echoed exactly as sent", async () => {
    const p = await t.partner();
    const reference = ref("sbxDecline");
    const { answer, status } = await insure(p, "phnn-flx1-1111", reference);
    expect(answer).toMatchObject({ id: reference, status: "d" });
    expect((await status()).status).toBe("d");
  });

  test("a magic reference is still a reference: used twice it is refused like any other", async () => {
    const p = await t.partner();
    const reference = ref("SBXDECLINE");
    expect((await insure(p, "vhcl-tprt-1111", reference)).answer.status).toBe("d");
    const again = await insure(p, "vhcl-tprt-1111", reference);
    expect(again.answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 409, elbrtn: expect.stringContaining("seed.id is already in use") });
  });

  test("comprehensive vehicle with proof of ownership is declined for unclear proof", async () => {
    const p = await t.partner();
    const { answer } = await insure(p, "vhcl-cmpr-1111", ref("SBXDECLINE"), "test", { proofOfOwnrsh: PNG_BASE64 });
    expect(answer.statusNote).toMatch(/^Unclear proof of ownership: /);
  });

  test("a one-off addtnlFact.webHook gets the decline event", async () => {
    const p = await t.partner();
    const reference = ref("SBXDECLINE");
    const url = receiver.url("/one-off/decline");
    const { answer } = await insure(p, "gtrn-stnd-1111", reference, "test", { webHook: url });
    expect(answer.status).toBe("d");
    const [event] = await eventsOf(p.partnerId, reference);
    expect(event).toMatchObject({ type: "policy.declined", targetUrl: url, dispatchedAt: null });
  });
});

describe("SBXPENDING: pending until an administrator decides", () => {
  for (const code of ["vhcl-tprt-1111", "mexx-stnd-1111", "crlt-psnl-1111", "ltix-stnd-1111"]) {
    test(`${code}: never decided automatically; appr approves it`, async () => {
      const p = await t.partner();
      const reference = ref("SBXPENDING");
      const { answer, status, review } = await insure(p, code, reference);
      expect(answer).toEqual({ id: reference, status: "p", exctnFdbck: { id: 75, id_v4: 200 } });
      expect(await status()).toMatchObject({ status: "p", exctnFdbck: { id: 75 } });
      // Long after the insurer's delay, the background job still leaves it alone.
      await underwriteAt(86_400_000);
      expect((await status()).status).toBe("p");
      const [row] = await db.select().from(policies).where(eq(policies.reference, reference));
      expect(row).toMatchObject({ mode: "test", underwriteAt: null, decidedBy: null, policyNo: null });
      const approved = await review();
      expect(approved).toMatchObject({ id: reference, status: "a", policyNo: expect.stringMatching(/^TST-/), exctnFdbck: { id: 75 } });
      const record = await status();
      expect(record).toMatchObject({ status: "a", policyNo: approved.policyNo, certUrl: expect.stringContaining("/certificates/") });
      expect(await typesOf(p.partnerId, reference)).toEqual(["policy.pending", "policy.approved"]);
      await noWalletActivity(p.partnerId);
    }, 30_000);
  }

  test("an administrator may decline it with a note", async () => {
    const p = await t.partner();
    const reference = ref("sbxpending");
    const { status, review } = await insure(p, "phnn-flx1-1111", reference);
    expect(await review({ status: "d", statusNote: "Receipt of purchase unreadable" })).toMatchObject({
      status: "d",
      statusNote: "Receipt of purchase unreadable",
    });
    expect(await status()).toMatchObject({ status: "d", statusNote: "Receipt of purchase unreadable" });
    expect(await typesOf(p.partnerId, reference)).toEqual(["policy.pending", "policy.declined"]);
  });
});

describe("SBXSLOW: pending, then decided by the background loop after INSURER_DELAY_MS", () => {
  for (const code of ["vhcl-tprt-1111", "phnn-flx1-1111", "mrnn-stnd-1111", "lrgg-stnd-1111", "hlth-axam-1111"]) {
    test(`${code}: approved once the delay has passed`, async () => {
      const p = await t.partner();
      const reference = ref("SBXSLOW");
      const { answer, status } = await insure(p, code, reference);
      expect(answer).toEqual({ id: reference, status: "p", exctnFdbck: { id: 75, id_v4: 200 } });
      await underwriteAt(DELAY_MS / 2);
      expect((await status()).status).toBe("p");
      await underwriteAt(DELAY_MS + 1_000);
      const record = await status();
      expect(record).toMatchObject({
        status: "a",
        policyNo: expect.stringMatching(/^TST-[A-Z]{4}-\d{4}-[0-9A-Z]{12}$/),
        certUrl: expect.stringContaining("/certificates/"),
      });
      expect(await typesOf(p.partnerId, reference)).toEqual(["policy.pending", "policy.approved"]);
      const [row] = await db.select().from(policies).where(eq(policies.reference, reference));
      expect(row).toMatchObject({ decidedBy: "sandbox", underwriteAt: null });
      await noWalletActivity(p.partnerId);
    }, 30_000);
  }

  test("SBXSLOWDECLINE: pending, then declined with the family's reason", async () => {
    const p = await t.partner();
    const reference = ref("SbxSlowDecline");
    const { answer, status } = await insure(p, "phnn-flx1-1111", reference);
    expect(answer.status).toBe("p");
    await underwriteAt(DELAY_MS + 1_000);
    expect(await status()).toMatchObject({ status: "d", statusNote: expect.stringMatching(DECLINE_NOTES["phnn-flx1-1111"]!) });
    expect(await typesOf(p.partnerId, reference)).toEqual(["policy.pending", "policy.declined"]);
    await noWalletActivity(p.partnerId);
  });

  test("the real background loop approves it after the delay, and a registered endpoint receives both events, signed", async () => {
    const p = await t.partner();
    const registered = await p.run("webhook register", { url: receiver.url("/sandbox/slow"), events: ["policy.pending", "policy.approved"] });
    expect(registered.exctnFdbck.id).toBe(75);
    receiver.trust("/sandbox/slow", registered.secret);
    const reference = ref("SBXSLOW");
    const started = Date.now();
    const { answer, status } = await insure(p, "vhcl-tprt-1111", reference);
    expect(answer.status).toBe("p");
    const worker = startWorker(serviceJobs(db, t.config), 50);
    try {
      let record = await status();
      while (record.status === "p" && Date.now() - started < 15_000) {
        await Bun.sleep(100);
        record = await status();
      }
      expect(record.status).toBe("a");
      expect(Date.now() - started).toBeGreaterThanOrEqual(DELAY_MS);
      await receiver.waitFor("both events delivered", () => receiver.hitsAt("/sandbox/slow").length >= 2, 10_000);
    } finally {
      await worker.stop();
    }
    const hits = receiver.hitsAt("/sandbox/slow");
    expect(hits.map((h) => [h.payload.type, h.payload.data.id, h.payload.data.status])).toEqual([
      ["policy.pending", reference, "p"],
      ["policy.approved", reference, "a"],
    ]);
    expect(hits.every((h) => h.verifiedBy.includes(registered.secret))).toBe(true);
    // Fan-out and delivery of whatever the loop left (nothing for this partner).
    await dispatchOutboxEvents(db, new Date());
    await deliverDueWebhooks(db, deliverySettings(t.config), new Date());
    expect(receiver.hitsAt("/sandbox/slow")).toHaveLength(2);
  }, 30_000);
});

describe("live mode ignores magic references", () => {
  async function livePartner() {
    const p = await t.partner();
    expect((await p.run("wallet topup", { amount: 10_000_000, reference: `fund-${crypto.randomUUID()}` }, "live")).exctnFdbck.id).toBe(75);
    return p;
  }
  const balance = async (p: TestPartner) => (await db.select().from(wallets).where(eq(wallets.partnerId, p.partnerId)))[0]?.balanceKobo ?? 0;

  test("SBXDECLINE on an insurer-route product: pending, billed, then approved by the insurer", async () => {
    const p = await livePartner();
    const before = await balance(p);
    const reference = ref("SBXDECLINE");
    const { answer, status } = await insure(p, "vhcl-tprt-1111", reference, "live");
    expect(answer).toMatchObject({ id: reference, status: "p" });
    expect(await balance(p)).toBeLessThan(before); // billed like any live policy
    await underwriteAt(t.config.INSURER_DELAY_MS + 1_000);
    expect(await status()).toMatchObject({ status: "a", policyNo: expect.stringMatching(/^POL-VHCL-/) });
    const [row] = await db.select().from(policies).where(eq(policies.reference, reference));
    expect(row!.decidedBy).toBe("insurer");
  });

  test("SBXPENDING on marine export is approved at once; SBXSLOW on a manual product waits for review, not the loop", async () => {
    const p = await livePartner();
    expect((await insure(p, "mexx-stnd-1111", ref("SBXPENDING"), "live")).answer).toMatchObject({ status: "a", crtfctType: "docx" });
    const manual = await insure(p, "crlt-sme1-1111", ref("SBXSLOW"), "live");
    expect(manual.answer.status).toBe("p");
    await underwriteAt(t.config.INSURER_DELAY_MS + 60_000);
    expect((await manual.status()).status).toBe("p");
  });

  test("a legacy key follows the account: sandbox in test mode, ordinary after set env_live", async () => {
    const p = await livePartner();
    expect((await insure(p, "phnn-flx1-1111", ref("SBXDECLINE"), "legacy")).answer.status).toBe("d");
    expect((await p.run("set env_live", undefined, "legacy")).exctnFdbck.id).toBe(75);
    expect((await insure(p, "phnn-flx1-1111", ref("SBXDECLINE"), "legacy")).answer.status).toBe("p");
  });
});
