/**
 * Issue 38, item 4 — complaints (docs/complaints.md): filing by the command and the partner's form,
 * refusals that name the field, a complainant without a policy, another partner's policy or claim
 * refused, concurrent repeats, the clock in working days, the states, the resolution letter, the
 * events and their payloads, and tenancy (another partner's complaint is not found).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { addDays, addWorkingDays, holidaysBetween } from "../src/modules/calendar";
import { resolutionLetter } from "../src/modules/complaints/letter";
import { fileSeed, parseComplaintSeed } from "../src/modules/complaints/model";
import { complaintDeadlines, runningDeadline } from "../src/modules/complaints/rules";
import { complaints } from "../src/modules/complaints/schema";
import { complaintDetail, fileComplaint, moveComplaint, resolveComplaint, withdrawComplaint } from "../src/modules/complaints/service";
import { outboxEvents } from "../src/modules/events/schema";
import { watToday } from "../src/products/policy-helpers";
import { pdfText } from "./certificates/parse";
import { signedIn } from "./portal/browser";
import { expectError, PNG_BASE64, type TestPartner, testApp } from "./support/harness";
import { lifecycleHelpers } from "./support/lifecycle";

// The machine is shared: a portal walk may take a while.
setDefaultTimeout(60_000);

const t = await testApp();
const db = t.database.db;
const operator = await t.partner({ admin: true, name: "Operator" });
const { approved } = lifecycleHelpers(t, operator);
const clock = { acknowledgeWorkingDays: 2, resolutionDays: 14, dueSoonDays: 3 };
const baseUrl = "http://localhost:3000";

const complainant = { name: "Ngozi Eze", email: "ngozi.eze@example.com", phone: "+2348031234567" };
const about = { complainant, category: "claim_delay", description: "Nobody has called me back about my claim." };

/** A partner with an approved test policy and a claim on it. */
async function partnerWithClaim() {
  const p = await t.partner();
  const policy = await approved(p);
  const claim = await p.run("claim submit", {
    policy: policy.reference,
    incidentDate: watToday(new Date()),
    description: "Bumper damaged",
    amount: 50000,
  });
  expect(claim.exctnFdbck.id).toBe(75);
  return { p, policy: policy.row, claimNo: claim.claimNo as string };
}

const eventsOf = async (partnerId: string, type: string) =>
  (
    await db
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.partnerId, partnerId), eq(outboxEvents.type, type)))
  ).map((e) => e.payload);

