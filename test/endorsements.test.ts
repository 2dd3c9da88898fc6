/**
 * Endorsements (issue 16, docs/lifecycle.md): mid-term changes through `ndrs`, `dump …*ENDORSE` and
 * the domain, per family — checked as at issuance, priced for the cover still to run, applied as a
 * new certificate version or reviewed by the operator — with the ledger, events, audit and races.
 */
import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { auditLog } from "../src/modules/audit/schema";
import { certificateFor } from "../src/modules/certificates/service";
import { decideEndorsement } from "../src/modules/lifecycle/endorsements";
import { policies, policyEndorsements } from "../src/modules/policies/schema";
import { walletEntries } from "../src/modules/wallet/schema";
import { pdfText } from "./certificates/parse";
import { newImei, watDate } from "./support/fixtures";
import { testApp } from "./support/harness";
import { lifecycleHelpers } from "./support/lifecycle";

const t = await testApp();
const db = t.database.db;
const operator = await t.partner({ admin: true });
const { approved, age, financed, livePartner, ledgerAgrees, eventsOf, refused } = lifecycleHelpers(t, operator);
const DAY = 86_400_000;
const admin = { actor: { label: "operator", partnerId: operator.partnerId }, by: "admin:operator@example.com" };

const endorse = (
  p: { run: (c: string, s?: unknown, l?: any) => Promise<any> },
  address: string,
  addtnlFact: Record<string, unknown>,
  label = "test",
  id = crypto.randomUUID(),
) => p.run(`ndrs ${address}`, { id, addtnlFact }, label);

const reload = async (id: string) => (await db.select().from(policies).where(eq(policies.id, id)))[0]!;

describe("ndrs: a change applied at once", () => {
  test("a new plate: version 2, the premium unchanged, STATUS shows the version and the history, the certificate the new plate", async () => {
    const p = await t.partner();
    const policy = await approved(p);
    const id = crypto.randomUUID();
    const answer = await endorse(p, policy.address, { rgstrtId: "LND456XY" }, "test", id);
    expect(answer).toMatchObject({
      exctnFdbck: { id: 75, id_v4: 200 },
      id: policy.reference,
      status: "a",
      version: 2,
      endorsement: { id, status: "applied", version: 2, changes: [{ field: "rgstrtId", from: policy.row.facts.rgstrtId, to: "LND456XY" }], premiumChange: 0 },
    });
    const status = await policy.status();
    expect(status).toMatchObject({ status: "a", version: 2, endorsements: [{ id, status: "applied", version: 2 }] });
    const row = await reload(policy.row.id);
    expect(row).toMatchObject({ version: 2, premiumKobo: policy.row.premiumKobo });
    expect(row.facts.rgstrtId).toBe("LND456XY");
    expect(row.printed).toContainEqual(["Registration", "LND456XY"]);
    const { text } = await pdfText((await certificateFor(db, t.config, row)).content);
    expect(text).toContain("LND456XY");
    expect(text).toContain("Version 2");
    const [event] = await eventsOf(p.partnerId, "policy.endorsed");
    expect(event!.payload).toMatchObject({ id: policy.reference, version: 2, endorsement: { id, status: "applied" } });
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "policy.endorse"), eq(auditLog.subject, policy.reference)));
    expect(audit?.details).toMatchObject({ status: "applied", fields: ["rgstrtId"] });
  });

  test("a policy never changed answers STATUS as the spec shows it: no version, no history", async () => {
    const p = await t.partner();
    const policy = await approved(p);
    const status = await policy.status();
    expect(status.version).toBeUndefined();
    expect(status.endorsements).toBeUndefined();
  });

  test("a repeat with the same reference answers the first change; another change under it is a 409", async () => {
    const p = await t.partner();
    const policy = await approved(p);
    const id = crypto.randomUUID();
    const first = await endorse(p, policy.address, { rgstrtId: "LND456XY" }, "test", id);
    const again = await endorse(p, policy.address, { rgstrtId: "LND456XY" }, "test", id);
    expect(again).toEqual(first);
    refused(await endorse(p, policy.address, { rgstrtId: "KJA777AA" }, "test", id), 409, `seed.id ${id} was already used`);
    expect((await reload(policy.row.id)).version).toBe(2);
  });

  test("concurrent repeats of one reference store one change", async () => {
    const p = await t.partner();
    const policy = await approved(p);
    const id = crypto.randomUUID();
    const answers = await Promise.all([1, 2, 3].map(() => endorse(p, policy.address, { rgstrtId: "LND456XY" }, "test", id)));
    for (const answer of answers) expect(answer).toMatchObject({ exctnFdbck: { id: 75 }, version: 2, endorsement: { id } });
    expect(await db.select().from(policyEndorsements).where(eq(policyEndorsements.policyId, policy.row.id))).toHaveLength(1);
  });

  test("a second change makes version 3; the history lists both, oldest first", async () => {
    const p = await t.partner();
    const policy = await approved(p, "phnn-flx1-1111");
    const first = await endorse(p, policy.address, { uIdnt: newImei() });
    const second = await endorse(p, policy.address, { brand: "Apple", model: "iPhone 15", uIdnt: newImei() });
    expect([first.version, second.version]).toEqual([2, 3]);
    const status = await policy.status();
    expect(status.endorsements.map((e: any) => e.version)).toEqual([2, 3]);
    expect((await reload(policy.row.id)).deviceId).toBe(`imei:${second.endorsement.changes.find((c: any) => c.field === "uIdnt").to}`);
  });
});

