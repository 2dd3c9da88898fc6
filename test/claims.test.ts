import { describe, expect, test } from "bun:test";
import { and, asc, eq, like } from "drizzle-orm";
import { listAudit } from "../src/modules/audit/service";
import { claims } from "../src/modules/claims/schema";
import { claimDocument, listClaims } from "../src/modules/claims/service";
import { outboxEvents } from "../src/modules/events/schema";
import type { KeyLabel } from "../src/modules/partners/service";
import { policies } from "../src/modules/policies/schema";
import { watMidnight } from "../src/products/policy-helpers";
import { PDF_BASE64, PNG_BASE64, type TestPartner, testApp } from "./support/harness";
import { fullConsumer, insureSeed, productCases, watDate } from "./support/policies";

const MAX_DOCUMENT_BYTES = 4096;
const t = await testApp({ MAX_DOCUMENT_BYTES });
const db = t.database.db;
const operator = await t.partner({ admin: true });

const CLAIM_NO = /^CLM-\d{4}-[0-9A-HJKMNP-TV-Z]{10}$/;
const TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

async function insure(p: TestPartner, code: string, label: KeyLabel = "test") {
  const c = productCases[code]!;
  const consumer = (await p.run("prfl entity", fullConsumer())).id as string;
  if (c.quote) expect((await p.run(`dump ipck_${c.code}*PRMM`, c.quote, label)).exctnFdbck.id).toBe(75);
  const answer = await p.run(`entt_${consumer}: insure`, insureSeed(c), label);
  expect(answer.exctnFdbck.id).toBe(75);
  return { reference: answer.id as string, consumer, status: answer.status as string };
}

async function livePartner() {
  const p = await t.partner();
  expect((await p.run("wallet topup", { amount: 10_000_000, reference: `fund-${crypto.randomUUID()}` }, "live")).exctnFdbck.id).toBe(75);
  return p;
}

const claimSeed = (policy: string, overrides: Record<string, unknown> = {}) => ({
  policy,
  incidentDate: watDate(0),
  description: "Screen cracked after the phone fell on a tiled floor",
  amount: 45_000,
  ...overrides,
});

async function submit(p: TestPartner, seed: unknown, label: KeyLabel = "test") {
  const answer = await p.run("claim submit", seed, label);
  expect(answer.exctnFdbck).toEqual({ id: 75, id_v4: 200 });
  return answer;
}

const review = (claimNo: string, status: string, extra: Record<string, unknown> = {}) => operator.run("claim review", { claimNo, status, ...extra });

const storedClaims = (partnerId: string) => db.select().from(claims).where(eq(claims.partnerId, partnerId));

const claimEvents = (partnerId: string) =>
  db
    .select()
    .from(outboxEvents)
    .where(and(eq(outboxEvents.partnerId, partnerId), like(outboxEvents.type, "claim.%")))
    .orderBy(asc(outboxEvents.createdAt), asc(outboxEvents.id));

/** The answer is a 55 with this status and a message containing `text`. */
function refused(answer: any, status: number, text: string) {
  expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: status });
  expect(answer.exctnFdbck.elbrtn).toContain(text);
}

