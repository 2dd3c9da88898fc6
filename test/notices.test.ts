import { describe, expect, test } from "bun:test";
import { and, asc, eq, isNull, like } from "drizzle-orm";
import { consumers } from "../src/modules/consumers/schema";
import { outboxEvents } from "../src/modules/events/schema";
import { recordEvents } from "../src/modules/events/service";
import { messages } from "../src/modules/messages/schema";
import { saveBranding } from "../src/modules/notices/branding";
import { noticeOf } from "../src/modules/notices/catalogue";
import { noticeOutboxEvents } from "../src/modules/notices/fanout";
import { remindInstallments } from "../src/modules/notices/installments";
import { saveTemplate, setSender } from "../src/modules/notices/templates";
import { policies } from "../src/modules/policies/schema";
import { PNG_BASE64, type TestPartner, testApp } from "./support/harness";
import { fullConsumer, insureSeed, productCases, watDate } from "./support/policies";

const t = await testApp();
const db = t.database.db;
const operator = await t.partner({ admin: true });

/** Run the fan-out until nothing waits (the worker's loop). */
async function fanOut(now = new Date()) {
  while ((await noticeOutboxEvents(db, t.config, now)) > 0) {}
}

const messagesOf = (partnerId: string) => db.select().from(messages).where(eq(messages.partnerId, partnerId)).orderBy(asc(messages.id));

async function issued(p: TestPartner, code = "vhcl-tprt-1111", consumerOverrides: Record<string, unknown> = {}) {
  const c = productCases[code]!;
  const profile = fullConsumer();
  const consumer = (await p.run("prfl entity", { ...profile, ...consumerOverrides })).id as string;
  if (c.quote) expect((await p.run(`dump ipck_${c.code}*PRMM`, c.quote)).exctnFdbck.id).toBe(75);
  const answer = await p.run(`entt_${consumer}: insure`, insureSeed(c));
  expect(answer.status).toBe("a");
  const [policy] = await db
    .select()
    .from(policies)
    .where(and(eq(policies.partnerId, p.partnerId), eq(policies.reference, answer.id)));
  return { policy: policy!, email: String(profile.eMail).toLowerCase(), answer };
}

const actor = (p: TestPartner) => ({ label: "test", email: p.portal.email, partnerId: p.partnerId });

