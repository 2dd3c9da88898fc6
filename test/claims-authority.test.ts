/**
 * Issue 37, item 3: authority. A decision above the deciding administrator's authority (an API key
 * decides as an assessor) is their recommendation, which a second administrator with the authority
 * confirms or sends back, never its author; a claim the fraud signals flag always needs a second
 * reviewer. Rejections carry a reason from the documented list and a letter. The head of claims sets
 * the administrators' authority. Both engines (TEST_ENGINE).
 */
import { describe, expect, test } from "bun:test";
import { escapeHtml } from "@kitajs/html";
import { and, eq } from "drizzle-orm";
import { auditLog } from "../src/modules/audit/schema";
import { claimDecisions, claims } from "../src/modules/claims/schema";
import { outboxEvents } from "../src/modules/events/schema";
import { pdfText } from "./certificates/parse";
import { type Browser, signedIn } from "./portal/browser";
import { type TestPartner, testApp } from "./support/harness";
import { fullConsumer, insureSeed, productCases, watDate } from "./support/policies";

const t = await testApp();
const db = t.database.db;
const head = await t.partner({ admin: true });
const manager = await t.partner({ admin: true, claimAuthority: "manager" });
const assessor = await t.partner({ admin: true, claimAuthority: "assessor" });

/** A claim of a new partner on third-party vehicle cover (no sum insured: up to ₦100,000,000), taken into review by the head. */
async function claimInReview(amount: number, p?: TestPartner) {
  const partner = p ?? (await t.partner());
  const c = productCases["vhcl-tprt-1111"]!;
  const consumer = (await partner.run("prfl entity", fullConsumer())).id as string;
  const policy = await partner.run(`entt_${consumer}: insure`, insureSeed(c));
  const claim = await partner.run("claim submit", { policy: policy.id, incidentDate: watDate(0), description: "Rear-ended at Ikeja", amount });
  expect(claim.exctnFdbck.id).toBe(75);
  expect((await head.run("claim review", { claimNo: claim.claimNo, status: "in_review" })).status).toBe("in_review");
  return { partner, claimNo: claim.claimNo as string };
}

const escaped = (text: string) => escapeHtml(text);

const events = async (partnerId: string) =>
  (await db.select().from(outboxEvents).where(eq(outboxEvents.partnerId, partnerId))).filter((e) => e.type.startsWith("claim."));

const decide = (b: Browser, claimNo: string, fields: Record<string, string>) =>
  b.postConfirmed(`/admin/claims/${claimNo}/review`, fields, { "hx-request": "true" });
const recommendation = (b: Browser, claimNo: string, fields: Record<string, string>) =>
  b.postConfirmed(`/admin/claims/${claimNo}/recommendation`, fields, { "hx-request": "true" });

describe("an API key decides as an assessor", () => {
  test("within ₦1,000,000 a decision applies at once; above it, it waits as a recommendation, the claim in review, the partner told nothing", async () => {
    const small = await claimInReview(900_000);
    expect(await head.run("claim review", { claimNo: small.claimNo, status: "approved" })).toMatchObject({ status: "approved", payable: 900_000 });

    const { partner, claimNo } = await claimInReview(2_500_000);
    const before = (await events(partner.partnerId)).length;
    const waiting = await head.run("claim review", { claimNo, status: "approved", approvedAmount: 2_000_000, note: "Repair quoted" });
    expect(waiting).toMatchObject({
      status: "in_review",
      recommendation: { decision: "approved", approvedAmount: 2_000_000, amount: 2_000_000, note: "Repair quoted", grounds: ["authority"] },
      exctnFdbck: { id: 75 },
    });
    expect(waiting).not.toHaveProperty("approvedAmount");
    expect(await partner.run("claim status", { claimNo })).toMatchObject({ status: "in_review" });
    expect(await partner.run("claim status", { claimNo })).not.toHaveProperty("recommendation");
    expect((await events(partner.partnerId)).length).toBe(before);
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "claim.recommend"), eq(auditLog.subject, claimNo)));
    expect(audit!.details).toMatchObject({ decision: "approve", amountKobo: 200_000_000, grounds: "above the recommender's authority" });

    // While it waits, no other decision is taken; a rejection above the authority waits the same way.
    const again = await head.run("claim review", { claimNo, status: "rejected", rejectionReason: "not_covered" });
    expect(again.exctnFdbck).toMatchObject({ id: 55, id_v4: 409 });
    expect(again.exctnFdbck.elbrtn).toContain("has a recommendation of approving ₦2,000,000.00 payable waiting for a second administrator");
    const other = await claimInReview(3_000_000);
    expect(await head.run("claim review", { claimNo: other.claimNo, status: "rejected", rejectionReason: "late_notification" })).toMatchObject({
      status: "in_review",
      recommendation: { decision: "rejected", amount: 3_000_000, rejectionReason: "late_notification", grounds: ["authority"] },
    });
  });
});