describe("claims end to end", () => {
  test("vehicle: submit with documents, status, review to paid; every step in the history and the outbox", async () => {
    const p = await t.partner();
    const { reference } = await insure(p, "vhcl-tprt-1111");
    const submitted = await submit(
      p,
      claimSeed(reference, {
        description: "Rear-ended at a junction on Ozumba Mbadiwe Avenue",
        amount: 1_250_000.5,
        reference: "acme-claim-001",
        documents: [
          { name: "police-report.pdf", content: PDF_BASE64 },
          { name: "rear bumper.png", content: `data:image/png;base64,${PNG_BASE64}` },
        ],
      }),
    );
    // Bun's toMatchObject writes asymmetric matchers back into the object it checks: read the values first.
    const { claimNo, tmstmp } = submitted;
    expect(claimNo).toMatch(CLAIM_NO);
    expect(tmstmp).toMatch(TIMESTAMP);
    expect(submitted).toMatchObject({
      reference: "acme-claim-001",
      status: "submitted",
      policy: reference,
      productCode: "vhcl-tprt-1111",
      mode: "test",
      amount: 1_250_000.5,
      currency: "NGN",
    });

    const status = await p.run("claim status", { claimNo });
    expect(status).toMatchObject({
      claimNo,
      reference: "acme-claim-001",
      policy: reference,
      productCode: "vhcl-tprt-1111",
      mode: "test",
      status: "submitted",
      incidentDate: watDate(0),
      description: "Rear-ended at a junction on Ozumba Mbadiwe Avenue",
      amount: 1_250_000.5,
      documents: [
        { name: "police-report.pdf", type: "pdf", size: Buffer.from(PDF_BASE64, "base64").length },
        { name: "rear bumper.png", type: "png", size: Buffer.from(PNG_BASE64, "base64").length },
      ],
      history: [{ status: "submitted", at: expect.stringMatching(TIMESTAMP) }],
      tmstmp,
      updated: expect.stringMatching(TIMESTAMP),
      exctnFdbck: { id: 75, id_v4: 200 },
    });
    expect(status).not.toHaveProperty("approvedAmount");

    expect(await review(claimNo, "in_review", { note: "assessor assigned" })).toMatchObject({
      partnerId: p.partnerId,
      status: "in_review",
      statusNote: "assessor assigned",
    });
    // Within an assessor's authority (an API key's, ₦1,000,000): decided at once (docs/claims.md, "Authority").
    const approved = await review(claimNo, "approved", { approvedAmount: 900_000 });
    expect(approved).toMatchObject({ status: "approved", amount: 1_250_000.5, approvedAmount: 900_000, excess: 0, payable: 900_000 });
    expect(approved).not.toHaveProperty("statusNote"); // the note belongs to the status it came with
    // A claim is never marked paid by hand: the payout's provider says when the money arrived.
    refused(
      await review(claimNo, "paid", { note: "transfer NIP-000123" }),
      409,
      "cannot be marked paid: a claim is paid when the payout's provider says the money arrived",
    );
    // The account given: the approved claim's voucher names it; the claimant's acceptance sends the payout.
    const payee = await p.run("claim payee", { claimNo, bankCode: "058", accountNumber: "0123456780" });
    expect(payee).toMatchObject({
      status: "approved",
      payee: { bankCode: "058", accountNumber: "0123456780", nameCheck: "matched" },
      voucher: { version: 1, status: "issued", payable: 900_000 },
    });
    const paid = await p.run("claim accept", { claimNo, version: 1 });
    expect(paid).toMatchObject({
      status: "paid",
      payable: 900_000,
      voucher: { status: "accepted", channel: "api" },
      payout: { status: "success", amount: 900_000 },
    });

    const final = await p.run("claim status", { claimNo: claimNo.toLowerCase() });
    expect(final).toMatchObject({ status: "paid", approvedAmount: 900_000, excess: 0, payable: 900_000 });
    expect(final).not.toHaveProperty("statusNote");
    expect(final.history.map((s: any) => [s.status, s.note])).toEqual([
      ["submitted", undefined],
      ["in_review", "assessor assigned"],
      ["approved", undefined],
      ["paid", undefined],
    ]);
    expect(JSON.stringify(final)).not.toContain(operator.partnerId); // who reviewed stays inside

    const events = await claimEvents(p.partnerId);
    expect(events.map((e) => [e.type, e.payload.status])).toEqual([
      ["claim.submitted", "submitted"],
      ["claim.updated", "in_review"],
      ["claim.updated", "approved"],
      ["claim.voucher_issued", "approved"],
      ["claim.updated", "paid"],
    ]);
    expect(events[0]!.payload).toEqual({
      claimNo,
      reference: "acme-claim-001",
      policy: reference,
      productCode: "vhcl-tprt-1111",
      mode: "test",
      status: "submitted",
      amount: 1_250_000.5,
      settlementDue: watDate(60),
    });
    expect(events[4]!.payload).toEqual({
      claimNo,
      reference: "acme-claim-001",
      policy: reference,
      productCode: "vhcl-tprt-1111",
      mode: "test",
      status: "paid",
      amount: 1_250_000.5,
      approvedAmount: 900_000,
      excess: 0,
      payable: 900_000,
      settlementDue: watDate(60),
      voucherDue: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });

    const document = await claimDocument(db, { partnerId: p.partnerId }, claimNo, 2);
    expect(document).toMatchObject({ name: "rear bumper.png", mime: "image/png" });
    expect(Buffer.from(document.bytes).equals(Buffer.from(PNG_BASE64, "base64"))).toBe(true);
    const other = await t.partner();
    await expect(claimDocument(db, { partnerId: other.partnerId }, claimNo, 2)).rejects.toMatchObject({ status: 404 });
    await expect(claimDocument(db, { partnerId: p.partnerId }, claimNo, 3)).rejects.toMatchObject({ status: 404 });
  });

  test("phone: the 10% excess is deducted from the approved amount, rounded half up to the kobo", async () => {
    const p = await t.partner();
    const { reference } = await insure(p, "phnn-flx1-1111");
    const partial = await submit(p, claimSeed(reference, { amount: 45_000 }));
    await review(partial.claimNo, "in_review");
    // 10% of 40,000.55 is 4,000.055: the excess is 4,000.06 and 36,000.49 is paid.
    const approved = await review(partial.claimNo, "approved", { approvedAmount: 40_000.55 });
    expect(approved).toMatchObject({
      status: "approved",
      productCode: "phnn-flx1-1111",
      amount: 45_000,
      approvedAmount: 40_000.55,
      excess: 4_000.06,
      payable: 36_000.49,
    });
    expect(await p.run("claim status", { claimNo: partial.claimNo })).toMatchObject({ approvedAmount: 40_000.55, excess: 4_000.06, payable: 36_000.49 });

    const whole = await submit(p, claimSeed(reference, { amount: 45_000 }));
    await review(whole.claimNo, "in_review");
    expect(await review(whole.claimNo, "approved")).toMatchObject({ approvedAmount: 45_000, excess: 4_500, payable: 40_500 });
    await p.run("claim payee", { claimNo: whole.claimNo, bankCode: "058", accountNumber: "0123456780" });
    expect(await p.run("claim accept", { claimNo: whole.claimNo, version: 1 })).toMatchObject({
      status: "paid",
      excess: 4_500,
      payable: 40_500,
      payout: { amount: 40_500 },
    });

    const events = await claimEvents(p.partnerId);
    const approvals = events.filter((e) => e.type === "claim.updated" && e.payload.status === "approved").map((e) => e.payload);
    expect(approvals).toEqual([
      expect.objectContaining({ claimNo: partial.claimNo, approvedAmount: 40_000.55, excess: 4_000.06, payable: 36_000.49 }),
      expect.objectContaining({ claimNo: whole.claimNo, approvedAmount: 45_000, excess: 4_500, payable: 40_500 }),
    ]);
    const [row] = await db.select().from(claims).where(eq(claims.claimNo, partial.claimNo));
    expect(row).toMatchObject({ claimedKobo: 4_500_000, approvedKobo: 4_000_055, excessKobo: 400_006, payableKobo: 3_600_049 });
  });

  test("a review over the JSON surface writes its audit row, as the operator's page does, naming the key", async () => {
    const p = await t.partner();
    const { reference } = await insure(p, "phnn-flx1-1111");
    const { claimNo } = await submit(p, claimSeed(reference, { amount: 45_000 }));
    await review(claimNo, "in_review", { note: "Assessor assigned" });
    await review(claimNo, "approved", { approvedAmount: 40_000 });
    const refused = await review(claimNo, "in_review");
    expect(refused.exctnFdbck.id).toBe(55);
    const rows = (await listAudit(db, { partnerId: p.partnerId, action: "claim.review" }, { limit: 10 })).items;
    const shown = rows.map(({ actor, actorUserId, partnerId, subject, details }) => ({ actor, actorUserId, partnerId, subject, details }));
    // Two reviews may share a millisecond: compare them in the order of their statuses.
    shown.sort((a, b) => String(a.details.status).localeCompare(String(b.details.status)));
    expect(shown).toEqual([
      {
        actor: "API key test",
        actorUserId: null,
        partnerId: p.partnerId,
        subject: claimNo,
        details: { status: "approved", approvedKobo: 4_000_000, excessKobo: 400_000, payableKobo: 3_600_000 },
      },
      { actor: "API key test", actorUserId: null, partnerId: p.partnerId, subject: claimNo, details: { status: "in_review", note: "Assessor assigned" } },
    ]);
    // The partner's own changes over the JSON surface are not portal actions: no audit row.
    expect((await listAudit(db, { partnerId: p.partnerId, action: "claim.submit" }, { limit: 10 })).items).toEqual([]);
  });

  test("withdraw: the partner takes back a submitted or in-review claim, with a note", async () => {
    const p = await t.partner();
    const { reference } = await insure(p, "phnn-flx1-1111");
    const first = await submit(p, claimSeed(reference));
    const withdrawn = await p.run("claim withdraw", { claimNo: first.claimNo, note: "repaired under the manufacturer's warranty" });
    expect(withdrawn).toMatchObject({ status: "withdrawn", statusNote: "repaired under the manufacturer's warranty", exctnFdbck: { id: 75 } });
    expect(withdrawn.history.map((s: any) => s.status)).toEqual(["submitted", "withdrawn"]);
    expect(withdrawn).not.toHaveProperty("partnerId");

    const second = await submit(p, claimSeed(reference));
    await review(second.claimNo, "in_review");
    expect(await p.run("claim withdraw", { claimNo: second.claimNo })).toMatchObject({ status: "withdrawn" });
    expect((await claimEvents(p.partnerId)).map((e) => [e.type, e.payload.status])).toEqual([
      ["claim.submitted", "submitted"],
      ["claim.updated", "withdrawn"],
      ["claim.submitted", "submitted"],
      ["claim.updated", "in_review"],
      ["claim.updated", "withdrawn"],
    ]);
  });

  test("live mode: a live policy's claims are live, and only live keys handle them", async () => {
    const p = await livePartner();
    const { reference, status } = await insure(p, "mexx-stnd-1111", "live");
    expect(status).toBe("a");
    refused(await p.run("claim submit", claimSeed(reference), "test"), 403, `policy ${reference} was issued in live mode`);
    expect(await storedClaims(p.partnerId)).toHaveLength(0);

    const claim = await submit(p, claimSeed(reference, { description: "Water damage to two pallets in the hold", amount: 5_000_000 }), "live");
    expect(claim).toMatchObject({ mode: "live", productCode: "mexx-stnd-1111", amount: 5_000_000 });
    expect(await p.run("claim status", { claimNo: claim.claimNo }, "test")).toMatchObject({ mode: "live", status: "submitted" }); // reading is harmless
    refused(await p.run("claim withdraw", { claimNo: claim.claimNo }, "test"), 403, "issued in live mode");
    expect((await p.run("claim status", { claimNo: claim.claimNo }, "live")).status).toBe("submitted");
    expect(await p.run("claim withdraw", { claimNo: claim.claimNo }, "live")).toMatchObject({ status: "withdrawn", mode: "live" });
  });

  test("the policy may be named by its reference in either UUID form", async () => {
    const p = await t.partner();
    const { reference } = await insure(p, "phnn-flx1-1111");
    expect(await submit(p, claimSeed(reference.replaceAll("-", "").toUpperCase()))).toMatchObject({ policy: reference });
  });
});

