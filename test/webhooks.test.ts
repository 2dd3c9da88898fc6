import { afterAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { simulatedInsurer, underwriteDuePolicies } from "../src/modules/issuance/underwriting";
import {
  type DeliverySettings,
  deliverDueWebhooks,
  deliverySettings,
  dispatchOutboxEvents,
  RETRY_SCHEDULE_MS,
  retryAfterMs,
} from "../src/modules/webhooks/dispatcher";
import { webhookDeliveries } from "../src/modules/webhooks/schema";
import { WEBHOOK_EVENT_TYPES } from "../src/modules/webhooks/service";
import { type TestPartner, testApp } from "./support/harness";
import { fullConsumer, insureSeed, productCases } from "./support/policies";
import { startReceiver } from "./support/webhook-receiver";

const t = await testApp({ WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_TIMEOUT_MS: 2000 });
const db = t.database.db;
const settings: DeliverySettings = deliverySettings(t.config);
const receiver = await startReceiver();
afterAll(() => receiver.stop());

/** Fan out and deliver everything due at `now` (the job's clock; signatures carry the real time). */
async function pump(now = new Date(), with_: Partial<DeliverySettings> = {}) {
  for (let round = 0; round < 20; round++) {
    const fanned = await dispatchOutboxEvents(db, now, { batch: 500 });
    const delivered = await deliverDueWebhooks(db, { ...settings, ...with_ }, now);
    if (!fanned && !delivered) return;
  }
}

let paths = 0;
/** Register an endpoint at a fresh receiver path, trusted with its secret. */
async function endpoint(p: TestPartner, seed: Record<string, unknown> = {}) {
  const path = `/hooks/${++paths}`;
  const answer = await p.run("webhook register", { url: receiver.url(path), ...seed });
  expect(answer.exctnFdbck).toEqual({ id: 75, id_v4: 200 });
  receiver.trust(path, answer.secret);
  return { path, id: answer.endpointId as string, secret: answer.secret as string, answer };
}

const topUp = (p: TestPartner, amount = 5000) => p.run("wallet topup", { amount, reference: `ref-${crypto.randomUUID()}` }, "live");
const deliveries = async (p: TestPartner, seed: Record<string, unknown> = {}) => {
  const answer = await p.run("webhook deliveries", seed);
  expect(answer.exctnFdbck.id).toBe(75);
  return answer.list as any[];
};
const endpoints = async (p: TestPartner) => (await p.run("webhook list")).list as any[];
const refusal = (answer: any) => answer.exctnFdbck as { id: number; id_v4: number; elbrtn: string };

async function issueTestPolicy(p: TestPartner, addtnlFact: Record<string, unknown> = {}, label: "test" | "live" = "test") {
  const c = productCases["vhcl-tprt-1111"]!;
  const consumer = (await p.run("prfl entity", fullConsumer())).id;
  await p.run(`dump ipck_${c.code}*PRMM`, c.quote, label);
  const seed = insureSeed(c, { addtnlFact: { ...c.addtnlFact(), ...addtnlFact } });
  const answer = await p.run(`entt_${consumer}: insure`, seed, label);
  expect(answer.exctnFdbck.id).toBe(75);
  return answer;
}

afterAll(() => expect(receiver.unverified.map((h) => `${h.path} ${h.id}`)).toEqual([]));

describe("webhook register, list, update, delete", () => {
  test("register answers the endpoint and its whsec_ secret once; list never shows secrets", async () => {
    const p = await t.partner();
    const { answer } = await endpoint(p, { events: ["policy.approved", "wallet.credited", "policy.approved"], description: "Claims desk" });
    const { endpointId, secret } = answer;
    expect(endpointId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(answer).toMatchObject({
      url: expect.stringContaining("/hooks/"),
      events: ["policy.approved", "wallet.credited"],
      description: "Claims desk",
      enabled: true,
      tmstmp: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(secret.slice(6), "base64").length).toBe(32);
    const [listed] = await endpoints(p);
    expect(listed).toMatchObject({ endpointId, events: ["policy.approved", "wallet.credited"], enabled: true });
    expect(JSON.stringify(listed)).not.toContain("whsec_");
    expect(listed).not.toHaveProperty("disabledReason");
  });

  test("bad seeds get a 55 naming the field and change nothing", async () => {
    const p = await t.partner();
    const { path } = await endpoint(p);
    const cases: [unknown, number, string][] = [
      [{}, 400, "seed.url is required"],
      [{ url: "ftp://example.com/hook" }, 400, "seed.url must be an http(s) URL, not ftp:"],
      [{ url: "not a url" }, 400, "seed.url must be an http(s) URL"],
      [{ url: "https://user:pass@example.com/hook" }, 400, "seed.url must not contain a user name or password"],
      [{ url: `https://example.com/${"a".repeat(2048)}` }, 400, "seed.url must be at most 2048 characters"],
      [{ url: receiver.url("/x"), events: ["policy.approved", "policy.aproved"] }, 400, 'seed.events[1] must be one of "policy.pending"'],
      [{ url: receiver.url("/x"), events: "policy.approved" }, 400, "seed.events must be an array"],
      [{ url: receiver.url("/x"), description: "" }, 400, "seed.description must not be empty"],
      [{ url: receiver.url("/x"), secret: "whsec_mine" }, 400, "unknown field: secret"],
      [{ url: 42 }, 400, "seed.url must be a string; received an integer"],
      [{ url: receiver.url(path) }, 409, "seed.url is already registered as endpoint"],
    ];
    for (const [seed, status, message] of cases) {
      const feedback = refusal(await p.run("webhook register", seed));
      expect(feedback).toMatchObject({ id: 55, id_v4: status });
      expect(feedback.elbrtn).toContain(message);
    }
    expect(await endpoints(p)).toHaveLength(1);
  });

  test("update changes url, events, description and enabled; refusals change nothing", async () => {
    const p = await t.partner();
    const { id } = await endpoint(p, { events: ["wallet.credited"] });
    const newPath = `/hooks/${++paths}`;
    const updated = await p.run("webhook update", { endpointId: id, url: receiver.url(newPath), events: [], description: "All events", enabled: false });
    expect(updated).toMatchObject({ endpointId: id, url: receiver.url(newPath), events: [], description: "All events", enabled: false });
    expect(updated).not.toHaveProperty("secret");
    expect(updated).not.toHaveProperty("disabledReason"); // disabled by the partner, not by the service
    // The compact (32 hex) form of the id is accepted like every UUID in the protocol.
    expect((await p.run("webhook update", { endpointId: id.replaceAll("-", ""), enabled: true })).enabled).toBe(true);

    const before = await endpoints(p);
    const other = await t.partner();
    const cases: [TestPartner, unknown, number, string][] = [
      [p, { endpointId: crypto.randomUUID() }, 404, "no webhook endpoint"],
      [other, { endpointId: id, enabled: false }, 404, "no webhook endpoint"],
      [p, { endpointId: "nope" }, 400, "seed.endpointId must be a UUID"],
      [p, { endpointId: id, rotateSecret: false }, 400, "seed.rotateSecret must be one of true"],
      [p, { endpointId: id, enabled: "no" }, 400, "seed.enabled must be a JSON boolean"],
      [p, { endpointId: id, url: "gopher://x" }, 400, "seed.url must be an http(s) URL"],
      [p, { endpointId: id, events: ["everything"] }, 400, "seed.events[0] must be one of"],
    ];
    for (const [who, seed, status, message] of cases) {
      const feedback = refusal(await who.run("webhook update", seed));
      expect(feedback).toMatchObject({ id: 55, id_v4: status });
      expect(feedback.elbrtn).toContain(message);
    }
    expect(await endpoints(p)).toEqual(before);
  });

  test("delete is soft: the endpoint leaves the list, its pending deliveries fail, its log stays", async () => {
    const p = await t.partner();
    const { id, path } = await endpoint(p);
    receiver.respond(path, () => new Response("down", { status: 500 }));
    await topUp(p);
    await pump();
    expect((await deliveries(p, { endpointId: id }))[0]).toMatchObject({ status: "pending", lastStatus: 500 });
    const other = await t.partner();
    expect(refusal(await other.run("webhook delete", { endpointId: id })).id_v4).toBe(404);
    const deleted = await p.run("webhook delete", { endpointId: id });
    expect(deleted).toMatchObject({ endpointId: id, deleted: true, failedDeliveries: 1, exctnFdbck: { id: 75 } });
    expect(await endpoints(p)).toEqual([]);
    expect((await deliveries(p, { endpointId: id }))[0]).toMatchObject({ status: "failed", lastError: "endpoint deleted" });
    expect(refusal(await p.run("webhook delete", { endpointId: id })).id_v4).toBe(404);
    expect(refusal(await p.run("webhook update", { endpointId: id, enabled: true })).id_v4).toBe(404);
    // The URL is free again.
    expect((await p.run("webhook register", { url: receiver.url(path) })).exctnFdbck.id).toBe(75);
  });

  test("a new URL takes the endpoint's waiting deliveries along (unless the event already goes there)", async () => {
    const p = await t.partner();
    const old = await endpoint(p);
    receiver.respond(old.path, () => new Response("down", { status: 503 }));
    const oneOffPath = `/hooks/${++paths}`;
    receiver.trust(oneOffPath, (await p.run("webhook secret")).secret);
    receiver.respond(oneOffPath, () => new Response("down", { status: 503 }));
    await topUp(p);
    await issueTestPolicy(p, { webHook: receiver.url(oneOffPath) });
    await pump();
    expect((await deliveries(p, { status: "pending" })).length).toBe(3); // wallet + policy to the endpoint, policy to its webHook

    const fixed = `/hooks/${++paths}`;
    receiver.trust(fixed, old.secret);
    await p.run("webhook update", { endpointId: old.id, url: receiver.url(fixed) });
    await pump(new Date(Date.now() + 10_000));
    expect(
      receiver
        .hitsAt(fixed)
        .map((h) => h.payload.type)
        .sort(),
    ).toEqual(["policy.approved", "wallet.credited"]);
    const attempts = (await deliveries(p, { endpointId: old.id })).flatMap((d) => d.attempts.map((a: any) => a.url));
    expect(attempts.sort()).toEqual([receiver.url(fixed), receiver.url(fixed), receiver.url(old.path), receiver.url(old.path)].sort());

    // Pointing the endpoint at the policy's webHook: that event already has a delivery there.
    receiver.respond(fixed, () => new Response("down", { status: 503 }));
    await issueTestPolicy(p, { webHook: receiver.url(oneOffPath) });
    await topUp(p);
    await pump();
    await p.run("webhook update", { endpointId: old.id, url: receiver.url(oneOffPath) });
    receiver.trust(oneOffPath, old.secret); // the endpoint's deliveries now go there, signed with its secret
    const failed = await deliveries(p, { endpointId: old.id, status: "failed" });
    expect(failed.map((d) => [d.eventType, d.lastError])).toEqual([
      ["policy.approved", `superseded: the event already has a delivery to ${receiver.url(oneOffPath)}`],
    ]);
    const moved = await deliveries(p, { endpointId: old.id, status: "pending" });
    expect(moved.map((d) => [d.eventType, d.url])).toEqual([["wallet.credited", receiver.url(oneOffPath)]]);
  });

  test("a partner never sees or touches another partner's endpoints and deliveries", async () => {
    const a = await t.partner();
    const b = await t.partner();
    const { id } = await endpoint(a);
    await topUp(a);
    await pump();
    const [delivery] = await deliveries(a);
    expect(delivery.status).toBe("succeeded");
    expect(await endpoints(b)).toEqual([]);
    expect(await deliveries(b)).toEqual([]);
    for (const [cmmnd, seed] of [
      ["webhook update", { endpointId: id, enabled: false }],
      ["webhook delete", { endpointId: id }],
      ["webhook test", { endpointId: id }],
      ["webhook deliveries", { endpointId: id }],
      ["webhook replay", { deliveryId: delivery.deliveryId }],
    ] as const)
      expect(refusal(await b.run(cmmnd, seed))).toMatchObject({ id: 55, id_v4: 404 });
    expect((await endpoints(a))[0].enabled).toBe(true);
  });

  test("WEBHOOK_EVENT_TYPES lists every type the service records", () => {
    expect([...WEBHOOK_EVENT_TYPES]).toEqual([
      "policy.pending",
      "policy.approved",
      "policy.declined",
      "policy.lapsed",
      "policy.cancelled",
      "policy.reinstated",
      "policy.renewed",
      "policy.renewal_failed",
      "policy.expiring",
      "policy.expired",
      "policy.endorsed",
      "policy.endorsement_declined",
      "wallet.credited",
      "wallet.funding_held",
      "wallet.funding_failed",
      "wallet.funding_expired",
      "claim.submitted",
      "claim.updated",
      "claim.due_soon",
      "claim.overdue",
      "claim.voucher_issued",
      "claim.payout_failed",
      "claim.payout_reversed",
      "complaint.received",
      "complaint.acknowledged",
      "complaint.resolved",
      "financing.plan_created",
      "financing.installment_recorded",
      "financing.completed",
      "financing.lapsed",
      "financing.cancelled",
      "message.sent",
      "message.delivered",
      "message.bounced",
      "message.failed",
      "webhook.endpoint_disabled",
      "webhook.test",
    ]);
  });
});

describe("delivery", () => {
  test("an event reaches the endpoint signed per Standard Webhooks, and the log shows the attempt", async () => {
    const p = await t.partner();
    const { id, path, secret } = await endpoint(p);
    await topUp(p, 2500.5);
    await pump();
    const [hit] = receiver.hitsAt(path);
    expect(hit!.verifiedBy).toEqual([secret]);
    expect(hit!.headers["content-type"]).toBe("application/json");
    expect(hit!.headers["user-agent"]).toContain("webhooks");
    expect(Math.abs(Number(hit!.timestamp) - Date.now() / 1000)).toBeLessThan(10);
    expect(hit!.payload).toMatchObject({ type: "wallet.credited", data: { amount: 2500.5, balance: 2500.5 } });
    expect(new Date(hit!.payload.timestamp).toISOString()).toBe(hit!.payload.timestamp);
    // The reference verifier parses what it verified.
    expect(new Webhook(secret).verify(hit!.body, hit!.headers)).toEqual(hit!.payload);

    const [delivery] = await deliveries(p);
    expect(delivery).toMatchObject({
      eventId: hit!.id,
      eventType: "wallet.credited",
      endpointId: id,
      url: receiver.url(path),
      status: "succeeded",
      lastStatus: 200,
    });
    expect(delivery).not.toHaveProperty("nextAttemptAt");
    expect(delivery.attempts).toHaveLength(1);
    const [attempt] = delivery.attempts;
    expect(attempt).toMatchObject({ number: 1, url: receiver.url(path), response: { status: 200, body: "ok" } });
    expect(attempt.request.body).toBe(hit!.body);
    expect(attempt.request.headers).toMatchObject({ "webhook-id": hit!.id, "webhook-timestamp": hit!.timestamp, "webhook-signature": hit!.signature });
    expect(attempt.latencyMs).toBeGreaterThanOrEqual(0);
    expect(attempt).not.toHaveProperty("error");
  });

  test("the events filter: each endpoint gets only the types it asked for; none asked: all", async () => {
    const p = await t.partner();
    const wallet = await endpoint(p, { events: ["wallet.credited"] });
    const policy = await endpoint(p, { events: ["policy.approved"] });
    const all = await endpoint(p);
    await topUp(p);
    await issueTestPolicy(p);
    await pump();
    const types = (path: string) =>
      receiver
        .hitsAt(path)
        .map((h) => h.payload.type)
        .sort();
    expect(types(wallet.path)).toEqual(["wallet.credited"]);
    expect(types(policy.path)).toEqual(["policy.approved"]);
    expect(types(all.path)).toEqual(["policy.approved", "wallet.credited"]);
    // Filtering the log by event type.
    expect((await deliveries(p, { eventType: "policy.approved" })).map((d) => d.endpointId).sort()).toEqual([policy.id, all.id].sort());
  });

  test("addtnlFact.webHook gets that policy's events, signed with the partner's default secret", async () => {
    const p = await t.partner();
    const path = `/hooks/${++paths}`;
    const { secret } = await p.run("webhook secret");
    expect(secret).toMatch(/^whsec_/);
    expect((await p.run("webhook secret")).secret).toBe(secret); // stable until rotated
    receiver.trust(path, secret);
    const registered = await endpoint(p, { events: ["policy.pending"] });
    expect((await topUp(p, 1_000_000)).exctnFdbck.id).toBe(75);
    const live = await issueTestPolicy(p, { webHook: receiver.url(path) }, "live");
    expect(live.status).toBe("p");
    await issueTestPolicy(p); // another policy, without webHook
    await pump();
    await underwriteDuePolicies(db, simulatedInsurer, new Date(Date.now() + 60_000), { batch: 1000 });
    await pump();
    const hits = receiver.hitsAt(path);
    expect(hits.map((h) => h.payload.type)).toEqual(["policy.pending", "policy.approved"]);
    expect(hits.every((h) => h.payload.data.id === live.id && h.verifiedBy[0] === secret)).toBe(true);
    // The registered endpoint got the pending event of both policies' kind it asked for, with its own secret.
    expect(receiver.hitsAt(registered.path).map((h) => h.payload.data.id)).toEqual([live.id]);
    const oneOff = (await deliveries(p)).filter((d) => d.url === receiver.url(path));
    expect(oneOff).toHaveLength(2);
    expect(oneOff.every((d) => !("endpointId" in d) && d.status === "succeeded")).toBe(true);
  });

  test("the default secret rotates like an endpoint's; a webHook answering 410 is given up", async () => {
    const p = await t.partner();
    const path = `/hooks/${++paths}`;
    const old = (await p.run("webhook secret")).secret;
    const rotated = await p.run("webhook secret", { rotate: true });
    const secret: string = rotated.secret;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(old);
    expect(rotated.previousSecretUntil).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(refusal(await p.run("webhook secret", { rotate: "yes" })).elbrtn).toContain("seed.rotate must be one of true");
    receiver.trust(path, old, secret);
    receiver.respond(path, () => new Response("gone", { status: 410 }));
    await issueTestPolicy(p, { webHook: receiver.url(path) });
    await pump();
    const [hit] = receiver.hitsAt(path);
    expect(hit!.verifiedBy.sort()).toEqual([old, secret].sort());
    expect((await deliveries(p))[0]).toMatchObject({ status: "failed", lastStatus: 410 });
  });

  test("a rotated secret: both sign for 24 hours, each verifies alone; then only the new one", async () => {
    const p = await t.partner();
    const { id, path, secret: old } = await endpoint(p);
    const rotated = await p.run("webhook update", { endpointId: id, rotateSecret: true });
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(old);
    expect(rotated.previousSecretUntil).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    receiver.trust(path, rotated.secret);
    await topUp(p);
    await pump();
    const [during] = receiver.hitsAt(path);
    expect(during!.signature.split(" ")).toHaveLength(2);
    expect(during!.verifiedBy.sort()).toEqual([old, rotated.secret].sort());

    await topUp(p);
    await pump(new Date(Date.now() + 25 * 3_600_000));
    const after = receiver.hitsAt(path)[1]!;
    expect(after.signature.split(" ")).toHaveLength(1);
    expect(after.verifiedBy).toEqual([rotated.secret]);
  });

  test("replay: a fresh delivery of the same event, same webhook-id, to the same endpoint", async () => {
    const p = await t.partner();
    const { path } = await endpoint(p);
    await topUp(p);
    await pump();
    const [original] = await deliveries(p);
    const replay = await p.run("webhook replay", { deliveryId: original.deliveryId });
    expect(replay).toMatchObject({ replayOf: original.deliveryId, eventId: original.eventId, status: "pending", attempts: [], exctnFdbck: { id: 75 } });
    expect(replay.deliveryId).not.toBe(original.deliveryId);
    await pump();
    const hits = receiver.hitsAt(path);
    expect(hits).toHaveLength(2);
    expect(hits[1]!.id).toBe(hits[0]!.id);
    expect(hits[1]!.body).toBe(hits[0]!.body);
    expect((await deliveries(p, { status: "succeeded" })).map((d) => d.deliveryId).sort()).toEqual([original.deliveryId, replay.deliveryId].sort());
    expect(refusal(await p.run("webhook replay", { deliveryId: crypto.randomUUID() }))).toMatchObject({ id: 55, id_v4: 404 });
    expect(refusal(await p.run("webhook replay", {})).elbrtn).toBe("seed.deliveryId is required");
  });

  test("webhook test: one webhook.test delivery to that endpoint only", async () => {
    const p = await t.partner();
    const target = await endpoint(p);
    const bystander = await endpoint(p);
    const answer = await p.run("webhook test", { endpointId: target.id });
    const { deliveryId } = answer;
    expect(deliveryId).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer).toMatchObject({ eventType: "webhook.test", endpointId: target.id, status: "pending" });
    await pump();
    expect(receiver.hitsAt(target.path).map((h) => h.payload)).toEqual([
      { type: "webhook.test", timestamp: expect.any(String), data: { endpointId: target.id, message: expect.any(String) } },
    ]);
    expect(receiver.hitsAt(bystander.path)).toEqual([]);
    expect((await deliveries(p, { endpointId: target.id }))[0]).toMatchObject({ deliveryId, status: "succeeded" });
    await p.run("webhook update", { endpointId: target.id, enabled: false });
    expect(refusal(await p.run("webhook test", { endpointId: target.id }))).toMatchObject({ id: 55, id_v4: 409 });
  });

  test("the delivery log filters by endpoint, type and status, newest first, with a cursor", async () => {
    const p = await t.partner();
    const a = await endpoint(p);
    const b = await endpoint(p);
    receiver.respond(b.path, () => new Response("no", { status: 500 }));
    await topUp(p);
    await topUp(p);
    await pump();
    expect(await deliveries(p)).toHaveLength(4);
    expect((await deliveries(p, { endpointId: a.id })).every((d) => d.status === "succeeded")).toBe(true);
    expect((await deliveries(p, { status: "pending" })).every((d) => d.endpointId === b.id && d.lastError === "answered HTTP 500")).toBe(true);
    const first = await p.run("webhook deliveries", { limit: 3 });
    const second = await p.run("webhook deliveries", { limit: 3, cursor: first.nextCursor });
    expect(first.list).toHaveLength(3);
    expect(second.list).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
    const all = [...first.list, ...second.list];
    expect(new Set(all.map((d: any) => d.deliveryId)).size).toBe(4);
    expect(all.map((d: any) => d.tmstmp)).toEqual([...all.map((d: any) => d.tmstmp)].sort().reverse());
    expect(refusal(await p.run("webhook deliveries", { status: "lost" })).elbrtn).toContain("seed.status must be one of");
    expect(refusal(await p.run("webhook deliveries", { cursor: "bogus" })).elbrtn).toContain("seed.cursor");
    await p.run("webhook delete", { endpointId: b.id });
  });
});

describe("retries, Retry-After, 410, disabling", () => {
  test("a failing receiver is retried on the schedule (shrunk), then the delivery fails", async () => {
    const p = await t.partner();
    const { path } = await endpoint(p);
    receiver.respond(path, () => new Response("broken", { status: 500 }));
    const scale = 0.01;
    await topUp(p);
    let now = new Date();
    await pump(now, { retryScale: scale });
    const gaps: number[] = [];
    for (let attempt = 2; attempt <= 10; attempt++) {
      const [delivery] = await db
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.partnerId, p.partnerId), eq(webhookDeliveries.status, "pending")));
      expect(delivery).toBeDefined();
      gaps.push(delivery!.nextAttemptAt!.getTime() - now.getTime());
      // Not a moment early.
      await pump(new Date(delivery!.nextAttemptAt!.getTime() - 1), { retryScale: scale });
      expect(receiver.hitsAt(path)).toHaveLength(attempt - 1);
      now = delivery!.nextAttemptAt!;
      await pump(now, { retryScale: scale });
    }
    gaps.forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual(RETRY_SCHEDULE_MS[i]! * scale);
      expect(gap).toBeLessThan(RETRY_SCHEDULE_MS[i]! * scale + 1000);
    });
    const [delivery] = await deliveries(p);
    expect(delivery).toMatchObject({ status: "failed", lastStatus: 500 });
    expect(delivery.attempts.map((a: any) => a.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(receiver.hitsAt(path)).toHaveLength(10);
    expect(new Set(receiver.hitsAt(path).map((h) => h.id)).size).toBe(1);
  });

  test("a delivery whose ten attempts were all cut off (crashes) is given up, not leased forever", async () => {
    const p = await t.partner();
    const { path } = await endpoint(p);
    receiver.respond(path, () => new Response("down", { status: 500 }));
    await topUp(p);
    await pump();
    // As if the 2nd … 10th attempts were each leased and the process died before writing their outcome.
    await db.update(webhookDeliveries).set({ attempts: 10, nextAttemptAt: new Date() }).where(eq(webhookDeliveries.partnerId, p.partnerId));
    await pump();
    expect((await deliveries(p))[0]).toMatchObject({ status: "failed", lastError: "no outcome recorded after 10 attempts" });
    expect(receiver.hitsAt(path)).toHaveLength(1);
  });

  test("Retry-After asking for longer than the schedule is honoured; a shorter one is not", async () => {
    const p = await t.partner();
    const { path } = await endpoint(p);
    receiver.respond(path, (_hit, nth) =>
      nth === 1
        ? new Response("busy", { status: 503, headers: { "retry-after": "120" } })
        : nth === 2
          ? new Response("busy", { status: 429, headers: { "retry-after": "1" } })
          : new Response("ok"),
    );
    await topUp(p);
    const start = new Date();
    await pump(start);
    await pump(new Date(start.getTime() + 100_000)); // the schedule alone would retry after 5 s
    expect(receiver.hitsAt(path)).toHaveLength(1);
    const second = new Date(start.getTime() + 121_000);
    await pump(second);
    expect(receiver.hitsAt(path)).toHaveLength(2);
    await pump(new Date(second.getTime() + 2_000)); // Retry-After 1 s < the 5 min step
    expect(receiver.hitsAt(path)).toHaveLength(2);
    await pump(new Date(second.getTime() + 301_000));
    expect(receiver.hitsAt(path)).toHaveLength(3);
    expect((await deliveries(p))[0]).toMatchObject({ status: "succeeded" });
    expect(retryAfterMs("Wed, 21 Oct 2099 07:28:00 GMT", Date.now())).toBe(86_400_000); // capped at 24 h
    expect(retryAfterMs(new Date(Date.now() + 30_000).toUTCString(), Date.now())).toBeGreaterThan(28_000);
    expect(retryAfterMs("soon", Date.now())).toBeNull();
  });

  test("410 Gone fails the delivery, disables the endpoint at once and notifies the other endpoints", async () => {
    const p = await t.partner();
    const gone = await endpoint(p, { events: ["wallet.credited"] });
    const watcher = await endpoint(p, { events: ["webhook.endpoint_disabled"] });
    receiver.respond(gone.path, () => new Response("gone", { status: 410 }));
    await topUp(p);
    await pump();
    const [listedWatcher, listedGone] = await endpoints(p);
    expect(listedWatcher.endpointId).toBe(watcher.id);
    expect(listedGone).toMatchObject({ endpointId: gone.id, enabled: false, disabledReason: expect.stringContaining("410 Gone") });
    expect((await deliveries(p, { endpointId: gone.id }))[0]).toMatchObject({ status: "failed", lastStatus: 410 });
    const [notice] = receiver.hitsAt(watcher.path);
    expect(notice!.payload).toMatchObject({
      type: "webhook.endpoint_disabled",
      data: { endpointId: gone.id, url: receiver.url(gone.path), reason: expect.stringContaining("410") },
    });
    // Nothing more goes to it; enabling it again clears the reason.
    await topUp(p);
    await pump();
    expect(receiver.hitsAt(gone.path)).toHaveLength(1);
    const enabled = await p.run("webhook update", { endpointId: gone.id, enabled: true });
    expect(enabled.enabled).toBe(true);
    expect(enabled).not.toHaveProperty("disabledReason");
  });

  test("failing without a success for WEBHOOK_DISABLE_AFTER_MS disables the endpoint; a success clears the run", async () => {
    const p = await t.partner();
    const failing = await endpoint(p, { events: ["wallet.credited"] });
    const flaky = await endpoint(p, { events: ["wallet.credited"] });
    const watcher = await endpoint(p, { events: ["webhook.endpoint_disabled"] });
    receiver.respond(failing.path, () => new Response("down", { status: 503 }));
    receiver.respond(flaky.path, (_hit, nth) => new Response(nth === 1 ? "down" : "ok", { status: nth === 1 ? 503 : 200 }));
    const disableAfterMs = 60_000;
    await topUp(p);
    const start = new Date();
    await pump(start, { disableAfterMs });
    const listed = await endpoints(p);
    const failingSince = listed.find((e) => e.endpointId === failing.id).failingSince;
    expect(failingSince).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(listed.find((e) => e.endpointId === flaky.id).failingSince).toEqual(expect.any(String));

    await topUp(p);
    await pump(new Date(start.getTime() + 30_000), { disableAfterMs });
    let now = await endpoints(p);
    expect(now.find((e) => e.endpointId === failing.id)).toMatchObject({ enabled: true, failingSince });
    expect(now.find((e) => e.endpointId === flaky.id)).not.toHaveProperty("failingSince"); // succeeded since

    await pump(new Date(start.getTime() + 400_000), { disableAfterMs });
    now = await endpoints(p);
    expect(now.find((e) => e.endpointId === failing.id)).toMatchObject({
      enabled: false,
      disabledReason: expect.stringContaining("no successful delivery since"),
    });
    expect((await deliveries(p, { endpointId: failing.id })).every((d) => d.status === "failed")).toBe(true);
    const notices = receiver.hitsAt(watcher.path);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.payload.data).toMatchObject({ endpointId: failing.id, failingSince, disabledAt: expect.any(String) });
  });

  test("a slow receiver times out and the delivery waits for its retry", async () => {
    const p = await t.partner();
    const { path } = await endpoint(p);
    receiver.respond(path, async () => {
      await Bun.sleep(1500);
      return new Response("late");
    });
    await topUp(p);
    const started = performance.now();
    await pump(new Date(), { timeoutMs: 300 });
    expect(performance.now() - started).toBeLessThan(1400);
    const [delivery] = await deliveries(p);
    expect(delivery).toMatchObject({ status: "pending", lastError: "timed out after 300 ms" });
    expect(delivery.attempts[0]).toMatchObject({ error: "timed out after 300 ms" });
    expect(delivery.attempts[0]).not.toHaveProperty("response");
    expect(delivery.attempts[0].latencyMs).toBeLessThan(1000);
    receiver.respond(path, () => new Response("ok"));
  });

  test("redirects are not followed: a 3xx is a failed attempt that names the Location", async () => {
    const p = await t.partner();
    const { path } = await endpoint(p);
    receiver.respond(path, () => new Response(null, { status: 302, headers: { location: "http://10.0.0.5/internal" } }));
    await topUp(p);
    await pump();
    const [delivery] = await deliveries(p);
    expect(delivery).toMatchObject({ status: "pending", lastStatus: 302, lastError: "redirect to http://10.0.0.5/internal not followed" });
    expect(receiver.hitsAt(path)).toHaveLength(1);
    await p.run("webhook delete", { endpointId: delivery.endpointId });
  });

  test("a response body is logged up to 2 KB", async () => {
    const p = await t.partner();
    const { path } = await endpoint(p);
    receiver.respond(path, () => new Response("é".repeat(5000), { status: 400 }));
    await topUp(p);
    await pump();
    const [delivery] = await deliveries(p);
    expect(Buffer.byteLength(delivery.attempts[0].response.body)).toBeLessThanOrEqual(2048 + 2);
    expect(delivery.attempts[0].response.body.startsWith("éé")).toBe(true);
    await p.run("webhook delete", { endpointId: delivery.endpointId });
  });

  test("a response body no text column holds (a NUL, broken UTF-8) is logged with U+FFFD in their place, and the attempt recorded", async () => {
    const p = await t.partner();
    const { path } = await endpoint(p);
    receiver.respond(path, () => new Response(Uint8Array.from([0x6f, 0x6b, 0x00, 0xff, 0x21]), { status: 500 }));
    await topUp(p);
    await pump();
    const [delivery] = await deliveries(p);
    expect(delivery).toMatchObject({ status: "pending", lastStatus: 500 });
    expect(delivery.attempts).toMatchObject([{ response: { status: 500, body: "ok\ufffd\ufffd!" } }]);
    await p.run("webhook delete", { endpointId: delivery.endpointId });
  });
});

describe("an event with nowhere to go is written already dispatched", () => {
  test("without an endpoint or a one-off URL the fan-out never sees it; once an endpoint exists, the next event is delivered", async () => {
    const { outboxEvents } = await import("../src/modules/events/schema");
    const p = await t.partner();
    await topUp(p);
    const [quiet] = await db.select().from(outboxEvents).where(eq(outboxEvents.partnerId, p.partnerId));
    expect(quiet!.dispatchedAt).not.toBeNull();
    const path = `/born/${crypto.randomUUID()}`;
    const { endpointId, secret } = await p.run("webhook register", { url: receiver.url(path) });
    receiver.trust(path, secret);
    expect(endpointId).toBeDefined();
    await topUp(p);
    const events = await db.select().from(outboxEvents).where(eq(outboxEvents.partnerId, p.partnerId));
    expect(events.filter((e) => e.dispatchedAt === null)).toHaveLength(1);
    const now = new Date(Date.now() + 1000);
    while ((await dispatchOutboxEvents(db, now)) > 0) {}
    while ((await deliverDueWebhooks(db, settings, now)) > 0) {}
    expect(receiver.hitsAt(path).map((h) => h.payload.type)).toEqual(["wallet.credited"]);
  });
});