describe("a second administrator confirms", () => {
  test("the assessor recommends in the portal; not they but the manager confirms, asked first with the amounts; the approval then applies", async () => {
    const { partner, claimNo } = await claimInReview(2_500_000);
    const byAssessor = await signedIn(t, assessor.portal);
    const { step, answer } = await decide(byAssessor, claimNo, { status: "approved", approvedAmount: "2,000,000" });
    expect(step!.text).toContain(`Recommend approving claim ${claimNo} for ₦2,000,000.00 payable?`);
    expect(step!.text).toContain("Your authority as an assessor reaches ₦1,000,000.00");
    expect(answer.text).toContain("Waiting for a second administrator");
    expect(answer.text).toContain("Approve for ₦2,000,000.00, ₦2,000,000.00 payable");
    expect(answer.text).toContain(`Recommended by ${assessor.portal.email}`);
    expect(answer.text).toContain("A second administrator must decide: you recommended this decision.");
    expect(answer.text).not.toContain('value="confirm"');
    // Its author cannot confirm it by sending the form anyway.
    const own = await byAssessor.post(`/admin/claims/${claimNo}/recommendation`, { choice: "confirm" }, { "hx-request": "true" });
    expect(own.status).toBe(403);

    const byManager = await signedIn(t, manager.portal);
    const page = await byManager.get(`/admin/claims/${claimNo}`);
    expect(page.text).toContain("Confirm: approve ₦2,000,000.00 payable");
    const confirmed = await recommendation(byManager, claimNo, { choice: "confirm" });
    expect(confirmed.step!.text).toContain(`Approve claim ${claimNo} for ₦2,000,000.00 payable?`);
    expect(confirmed.step!.text).toContain("You are the second administrator");
    expect(confirmed.answer.status).toBe(200);
    expect(confirmed.answer.text).toContain(`Claim ${claimNo} is now approved: approved ₦2,000,000.00, payable ₦2,000,000.00.`);
    expect(await partner.run("claim status", { claimNo })).toMatchObject({ status: "approved", approvedAmount: 2_000_000, payable: 2_000_000 });
    const [decision] = await db
      .select()
      .from(claimDecisions)
      .where(eq(claimDecisions.claimId, (await claimIdOf(claimNo))!));
    expect(decision).toMatchObject({ status: "confirmed", recommendedBy: `admin:${assessor.portal.email}`, decidedBy: `admin:${manager.portal.email}` });
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "claim.review"), eq(auditLog.subject, claimNo), eq(auditLog.actor, manager.portal.email)));
    expect(audit!.details).toMatchObject({ status: "approved", recommendedBy: `admin:${assessor.portal.email}` });
  });

  test("an administrator whose authority does not reach the amount cannot confirm it; the head of claims can", async () => {
    const { claimNo } = await claimInReview(12_000_000);
    expect(await head.run("claim review", { claimNo, status: "approved" })).toMatchObject({ recommendation: { amount: 12_000_000 } });
    const byManager = await signedIn(t, manager.portal);
    const page = await byManager.get(`/admin/claims/${claimNo}`);
    expect(page.text).toContain(
      escaped("A claims manager's authority reaches ₦10,000,000.00: confirming this recommendation (approving ₦12,000,000.00 payable) needs a higher one."),
    );
    expect(page.text).not.toContain('value="confirm"');
    expect((await byManager.post(`/admin/claims/${claimNo}/recommendation`, { choice: "confirm" }, { "hx-request": "true" })).status).toBe(403);
    const byHead = await signedIn(t, head.portal);
    expect((await recommendation(byHead, claimNo, { choice: "confirm" })).answer.text).toContain("is now approved");
  });

  test("sent back with a reason: the claim stays in review and is decided again; without a reason it is refused beside the field", async () => {
    const { claimNo } = await claimInReview(2_000_000);
    await head.run("claim review", { claimNo, status: "rejected", rejectionReason: "insufficient_evidence", note: "No police report" });
    const byManager = await signedIn(t, manager.portal);
    const noReason = await byManager.post(`/admin/claims/${claimNo}/recommendation`, { choice: "return", note: "" }, { "hx-request": "true" });
    expect(noReason.status).toBe(400);
    expect(noReason.text).toContain('id="f-note-error"');
    const back = await byManager.post(
      `/admin/claims/${claimNo}/recommendation`,
      { choice: "return", note: "The report came by e-mail" },
      { "hx-request": "true" },
    );
    expect(back.text).toContain("The recommendation is sent back: the claim stays in review.");
    const [decision] = await db
      .select()
      .from(claimDecisions)
      .where(eq(claimDecisions.claimId, (await claimIdOf(claimNo))!));
    expect(decision).toMatchObject({ status: "returned", decisionNote: "The report came by e-mail" });
    // Decided again: a new recommendation may wait.
    expect(await head.run("claim review", { claimNo, status: "approved", approvedAmount: 1_500_000 })).toMatchObject({
      recommendation: { decision: "approved" },
    });
  });

  test("two administrators confirming at once: one applies, the other finds nothing waiting", async () => {
    const [m, h] = [await signedIn(t, manager.portal), await signedIn(t, head.portal)];
    // A rejection confirms without a money step: both post at the same moment.
    const { partner, claimNo } = await claimInReview(1_500_000);
    await head.run("claim review", { claimNo, status: "rejected", rejectionReason: "duplicate" });
    const answers = await Promise.all([m, h].map((b) => b.post(`/admin/claims/${claimNo}/recommendation`, { choice: "confirm" }, { "hx-request": "true" })));
    expect(answers.map((a) => a.status).toSorted()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.text).toContain(`No recommendation waits on claim ${claimNo}: it was decided already`);
    const decisions = await db
      .select()
      .from(claimDecisions)
      .where(eq(claimDecisions.claimId, (await claimIdOf(claimNo))!));
    expect(decisions.map((d) => d.status)).toEqual(["confirmed"]);
    expect((await partner.run("claim status", { claimNo })).history.map((s: { status: string }) => s.status)).toEqual(["submitted", "in_review", "rejected"]);
  });

  test("the partner withdrawing or answering closes what waited: it was about the claim as it was", async () => {
    const { partner, claimNo } = await claimInReview(2_000_000);
    await head.run("claim review", { claimNo, status: "approved" });
    expect((await partner.run("claim withdraw", { claimNo })).status).toBe("withdrawn");
    const [decision] = await db
      .select()
      .from(claimDecisions)
      .where(eq(claimDecisions.claimId, (await claimIdOf(claimNo))!));
    expect(decision).toMatchObject({ status: "closed", decidedBy: "partner" });
  });
});