describe("claim submit refuses, and stores nothing", () => {
  /** Submit, expect a refusal, and check that no claim and no event was stored. */
  async function refusedSubmit(p: TestPartner, seed: unknown, status: number, text: string, label: KeyLabel = "test") {
    refused(await p.run("claim submit", seed, label), status, text);
    expect(await storedClaims(p.partnerId)).toHaveLength(0);
    expect(await claimEvents(p.partnerId)).toHaveLength(0);
  }

  test("an unknown policy, and another partner's policy, are not found", async () => {
    const p = await t.partner();
    await insure(p, "phnn-flx1-1111");
    await refusedSubmit(p, claimSeed(crypto.randomUUID()), 404, "seed.policy: no policy");
    const other = await t.partner();
    const { reference } = await insure(other, "phnn-flx1-1111");
    await refusedSubmit(p, claimSeed(reference), 404, `no policy ${reference} among this partner's transactions`);
    expect(await storedClaims(other.partnerId)).toHaveLength(0);
  });

  test("a pending, a declined and a lapsed policy", async () => {
    const p = await livePartner();
    const pending = await insure(p, "vhcl-tprt-1111", "live");
    expect(pending.status).toBe("p");
    await refusedSubmit(
      p,
      claimSeed(pending.reference),
      409,
      `policy ${pending.reference} is pending (status p): claims can be submitted only on an active policy (status a)`,
      "live",
    );

    const declined = await insure(p, "crlt-sme1-1111", "live");
    const decision = await operator.run(
      `appr entt_${declined.consumer}|insr_crlt-sme1-1111-${declined.reference}`,
      { status: "d", statusNote: "borrower outside insurable age band" },
      "live",
    );
    expect(decision.status).toBe("d");
    await refusedSubmit(p, claimSeed(declined.reference), 409, "was declined (status d)", "live");

    const lapsed = await insure(p, "phnn-flx1-1111");
    await db.update(policies).set({ status: "l", statusNote: "financing plan lapsed" }).where(eq(policies.reference, lapsed.reference));
    await refusedSubmit(p, claimSeed(lapsed.reference), 409, "has lapsed (status l)");
  });

  test("incident dates outside the cover, in the future, or not dates", async () => {
    const p = await t.partner();
    const { reference } = await insure(p, "phnn-flx1-1111");
    // Move the cover into the past: it ran from 10 days ago until midnight 3 days ago.
    await db
      .update(policies)
      .set({ coverStart: watMidnight(watDate(-10)), coverEnd: watMidnight(watDate(-3)) })
      .where(eq(policies.reference, reference));
    const cover = `${watDate(-10)} to ${watDate(-4)}`;
    await refusedSubmit(
      p,
      claimSeed(reference, { incidentDate: watDate(-11) }),
      400,
      `seed.incidentDate must be within the cover of policy ${reference}, ${cover}; received ${watDate(-11)}, before the cover started`,
    );
    await refusedSubmit(p, claimSeed(reference, { incidentDate: watDate(-3) }), 400, "after the cover ended");
    await refusedSubmit(
      p,
      claimSeed(reference, { incidentDate: watDate(1) }),
      400,
      `seed.incidentDate must not be in the future: today is ${watDate(0)} in Nigeria`,
    );
    await refusedSubmit(p, claimSeed(reference, { incidentDate: "2026-02-30" }), 400, "seed.incidentDate is not a real calendar date");
    await refusedSubmit(p, claimSeed(reference, { incidentDate: "12/03/2026" }), 400, "seed.incidentDate must be a date in the form YYYY-MM-DD");
    // The first and the last day of the cover are covered.
    await submit(p, claimSeed(reference, { incidentDate: watDate(-10) }));
    await submit(p, claimSeed(reference, { incidentDate: watDate(-4) }));
  });

  test("amounts: a JSON number above zero with at most two decimals, at most the sum insured", async () => {
    const p = await t.partner();
    const phone = await insure(p, "phnn-flx1-1111");
    await refusedSubmit(p, claimSeed(phone.reference, { amount: "45000" }), 400, "seed.amount must be a JSON number, not a string (send 45000 without quotes)");
    await refusedSubmit(p, claimSeed(phone.reference, { amount: 0 }), 400, "seed.amount must be more than 0");
    await refusedSubmit(p, claimSeed(phone.reference, { amount: 100.555 }), 400, "seed.amount must have at most two decimals (kobo)");
    await refusedSubmit(
      p,
      claimSeed(phone.reference, { amount: 200_000.01 }),
      400,
      `seed.amount must be at most 200000 naira, the top of the device value band of phnn-flx1-1111 of policy ${phone.reference}; received 200000.01`,
    );
    const cargo = await insure(p, "mexx-stnd-1111");
    await refusedSubmit(
      p,
      claimSeed(cargo.reference, { amount: 5_000_000.01 }),
      400,
      "seed.amount must be at most 5000000 naira, the declared value of the goods (goodsValue)",
    );
    const property = await insure(p, "allr-stnd-1111");
    await refusedSubmit(
      p,
      claimSeed(property.reference, { amount: 1_000_000.01 }),
      400,
      "seed.amount must be at most 1000000 naira, the sum insured (sumInsured)",
    );
    const loan = await insure(p, "crlt-psnl-1111");
    await refusedSubmit(p, claimSeed(loan.reference, { amount: 500_000.01 }), 400, "seed.amount must be at most 500000 naira, the loan amount (loanAmount)");
    const vehicle = await insure(p, "vhcl-tprt-1111");
    await refusedSubmit(
      p,
      claimSeed(vehicle.reference, { amount: 100_000_000.01 }),
      400,
      "seed.amount must be at most 100000000 naira, the most any claim may ask for",
    );
    await submit(p, claimSeed(phone.reference, { amount: 200_000 }));
  });

  test("blank, null, missing and unknown fields", async () => {
    const p = await t.partner();
    const { reference } = await insure(p, "phnn-flx1-1111");
    await refusedSubmit(p, claimSeed(reference, { description: "  " }), 406, "seed.description is blank: omit optional fields entirely");
    await refusedSubmit(p, claimSeed(reference, { reference: null }), 406, "seed.reference is null");
    await refusedSubmit(p, claimSeed(reference, { documents: [{ name: "", content: PNG_BASE64 }] }), 406, "seed.documents[0].name is blank");
    const { description: _, ...withoutDescription } = claimSeed(reference);
    await refusedSubmit(p, withoutDescription, 400, "seed.description is required");
    await refusedSubmit(p, undefined, 400, "seed.policy is required");
    await refusedSubmit(p, claimSeed(reference, { amnt: 5 }), 400, "seed has unknown field: amnt");
    await refusedSubmit(p, claimSeed(reference, { description: "x".repeat(2001) }), 400, "seed.description must be at most 2000 characters");
    await refusedSubmit(p, claimSeed(reference, { reference: "has spaces" }), 400, "seed.reference must be 1-64 letters, digits, dots, hyphens or underscores");
    await refusedSubmit(
      p,
      claimSeed(reference, { documents: [{ name: "../etc/passwd", content: PNG_BASE64 }] }),
      400,
      "seed.documents[0].name must be a file name without slashes",
    );
  });

  test("documents: at most ten, each at most MAX_DOCUMENT_BYTES, each a JPEG, PNG, WebP or PDF", async () => {
    const p = await t.partner();
    const { reference } = await insure(p, "phnn-flx1-1111");
    const png = (i: number) => ({ name: `photo-${i}.png`, content: PNG_BASE64 });
    await refusedSubmit(
      p,
      claimSeed(reference, { documents: Array.from({ length: 11 }, (_, i) => png(i)) }),
      413,
      "seed.documents has 11 entries: a claim takes at most 10 documents",
    );
    const large = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(MAX_DOCUMENT_BYTES)]).toString("base64");
    await refusedSubmit(
      p,
      claimSeed(reference, { documents: [png(1), { name: "large.pdf", content: large }] }),
      413,
      `seed.documents[1].content is too large: documents may be at most ${MAX_DOCUMENT_BYTES} bytes`,
    );
    const text = Buffer.from("just some text, not a scan").toString("base64");
    await refusedSubmit(
      p,
      claimSeed(reference, { documents: [{ name: "notes.txt", content: text }] }),
      415,
      "seed.documents[0].content must be a JPEG, PNG, WebP image or a PDF document",
    );
    await refusedSubmit(p, claimSeed(reference, { documents: [{ name: "x.png", content: "not base64!" }] }), 400, "seed.documents[0].content must be base64");
    const ten = await submit(p, claimSeed(reference, { documents: Array.from({ length: 10 }, (_, i) => png(i)) }));
    expect((await p.run("claim status", { claimNo: ten.claimNo })).documents).toHaveLength(10);
  });
});

