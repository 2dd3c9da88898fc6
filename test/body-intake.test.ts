/**
 * Issue 34 §1 and §2, over real sockets: a body that has not arrived holds no command slot and is
 * cut off when it falls behind the pace (BODY_TIMEOUT_MS, BODY_MIN_BYTES_PER_SECOND), counted as a
 * refusal of its address, on POST /, the portal's forms, the sign-in form and the payment callback;
 * a large body is read no further than IDENTIFY_WITHIN_BYTES before its sender is known; the bytes
 * of unknown senders are bounded across all of them (UNIDENTIFIED_BODY_BYTES).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { observeLog } from "../src/core/log";
import { HEAD_START_MS, IDENTIFY_WITHIN_BYTES } from "../src/http/body";
import { type TestApp, type TestPartner, testApp } from "./support/harness";
import { rawRequest, trickle } from "./support/raw-http";

const quote = (p: TestPartner) => p.envelope("dump ipck_vhcl-tprt-1111*PRMM", { insrncDrtn: "1y" });
const outcome = (body: string) => JSON.parse(body).exctnFdbck as { id: number; id_v4: number; elbrtn?: string };

/** An app listening on a loopback port, closed after its describe block. */
async function listening(overrides: Parameters<typeof testApp>[0]) {
  const t = await testApp(overrides);
  t.app.listen({ port: 0, hostname: "127.0.0.1" });
  return { t, port: t.app.server!.port!, url: `http://127.0.0.1:${t.app.server!.port}` };
}

describe("a body that has not arrived holds no command slot", () => {
  let t: TestApp;
  let port: number;
  let url: string;
  let p: TestPartner;
  beforeAll(async () => {
    ({ t, port, url } = await listening({ MAX_IN_FLIGHT: 4 }));
    p = await t.partner();
  }, 30_000);
  afterAll(() => t.app.stop(true));

  test("forty senders trickling a byte every quarter second: a partner's quotes are answered 75 throughout; each sender is cut off with 55/408 after the head start, its connection closed", async () => {
    const slow = Array.from({ length: 40 }, () => rawRequest(port, { headers: { "content-type": "application/json", "content-length": "1000000" } }));
    const stops = slow.map((connection) => trickle(connection, `{"cmmnd":${JSON.stringify("x".repeat(1000))}`, 250));
    await Bun.sleep(300);
    for (let i = 0; i < 10; i++) {
      const answer = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(quote(p)) });
      expect(outcome(await answer.text())).toEqual({ id: 75, id_v4: 200 });
    }
    const started = performance.now();
    const answers = await Promise.all(slow.map((connection) => connection.answer));
    const waited = performance.now() - started + 300;
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.headers.connection).toBe("close");
      const feedback = outcome(answer.body);
      expect(feedback).toMatchObject({ id: 55, id_v4: 408 });
      expect(feedback.elbrtn).toMatch(/^request body arrived too slowly: \d+ of its 1000000 bytes in \d+\.\d s; a body must arrive within 5 s/);
    }
    // Cut off by the rate, once the head start had passed: seconds, not the eleven days a megabyte at a byte a second takes.
    expect(waited).toBeGreaterThanOrEqual(HEAD_START_MS - 500);
    expect(waited).toBeLessThan(HEAD_START_MS + 4000);
    await Promise.all(slow.map((connection) => connection.closed));
    for (const stop of stops) stop();
    expect(t.capacity.current).toBe(0);
    expect(t.capacity.unidentifiedBytes).toBe(0);
  }, 20_000);
});