describe("flagged claims go to a second reviewer", () => {
  test("whatever the amount and the decider's authority, a claim the signals flag waits for a second administrator", async () => {
    const strict = await testApp({ CLAIM_SIGNAL_REVIEW_SCORE: 20 });
    const boss = await strict.partner({ admin: true });
    const p = await strict.partner();
    const c = productCases["vhcl-tprt-1111"]!;
    const consumer = (await p.run("prfl entity", fullConsumer())).id as string;
    const policy = await p.run(`entt_${consumer}: insure`, insureSeed(c));
    // An incident on the day cover starts: the "early claim" rule (20) reaches this threshold.
    const claim = await p.run("claim submit", { policy: policy.id, incidentDate: watDate(0), description: "Hit on day one", amount: 50_000 });
    await boss.run("claim review", { claimNo: claim.claimNo, status: "in_review" });
    const answer = await boss.run("claim review", { claimNo: claim.claimNo, status: "approved" });
    expect(answer).toMatchObject({ status: "in_review", signals: { needsSecondReviewer: true }, recommendation: { grounds: ["signals"] } });
    const second = await strict.partner({ admin: true });
    const b = await signedIn(strict, second.portal);
    expect((await b.get(`/admin/claims/${claim.claimNo}`)).text).toContain("The fraud signals flag the claim for a second reviewer.");
    expect((await recommendation(b, claim.claimNo, { choice: "confirm" })).answer.text).toContain("is now approved");
  });
});