describe("a claim reference makes submission idempotent", () => {
  test("a repeat returns the first claim; another payload under the reference is 409", async () => {
    const p = await t.partner();
    const { reference } = await insure(p, "phnn-flx1-1111");
    const seed = claimSeed(reference, { reference: "ref-42", documents: [{ name: "screen.png", content: PNG_BASE64 }] });
    const first = await submit(p, seed);
    await review(first.claimNo, "in_review");
    const repeat = await submit(p, seed);
    expect(repeat).toMatchObject({ claimNo: first.claimNo, tmstmp: first.tmstmp, status: "in_review" }); // the first claim as it is now
    refused(
      await p.run("claim submit", { ...seed, amount: 46_000 }),
      409,
      `seed.reference ref-42 was already used for claim ${first.claimNo}, which has another amount`,
    );
    refused(await p.run("claim submit", { ...seed, documents: [{ name: "screen.png", content: PDF_BASE64 }] }), 409, "which has another documents");
    refused(await p.run("claim submit", { ...seed, description: "Another story", incidentDate: watDate(-1) }), 409, "another incidentDate, description");
    expect(await storedClaims(p.partnerId)).toHaveLength(1);
    expect((await claimEvents(p.partnerId)).filter((e) => e.type === "claim.submitted")).toHaveLength(1);
    // References are per partner: another partner may use the same one.
    const other = await t.partner();
    const theirs = await insure(other, "phnn-flx1-1111");
    expect((await submit(other, claimSeed(theirs.reference, { reference: "ref-42" }))).claimNo).not.toBe(first.claimNo);
  });

  test("concurrent repeats store exactly one claim", async () => {
    const p = await t.partner();
    const { reference } = await insure(p, "phnn-flx1-1111");
    const seed = claimSeed(reference, { reference: `burst-${crypto.randomUUID()}` });
    const answers = await Promise.all(Array.from({ length: 8 }, () => p.run("claim submit", seed)));
    expect(answers.map((a) => a.exctnFdbck.id)).toEqual(Array(8).fill(75));
    expect(new Set(answers.map((a) => a.claimNo)).size).toBe(1);
    expect(await storedClaims(p.partnerId)).toHaveLength(1);
    expect(await claimEvents(p.partnerId)).toHaveLength(1);
  });
});