describe("the deadline, and what a cut-off costs its address", () => {
  let t: TestApp;
  let port: number;
  let url: string;
  let p: TestPartner;
  beforeAll(async () => {
    // A body must arrive within 1.5 s in all; two refusals per address.
    ({ t, port, url } = await listening({ BODY_TIMEOUT_MS: 1500, REFUSAL_LIMIT_MAX: 2 }));
    p = await t.partner();
  }, 30_000);
  afterAll(() => t.app.stop(true));

  test("a body still arriving at BODY_TIMEOUT_MS is cut off then; two cut-offs from one address and its next request is refused before its body is read", async () => {
    const body = JSON.stringify(quote(p));
    for (let i = 0; i < 2; i++) {
      const connection = rawRequest(port, { headers: { "content-type": "application/json", "content-length": String(body.length) } });
      const stop = trickle(connection, body, 20);
      const started = performance.now();
      const answer = await connection.answer;
      stop();
      expect(performance.now() - started).toBeLessThan(3000);
      const feedback = outcome(answer.body);
      expect(feedback).toMatchObject({ id: 55, id_v4: 408 });
      expect(feedback.elbrtn).toContain(`not all of its ${body.length} bytes`);
      expect(feedback.elbrtn).toContain("within 1.5 s in all");
      await connection.closed;
    }
    const refused = outcome(await (await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body })).text());
    expect(refused).toMatchObject({ id: 55, id_v4: 429 });
  });
});

describe("the portal's forms, the sign-in form and the payment callback keep the same pace", () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    ({ t, port } = await listening({ BODY_TIMEOUT_MS: 1500 }));
  }, 30_000);
  afterAll(() => t.app.stop(true));

  const slowForm = async (path: string, type = "application/x-www-form-urlencoded") => {
    const body = "name=Ada&email=ada%40example.ng&password=not-a-real-one";
    const connection = rawRequest(port, { path, headers: { "content-type": type, "content-length": String(body.length) } });
    const stop = trickle(connection, body, 50);
    const answer = await connection.answer;
    stop();
    await connection.closed;
    return answer;
  };

  test("a portal form still arriving at the deadline → a 408 page in plain words, the connection closed", async () => {
    const answer = await slowForm("/portal/consumers");
    expect(answer.status).toBe(408);
    expect(answer.headers.connection).toBe("close");
    expect(answer.body).toContain("Your form took too long to arrive and was not received");
    expect(answer.body).not.toContain("request body");
  });

  test("the sign-in form the same: the sign-in page says so", async () => {
    const answer = await slowForm("/login");
    expect(answer.status).toBe(408);
    expect(answer.body).toContain("Your form took too long to arrive and was not received");
  });

  test("a payment callback still arriving at the deadline → 408, counted like a forged one", async () => {
    const answer = await slowForm("/funding/callbacks/sandbox", "application/json");
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toEqual({ status: "refused" });
  });
});

describe("a large body is read no further than its first bytes before its sender is known", () => {
  let t: TestApp;
  let port: number;
  let p: TestPartner;
  beforeAll(async () => {
    ({ t, port } = await listening({}));
    p = await t.partner();
  }, 30_000);
  afterAll(() => t.app.stop(true));

  /** A body of `length` bytes of which only `prefix` is sent: the answer comes while the rest is still owed. */
  const partly = async (prefix: string, length: number) => {
    const connection = rawRequest(port, { headers: { "content-type": "application/json", "content-length": String(length) } });
    connection.write(prefix);
    const answer = await connection.answer;
    await connection.closed;
    return outcome(answer.body);
  };
  const longString = (n: number) => JSON.stringify("x".repeat(n));

  test("no userInfo in the first 64 KiB (one long string) → 55/413 naming the rule, without the rest of the 8 MB", async () => {
    const prefix = `{"cmmnd":{"cmmnd":"dump entt_*","seed":${longString(200_000)}`;
    const feedback = await partly(prefix, 8_000_000);
    expect(feedback).toMatchObject({ id: 55, id_v4: 413 });
    expect(feedback.elbrtn).toBe(
      `request body: a body over ${IDENTIFY_WITHIN_BYTES} bytes must name its sender within its first ${IDENTIFY_WITHIN_BYTES} bytes: send userInfo before cmmnd`,
    );
  });

  test("userInfo after a large cmmnd → the same refusal, even when the whole body has arrived", async () => {
    const envelope = quote(p) as { userInfo: unknown; cmmnd: { cmmnd: string } };
    const body = `{"cmmnd":{"cmmnd":${JSON.stringify(envelope.cmmnd.cmmnd)},"seed":{"insrncDrtn":"1y","pad":${longString(100_000)}}},"userInfo":${JSON.stringify(envelope.userInfo)}}`;
    const answer = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(outcome(await answer.text()).elbrtn).toContain("must name its sender within its first");
  });

  test("userInfo first with a wrong key → 55/401 once the first 64 KiB are in, the rest never read", async () => {
    const userInfo = { id: p.partnerId, athrzt: { id: p.keys.test.id, key: "x".repeat(p.keys.test.key.length) } };
    const feedback = await partly(`{"userInfo":${JSON.stringify(userInfo)},"cmmnd":{"cmmnd":"dump entt_*","seed":${longString(100_000)}`, 8_000_000);
    expect(feedback).toMatchObject({ id: 55, id_v4: 401 });
    expect(feedback.elbrtn).toContain("not genuine");
  });

  test("userInfo first with a malformed partner id → 55/400 naming the field", async () => {
    const userInfo = { id: "not-a-uuid", athrzt: { id: p.keys.test.id, key: p.keys.test.key } };
    const feedback = await partly(`{"userInfo":${JSON.stringify(userInfo)},"cmmnd":{"cmmnd":"dump entt_*","seed":${longString(100_000)}`, 8_000_000);
    expect(feedback).toMatchObject({ id: 55, id_v4: 400 });
    expect(feedback.elbrtn).toContain("userInfo.id must be a UUID v4");
  });

  test("a genuine sender's large body is read whole and answered", async () => {
    const envelope = quote(p) as { userInfo: unknown; cmmnd: { cmmnd: string } };
    const body = `{"userInfo":${JSON.stringify(envelope.userInfo)},"cmmnd":{"cmmnd":${JSON.stringify(envelope.cmmnd.cmmnd)},"seed":{"insrncDrtn":"1y","note":${longString(300_000)}}}}`;
    const answer = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(JSON.parse(await answer.text())).toEqual({ prmm: 15000, currency: "NGN", exctnFdbck: { id: 75, id_v4: 200 } });
  });
});

