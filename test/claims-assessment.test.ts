/**
 * Issue 37, item 2: assessment. The documents each family needs and the assessor's checklist; asking
 * the partner for information (the clock stops, up to its allowance) and the partner's answer over
 * the JSON command and the portal; the assessor; the reserve with its reasons. Refusals change
 * nothing; concurrent answers and assessments apply once.
 */
import { describe, expect, test } from "bun:test";
import { asc, eq } from "drizzle-orm";
import { listAudit } from "../src/modules/audit/service";
import { addDays } from "../src/modules/calendar";
import { decisionSettings, reviewClaim } from "../src/modules/claims/decisions";
import { claimReserves, claims } from "../src/modules/claims/schema";
import { respondToClaim } from "../src/modules/claims/service";
import { signalSettings } from "../src/modules/signals";
import { watMidnight } from "../src/products/policy-helpers";
import { signedIn } from "./portal/browser";
import { PDF_BASE64, type TestPartner, testApp } from "./support/harness";
import { fullConsumer, insureSeed, productCases, watDate } from "./support/policies";

const t = await testApp();
const db = t.database.db;
const operator = await t.partner({ admin: true });
const signals = await signalSettings(db, t.config);
const admin = { label: "test", partnerId: operator.partnerId };

async function claimOn(p: TestPartner, code = "vhcl-tprt-1111") {
  const c = productCases[code]!;
  const consumer = (await p.run("prfl entity", fullConsumer())).id as string;
  if (c.quote) await p.run(`dump ipck_${c.code}*PRMM`, c.quote);
  const policy = await p.run(`entt_${consumer}: insure`, insureSeed(c));
  const claim = await p.run("claim submit", { policy: policy.id, incidentDate: watDate(0), description: "Damaged", amount: 100_000 });
  expect(claim.exctnFdbck.id).toBe(75);
  return claim;
}

const noonOf = (day: string) => new Date(watMidnight(day).getTime() + 12 * 3_600_000);
const review = (claimNo: string, status: string, extra: Record<string, unknown> = {}) => operator.run("claim review", { claimNo, status, ...extra });
const assess = (seed: Record<string, unknown>) => operator.run("claim assess", seed);
const stored = async (claimNo: string) => (await db.select().from(claims).where(eq(claims.claimNo, claimNo)))[0]!;

describe("documents and the checklist", () => {
  test("each family names the documents its claims need; the partner sees them, the operator the whole checklist", async () => {
    const p = await t.partner();
    const vehicle = await claimOn(p);
    const status = await p.run("claim status", { claimNo: vehicle.claimNo });
    expect(status.documentsNeeded.map((d: any) => d.key)).toEqual(["police_report", "photos", "drivers_licence", "third_party_claim"]);
    expect(status).not.toHaveProperty("checklist");
    expect(status).not.toHaveProperty("reserve");
    const phone = await claimOn(p, "phnn-flx1-1111");
    expect((await p.run("claim status", { claimNo: phone.claimNo })).documentsNeeded.map((d: any) => d.key)).toEqual([
      "photos",
      "repair_estimate",
      "proof_of_purchase",
    ]);
    const reviewed = await review(vehicle.claimNo, "in_review");
    expect(reviewed.checklist.map((i: any) => [i.key, i.kind, i.checked])).toEqual([
      ["police_report", "document", false],
      ["photos", "document", false],
      ["drivers_licence", "document", false],
      ["third_party_claim", "document", false],
      ["cover_confirmed", "check", false],
      ["identity_confirmed", "check", false],
    ]);
    expect(reviewed.reserve).toBe(100_000);
  });
});