describe("the claim state machine", () => {
  // What may follow each status (the refusals name it); an approved claim is paid only by its payout (docs/claims.md, "Payout").
  const EXPECTED: Record<string, string[]> = {
    submitted: ["in_review", "withdrawn"],
    in_review: ["approved", "rejected", "withdrawn"],
    approved: ["paid"],
    rejected: [],
    withdrawn: [],
  };
  /** The operator's moves that reach each status from submitted. */
  const PATHS: Record<string, string[]> = {
    submitted: [],
    in_review: ["in_review"],
    approved: ["in_review", "approved"],
    rejected: ["in_review", "rejected"],
    withdrawn: [],
  };
  const TARGETS = ["in_review", "approved", "rejected", "withdrawn"];

  const move = (p: TestPartner, claimNo: string, to: string) =>
    to === "withdrawn"
      ? p.run("claim withdraw", { claimNo })
      : review(claimNo, to, to === "rejected" ? { rejectionReason: "excluded_cause", note: "liquid damage" } : {});

  test("every allowed transition applies; every other one is 409 naming the status and the next ones", async () => {
    const p = await t.partner();
    const { reference } = await insure(p, "phnn-flx1-1111");
    for (const [from, allowed] of Object.entries(EXPECTED)) {
      for (const to of TARGETS) {
        const { claimNo } = await submit(p, claimSeed(reference));
        for (const step of from === "withdrawn" ? ["withdrawn"] : PATHS[from]!) expect((await move(p, claimNo, step)).exctnFdbck.id).toBe(75);
        const answer = await move(p, claimNo, to);
        if (allowed.includes(to)) {
          expect(answer).toMatchObject({ status: to, exctnFdbck: { id: 75 } });
        } else {
          expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 409 });
          expect(answer.exctnFdbck.elbrtn).toContain(`claim ${claimNo} is ${from}`);
          if (allowed.length) for (const next of allowed) expect(answer.exctnFdbck.elbrtn).toContain(next);
          else expect(answer.exctnFdbck.elbrtn).toContain("a final status");
          expect((await p.run("claim status", { claimNo })).status).toBe(from);
        }
      }
    }
    const refusal = await review((await submit(p, claimSeed(reference))).claimNo, "approved");
    expect(refusal.exctnFdbck.elbrtn).toMatch(
      /is submitted, so it cannot become approved: from submitted it can only become in_review \(by the operator\) or withdrawn \(by the partner\)$/,
    );
  }, 60_000);

  test("review is for the operator only; rejecting needs a reason from the list; approvals at most the amount claimed", async () => {
    const p = await t.partner();
    const { reference } = await insure(p, "phnn-flx1-1111");
    const { claimNo } = await submit(p, claimSeed(reference));
    refused(await p.run("claim review", { claimNo, status: "in_review" }), 403, "available only to the operator's administrator account");
    await review(claimNo, "in_review");
    refused(
      await review(claimNo, "rejected", { note: "Liquid damage" }),
      400,
      "seed.rejectionReason is required to reject: one of not_covered, excluded_cause",
    );
    refused(await review(claimNo, "rejected", { rejectionReason: "other" }), 400, 'seed.note is required with rejectionReason "other"');
    refused(await review(claimNo, "rejected", { rejectionReason: "acts_of_god" }), 400, "seed.rejectionReason must be one of");
    refused(
      await review(claimNo, "approved", { rejectionReason: "duplicate" }),
      400,
      'seed.rejectionReason is only for rejecting: send it with status "rejected", not "approved"',
    );
    refused(
      await review(claimNo, "approved", { approvedAmount: 45_000.01 }),
      400,
      "seed.approvedAmount must be at most the amount claimed, 45000 naira; received 45000.01",
    );
    refused(
      await review(claimNo, "rejected", { rejectionReason: "not_covered", approvedAmount: 100 }),
      400,
      'seed.approvedAmount is only for approving: send it with status "approved", not "rejected"',
    );
    refused(await review(claimNo, "closed"), 400, 'seed.status must be one of "in_review", "info_requested", "approved", "rejected", "paid"');
    refused(await review("CLM-2026-0000000000", "paid"), 404, "no claim CLM-2026-0000000000");
    refused(await review("claim-1", "paid"), 400, "seed.claimNo must be a claim number");
    expect((await p.run("claim status", { claimNo })).status).toBe("in_review");
    expect(await review(claimNo, "rejected", { rejectionReason: "excluded_cause", note: "liquid damage" })).toMatchObject({
      status: "rejected",
      rejectionReason: "excluded_cause",
      statusNote: "The cause of the loss is excluded by the policy: liquid damage",
    });
    expect(await p.run("claim status", { claimNo })).toMatchObject({
      rejectionReason: "excluded_cause",
      history: expect.arrayContaining([expect.objectContaining({ status: "rejected", note: "liquid damage" })]),
    });
    expect((await claimEvents(p.partnerId)).map((e) => e.payload.status)).toEqual(["submitted", "in_review", "rejected"]);
  });

  test("concurrent reviews: one applies, the other sees its result", async () => {
    const p = await t.partner();
    const { reference } = await insure(p, "phnn-flx1-1111");
    const { claimNo } = await submit(p, claimSeed(reference));
    await review(claimNo, "in_review");
    const answers = await Promise.all([
      review(claimNo, "approved"),
      review(claimNo, "rejected", { rejectionReason: "duplicate" }),
      review(claimNo, "approved"),
    ]);
    expect(answers.filter((a) => a.exctnFdbck.id === 75)).toHaveLength(1);
    expect(answers.filter((a) => a.exctnFdbck.id_v4 === 409)).toHaveLength(2);
    const decided = answers.find((a) => a.exctnFdbck.id === 75)!.status;
    expect((await p.run("claim status", { claimNo })).history.map((s: any) => s.status)).toEqual(["submitted", "in_review", decided]);
    expect(await claimEvents(p.partnerId)).toHaveLength(3);
  });
});

