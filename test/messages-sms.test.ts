/**
 * SMS through the sandbox gateway (src/modules/messages/sandbox-sms.ts, docs/messages.md): every
 * scenario by the phone's last digit, the signed delivery reports at POST /messages/callbacks/sandbox
 * (the sandbox's own go through the same verifying function), and forged, unknown and repeated reports.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { loadConfig } from "../src/core/config";
import { hmacSha512 } from "../src/core/signatures";
import type { DeliverySettings } from "../src/modules/messages/delivery";
import { SMS_SANDBOX_SCENARIOS } from "../src/modules/messages/sandbox-sms";
import { type TestApp, type TestPartner, testApp } from "./support/harness";
import { deliverAll, eventsOf, instance, logOf, messageOf, queue } from "./support/messages";

// The machine is shared, and a delivery pass takes every message the suite queued before.
setDefaultTimeout(60_000);

let t: TestApp;
let partner: TestPartner;
let settings: DeliverySettings;
const later = (ms: number) => new Date(Date.now() + ms);

beforeAll(async () => {
  t = await testApp();
  partner = await t.partner({ name: "SMS Partner" });
  settings = instance(loadConfig({}, { MESSAGE_RETRY_SCALE: 0.001, MESSAGE_RETRY_SCHEDULE_S: "1,1", MESSAGE_BATCH: 500 }));
}, 60_000);

/** A text to a phone ending in `digit`, delivered; the message as it then stands. */
async function textTo(digit: string) {
  const db = t.database.db;
  const id = await queue(db, partner.partnerId, { channel: "sms", recipient: `+23480312345${digit.padStart(2, "7")}`, body: "Your cover starts today." });
  await deliverAll(db, settings);
  return { id, message: await messageOf(db, id) };
}

const callback = (body: string, signature: string, provider = "sandbox") =>
  t.app.handle(
    new Request(`http://localhost/messages/callbacks/${provider}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-termii-signature": signature },
      body,
    }),
  );
const signed = (body: string) => hmacSha512(t.config.SMS_PROVIDER_SECRET, body);

describe("the sandbox's scenarios", () => {
  test("the scenarios are documented in docs/messages.md", async () => {
    const doc = await Bun.file("docs/messages.md").text();
    for (const s of SMS_SANDBOX_SCENARIOS) expect(doc).toContain(`| \`${s.ending}\` |`);
  });

  test("any other digit: sent, then delivered by the gateway's report, each state announced", async () => {
    const { id, message } = await textTo("0");
    expect(message).toMatchObject({ status: "delivered", provider: "sandbox", statusReason: null, attempts: 1 });
    expect(message.providerReference).toMatch(/^\d{19}$/);
    expect((await logOf(t.database.db, id)).map(([s, d]) => [s, d.replace(/^attempt 1: /, "")])).toEqual([
      ["queued", ""],
      ["sent", "accepted by the SMS gateway"],
      ["delivered", "the gateway reported: Delivered"],
    ]);
    expect((await eventsOf(t.database.db, partner.partnerId, id)).map((e) => e.type)).toEqual(["message.sent", "message.delivered"]);
  });

  test.each([
    ["1", "failed", "Message Failed"],
    ["2", "bounced", "DND Active on Phone Number"],
    ["5", "bounced", "Rejected"],
    ["6", "failed", "Expired"],
  ])("ending %s: %s, in the gateway's words", async (digit, status, words) => {
    const { id, message } = await textTo(digit);
    expect(message).toMatchObject({ status, statusReason: words });
    const events = await eventsOf(t.database.db, partner.partnerId, id);
    expect(events.map((e) => e.type)).toEqual(["message.sent", `message.${status}`]);
    expect(events[1]!.payload).toMatchObject({ channel: "sms", status, reason: words });
  });

  test("ending 4: sent and never reported, it stays sent", async () => {
    const { message } = await textTo("4");
    expect(message).toMatchObject({ status: "sent", statusReason: null });
  });

  test("ending 3: the gateway is down; tried again on the schedule, failed after the last attempt", async () => {
    const db = t.database.db;
    const { id, message } = await textTo("3");
    expect(message).toMatchObject({ status: "queued", attempts: 1 });
    await deliverAll(db, settings, later(10_000));
    await deliverAll(db, settings, later(20_000));
    const m = await messageOf(db, id);
    expect(m).toMatchObject({ status: "failed", attempts: 3 });
    expect(m.statusReason).toContain("503 Service Unavailable");
    expect((await logOf(db, id)).map(([s]) => s)).toEqual(["queued", "retry", "retry", "failed"]);
    expect((await eventsOf(db, partner.partnerId, id)).map((e) => e.type)).toEqual(["message.failed"]);
  });
});

describe("delivery reports", () => {
  test("a signed report settles a sent message once; a repeat changes nothing", async () => {
    const db = t.database.db;
    const { id, message } = await textTo("4");
    const body = JSON.stringify({ type: "outbound", message_id: message.providerReference, status: "DND Active on Phone Number", receiver: "2348031234574" });
    const first = await callback(body, signed(body));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ status: "applied" });
    expect(await messageOf(db, id)).toMatchObject({ status: "bounced", statusReason: "DND Active on Phone Number" });
    const again = await callback(body, signed(body));
    expect(await again.json()).toEqual({ status: "repeat" });
    // A later report of another outcome does not undo a settled one.
    const late = JSON.stringify({ type: "outbound", message_id: message.providerReference, status: "Delivered" });
    expect(await (await callback(late, signed(late))).json()).toEqual({ status: "ignored" });
    expect((await messageOf(db, id)).status).toBe("bounced");
    expect((await eventsOf(db, partner.partnerId, id)).map((e) => e.type)).toEqual(["message.sent", "message.bounced"]);
  });

  test("a forged report is refused (401), an unknown gateway is 404, a report of an unknown message is ignored: nothing changes", async () => {
    const db = t.database.db;
    const { id, message } = await textTo("4");
    const body = JSON.stringify({ type: "outbound", message_id: message.providerReference, status: "Delivered" });
    const forged = await callback(body, "0".repeat(128));
    expect(forged.status).toBe(401);
    expect((await callback(body, signed(`${body} `))).status).toBe(401);
    expect((await callback(body, "")).status).toBe(401);
    expect((await callback(body, signed(body), "termii")).status).toBe(404);
    const unknown = JSON.stringify({ type: "outbound", message_id: "3017544054459184530253", status: "Delivered" });
    const ignored = await callback(unknown, signed(unknown));
    expect(ignored.status).toBe(200);
    expect(await ignored.json()).toEqual({ status: "ignored" });
    const notJson = "not json";
    expect((await callback(notJson, signed(notJson))).status).toBe(200);
    expect(await messageOf(db, id)).toMatchObject({ status: "sent", statusReason: null, deliveredAt: null });
    expect((await logOf(db, id)).map(([s]) => s)).toEqual(["queued", "sent"]);
  });
});