describe("asking for information", () => {
  test("the question is required; the clock stops while the partner owes the answer, and the answer over the wire puts the claim back in review, later by the days waited", async () => {
    const p = await t.partner();
    const { claimNo, settlementDue } = await claimOn(p);
    await review(claimNo, "in_review");
    const noQuestion = await review(claimNo, "info_requested");
    expect(noQuestion.exctnFdbck).toMatchObject({ id: 55, id_v4: 400 });
    expect(noQuestion.exctnFdbck.elbrtn).toContain("seed.note is required to ask for information");
    expect((await stored(claimNo)).status).toBe("in_review");

    const asked = await reviewClaim(db, {
      claimNo,
      status: "info_requested",
      note: "Send the police report",
      by: `admin:${operator.partnerId}`,
      actor: admin,
      now: noonOf(watDate(0)),
      settings: decisionSettings(t.config),
    });
    expect(asked).toMatchObject({ status: "info_requested", pausedSince: watDate(0), pausedUntil: addDays(watDate(0), 30) });
    expect((await p.run("claim status", { claimNo })).statusNote).toBe("Send the police report");

    // Answered 12 days later: the deadline moves by 12 days.
    const answered = await respondToClaim(db, {
      partnerId: p.partnerId,
      mode: "test",
      claimNo,
      note: "Attached",
      documents: [{ name: "police.pdf", mime: "application/pdf", bytes: Buffer.from(PDF_BASE64, "base64") }],
      now: noonOf(addDays(watDate(0), 12)),
      signals,
    });
    expect(answered).toMatchObject({ status: "in_review", pausedDays: 12, pausedSince: null, settlementDueOn: addDays(settlementDue, 12) });
    expect(answered.documents.map((d) => [d.position, d.name])).toEqual([[1, "police.pdf"]]);

    // A second wait of 25 days counts only the 18 left of the 30-day allowance.
    await reviewClaim(db, {
      claimNo,
      status: "info_requested",
      note: "And the licence",
      by: "admin:x",
      actor: admin,
      now: noonOf(addDays(watDate(0), 13)),
      settings: decisionSettings(t.config),
    });
    const late = await respondToClaim(db, {
      partnerId: p.partnerId,
      mode: "test",
      claimNo,
      note: "Here",
      documents: [],
      now: noonOf(addDays(watDate(0), 38)),
      signals,
    });
    expect(late).toMatchObject({ pausedDays: 30, settlementDueOn: addDays(settlementDue, 30) });
  });

  test("claim respond over the wire: documents appended, history kept; refused when nothing was asked, for another partner, or twice at once", async () => {
    const p = await t.partner();
    const { claimNo } = await claimOn(p);
    const early = await p.run("claim respond", { claimNo, note: "Unasked" });
    expect(early.exctnFdbck).toMatchObject({ id: 55, id_v4: 409 });
    expect(early.exctnFdbck.elbrtn).toContain("cannot become in_review");
    await review(claimNo, "in_review");
    await review(claimNo, "info_requested", { note: "Send photographs" });
    const other = await t.partner();
    expect((await other.run("claim respond", { claimNo, note: "Not mine" })).exctnFdbck).toMatchObject({ id: 55, id_v4: 404 });
    expect((await p.run("claim respond", { claimNo, note: " " })).exctnFdbck).toMatchObject({ id: 55, id_v4: 406 });

    const seed = { claimNo, note: "Photographs attached", documents: [{ name: "front.pdf", content: PDF_BASE64 }] };
    const answers = await Promise.all(Array.from({ length: 5 }, () => p.run("claim respond", seed)));
    expect(answers.filter((a) => a.exctnFdbck.id === 75)).toHaveLength(1);
    expect(answers.filter((a) => a.exctnFdbck.id_v4 === 409)).toHaveLength(4);
    const status = await p.run("claim status", { claimNo });
    expect(status.status).toBe("in_review");
    expect(status.documents).toEqual([{ name: "front.pdf", type: "pdf", size: Buffer.from(PDF_BASE64, "base64").length }]);
    expect(status.history.map((s: any) => s.status)).toEqual(["submitted", "in_review", "info_requested", "in_review"]);
  });
});