describe("claim list and tenant isolation", () => {
  test("newest first, keyset-paginated, filtered by status, policy and submission date", async () => {
    const p = await t.partner();
    const phone = await insure(p, "phnn-flx1-1111");
    const vehicle = await insure(p, "vhcl-tprt-1111");
    const submitted: string[] = [];
    for (const policy of [phone.reference, vehicle.reference, phone.reference, vehicle.reference, phone.reference])
      submitted.push((await submit(p, claimSeed(policy))).claimNo);
    await review(submitted[1]!, "in_review");

    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await p.run("claim list", { limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.exctnFdbck.id).toBe(75);
      expect(page.list.length).toBeLessThanOrEqual(2);
      seen.push(...page.list.map((c: any) => c.claimNo));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...submitted].reverse());

    const all = await p.run("claim list");
    expect(all.nextCursor).toBeNull();
    expect(all.list[0]).toMatchObject({
      claimNo: submitted[4],
      policy: phone.reference,
      productCode: "phnn-flx1-1111",
      mode: "test",
      status: "submitted",
      amount: 45_000,
      tmstmp: expect.stringMatching(TIMESTAMP),
    });
    expect(all.list[0]).not.toHaveProperty("history");
    expect(all.list[0]).not.toHaveProperty("documents");

    const ids = (answer: any) => answer.list.map((c: any) => c.claimNo);
    expect(ids(await p.run("claim list", { status: "in_review" }))).toEqual([submitted[1]]);
    expect(ids(await p.run("claim list", { policy: vehicle.reference }))).toEqual([submitted[3], submitted[1]]);
    expect(ids(await p.run("claim list", { policy: vehicle.reference, status: "submitted" }))).toEqual([submitted[3]]);
    expect(ids(await p.run("claim list", { from: watDate(0), to: watDate(0) }))).toHaveLength(5);
    expect(ids(await p.run("claim list", { from: watDate(1) }))).toEqual([]);
    expect(ids(await p.run("claim list", { to: watDate(-1) }))).toEqual([]);
    refused(await p.run("claim list", { from: watDate(0), to: watDate(-1) }), 400, "seed.to must not be before seed.from");
    refused(await p.run("claim list", { policy: crypto.randomUUID() }), 404, "seed.policy: no policy");
    refused(await p.run("claim list", { status: "open" }), 400, "seed.status must be one of");
    refused(await p.run("claim list", { cursor: "bogus" }), 400, "seed.cursor is not a cursor this service returned");
    refused(await p.run("claim list", { limit: 101 }), 400, "seed.limit must be at most 100");
    refused(await p.run("claim list", { status: "" }), 406, "seed.status is blank");
  });

  test("another partner's claims are not found, not listed and cannot be withdrawn", async () => {
    const p = await t.partner();
    const { reference } = await insure(p, "phnn-flx1-1111");
    const { claimNo } = await submit(p, claimSeed(reference));
    const other = await t.partner();
    refused(await other.run("claim status", { claimNo }), 404, `no claim ${claimNo} among this partner's claims`);
    refused(await other.run("claim withdraw", { claimNo }), 404, `no claim ${claimNo} among this partner's claims`);
    refused(await other.run("claim list", { policy: reference }), 404, "no policy");
    expect((await other.run("claim list")).list).toEqual([]);
    expect((await p.run("claim status", { claimNo })).status).toBe("submitted");
    expect(await claimEvents(other.partnerId)).toHaveLength(0);
  });

  test("the operator's list (a domain function for the portal) covers every partner", async () => {
    const a = await t.partner();
    const b = await t.partner();
    const claimOf = async (p: TestPartner) => (await submit(p, claimSeed((await insure(p, "phnn-flx1-1111")).reference))).claimNo as string;
    const [fromA, fromB] = [await claimOf(a), await claimOf(b)];
    await review(fromB, "in_review");
    const page = await listClaims(db, {}, { from: watDate(0) }, { limit: 100 });
    const numbers = page.items.map((c) => c.claimNo);
    expect(numbers).toContain(fromA);
    expect(numbers).toContain(fromB);
    expect(numbers.indexOf(fromB)).toBeLessThan(numbers.indexOf(fromA)); // newest first
    const reviewing = await listClaims(db, {}, { status: "in_review" }, { limit: 100 });
    expect(reviewing.items.find((c) => c.claimNo === fromB)).toMatchObject({ partnerId: b.partnerId, productCode: "phnn-flx1-1111", status: "in_review" });
    expect(reviewing.items.every((c) => c.status === "in_review")).toBe(true);
    const own = await listClaims(db, { partnerId: a.partnerId }, {}, { limit: 100 });
    expect(own.items.map((c) => c.claimNo)).toEqual([fromA]);
  });
});