describe("filing by the command", () => {
  test("a complaint about a claim links the claim and its policy, starts its clock and records complaint.received", async () => {
    const { p, policy, claimNo } = await partnerWithClaim();
    const answer = await p.run("complaint file", { ...about, claimNo, reference: "cmp-1" });
    expect(answer.exctnFdbck.id).toBe(75);
    const today = watToday(new Date());
    const holidays = await holidaysBetween(db, today, addDays(today, 30));
    expect(answer).toMatchObject({
      reference: "cmp-1",
      status: "received",
      category: "claim_delay",
      policyNo: policy.policyNo,
      claimNo,
      receivedOn: today,
      acknowledgeDue: addWorkingDays(today, 2, holidays),
      resolveDue: addDays(today, 14),
    });
    expect(answer.complaintNo).toMatch(/^CMP-\d{4}-[0-9A-Z]{10}$/);
    const [payload] = await eventsOf(p.partnerId, "complaint.received");
    expect(payload).toMatchObject({
      complaintNo: answer.complaintNo,
      status: "received",
      category: "claim_delay",
      policyNo: policy.policyNo,
      claimNo,
      complainant,
    });
    const status = await p.run("complaint status", { complaintNo: answer.complaintNo.toLowerCase() });
    expect(status).toMatchObject({ complaintNo: answer.complaintNo, complainant, description: about.description, notes: [], documents: [] });
  });

  test("a complainant who holds no policy, reachable by phone only", async () => {
    const p = await t.partner();
    const answer = await p.run("complaint file", {
      complainant: { name: "Tunde Bakare", phone: "+2348059876543" },
      category: "mis_selling",
      description: "Sold the wrong cover",
    });
    expect(answer.exctnFdbck.id).toBe(75);
    expect(answer.policyNo).toBeUndefined();
    expect(answer.claimNo).toBeUndefined();
    const [payload] = await eventsOf(p.partnerId, "complaint.received");
    expect(payload).toMatchObject({ complainant: { name: "Tunde Bakare", email: null, phone: "+2348059876543" } });
    expect(payload).not.toHaveProperty("policyNo");
  });

  test("refusals name the field and change nothing", async () => {
    const p = await t.partner();
    const cases: [unknown, number, string][] = [
      [{ ...about, complainant: { name: "Ada" } }, 400, "seed.complainant.email or seed.complainant.phone is required"],
      [{ ...about, category: "rudeness" }, 400, "seed.category must be one of"],
      [{ ...about, complainant: { ...complainant, email: "not-an-address" } }, 400, "seed.complainant.email must be an e-mail address"],
      [{ ...about, complainant: { ...complainant, phone: "0803" } }, 400, "seed.complainant.phone must be in international format"],
      [{ ...about, description: "" }, 406, "seed.description is blank"],
      [{ ...about, claimNo: "CLM-1" }, 400, "seed.claimNo must be a claim number"],
      [{ ...about, colour: "red" }, 400, "unknown field"],
      [{ complainant, category: "other" }, 400, "seed.description is required"],
    ];
    for (const [seed, status, words] of cases) {
      const error = expectError(await p.run("complaint file", seed));
      expect({ status: error.id_v4, words: error.elbrtn.includes(words) ? words : error.elbrtn }).toEqual({ status, words });
    }
    expect(await db.select().from(complaints).where(eq(complaints.partnerId, p.partnerId))).toEqual([]);
  });

  test("another partner's policy or claim is refused (404) and nothing is stored", async () => {
    const { policy, claimNo } = await partnerWithClaim();
    const other = await t.partner();
    for (const [seed, field] of [
      [{ ...about, claimNo }, "seed.claimNo"],
      [{ ...about, policy: policy.policyNo! }, "seed.policy"],
      [{ ...about, policy: policy.reference }, "seed.policy"],
    ] as const) {
      const error = expectError(await other.run("complaint file", seed));
      expect(error.id_v4).toBe(404);
      expect(error.elbrtn.startsWith(field)).toBe(true);
    }
    expect(await db.select().from(complaints).where(eq(complaints.partnerId, other.partnerId))).toEqual([]);
  });

  test("a claim on another policy than the one named is refused", async () => {
    const { p, claimNo } = await partnerWithClaim();
    const second = await approved(p);
    const error = expectError(await p.run("complaint file", { ...about, claimNo, policy: second.reference }));
    expect(error.id_v4).toBe(400);
    expect(error.elbrtn).toContain("is a claim on another policy");
  });

  test("ten repeats at once with the same reference file one complaint, and every answer names it", async () => {
    const p = await t.partner();
    const answers = await Promise.all(Array.from({ length: 10 }, () => p.run("complaint file", { ...about, reference: "same-ref" })));
    expect(answers.map((a) => a.exctnFdbck.id)).toEqual(Array(10).fill(75));
    expect(new Set(answers.map((a) => a.complaintNo)).size).toBe(1);
    expect(await db.select().from(complaints).where(eq(complaints.partnerId, p.partnerId))).toHaveLength(1);
    expect(await eventsOf(p.partnerId, "complaint.received")).toHaveLength(1);
  });

  test("another partner's complaint is not found", async () => {
    const p = await t.partner();
    const { complaintNo } = await p.run("complaint file", about);
    const other = await t.partner();
    const error = expectError(await other.run("complaint status", { complaintNo }));
    expect(error.id_v4).toBe(404);
    const browser = await signedIn(t, other.portal);
    expect((await browser.get(`/portal/complaints/${complaintNo}`)).status).toBe(404);
    expect((await browser.post(`/portal/complaints/${complaintNo}/add`, { note: "mine now" })).status).toBe(404);
    expect((await browser.get(`/portal/complaints/${complaintNo}/letter.pdf`)).status).toBe(404);
  });
});

