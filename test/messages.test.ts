/**
 * The delivery of the outbox of e-mail (src/modules/messages, docs/messages.md) against an
 * in-process SMTP server: what arrives (headers, both parts, a stable Message-ID), the embedded
 * mailbox, retries after a 4xx answer, a refused and a dropped connection, a 5xx bounce, the last
 * attempt, a worker that died mid-delivery, two instances at once, suppressed messages, the events,
 * and the Messages pages (the operator's and a partner's own).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { type Config, loadConfig } from "../src/core/config";
import { type DeliverySettings, deliverDueMessages } from "../src/modules/messages/delivery";
import type { Mailer } from "../src/modules/messages/mailer";
import { signedIn } from "./portal/browser";
import { type TestApp, type TestPartner, testApp } from "./support/harness";
import { deliverAll, eventsOf, instance, logOf, messageOf, queue } from "./support/messages";
import { startSmtpServer, type TestSmtpServer } from "./support/smtp";

// The machine is shared, and a delivery pass takes every message the suite queued before.
setDefaultTimeout(60_000);

const FROM = '"Insurer Messages" <no-reply@insurer.example>';
let t: TestApp;
let partner: TestPartner;
let smtp: TestSmtpServer;
let settings: DeliverySettings;
const configWith = (overrides: Partial<Config>) => loadConfig({}, { MAIL_FROM: FROM, MESSAGE_RETRY_SCALE: 0.001, MESSAGE_BATCH: 500, ...overrides });
const later = (ms: number) => new Date(Date.now() + ms);

beforeAll(async () => {
  t = await testApp();
  partner = await t.partner({ name: "Messages Partner" });
  smtp = await startSmtpServer();
  settings = instance(configWith({ SMTP_URL: smtp.url }));
}, 60_000);

afterAll(async () => {
  settings.mailer.close();
  await smtp.stop();
});

describe("e-mail over SMTP", () => {
  test("arrives with its headers, a text and an HTML part and the Message-ID of the message; sent, logged and announced", async () => {
    const db = t.database.db;
    const consumerId = crypto.randomUUID();
    const id = await queue(db, partner.partnerId, { recipient: "Ada.Obi@Customers.example", recipientName: "Ada Obi", consumerId });
    await deliverAll(db, settings);
    const mail = await smtp.waitFor("ada.obi@customers.example");
    expect(mail.subject).toBe("Your policy is ready");
    expect(mail.text).toContain("Your policy POL-1 is in force.");
    expect(mail.html).toContain("<strong>POL-1</strong>");
    expect(mail.messageId).toBe(`<${id}@insurer.example>`);
    expect(mail.from).toBe("no-reply@insurer.example");
    expect(mail.toHeader).toContain("Ada Obi");
    expect(String((mail.headers.get("from") as { text: string }).text)).toContain("Insurer Messages");

    const m = await messageOf(db, id);
    expect(m).toMatchObject({ status: "sent", provider: "smtp", providerReference: `<${id}@insurer.example>`, attempts: 1, statusReason: null });
    expect(m.sentAt).toBeInstanceOf(Date);
    const log = await logOf(db, id);
    expect(log.map(([status]) => status)).toEqual(["queued", "sent"]);
    expect(log[1]![1]).toMatch(/^attempt 1: 250 /);
    const events = await eventsOf(db, partner.partnerId, id);
    expect(events).toEqual([
      {
        type: "message.sent",
        payload: { messageId: id, channel: "email", kind: "policy.issued", status: "sent", reason: null, consumerId: consumerId.replaceAll("-", "") },
      },
    ]);
    // Never the text of the message.
    expect(JSON.stringify(events)).not.toContain("POL-1");
  });

  test("without SMTP_URL the embedded mailbox keeps it: delivered by the provider embedded, nothing sent anywhere", async () => {
    const db = t.database.db;
    const embedded = instance(configWith({}));
    expect(embedded.mailer.name).toBe("embedded");
    const id = await queue(db, partner.partnerId);
    const before = smtp.mails.length;
    await deliverAll(db, embedded);
    const m = await messageOf(db, id);
    expect(m).toMatchObject({ status: "delivered", provider: "embedded", providerReference: `<${id}@insurer.example>` });
    expect(m.deliveredAt).toBeInstanceOf(Date);
    expect((await eventsOf(db, partner.partnerId, id)).map((e) => e.type)).toEqual(["message.delivered"]);
    expect(smtp.mails.length).toBe(before);
  });

  test("staff's own mail is delivered but announces nothing; a suppressed message is never sent", async () => {
    const db = t.database.db;
    const staff = await queue(db, partner.partnerId, { kind: "staff.invitation" });
    const suppressed = await queue(db, partner.partnerId, { suppressed: "the recipient opted out of reminders" });
    await deliverAll(db, settings);
    expect((await messageOf(db, staff)).status).toBe("sent");
    expect(await eventsOf(db, partner.partnerId, staff)).toEqual([]);
    const s = await messageOf(db, suppressed);
    expect(s).toMatchObject({ status: "suppressed", attempts: 0, statusReason: "the recipient opted out of reminders" });
    expect(smtp.mailsTo(s.recipient)).toEqual([]);
  });

  test("a 4xx answer is tried again on the schedule, then delivered once", async () => {
    const db = t.database.db;
    const id = await queue(db, partner.partnerId);
    const { recipient } = await messageOf(db, id);
    smtp.trouble({ answer: 451, message: "4.3.0 Mailbox temporarily unavailable" }, { to: recipient });
    const now = new Date();
    await deliverAll(db, settings, now);
    let m = await messageOf(db, id);
    expect(m).toMatchObject({ status: "queued", attempts: 1 });
    // The first wait (60 s) times the test scale.
    expect(m.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(now.getTime() + 60);
    expect((await logOf(db, id)).at(-1)).toEqual(["retry", expect.stringContaining("451 4.3.0 Mailbox temporarily unavailable")]);
    expect(smtp.mailsTo(recipient)).toEqual([]);
    await deliverAll(db, settings, later(1_000));
    m = await messageOf(db, id);
    expect(m).toMatchObject({ status: "sent", attempts: 2 });
    expect(smtp.mailsTo(recipient).length).toBe(1);
    expect((await eventsOf(db, partner.partnerId, id)).map((e) => e.type)).toEqual(["message.sent"]);
  });

  test("a dropped connection, and a relay that is down, are tried again; delivered once when it is back", async () => {
    const db = t.database.db;
    const dropped = await queue(db, partner.partnerId);
    const droppedTo = (await messageOf(db, dropped)).recipient;
    smtp.trouble({ drop: true }, { to: droppedTo });
    await deliverAll(db, settings);
    expect(await messageOf(db, dropped)).toMatchObject({ status: "queued", attempts: 1 });
    await deliverAll(db, settings, later(1_000));
    expect((await messageOf(db, dropped)).status).toBe("sent");
    expect(smtp.mailsTo(droppedTo).length).toBe(1);

    // A relay of its own, stopped: the connection is refused.
    const relay = await startSmtpServer();
    const port = relay.port;
    await relay.stop();
    const own = instance(configWith({ SMTP_URL: relay.url }));
    const id = await queue(db, partner.partnerId);
    await deliverAll(db, own);
    const m = await messageOf(db, id);
    expect(m).toMatchObject({ status: "queued", attempts: 1, provider: "smtp" });
    expect((await logOf(db, id)).at(-1)![1]).toMatch(/ECONNREFUSED|connect/i);
    const back = await startSmtpServer({ port });
    try {
      await deliverAll(db, own, later(1_000));
      expect((await messageOf(db, id)).status).toBe("sent");
      expect(back.mailsTo(m.recipient).length).toBe(1);
    } finally {
      own.mailer.close();
      await back.stop();
    }
  });

  test("a 5xx answer is a bounce: final, in the server's words, announced", async () => {
    const db = t.database.db;
    const id = await queue(db, partner.partnerId);
    const { recipient } = await messageOf(db, id);
    smtp.trouble({ answer: 550, message: "5.1.1 The email account that you tried to reach does not exist" }, { to: recipient });
    await deliverAll(db, settings);
    const m = await messageOf(db, id);
    expect(m.status).toBe("bounced");
    expect(m.statusReason).toContain("550 5.1.1 The email account that you tried to reach does not exist");
    await deliverAll(db, settings, later(3_600_000));
    expect((await messageOf(db, id)).attempts).toBe(1);
    const events = await eventsOf(db, partner.partnerId, id);
    expect(events.map((e) => e.type)).toEqual(["message.bounced"]);
    expect(events[0]!.payload.reason).toContain("5.1.1");
  });

  test("after the last attempt the message fails, announced", async () => {
    const db = t.database.db;
    const short = instance(configWith({ SMTP_URL: smtp.url, MESSAGE_RETRY_SCHEDULE_S: "1,1" }));
    try {
      const id = await queue(db, partner.partnerId);
      const { recipient } = await messageOf(db, id);
      smtp.trouble({ answer: 421, message: "4.4.2 Timeout waiting for data" }, { to: recipient, times: 3 });
      await deliverAll(db, short);
      await deliverAll(db, short, later(10_000));
      await deliverAll(db, short, later(20_000));
      const m = await messageOf(db, id);
      expect(m).toMatchObject({ status: "failed", attempts: 3 });
      expect(m.statusReason).toMatch(/421 4\.4\.2 .*\(after 3 attempts\)/);
      expect((await logOf(db, id)).map(([s]) => s)).toEqual(["queued", "retry", "retry", "failed"]);
      expect((await eventsOf(db, partner.partnerId, id)).map((e) => e.type)).toEqual(["message.failed"]);
    } finally {
      short.mailer.close();
    }
  });
});

describe("instances and crashes", () => {
  test("a message whose worker died mid-delivery is sent once by the next worker, after the lease", async () => {
    const db = t.database.db;
    const id = await queue(db, partner.partnerId);
    const { recipient } = await messageOf(db, id);
    // A worker that takes the message and never comes back (its process stopped mid-send).
    let release: (value: Awaited<ReturnType<Mailer["send"]>>) => void = () => {};
    const hanging: Mailer = { name: "smtp", send: () => new Promise((resolve) => (release = resolve)), close() {} };
    const now = new Date();
    const dead = deliverDueMessages(db, { ...settings, mailer: hanging }, now);
    for (let i = 0; i < 100 && (await messageOf(db, id)).status !== "sending"; i++) await Bun.sleep(10);
    expect(await messageOf(db, id)).toMatchObject({ status: "sending", attempts: 1 });

    // While the lease holds, another worker leaves it alone.
    await deliverAll(db, settings, new Date(now.getTime() + 1_000));
    expect(smtp.mailsTo(recipient)).toEqual([]);
    // After it, the message is taken again and sent once.
    await deliverAll(db, settings, new Date(now.getTime() + settings.leaseMs + 1_000));
    expect(await messageOf(db, id)).toMatchObject({ status: "sent", attempts: 2 });
    expect(smtp.mailsTo(recipient).length).toBe(1);
    // The dead worker's late answer finds its lease taken over and changes nothing.
    release({ result: "bounced", words: "550 too late" });
    await dead;
    expect(await messageOf(db, id)).toMatchObject({ status: "sent", attempts: 2, statusReason: null });
    expect((await logOf(db, id)).map(([s]) => s)).toEqual(["queued", "sent"]);
  });

  test("two delivery passes at once send each message once", async () => {
    const db = t.database.db;
    const other = instance(configWith({ SMTP_URL: smtp.url, MESSAGE_BATCH: 5, MESSAGE_CONCURRENCY: 3 }));
    const one = { ...settings, batch: 5, concurrency: 3 };
    try {
      const ids = await Promise.all(Array.from({ length: 40 }, () => queue(db, partner.partnerId)));
      await Promise.all([deliverAll(db, one), deliverAll(db, other)]);
      for (const id of ids) {
        const m = await messageOf(db, id);
        expect(m).toMatchObject({ status: "sent", attempts: 1 });
        expect(smtp.mailsTo(m.recipient).length).toBe(1);
        expect((await eventsOf(db, partner.partnerId, id)).length).toBe(1);
      }
    } finally {
      other.mailer.close();
    }
  });
});

describe("the Messages pages", () => {
  test("the operator sees every partner's messages and a message's parts and log; a partner only its own; another partner's is not found", async () => {
    const db = t.database.db;
    const [admin, other] = await Promise.all([t.partner({ admin: true }), t.partner({ name: "Other Messages Partner" })]);
    const mine = await queue(db, partner.partnerId, { subject: "Mine <b>bold</b>", html: '<p>Hello</p><script>alert("x")</script>' });
    const theirs = await queue(db, other.partnerId, { channel: "sms", recipient: "+2348031234560", body: "Your claim CLM-9 was approved." });
    await deliverAll(db, settings);
    const [mineRow, theirsRow] = [await messageOf(db, mine), await messageOf(db, theirs)];

    const operator = await signedIn(t, admin.portal);
    const list = await operator.get("/admin/messages");
    expect(list.status).toBe(200);
    expect(list.text).toContain(mineRow.recipient);
    expect(list.text).toContain("+2348031234560");
    expect(list.text).toContain("Other Messages Partner");
    const sms = await operator.get(`/admin/messages?channel=sms&partner=${other.partnerId}`);
    expect(sms.text).toContain("+2348031234560");
    expect(sms.text).not.toContain(mineRow.recipient);
    const byRecipient = await operator.get(`/admin/messages?recipient=${encodeURIComponent(mineRow.recipient.toUpperCase())}`);
    expect(byRecipient.text).toContain(mineRow.recipient);
    expect(byRecipient.text).not.toContain("+2348031234560");
    const refused = await operator.get("/admin/messages?status=lost");
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("Status");

    const page = await operator.get(`/admin/messages/${mine}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Mine &lt;b&gt;bold&lt;/b&gt;");
    expect(page.text).toContain("Your policy POL-1 is in force.");
    expect(page.text).toContain("Handed to the mail relay");
    expect(page.text).toContain(`&lt;${mine}@insurer.example&gt;`);
    expect(page.text).toContain(`href="/admin/messages/${mine}/html"`);
    expect(page.text).not.toContain("<script>alert");
    const html = await operator.get(`/admin/messages/${mine}/html`);
    expect(html.status).toBe(200);
    expect(html.headers.get("content-security-policy")).toEndWith("; sandbox");
    expect(html.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(html.text).toContain("<p>Hello</p>");
    const smsPage = await operator.get(`/admin/messages/${theirs}`);
    expect(smsPage.text).toContain("Your claim CLM-9 was approved.");
    expect(smsPage.text).toContain("Delivered to the phone");
    expect(smsPage.text).not.toContain(`${theirs}/html`);
    expect((await operator.get("/admin/messages.csv")).status).toBe(200);

    const owner = await signedIn(t, partner.portal);
    const own = await owner.get("/portal/messages");
    expect(own.status).toBe(200);
    expect(own.text).toContain(mineRow.recipient);
    expect(own.text).not.toContain(theirsRow.recipient);
    expect((await owner.get(`/portal/messages/${mine}`)).status).toBe(200);
    expect((await owner.get(`/portal/messages/${theirs}`)).status).toBe(404);
    expect((await owner.get(`/portal/messages/${theirs}/html`)).status).toBe(404);
    expect((await owner.get("/portal/messages/not-an-id")).status).toBe(404);
    const csv = await owner.get("/portal/messages.csv");
    expect(csv.text).toContain(mineRow.recipient);
    expect(csv.text).not.toContain(theirsRow.recipient);
    expect((await owner.get("/admin/messages")).status).toBe(403);
  });
});