describe("every family", () => {
  const CHANGES: [code: string, addtnlFact: () => Record<string, unknown>][] = [
    ["vhcl-tprt-1111", () => ({ rgstrtId: "LND456XY" })],
    ["vhcl-cmpr-1111", () => ({ vhclValueForInsrnc: 6_000_000 })],
    ["phnn-flx1-1111", () => ({ uIdnt: newImei() })],
    ["lapt-flx2-1111", () => ({ uIdnt: `5CD${Math.floor(Math.random() * 1e7)}` })],
    ["ltix-stnd-1111", () => ({ passportNo: "B98765432", nokPhone: "+2348030000002" })],
    ["crlt-psnl-1111", () => ({ loanAmount: 60_000_000 })],
    ["hlth-axam-1111", () => ({ hospital: "Lagoon Hospital" })],
    ["allr-stnd-1111", () => ({ sumInsured: 2_000_000 })],
    ["firb-stnd-1111", () => ({ premisesAddress: "1 Marina, Lagos Island, Lagos" })],
  ];
  test.each(CHANGES)("%s: a change in test mode is applied at once as version 2, the new facts printed", async (code, addtnlFact) => {
    const p = await t.partner();
    const policy = await approved(p, code);
    const changes = addtnlFact();
    const answer = await endorse(p, policy.address, changes);
    expect(answer).toMatchObject({ exctnFdbck: { id: 75 }, status: "a", version: 2, endorsement: { status: "applied", version: 2 } });
    const row = await reload(policy.row.id);
    for (const [field, value] of Object.entries(changes)) expect(row.facts[field]).toEqual(value);
    expect(row.version).toBe(2);
  });

  test.each(["mrnn-stnd-1111", "mexx-stnd-1111", "gtrn-stnd-1111", "lrgg-stnd-1111"])("%s takes no mid-term changes", async (code) => {
    const p = await t.partner();
    const policy = await approved(p, code);
    refused(await endorse(p, policy.address, { proformaInvoice: "PI-2026-0100" }), 409, "takes no mid-term changes");
  });
});