describe("the clock", () => {
  test("acknowledgement counts working days, skipping weekends and public holidays; resolution counts calendar days", () => {
    // Thursday 24 December 2026: Christmas (Friday), the weekend, Boxing Day observed (Monday 28) are skipped.
    const holidays = new Set(["2026-12-25", "2026-12-28"]);
    expect(complaintDeadlines("2026-12-24", holidays, clock)).toEqual({ acknowledgeDueOn: "2026-12-30", resolveDueOn: "2027-01-07" });
    expect(complaintDeadlines("2026-12-01", new Set(), clock)).toEqual({ acknowledgeDueOn: "2026-12-03", resolveDueOn: "2026-12-15" });
  });

  test("the running deadline: acknowledgement while received, then resolution; due soon and overdue; none once closed", () => {
    const c = { acknowledgeDueOn: "2026-12-03", resolveDueOn: "2026-12-15" };
    expect(runningDeadline({ ...c, status: "received" }, "2026-12-01", clock)).toEqual({
      deadline: "acknowledge",
      dueOn: "2026-12-03",
      standing: { state: "due_soon", daysLeft: 2 },
    });
    expect(runningDeadline({ ...c, status: "received" }, "2026-12-05", clock)?.standing).toEqual({ state: "overdue", daysOverdue: 2 });
    expect(runningDeadline({ ...c, status: "acknowledged" }, "2026-12-05", clock)).toEqual({
      deadline: "resolve",
      dueOn: "2026-12-15",
      standing: { state: "running", daysLeft: 10 },
    });
    expect(runningDeadline({ ...c, status: "resolved" }, "2026-12-05", clock)).toBeNull();
    expect(runningDeadline({ ...c, status: "withdrawn" }, "2026-12-05", clock)).toBeNull();
  });
});

/** A complaint filed through the service, as the policyholder's own page will file one. */
async function filed(p: TestPartner, extra: Record<string, unknown> = {}) {
  const seed = parseComplaintSeed(fileSeed, { ...about, ...extra });
  return (await fileComplaint(db, { partnerId: p.partnerId, mode: "test", seed, documents: [], by: "partner", now: new Date(), clock, baseUrl })).complaint;
}

describe("the states", () => {
  test("received → acknowledged → in progress → resolved, each step in the history; resolved is final", async () => {
    const p = await t.partner();
    const c = await filed(p);
    const change = { complaintNo: c.complaintNo, by: "admin@example.com", now: new Date(), baseUrl };
    expect((await moveComplaint(db, change, "acknowledged")).status).toBe("acknowledged");
    const started = await moveComplaint(db, change, "in_progress");
    expect(started.history.map((h) => h.status)).toEqual(["received", "acknowledged", "in_progress"]);
    await expect(moveComplaint(db, change, "acknowledged")).rejects.toThrow("is in_progress, so it cannot become acknowledged");
    const resolved = await resolveComplaint(db, change, { outcome: "partly_upheld", resolution: "We called back late.", redressKobo: 250_000 }, (r) =>
      resolutionLetter(r, "Sandbox Insurance Plc"),
    );
    expect(resolved).toMatchObject({ status: "resolved", outcome: "partly_upheld", redressKobo: 250_000, hasLetter: true });
    await expect(resolveComplaint(db, change, { outcome: "upheld", resolution: "again", redressKobo: 0 }, async () => new Uint8Array())).rejects.toThrow(
      "a final status",
    );
    await expect(withdrawComplaint(db, { ...change, partnerId: p.partnerId })).rejects.toThrow("a final status");
  });

  test("resolving a complaint never acknowledged counts as its acknowledgement; two at once resolve it once", async () => {
    const p = await t.partner();
    const c = await filed(p);
    const change = { complaintNo: c.complaintNo, by: "admin@example.com", now: new Date(), baseUrl };
    const results = await Promise.allSettled(
      [1, 2].map(() => resolveComplaint(db, change, { outcome: "not_upheld", resolution: "No fault found.", redressKobo: 0 }, (r) => resolutionLetter(r, "X"))),
    );
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const detail = await complaintDetail(db, {}, c.complaintNo);
    expect(detail.acknowledgedAt).not.toBeNull();
    expect(await eventsOf(p.partnerId, "complaint.resolved")).toHaveLength(1);
  });

  test("the partner withdraws an open complaint; another partner cannot", async () => {
    const p = await t.partner();
    const c = await filed(p);
    const other = await t.partner();
    await expect(withdrawComplaint(db, { complaintNo: c.complaintNo, partnerId: other.partnerId, by: "partner", now: new Date(), baseUrl })).rejects.toThrow(
      "no complaint",
    );
    expect((await withdrawComplaint(db, { complaintNo: c.complaintNo, partnerId: p.partnerId, by: "partner", now: new Date(), baseUrl })).status).toBe(
      "withdrawn",
    );
  });
});