describe("the assessment", () => {
  test("assessor, reserve with its reason, ticks: kept, audited, seen by the partner as documents seen; every refusal names its field and changes nothing", async () => {
    const p = await t.partner();
    const { claimNo } = await claimOn(p);
    const refusals: [Record<string, unknown>, number, string][] = [
      [{ claimNo }, 400, "seed.assessor or reserve, check or uncheck is required"],
      [{ claimNo, assessor: "nobody@example.ng" }, 400, "seed.assessor nobody@example.ng is not an active administrator of the operator"],
      [{ claimNo, reserve: 50_000 }, 400, "seed.reserveReason is required with reserve"],
      [{ claimNo, reserve: 100_000.01, reserveReason: "more" }, 400, "seed.reserve must be at most the amount claimed, 100000 naira"],
      [{ claimNo, check: ["x_ray"] }, 400, "seed.check: x_ray is not on the checklist"],
      [{ claimNo, check: ["photos"], uncheck: ["photos"] }, 400, "both name photos"],
    ];
    for (const [seed, status, text] of refusals) {
      const answer = await assess(seed);
      expect(answer.exctnFdbck, JSON.stringify(seed)).toMatchObject({ id: 55, id_v4: status });
      expect(answer.exctnFdbck.elbrtn).toContain(text);
    }
    expect(await stored(claimNo)).toMatchObject({ assessor: null, reserveKobo: 10_000_000 });
    expect(await p.run("claim assess", { claimNo, check: ["photos"] })).toMatchObject({ exctnFdbck: { id: 55, id_v4: 403 } });

    const assessed = await assess({
      claimNo,
      assessor: operator.portal.email.toUpperCase(),
      reserve: 80_000,
      reserveReason: "The repair quote",
      check: ["photos", "cover_confirmed"],
    });
    expect(assessed).toMatchObject({ assessor: operator.portal.email.toLowerCase(), reserve: 80_000 });
    expect(assessed.checklist.filter((i: any) => i.checked).map((i: any) => i.key)).toEqual(["photos", "cover_confirmed"]);
    expect((await p.run("claim status", { claimNo })).documentsNeeded.find((d: any) => d.key === "photos").checked).toBe(true);
    const reserves = await db
      .select()
      .from(claimReserves)
      .where(eq(claimReserves.claimId, (await stored(claimNo)).id))
      .orderBy(asc(claimReserves.createdAt));
    expect(reserves.map((r) => [r.amountKobo, r.reason])).toEqual([
      [10_000_000, "The amount claimed"],
      [8_000_000, "The repair quote"],
    ]);
    const [row] = (await listAudit(db, { partnerId: p.partnerId, action: "claim.assess" }, { limit: 1 })).items;
    expect(row!.details).toMatchObject({ reserveKobo: 8_000_000, reason: "The repair quote", checked: "photos, cover_confirmed" });

    // Ticked twice at once: one row; unticked: gone.
    await Promise.all([assess({ claimNo, check: ["police_report"] }), assess({ claimNo, check: ["police_report"] })]);
    const untick = await assess({ claimNo, uncheck: ["photos"] });
    expect(untick.checklist.filter((i: any) => i.checked).map((i: any) => i.key)).toEqual(["police_report", "cover_confirmed"]);

    // Approval fixes the reserve at what is payable and closes the assessment.
    await review(claimNo, "in_review");
    expect((await review(claimNo, "approved", { approvedAmount: 70_000 })).reserve).toBe(70_000);
    expect((await assess({ claimNo, check: ["photos"] })).exctnFdbck).toMatchObject({ id: 55, id_v4: 409 });
  });
});

describe("the portal", () => {
  test("the partner answers from the claim page; the operator assesses from theirs, refused beside the field", async () => {
    const p = await t.partner();
    const { claimNo } = await claimOn(p);
    await review(claimNo, "in_review");
    await review(claimNo, "info_requested", { note: "Send the driver's licence" });

    const partner = await signedIn(t, p.portal);
    const page = await partner.get(`/portal/claims/${claimNo}`);
    expect(page.text).toContain("The insurer asks: Send the driver&#x27;s licence");
    expect(page.text).toContain("What the insurer needs");
    const blank = await partner.post(`/portal/claims/${claimNo}/respond`, { answer: "" });
    expect(blank.status).toBe(400);
    expect(blank.text).toMatch(/id="f-answer-error"/);
    const sent = await partner.post(`/portal/claims/${claimNo}/respond`, { answer: "The licence is attached" });
    expect(sent.status).toBe(200);
    expect(sent.text).toContain(`The information is sent: claim ${claimNo} is back in review.`);

    const desk = await signedIn(t, operator.portal);
    const claimPage = await desk.get(`/admin/claims/${claimNo}`);
    expect(claimPage.text).toContain("Assessment");
    expect(claimPage.text).toContain("The driver&#x27;s licence");
    const refused = await desk.post(`/admin/claims/${claimNo}/assess`, { reserve: "60,000" });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/id="f-reserveReason-error"[^>]*>[^<]*is required with reserve/);
    const saved = await desk.postForm(`/admin/claims/${claimNo}/assess`, [
      ["assessor", operator.portal.email.toLowerCase()],
      ["reserve", "60,000"],
      ["reserveReason", "Licence checked, repair quoted"],
      ["check", "drivers_licence"],
      ["check", "identity_confirmed"],
    ]);
    expect(saved.status).toBe(200);
    expect(saved.text).toContain("The assessment is saved.");
    expect(await stored(claimNo)).toMatchObject({ reserveKobo: 6_000_000, assessor: operator.portal.email.toLowerCase() });
    const again = (await p.run("claim status", { claimNo })).documentsNeeded.find((d: any) => d.key === "drivers_licence");
    expect(again.checked).toBe(true);
  });
});