describe("ndrs: what is refused changes nothing", () => {
  test("a field the product does not let change, a value already held, a value the product refuses, a blank value", async () => {
    const p = await t.partner();
    const policy = await approved(p);
    refused(await endorse(p, policy.address, { brand: "Honda" }), 400, "seed.addtnlFact.brand cannot be changed on", "rgstrtId");
    refused(await endorse(p, policy.address, { rgstrtId: policy.row.facts.rgstrtId }), 400, "seed.addtnlFact.rgstrtId is already");
    refused(await endorse(p, policy.address, { rgstrtId: "!!" }), 400, "seed.addtnlFact.rgstrtId");
    refused(await endorse(p, policy.address, { rgstrtId: "" }), 406, "seed.addtnlFact.rgstrtId is blank");
    refused(await endorse(p, policy.address, {}), 400, "seed.addtnlFact must name the changes");
    expect(await reload(policy.row.id)).toEqual(policy.row);
    expect(await db.select().from(policyEndorsements).where(eq(policyEndorsements.policyId, policy.row.id))).toEqual([]);
  });

  test("a product without mid-term changes (marine), a cancelled policy, another partner's policy, a policy of the other mode", async () => {
    const p = await t.partner();
    const marine = await approved(p, "mrnn-stnd-1111");
    refused(await endorse(p, marine.address, { goodsValue: 6_000_000 }), 409, "takes no mid-term changes");
    const cancelled = await approved(p);
    await cancelled.cancel();
    refused(await endorse(p, cancelled.address, { rgstrtId: "LND456XY" }), 409, "was cancelled: only an approved policy is changed");
    const other = await t.partner();
    refused(await endorse(other, cancelled.address, { rgstrtId: "LND456XY" }), 404);
    const live = await approved(await livePartner(), "vhcl-tprt-1111", "live");
    refused(await endorse(p, live.address, { rgstrtId: "LND456XY" }), 404);
  });

  test("a replacement device another live policy already covers: the insurer declines the change", async () => {
    const p = await livePartner();
    const insured = await approved(p, "phnn-flx1-1111", "live");
    const policy = await approved(p, "phnn-flx1-1111", "live");
    refused(await endorse(p, policy.address, { uIdnt: insured.row.facts.uIdnt }, "live"), 409, "the insurer declines this change");
    expect((await reload(policy.row.id)).version).toBe(1);
  });

  test("dump …*ENDORSE says what a change would do and changes nothing", async () => {
    const p = await t.partner();
    const policy = await approved(p);
    const answer = await p.run(`dump ${policy.address}*ENDORSE`, { addtnlFact: { rgstrtId: "LND456XY" } });
    expect(answer).toMatchObject({ status: "a", changes: [{ field: "rgstrtId", to: "LND456XY" }], premiumChange: 0, reviewed: false });
    expect(await reload(policy.row.id)).toEqual(policy.row);
  });
});

describe("travel: before departure only", () => {
  test("new dates move the cover, a renewed passport is printed; once departed, no change", async () => {
    const p = await t.partner();
    const policy = await approved(p, "ltix-stnd-1111");
    const moved = await endorse(p, policy.address, { departureDate: watDate(12), returnDate: watDate(17) });
    expect(moved.endorsement.changes).toEqual([
      { field: "departureDate", from: watDate(10), to: watDate(12) },
      { field: "returnDate", from: watDate(15), to: watDate(17) },
    ]);
    const row = await reload(policy.row.id);
    expect(row.coverStart.getTime() - policy.row.coverStart.getTime()).toBe(2 * DAY);
    await endorse(p, policy.address, { passportNo: "B98765432" });
    expect((await reload(policy.row.id)).printed.some(([, value]) => value.includes("B98765432"))).toBe(true);
    refused(await endorse(p, policy.address, { returnDate: watDate(40) }), 400, "seed.");
    await age(await reload(policy.row.id), 13);
    refused(await endorse(p, policy.address, { passportNo: "C11111111" }), 409, "it can be changed only before then");
  });
});

