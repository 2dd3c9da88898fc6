/** GET /metrics: Prometheus text format, parsed strictly; counters move with requests; the optional token. */
import { afterAll, describe, expect, test } from "bun:test";
import { deliverDueWebhooks, deliverySettings, dispatchOutboxEvents } from "../src/modules/webhooks/dispatcher";
import { type TestApp, testApp } from "./support/harness";
import { fullConsumer, insureSeed, productCases } from "./support/policies";
import { startReceiver } from "./support/webhook-receiver";

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
interface Exposition {
  types: Map<string, string>;
  samples: Sample[];
}

const NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const LABEL = `[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"`;
const VALUE = "(?:[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?|[+-]?Inf|NaN)";
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(${LABEL}(?:,${LABEL})*)?\\})? (${VALUE})(?: -?\\d+)?$`);
const HELP = new RegExp(`^# HELP (${NAME}) (.*)$`);
const TYPE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`);

/** A strict parser of the text format (0.0.4): every line must be a HELP, a TYPE or a sample of a declared family. */
function parse(text: string): Exposition {
  expect(text.endsWith("\n")).toBe(true);
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.slice(0, -1).split("\n")) {
    if (HELP.test(line)) continue;
    const type = TYPE.exec(line);
    if (type) {
      expect({ line, duplicate: types.has(type[1]!) }).toEqual({ line, duplicate: false });
      types.set(type[1]!, type[2]!);
      continue;
    }
    const sample = SAMPLE.exec(line);
    expect({ line, parsed: !!sample }).toEqual({ line, parsed: true });
    const [, name, labelText, value] = sample!;
    const labels: Record<string, string> = {};
    for (const m of (labelText ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[m[1]!] = m[2]!.replace(/\\n/g, "\n").replace(/\\(["\\])/g, "$1");
    const family = name!.replace(/_(bucket|sum|count)$/, "");
    expect({ line, declared: types.has(name!) || (types.get(family) === "histogram" && name !== family) }).toEqual({ line, declared: true });
    samples.push({ name: name!, labels, value: value === "+Inf" ? Infinity : Number(value) });
  }
  return { types, samples };
}

const value = (e: Exposition, name: string, labels: Record<string, string> = {}) =>
  e.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);

async function scrape(t: TestApp, headers: Record<string, string> = {}) {
  await Bun.sleep(30); // after-response hooks count the requests just answered
  const response = await t.app.handle(new Request("http://localhost/metrics", { headers }));
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  return parse(await response.text());
}

const t = await testApp({ WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_TIMEOUT_MS: 2000 });
const receiver = await startReceiver();
afterAll(() => receiver.stop());

describe("GET /metrics", () => {
  test("parses as the Prometheus text format, with every family the operations guide names", async () => {
    const e = await scrape(t);
    expect(Object.fromEntries(e.types)).toMatchObject({
      partner_service_commands_total: "counter",
      partner_service_command_duration_seconds: "histogram",
      partner_service_commands_in_flight: "gauge",
      partner_service_http_requests_total: "counter",
      partner_service_webhook_delivery_failures_total: "counter",
      partner_service_queue_depth: "gauge",
      partner_service_database_up: "gauge",
      process_resident_memory_bytes: "gauge",
      partner_service_heap_bytes: "gauge",
      process_cpu_seconds_total: "counter",
    });
    for (const queue of ["underwriting_due", "manual_review", "outbox_undispatched", "webhook_deliveries_pending", "webhook_deliveries_due"])
      expect(e.samples.some((s) => s.name === "partner_service_queue_depth" && s.labels.queue === queue)).toBe(true);
    expect(value(e, "partner_service_database_up")).toBe(1);
    expect(value(e, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(value(e, "partner_service_commands_in_flight")).toBe(0);
  });

  test("commands are counted by command and outcome, and timed", async () => {
    const p = await t.partner();
    const before = await scrape(t);
    const listed = { command: "dump entt_*CSTMRS", outcome: "75", status: "200" };
    for (let i = 0; i < 3; i++) await p.run("dump entt_*CSTMRS");
    await p.run("dump entt_*CSTMRS_ADMIN"); // a partner: 55/403
    await p.run("no such command"); // 55/400 before any command is found
    await t.post({ userInfo: { id: p.partnerId, athrzt: { id: p.keys.test.id, key: "wrong" } }, cmmnd: { cmmnd: "dump entt_*" } }); // 55/401
    const after = await scrape(t);
    const delta = (labels: Record<string, string>) =>
      value(after, "partner_service_commands_total", labels) - value(before, "partner_service_commands_total", labels);
    expect(delta(listed)).toBe(3);
    expect(delta({ command: "dump entt_*CSTMRS_ADMIN", outcome: "55", status: "403" })).toBe(1);
    expect(delta({ command: "(none)", outcome: "55", status: "400" })).toBeGreaterThanOrEqual(1);
    expect(delta({ command: "(none)", outcome: "55", status: "401" })).toBeGreaterThanOrEqual(1);
    // The histogram: +Inf bucket = count, buckets cumulative, the count moved with the requests.
    const labels = { command: "dump entt_*CSTMRS" };
    const count = value(after, "partner_service_command_duration_seconds_count", labels);
    expect(count - value(before, "partner_service_command_duration_seconds_count", labels)).toBe(3);
    const buckets = after.samples.filter((s) => s.name === "partner_service_command_duration_seconds_bucket" && s.labels.command === labels.command);
    expect(buckets.at(-1)).toMatchObject({ labels: { le: "+Inf" }, value: count });
    for (let i = 1; i < buckets.length; i++) expect(buckets[i]!.value).toBeGreaterThanOrEqual(buckets[i - 1]!.value);
    expect(value(after, "partner_service_command_duration_seconds_sum", labels)).toBeGreaterThanOrEqual(0);
  });

  test("portal and page requests are counted by route and status", async () => {
    const before = await scrape(t);
    await t.app.handle(new Request("http://localhost/portal/consumers")); // not signed in: 303
    await t.app.handle(new Request("http://localhost/portal/consumers"));
    await t.app.handle(new Request("http://localhost/healthz"));
    await t.app.handle(new Request("http://localhost/definitely-not-here"));
    const after = await scrape(t);
    const delta = (labels: Record<string, string>) =>
      value(after, "partner_service_http_requests_total", labels) - value(before, "partner_service_http_requests_total", labels);
    expect(delta({ route: "/portal/consumers", method: "GET", status: "303" })).toBe(2);
    expect(delta({ route: "/healthz", method: "GET", status: "200" })).toBe(1);
    expect(delta({ route: "(unmatched)", status: "404" })).toBe(1);
  });

  test("queue depths follow the work waiting; webhook failures are counted", async () => {
    const p = await t.partner();
    await p.run("wallet topup", { amount: 1_000_000, reference: `fund-${crypto.randomUUID()}` }, "live");
    // An endpoint, so the partner's events wait in the outbox for the fan-out (without one they are born dispatched).
    const hook = await p.run("webhook register", { url: receiver.url("/failing") });
    const before = await scrape(t);
    // A live credit-life policy waits for an administrator.
    const c = productCases["crlt-sme1-1111"]!;
    const consumer = (await p.run("prfl entity", fullConsumer())).id;
    await p.run(`dump ipck_${c.code}*PRMM`, c.quote, "live");
    expect((await p.run(`entt_${consumer}: insure`, insureSeed(c), "live")).status).toBe("p");
    await Bun.sleep(1100); // queue depths are reused for a second
    const waiting = await scrape(t);
    const queue = (e: Exposition, name: string) => value(e, "partner_service_queue_depth", { queue: name });
    expect(queue(waiting, "manual_review") - queue(before, "manual_review")).toBe(1);
    expect(queue(waiting, "outbox_undispatched")).toBeGreaterThanOrEqual(1);

    // A receiver that fails: one failed attempt per delivery, counted by reason.
    receiver.trust("/failing", hook.secret);
    receiver.respond("/failing", () => new Response("down", { status: 503 }));
    await p.run("webhook test", { endpointId: hook.endpointId });
    const failuresBefore = value(waiting, "partner_service_webhook_delivery_failures_total", { reason: "status" });
    for (let round = 0; round < 5 && !receiver.hitsAt("/failing").length; round++) {
      await dispatchOutboxEvents(t.database.db, new Date(), { batch: 5000 });
      await deliverDueWebhooks(t.database.db, deliverySettings(t.config), new Date(), { batch: 5000 });
    }
    const failed = await scrape(t);
    expect(value(failed, "partner_service_webhook_delivery_failures_total", { reason: "status" }) - failuresBefore).toBeGreaterThanOrEqual(1);
  });

  test("with METRICS_TOKEN a bearer token is required (401 otherwise); the token never shows in the answer", async () => {
    const token = "metrics-token-for-the-test-0123456789";
    const guarded = await testApp({ METRICS_TOKEN: token });
    for (const headers of [{}, { authorization: "Bearer wrong-token" }, { authorization: token }, { authorization: `Basic ${btoa(`x:${token}`)}` }] as Record<
      string,
      string
    >[]) {
      const response = await guarded.app.handle(new Request("http://localhost/metrics", { headers }));
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect(await response.text()).not.toContain(token);
    }
    const e = await scrape(guarded, { authorization: `Bearer ${token}` });
    expect(e.types.get("partner_service_commands_total")).toBe("counter");
  });

  test("labels are escaped and stay bounded: a partner's command text never becomes a label", async () => {
    const p = await t.partner();
    await p.run('dump "weird"\ncommand\\ text');
    const response = await t.app.handle(new Request("http://localhost/metrics"));
    const text = await response.text();
    expect(text).not.toContain("weird");
    parse(text);
  });
});