describe("the notices fan-out", () => {
  test("an issued policy queues an e-mail and an SMS to the insured, with the certificate link and the partner's branding", async () => {
    const p = await t.partner({ name: "Shield Brokers" });
    await saveBranding(
      db,
      p.partnerId,
      { displayName: "Shield", colour: "#aa3300", supportPhone: "+2348001112222", supportEmail: "help@shield.ng", logo: PNG_BASE64 },
      actor(p),
      new Date(),
    );
    const { policy, email, answer } = await issued(p);
    await fanOut();
    const sent = await messagesOf(p.partnerId);
    expect(sent.map((m) => [m.channel, m.kind, m.status])).toEqual([
      ["email", "policy.issued", "queued"],
      ["sms", "policy.issued", "queued"],
    ]);
    const [mail, sms] = sent;
    expect(mail!.recipient).toBe(email);
    expect(mail!.recipientName).toBe("Adaeze Okafor");
    expect(mail!.subject).toBe(`Your policy ${policy.policyNo} is ready`);
    expect(mail!.body).toContain(answer.certUrl);
    expect(mail!.html).toContain(`<a href="${answer.certUrl}">`);
    expect(mail!.html).toContain("background:#aa3300");
    expect(mail!.html).toContain(`/brand/${p.partnerId}/logo`);
    expect(mail!.html).toContain("+2348001112222 · help@shield.ng");
    expect(mail!.about).toBe(`policy:${policy.id}`);
    expect(mail!.consumerId).toBe(policy.consumerId);
    const [event] = await db
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.partnerId, p.partnerId), eq(outboxEvents.type, "policy.approved")));
    expect(mail!.dedupeKey).toBe(`${event!.id}:email`);
    expect(sms!.recipient).toBe("+2348031234567");
    expect(sms!.body).toBe(`Shield: your policy ${policy.policyNo} is active. Certificate: ${answer.certUrl}`);
    expect(sms!.language).toBe("en");
    // The logo is served at its public address.
    const logo = await t.app.handle(new Request(`http://localhost/brand/${p.partnerId}/logo`));
    expect(logo.status).toBe(200);
    expect(logo.headers.get("content-type")).toBe("image/png");
  });

  test("events without a notice are born noticed; the ones with one wait until the fan-out", async () => {
    const p = await t.partner();
    await issued(p);
    const events = await db.select().from(outboxEvents).where(eq(outboxEvents.partnerId, p.partnerId));
    const waiting = events.filter((e) => e.noticedAt === null).map((e) => e.type);
    expect(waiting).toEqual(["policy.approved"]);
    await fanOut();
    expect(
      await db
        .select()
        .from(outboxEvents)
        .where(and(eq(outboxEvents.partnerId, p.partnerId), isNull(outboxEvents.noticedAt))),
    ).toEqual([]);
  });

  test("each event is told with its own template, with its values", async () => {
    const p = await t.partner({ name: "Values Ltd" });
    const { policy } = await issued(p);
    await fanOut();
    const heading = { id: policy.reference, consumerId: policy.consumerId, productCode: policy.productCode, policyNo: policy.policyNo, mode: "test" };
    const now = new Date();
    await recordEvents(
      db,
      [
        { partnerId: p.partnerId, type: "policy.expiring", payload: { ...heading, status: "a", daysLeft: 7, lastDay: "2027-01-31" } },
        {
          partnerId: p.partnerId,
          type: "policy.cancelled",
          payload: { ...heading, status: "c", cancellation: { refund: 9801.37, effectiveDate: "2026-12-01" } },
        },
        { partnerId: p.partnerId, type: "policy.lapsed", payload: { ...heading, status: "l", statusNote: "the installment due on 2027-01-01 was not paid" } },
        { partnerId: p.partnerId, type: "policy.endorsed", payload: { ...heading, status: "a", version: 2 } },
        { partnerId: p.partnerId, type: "policy.expired", payload: { ...heading, status: "e" } },
        { partnerId: p.partnerId, type: "policy.renewed", payload: { ...heading, status: "a" } },
        { partnerId: p.partnerId, type: "policy.declined", payload: { ...heading, status: "d" } },
      ],
      now,
    );
    await fanOut();
    const sms = (await messagesOf(p.partnerId)).filter((m) => m.channel === "sms" && m.kind !== "policy.issued");
    const byKind = Object.fromEntries(sms.map((m) => [m.kind, m.body]));
    expect(Object.keys(byKind).sort()).toEqual(["policy.cancelled", "policy.endorsed", "policy.expired", "policy.expiring", "policy.lapsed", "policy.renewed"]);
    expect(byKind["policy.expiring"]).toBe(`Values Ltd: your policy ${policy.policyNo} ends on 2027-01-31 (7 days). Renew to stay covered.`);
    // SMS say NGN: the naira sign would make every SMS with an amount a UCS-2 one.
    expect(byKind["policy.cancelled"]).toBe(`Values Ltd: your policy ${policy.policyNo} is cancelled from 2026-12-01. Refund: NGN 9,801.37.`);
    expect(byKind["policy.lapsed"]).toContain("has lapsed: the installment due on 2027-01-01 was not paid.");
    const mails = (await messagesOf(p.partnerId)).filter((m) => m.channel === "email" && m.kind === "policy.cancelled");
    expect(mails[0]!.body).toContain("Your refund: ₦9,801.37.");
  });

  test("claim events: received, and more information needed, to the claim's policy's consumer", async () => {
    const p = await t.partner({ name: "Claims Co" });
    const { policy } = await issued(p, "phnn-flx1-1111");
    const submitted = await p.run("claim submit", {
      policy: policy.reference,
      incidentDate: watDate(0),
      description: "Screen cracked on a tiled floor",
      amount: 45_000,
    });
    expect(submitted.exctnFdbck.id).toBe(75);
    expect((await operator.run("claim review", { claimNo: submitted.claimNo, status: "in_review" })).exctnFdbck.id).toBe(75);
    const reviewed = await operator.run("claim review", { claimNo: submitted.claimNo, status: "info_requested", note: "Send a photo of the phone" });
    expect(reviewed.exctnFdbck.id).toBe(75);
    await fanOut();
    const sms = (await messagesOf(p.partnerId)).filter((m) => m.channel === "sms" && m.kind.startsWith("claim."));
    expect(sms.map((m) => m.kind)).toEqual(["claim.received", "claim.info_requested"]);
    expect(sms[0]!.body).toBe(`Claims Co: we received your claim ${submitted.claimNo} (NGN 45,000.00). We will update you.`);
    expect(sms[1]!.body).toContain("Send a photo of the phone");
    expect(sms[0]!.about).toMatch(/^claim:/);
  });

  test("complaint events go to the complainant the payload names", async () => {
    const p = await t.partner({ name: "Fair Insure" });
    await recordEvents(
      db,
      [
        {
          partnerId: p.partnerId,
          type: "complaint.received",
          payload: { complaintNo: "CMP-2026-0042", complainant: { name: "Chidi Eze", email: "chidi@example.ng", phone: "+2348030000001" } },
        },
        {
          partnerId: p.partnerId,
          type: "complaint.resolved",
          payload: {
            complaintNo: "CMP-2026-0043",
            complainant: { name: "Bisi Ade", email: "bisi@example.ng" },
            outcome: "partly_upheld",
            redress: 25_000,
          },
        },
      ],
      new Date(),
    );
    await fanOut();
    // Written in one pass, at one instant: in the order of kind and channel.
    const sent = (await messagesOf(p.partnerId)).sort((a, b) => `${a.kind} ${a.channel}`.localeCompare(`${b.kind} ${b.channel}`));
    expect(sent.map((m) => [m.kind, m.channel, m.recipient])).toEqual([
      ["complaint.received", "email", "chidi@example.ng"],
      ["complaint.received", "sms", "+2348030000001"],
      ["complaint.resolved", "email", "bisi@example.ng"],
    ]);
    expect(sent[0]!.body).toContain("Dear Chidi Eze");
    expect(sent[2]!.body).toContain("complaint CMP-2026-0043: it is upheld in part. What we pay to put it right: ₦25,000.00.");
  });

  test("exactly once, even with two fan-out passes at once", async () => {
    const p = await t.partner();
    for (let i = 0; i < 3; i++) await issued(p);
    const now = new Date();
    await Promise.all([noticeOutboxEvents(db, t.config, now), noticeOutboxEvents(db, t.config, now)]);
    await Promise.all([fanOut(now), fanOut(now)]);
    const sent = await messagesOf(p.partnerId);
    expect(sent).toHaveLength(6);
    expect(new Set(sent.map((m) => m.dedupeKey)).size).toBe(6);
  });

  test("a notice the partner sends themselves is written as suppressed, with the reason", async () => {
    const p = await t.partner();
    await setSender(db, p.partnerId, noticeOf("policy.issued")!, "sms", "partner", actor(p), new Date());
    await issued(p);
    await fanOut();
    const sent = await messagesOf(p.partnerId);
    expect(sent.map((m) => [m.channel, m.status, m.statusReason])).toEqual([
      ["email", "queued", null],
      ["sms", "suppressed", "the partner sends this message themselves"],
    ]);
  });

  test("reminders respect the opt-out, service messages do not; Pidgin when preferred", async () => {
    const p = await t.partner({ name: "Naija Cover" });
    const { policy } = await issued(p);
    await db.update(consumers).set({ remindersOff: true, language: "pcm" }).where(eq(consumers.id, policy.consumerId));
    const heading = { id: policy.reference, policyNo: policy.policyNo, status: "a", mode: "test" };
    await recordEvents(
      db,
      [
        { partnerId: p.partnerId, type: "policy.expiring", payload: { ...heading, daysLeft: 30, lastDay: "2027-01-31" } },
        { partnerId: p.partnerId, type: "policy.expired", payload: { ...heading, status: "e" } },
      ],
      new Date(),
    );
    await fanOut();
    const later = (await messagesOf(p.partnerId)).filter((m) => m.kind !== "policy.issued");
    expect(later.map((m) => [m.kind, m.channel, m.status, m.statusReason])).toEqual([
      ["policy.expiring", "email", "suppressed", "the insured turned reminders off"],
      ["policy.expiring", "sms", "suppressed", "the insured turned reminders off"],
      ["policy.expired", "email", "queued", null],
      ["policy.expired", "sms", "queued", null],
    ]);
    const sms = later.find((m) => m.kind === "policy.expired" && m.channel === "sms")!;
    expect(sms.language).toBe("pcm");
    expect(sms.body).toBe(`Naija Cover: your policy ${policy.policyNo} don end. Cover no dey again.`);
  });

  test("a partner's edit applies to messages rendered after it; values are escaped in the HTML", async () => {
    const p = await t.partner({ name: "<b>Bold</b> & Co" });
    const before = new Date();
    await saveTemplate(
      db,
      p.partnerId,
      noticeOf("policy.issued")!,
      "email",
      { subject: "Hello {{insuredName}}", body: "Policy {{policyNo}} from {{partnerName}}" },
      actor(p),
      before,
    );
    await issued(p, "vhcl-tprt-1111", { name: { first: "<script>alert(1)</script>", last: "Okafor" } });
    await fanOut();
    const [mail] = (await messagesOf(p.partnerId)).filter((m) => m.channel === "email");
    expect(mail!.subject).toBe("Hello <script>alert(1)</script> Okafor");
    expect(mail!.html).not.toContain("<script>alert(1)</script>");
    expect(mail!.html).toContain("&#60;b&#62;Bold&#60;/b&#62; &#38; Co");
    expect(mail!.html).not.toContain("<b>Bold</b>");
  });
});