describe("the portal and the desk", () => {
  test("the partner files on the form, the operator acknowledges and resolves with a letter, the partner reads and downloads it", async () => {
    const { p, policy, claimNo } = await partnerWithClaim();
    const partner = await signedIn(t, p.portal);
    expect((await partner.get("/portal/complaints/new")).status).toBe(200);

    // A refusal shows beside its field, in words.
    const refused = await partner.post("/portal/complaints", { "complainant.name": "Ngozi Eze", category: "claim_delay", description: "Late" });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("has-error");
    expect(refused.text).toContain("Give the complainant&#x27;s e-mail or phone number");

    const form = new Blob([Buffer.from(PNG_BASE64, "base64")], { type: "image/png" });
    const sent = await partner.post("/portal/complaints", {
      "complainant.name": "Ngozi Eze",
      "complainant.phone": "0803 123 4567",
      category: "claim_delay",
      description: "Nobody has called me back.",
      claimNo,
      "documents.0": new File([form], "receipt.png", { type: "image/png" }),
    });
    expect(sent.status).toBe(303);
    const complaintNo = /\/portal\/complaints\/(CMP-[^/]+)$/.exec(sent.location!)![1]!;
    const page = await partner.get(sent.location!);
    expect(page.status).toBe(200);
    expect(page.text).toContain(complaintNo);
    expect(page.text).toContain("receipt.png");
    expect(page.text).toContain(policy.policyNo!);
    expect((await partner.get("/portal/complaints")).text).toContain(complaintNo);

    // The partner adds information; the operator sees it and writes an internal note the partner never sees.
    expect((await partner.post(`/portal/complaints/${complaintNo}/add`, { note: "The customer called again today." })).status).toBe(200);
    const admin = await signedIn(t, operator.portal);
    const desk = await admin.get("/admin/complaints");
    expect(desk.status).toBe(200);
    expect(desk.text).toContain(complaintNo);
    const open = await admin.get(`/admin/complaints/${complaintNo}`);
    expect(open.text).toContain("The customer called again today.");
    expect(open.text).toContain("Acknowledge by");
    expect((await admin.post(`/admin/complaints/${complaintNo}/note`, { note: "Assessor on leave: the delay is ours." })).status).toBe(200);
    expect((await partner.get(`/portal/complaints/${complaintNo}`)).text).not.toContain("Assessor on leave");
    expect((await admin.post(`/admin/complaints/${complaintNo}/acknowledge`, {})).status).toBe(200);

    // A refused resolution names its field; then the resolution with redress.
    const noOutcome = await admin.post(`/admin/complaints/${complaintNo}/resolve`, { resolution: "We were late." });
    expect(noOutcome.status).toBe(400);
    expect(noOutcome.text).toContain("has-error");
    const resolved = await admin.post(`/admin/complaints/${complaintNo}/resolve`, {
      outcome: "upheld",
      resolution: "We were late to call back.",
      redress: "5,000",
    });
    expect(resolved.status).toBe(200);
    expect(resolved.text).toContain("Upheld");

    const letter = await t.app.handle(
      new Request(`http://localhost/portal/complaints/${complaintNo}/letter.pdf`, { headers: { cookie: `session=${partner.cookie("session")}` } }),
    );
    expect(letter.headers.get("content-type")).toBe("application/pdf");
    const text = (await pdfText(new Uint8Array(await letter.arrayBuffer()))).text.replace(/\s+/g, " ");
    for (const words of [
      "The outcome of your complaint",
      complaintNo,
      "Ngozi Eze",
      "Claim delay",
      "Upheld",
      "₦5,000.00",
      "We were late to call back.",
      claimNo,
      "NAICOM",
    ])
      expect(text).toContain(words);

    const [payload] = await eventsOf(p.partnerId, "complaint.resolved");
    expect(payload).toMatchObject({
      complaintNo,
      status: "resolved",
      outcome: "upheld",
      redress: 5000,
      claimNo,
      policyNo: policy.policyNo,
      complainant: { name: "Ngozi Eze", email: null, phone: "+2348031234567" },
    });
    expect(String(payload!.letterUrl)).toEndWith(`/portal/complaints/${complaintNo}/letter.pdf`);
    expect(await eventsOf(p.partnerId, "complaint.acknowledged")).toHaveLength(1);
    const status = await p.run("complaint status", { complaintNo });
    expect(status).toMatchObject({ status: "resolved", outcome: "upheld", redress: 5000, notes: [{ note: "The customer called again today." }] });
    expect(status.documents).toEqual([{ name: "receipt.png", size: expect.any(Number) }]);
  });

  test("partner staff cannot open the desk", async () => {
    const p = await t.partner();
    const browser = await signedIn(t, p.portal);
    expect((await browser.get("/admin/complaints")).status).toBe(403);
  });
});