describe("live changes: the premium difference for the cover still to run, and review where the family wants it", () => {
  test("all risk: a higher sum insured is charged pro rata, a lower one given back, the ledger agrees", async () => {
    const p = await livePartner();
    const policy = await approved(p, "allr-stnd-1111", "live");
    const aged = await age(policy.row, 73);
    const higher = await endorse(p, policy.address, { sumInsured: 2_000_000 }, "live");
    expect(higher.endorsement.status).toBe("applied");
    const quote = async (sumInsured: number) => (await p.run("dump ipck_allr-stnd-1111*PRMM", { sumInsured, insrncDrtn: "1y" }, "live")).prmm as number;
    const difference = (await quote(2_000_000)) - (await quote(1_000_000));
    // About 292 of 365 days still to run, by the instant (the test's clock is a moment behind the server's).
    const share = (aged.coverEnd.getTime() - Date.now()) / (aged.coverEnd.getTime() - aged.coverStart.getTime());
    expect(Math.abs(higher.endorsement.premiumChange - difference * share)).toBeLessThan(0.05);
    expect(higher.endorsement.explanation).toContain("of its 365 days of cover are still to run");
    const [charge] = await db.select().from(walletEntries).where(eq(walletEntries.policyId, policy.row.id)).orderBy(walletEntries.createdAt).offset(1);
    expect(charge!.amountKobo).toBe(-Math.round(higher.endorsement.premiumChange * 100));
    const lower = await endorse(p, policy.address, { sumInsured: 1_000_000 }, "live");
    expect(lower.endorsement.premiumChange).toBe(-higher.endorsement.premiumChange);
    expect((await reload(policy.row.id)).premiumKobo).toBe(policy.row.premiumKobo);
    await ledgerAgrees(p.partnerId);
  });

  test("comprehensive vehicle: a new insured value waits for the operator, charged now; approved it is applied, declined its charge comes back", async () => {
    const p = await livePartner();
    const policy = await approved(p, "vhcl-cmpr-1111", "live");
    const before = await ledgerAgrees(p.partnerId);
    const pending = await endorse(p, policy.address, { vhclValueForInsrnc: 6_000_000 }, "live");
    expect(pending).toMatchObject({ version: 1, endorsement: { status: "pending" } });
    expect(pending.endorsement.premiumChange).toBeGreaterThan(0);
    expect(await ledgerAgrees(p.partnerId)).toBe(before - Math.round(pending.endorsement.premiumChange * 100));
    refused(await endorse(p, policy.address, { rgstrtId: "LND456XY" }, "live"), 409, "has a change waiting for an administrator");
    refused(await policy.cancel(), 409, "waiting for an administrator");
    const approvedChange = await decideEndorsement(db, admin, policy.row.id, { approve: true }, new Date());
    expect(approvedChange.endorsement).toMatchObject({ status: "applied", version: 2, decidedBy: admin.by });
    expect((await reload(policy.row.id)).facts.vhclValueForInsrnc).toBe(6_000_000);
    expect((await reload(policy.row.id)).facts.proofOfOwnrsh).toEqual(policy.row.facts.proofOfOwnrsh);

    const second = await endorse(p, policy.address, { vhclValueForInsrnc: 9_000_000 }, "live");
    const charged = await ledgerAgrees(p.partnerId);
    const declined = await decideEndorsement(db, admin, policy.row.id, { approve: false, note: "Valuation report needed" }, new Date());
    expect(declined.endorsement).toMatchObject({ status: "declined", statusNote: "Valuation report needed" });
    expect(await ledgerAgrees(p.partnerId)).toBe(charged + Math.round(second.endorsement.premiumChange * 100));
    const [event] = await eventsOf(p.partnerId, "policy.endorsement_declined");
    expect(event!.payload).toMatchObject({ endorsement: { status: "declined", statusNote: "Valuation report needed" } });
    expect((await policy.status()).endorsements.map((e: any) => e.status)).toEqual(["applied", "declined"]);
  });

  test("credit life: a loan top-up is reviewed as its issuance was", async () => {
    const p = await livePartner();
    const policy = await approved(p, "crlt-psnl-1111", "live");
    const pending = await endorse(p, policy.address, { loanAmount: 60_000_000 }, "live");
    expect(pending.endorsement).toMatchObject({ status: "pending", changes: [{ field: "loanAmount", from: 50_000_000, to: 60_000_000 }] });
    refused(await endorse(p, policy.address, { loanAmount: 2_000_000_000 }, "live"), 409, "waiting for an administrator");
    await decideEndorsement(db, admin, policy.row.id, { approve: true }, new Date());
    expect((await reload(policy.row.id)).printed[0]![1]).toContain("600,000");
  });

  test("two different changes at once on a reviewed policy: one waits, the other is a clear 409", async () => {
    const p = await livePartner();
    const policy = await approved(p, "vhcl-cmpr-1111", "live");
    const answers = await Promise.all([6_000_000, 7_000_000].map((value) => endorse(p, policy.address, { vhclValueForInsrnc: value }, "live")));
    expect(answers.map((a) => a.exctnFdbck.id_v4).sort()).toEqual([200, 409]);
    await ledgerAgrees(p.partnerId);
  });

  test("a financed policy's premium does not change while its plan runs; a change that keeps the premium is applied", async () => {
    const p = await livePartner();
    const policy = await approved(p, "allr-stnd-1111", "live");
    const plan = await financed(p, policy.reference, 1000);
    refused(await endorse(p, policy.address, { sumInsured: 2_000_000 }, "live"), 409, `financing plan ${plan.planNo}`);
    expect((await endorse(p, policy.address, { description: "Laptop and camera" }, "live")).endorsement.status).toBe("applied");
  });

  test("a test key cannot change a live policy, nor a live key a test one", async () => {
    const p = await livePartner();
    const live = await approved(p, "vhcl-tprt-1111", "live");
    refused(await endorse(p, live.address, { rgstrtId: "LND456XY" }, "test"), 403, "issued in live mode");
  });
});