describe("installments, by date", () => {
  test("due in 3 days (a reminder), missed, the last day before the lapse: each once", async () => {
    const p = await t.partner({ name: "Pay Small" });
    const { policy } = await issued(p);
    const plan = await p.run("payment financeLoan", {
      policy: policy.reference,
      downPayment: 3000,
      installments: 4,
      frequency: "weekly",
      firstDueDate: watDate(2),
    });
    expect(plan.exctnFdbck.id).toBe(75);
    const due = watDate(2);
    const now = new Date();
    const kindsOn = async (today: string) => {
      await remindInstallments(db, t.config, today, now);
      return (await messagesOf(p.partnerId)).filter((m) => m.kind.startsWith("financing.")).map((m) => `${m.kind} ${m.channel}`);
    };
    expect(await kindsOn(watDate(0))).toEqual(["financing.installment_due email", "financing.installment_due sms"]);
    // A repeat, the next day too: nothing more.
    expect(await remindInstallments(db, t.config, watDate(0), now)).toBe(0);
    expect(await kindsOn(watDate(1))).toHaveLength(2);
    const sms = (await messagesOf(p.partnerId)).find((m) => m.kind === "financing.installment_due" && m.channel === "sms")!;
    expect(sms.body).toBe(`Pay Small: your installment of NGN 3,000.00 for policy ${policy.policyNo} is due on ${due}.`);
    // The day after the due date: missed; the last day to pay: the lapse warning.
    expect((await kindsOn(watDate(3))).filter((k) => k.includes("missed"))).toEqual(["financing.installment_missed email", "financing.installment_missed sms"]);
    const graceDays = plan.graceDays as number;
    const payBy = watDate(2 + graceDays);
    expect((await kindsOn(payBy)).filter((k) => k.includes("lapse_warning"))).toEqual(["financing.lapse_warning email", "financing.lapse_warning sms"]);
    const warning = (await messagesOf(p.partnerId)).find((m) => m.kind === "financing.lapse_warning" && m.channel === "sms")!;
    expect(warning.body).toBe(`Pay Small: pay NGN 3,000.00 by ${payBy} or your policy ${policy.policyNo} lapses.`);
  });

  test("the installment reminder respects the opt-out", async () => {
    const p = await t.partner();
    const { policy } = await issued(p);
    await db.update(consumers).set({ remindersOff: true }).where(eq(consumers.id, policy.consumerId));
    const plan = await p.run("payment financeLoan", {
      policy: policy.reference,
      downPayment: 3000,
      installments: 4,
      frequency: "weekly",
      firstDueDate: watDate(1),
    });
    expect(plan.exctnFdbck.id).toBe(75);
    await remindInstallments(db, t.config, watDate(0), new Date());
    const due = (await messagesOf(p.partnerId)).filter((m) => m.kind === "financing.installment_due");
    expect(due.map((m) => m.status)).toEqual(["suppressed", "suppressed"]);
  });
});

describe("a policy's messages, all of them", () => {
  test("only events a notice answers wait for the fan-out (the partial index's rows)", async () => {
    const p = await t.partner();
    await recordEvents(db, [{ partnerId: p.partnerId, type: "wallet.credited", payload: { amount: 1 } }], new Date());
    const rows = await db
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.partnerId, p.partnerId), like(outboxEvents.type, "wallet.%")));
    expect(rows[0]!.noticedAt).not.toBeNull();
  });
});
