/**
 * A test key runs in the sandbox whatever the account's mode (spec 5.5): for every product, with
 * the account in test and in live mode, a test key's policy is a test policy — approved at once,
 * a TST- number, never billed — and no field anywhere in the request turns it live.
 */
import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { policies } from "../../src/modules/policies/schema";
import { walletBalance } from "../../src/modules/wallet/service";
import { allProductCodes } from "../../src/products";
import { listHospitals } from "../../src/products/health";
import { type TestPartner, testApp } from "../support/harness";
import { fullConsumer, insureSeed, type ProductCase, productCases, watDate } from "../support/policies";

const t = await testApp();
const db = t.database.db;

async function funded(): Promise<TestPartner> {
  const p = await t.partner();
  expect((await p.run("wallet topup", { amount: 500_000_000, reference: `fund-${crypto.randomUUID()}` }, "live")).exctnFdbck.id).toBe(75);
  return p;
}

const stored = async (p: TestPartner, reference: string) =>
  (
    await db
      .select()
      .from(policies)
      .where(and(eq(policies.partnerId, p.partnerId), eq(policies.reference, reference)))
  )[0]!;

/** The shared suite's case for a product, or its family sibling's (a health plan names one of its own insurer's hospitals). */
function caseFor(code: string): ProductCase {
  const known = productCases[code];
  if (known) return known;
  const [ctgry, type] = code.split("-");
  const sibling = Object.values(productCases).find((c) => c.code.startsWith(`${ctgry}-`));
  if (!sibling) throw new Error(`no case for ${code} nor for any product of its family: add one to test/support/policies.ts`);
  if (ctgry === "hlth") {
    const hospital = (listHospitals(type) as { name: string }[])[0]!.name;
    return { ...sibling, code, addtnlFact: () => ({ hospital }) };
  }
  return { ...sibling, code };
}

/** Issue `code` with the test key and prove it is a sandbox policy: answer, stored row, wallet. */
async function insureWithTestKey(p: TestPartner, code: string, seedOverrides: Record<string, unknown> = {}, envelopeExtras: (e: any) => any = (e) => e) {
  const c = caseFor(code);
  const consumer = (await p.run("prfl entity", fullConsumer(), "test")).id;
  if (c.quote) expect((await p.run(`dump ipck_${code}*PRMM`, c.quote, "test")).exctnFdbck.id).toBe(75);
  const balance = await walletBalance(db, p.partnerId);
  const answer = await t.post(envelopeExtras(p.envelope(`entt_${consumer}: insure`, insureSeed(c, seedOverrides), "test")));
  if (answer.exctnFdbck.id !== 75) return answer;
  expect({ code, status: answer.status, policyNo: answer.policyNo }).toEqual({ code, status: "a", policyNo: expect.stringMatching(/^TST-/) });
  const row = await stored(p, answer.id);
  expect({ code, mode: row.mode, status: row.status }).toEqual({ code, mode: "test", status: "a" });
  expect(await walletBalance(db, p.partnerId)).toBe(balance);
  // It reads as test through every key, and lists as test.
  const listed = (await p.run("dump entt_*", { limit: 5 }, "live")).list.find((l: any) => l.id === answer.id);
  expect(listed.mode).toBe("test");
  return answer;
}

describe("test keys never create live policies", () => {
  test("every product has a case here", () => {
    for (const code of allProductCodes()) expect(caseFor(code).code).toBe(code);
  });

  for (const accountMode of ["test", "live"] as const) {
    test(`every product, account in ${accountMode} mode`, async () => {
      const p = await funded();
      expect((await p.run(`set env_${accountMode}`, undefined, "legacy")).mode).toBe(accountMode);
      for (const code of allProductCodes()) {
        const answer = await insureWithTestKey(p, code);
        expect({ code, feedback: answer.exctnFdbck }).toEqual({ code, feedback: { id: 75, id_v4: 200 } });
      }
      // The control: in live mode the legacy key does issue live (so the account really was live).
      if (accountMode === "live") {
        const c = productCases["vhcl-tprt-1111"]!;
        const consumer = (await p.run("prfl entity", fullConsumer(), "legacy")).id;
        await p.run(`dump ipck_${c.code}*PRMM`, c.quote, "legacy");
        const live = await p.run(`entt_${consumer}: insure`, insureSeed(c), "legacy");
        expect((await stored(p, live.id)).mode).toBe("live");
      }
    }, 120_000);
  }

  test("a test key switching the account live still issues test policies itself", async () => {
    const p = await funded();
    expect(await p.run("set env_live", undefined, "test")).toMatchObject({ mode: "live", keyMode: "test" });
    expect((await insureWithTestKey(p, "phnn-flx1-1111")).exctnFdbck.id).toBe(75);
  });

  test("no field of the request turns a test key's policy live", async () => {
    const p = await funded();
    await p.run("set env_live", undefined, "legacy");
    const code = "vhcl-tprt-1111";
    const c = productCases[code]!;
    // In the seed: unknown fields are refused (the seed is strict) — nothing stored.
    for (const extra of [{ mode: "live" }, { env: "live" }, { keyMode: "live" }]) {
      const answer = await insureWithTestKey(p, code, extra);
      expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 400 });
    }
    // In addtnlFact: refused or ignored, never live.
    const smuggled = await insureWithTestKey(p, code, { addtnlFact: { ...c.addtnlFact(), mode: "live" } });
    expect([75, 55]).toContain(smuggled.exctnFdbck.id);
    // In the envelope: the key decides, not the envelope.
    for (const extras of [
      (e: any) => ({ ...e, mode: "live" }),
      (e: any) => ({ ...e, userInfo: { ...e.userInfo, mode: "live", env: "live" } }),
      (e: any) => ({ ...e, cmmnd: { ...e.cmmnd, mode: "live" } }),
    ]) {
      const answer = await insureWithTestKey(p, code, {}, extras);
      if (answer.exctnFdbck.id !== 75) expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 400 });
    }
    // Nothing live was ever stored for this partner by the test key (the one live policy is none: the legacy key made none here).
    const live = await db
      .select()
      .from(policies)
      .where(and(eq(policies.partnerId, p.partnerId), eq(policies.mode, "live")));
    expect(live).toEqual([]);
  });

  test("a test key cannot act on live policies' claims either (the claim follows its policy's mode)", async () => {
    const p = await funded();
    const c = productCases["vhcl-tprt-1111"]!;
    const consumer = (await p.run("prfl entity", fullConsumer(), "live")).id;
    await p.run(`dump ipck_${c.code}*PRMM`, c.quote, "live");
    const live = await p.run(`entt_${consumer}: insure`, insureSeed(c), "live");
    expect(live.exctnFdbck.id).toBe(75);
    const claim = await p.run("claim submit", { policy: live.id, incidentDate: watDate(0), description: "test key on a live policy", amount: 1000 }, "test");
    expect(claim.exctnFdbck).toMatchObject({ id: 55, id_v4: expect.any(Number) });
  });
});