describe("the bytes of unknown senders are bounded across all senders (UNIDENTIFIED_BODY_BYTES)", () => {
  let t: TestApp;
  let port: number;
  let url: string;
  let p: TestPartner;
  beforeAll(async () => {
    ({ t, port, url } = await listening({ UNIDENTIFIED_BODY_BYTES: 120_000 }));
    p = await t.partner();
  }, 30_000);
  afterAll(() => t.app.stop(true));

  test("two large bodies of unknown senders hold the bytes: a third is answered 35/503 at once; a partner's quote is still 75; the bytes come back when they end", async () => {
    // Each holds what it sent past its first 8 KiB: 2 × 51.8 KB of the 120 KB.
    const holding = [0, 1].map(() => {
      const connection = rawRequest(port, { headers: { "content-type": "application/json", "content-length": "1000000" } });
      connection.write(`{"cmmnd":{"cmmnd":"dump entt_*","seed":"${"x".repeat(60_000)}`);
      return connection;
    });
    for (let waited = 0; t.capacity.unidentifiedBytes < 100_000 && waited < 5000; waited += 50) await Bun.sleep(50);
    expect(t.capacity.unidentifiedBytes).toBeGreaterThan(100_000);
    const third = rawRequest(port, { headers: { "content-type": "application/json", "content-length": "1000000" } });
    third.write(`{"cmmnd":{"cmmnd":"dump entt_*","seed":"${"x".repeat(30_000)}`);
    const answer = await third.answer;
    expect(outcome(answer.body)).toMatchObject({ id: 35, id_v4: 503 });
    const quoted = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(quote(p)) });
    expect(outcome(await quoted.text())).toEqual({ id: 75, id_v4: 200 });
    // Senders that hang up mid-body are refusals (400), not faults of ours.
    const records: { msg: string; status?: unknown }[] = [];
    const stop = observeLog((_level, msg, fields) => records.push({ msg, status: fields.status }));
    for (const connection of holding) connection.destroy();
    await Promise.all(holding.map((connection) => connection.closed));
    for (let waited = 0; records.filter((r) => r.msg === "command").length < 2 && waited < 2000; waited += 50) await Bun.sleep(50);
    stop();
    expect(records.filter((r) => r.msg === "command").map((r) => r.status)).toEqual([400, 400]);
    expect(records.filter((r) => r.msg === "command failed")).toEqual([]);
    expect(t.capacity.unidentifiedBytes).toBe(0);
  });
});