describe("rejections carry a reason and a letter", () => {
  test("the letter states the reason in words and the particulars, over the wire and on both portals; a claim not rejected has none", async () => {
    const { partner, claimNo } = await claimInReview(40_000);
    expect((await partner.run("claim letter", { claimNo })).exctnFdbck).toMatchObject({ id: 55, id_v4: 404 });
    const rejected = await head.run("claim review", { claimNo, status: "rejected", rejectionReason: "not_covered", note: "Own vehicle damage" });
    expect(rejected).toMatchObject({ rejectionReason: "not_covered", statusNote: "The loss is not covered by the terms of the policy: Own vehicle damage" });
    const letter = await partner.run("claim letter", { claimNo });
    expect(letter).toMatchObject({ claimNo, letter: "rejection", letterType: "pdf" });
    const text = (await pdfText(Buffer.from(letter.letterDocument, "base64"))).text.replace(/\s+/g, " ");
    for (const words of [
      "Your claim was not accepted",
      claimNo,
      "The loss is not covered by the terms of the policy",
      "Own vehicle damage",
      "Adaeze Okafor",
      "NAICOM",
    ])
      expect(text).toContain(words);
    // The same bytes every time, and on the pages.
    expect((await partner.run("claim letter", { claimNo })).letterDocument).toBe(letter.letterDocument);
    const b = await signedIn(t, partner.portal);
    const page = await b.get(`/portal/claims/${claimNo}`);
    expect(page.text).toContain("Download the rejection letter (PDF)");
    const download = await b.get(`/portal/claims/${claimNo}/letter.pdf`);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    const admin = await signedIn(t, head.portal);
    expect((await admin.get(`/admin/claims/${claimNo}/letter.pdf`)).status).toBe(200);
    // Another partner never reaches it.
    const other = await signedIn(t, (await t.partner()).portal);
    expect((await other.get(`/portal/claims/${claimNo}/letter.pdf`)).status).toBe(404);
  });
});

describe("the head of claims sets the administrators' authority", () => {
  test("on the Administrators page: each one's authority in words with its limit; only the head changes it, never leaving no head", async () => {
    const b = await signedIn(t, head.portal);
    const page = await b.get("/admin/administrators");
    expect(page.text).toContain("Authority over claims");
    expect(page.text).toContain("Head of claims (any amount)");
    // The head's own account: a second administrator invited on it starts as an assessor.
    const invited = await b.post("/admin/administrators", { name: "Ngozi Assessor", email: `ngozi-${crypto.randomUUID().slice(0, 6)}@operator.example` });
    expect(invited.text).toContain("Assessor (up to ₦1,000,000.00)");
    const id = /\/admin\/administrators\/([0-9a-f-]{36})\/authority/.exec(invited.text)![1]!;
    const set = await b.post(`/admin/administrators/${id}/authority`, { claimAuthority: "manager" });
    expect(set.text).toContain("now decides claims as: Claims manager (up to ₦10,000,000.00).");
    const refused = await b.post(`/admin/administrators/${id}/authority`, { claimAuthority: "emperor" });
    expect(refused.status).toBe(400);
    // The head cannot lower the only head (themselves) either.
    const self = /\/admin\/administrators\/([0-9a-f-]{36})\/authority/.exec(page.text);
    expect(self).toBeNull(); // offered for the others only; the service refuses it anyway
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "admin.claim_authority"), eq(auditLog.actor, head.portal.email)));
    expect(audit!.details).toMatchObject({ authority: "Claims manager" });
    // An assessor's page shows the authorities without the choice, and the change is refused.
    const byAssessor = await signedIn(t, assessor.portal);
    const theirs = await byAssessor.get("/admin/administrators");
    expect(theirs.text).not.toContain("/authority");
    expect((await byAssessor.post(`/admin/administrators/${id}/authority`, { claimAuthority: "head" })).status).toBe(403);
  });
});

async function claimIdOf(claimNo: string) {
  const [row] = await db.select({ id: claims.id }).from(claims).where(eq(claims.claimNo, claimNo));
  return row?.id;
}
