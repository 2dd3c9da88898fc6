/**
 * Issue 13 §1: a request costs little before we know who sent it. Bodies are held to shape limits
 * before they are parsed (src/core/json-shape.ts), refusals before or at authentication are
 * throttled per client address and per claimed partner id, the client address believes
 * X-Forwarded-For only from TRUSTED_PROXIES, and the command endpoint answers other methods 405.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { jsonLimits, memberText } from "../src/core/json-shape";
import { MemoryRateLimiter, RedisRateLimiter } from "../src/core/rate-limit";
import { clientAddressOf, NO_SOCKET_ADDRESS } from "../src/http/client-address";
import { MAX_SIGN_IN_BODY_BYTES } from "../src/modules/accounts/portal";
import { MAX_SIGNED_OUT_BODY_BYTES } from "../src/portal/session";
import { signedIn } from "./portal/browser";
import { redisAvailable, redisUrl, type TestApp, type TestPartner, testApp } from "./support/harness";

const limits = jsonLimits(2 * 1024 * 1024);
const FOUR_MILLION_ZEROS = `[${"0,".repeat(4_000_000 - 1)}0]`;

/** How many values (array elements and object members) a JSON value holds, counted as the limit counts them. */
const valuesIn = (value: unknown): number =>
  value !== null && typeof value === "object" ? Object.values(value).reduce<number>((sum, v) => sum + 1 + valuesIn(v), 0) : 0;

const redisUp = await redisAvailable();

const outcome = (answer: any) => answer.exctnFdbck as { id: number; id_v4: number; elbrtn?: string };

describe("the body's shape is held to limits before it is parsed", () => {
  let t: TestApp;
  let p: TestPartner;
  beforeAll(async () => {
    t = await testApp();
    p = await t.partner();
  }, 60_000);

  test("a large body is refused for its shape before the rest of it arrives", async () => {
    // 300 KB of zeros, then a body that never ends: only a check of what has arrived can answer.
    const start = new TextEncoder().encode(`{"cmmnd":{"cmmnd":"dump entt_*","seed":[${"0,".repeat(150_000)}`);
    const body = new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(start) });
    const request = new Request("http://localhost/", { method: "POST", headers: { "content-type": "application/json", "content-length": "8000000" }, body });
    const answer = outcome(await (await t.app.handle(request)).json());
    expect(answer).toMatchObject({ id: 55, id_v4: 413 });
    expect(answer.elbrtn).toBe(`seed[19997] holds more than ${limits.maxValues} values (array elements and object members in all)`);
  });

  test("8 MB of four million zeros and no userInfo → 55/413 naming the values limit", async () => {
    const body = `{"cmmnd":{"cmmnd":"dump entt_*","seed":${FOUR_MILLION_ZEROS}}}`;
    expect(body.length).toBeGreaterThan(8_000_000);
    const answer = outcome(await t.post(body));
    expect(answer).toMatchObject({ id: 55, id_v4: 413 });
    expect(answer.elbrtn).toBe(`seed[19997] holds more than ${limits.maxValues} values (array elements and object members in all)`);
  });

  test("the same body with a wrong key → the same 55/413, before any key is looked at", async () => {
    const envelope = structuredClone(p.envelope("dump entt_*")) as any;
    envelope.userInfo.athrzt.key = "wrong";
    const body = JSON.stringify(envelope).replace(/}}$/, `,"seed":${FOUR_MILLION_ZEROS}}}`);
    const answer = outcome(await t.post(body));
    expect(answer).toMatchObject({ id: 55, id_v4: 413 });
    expect(answer.elbrtn).toContain(`holds more than ${limits.maxValues} values`);
  });

  test(`values: ${limits.maxValues} in all are accepted, one more is 55/413`, async () => {
    const withValues = (total: number) => {
      const envelope = structuredClone(p.envelope("dump entt_*", { ignored: [] as number[] })) as any;
      envelope.cmmnd.seed.ignored = Array.from({ length: total - valuesIn(envelope) }, () => 0);
      expect(valuesIn(envelope)).toBe(total);
      return envelope;
    };
    expect(outcome(await t.post(withValues(limits.maxValues))).id).toBe(75);
    const refused = outcome(await t.post(withValues(limits.maxValues + 1)));
    expect(refused).toMatchObject({ id: 55, id_v4: 413 });
    expect(refused.elbrtn).toMatch(new RegExp(`^seed\\.ignored\\[\\d+\\] holds more than ${limits.maxValues} values`));
  });

  test(`fields: ${limits.maxMembers} in one object are accepted, one more is 55/413 naming the object`, async () => {
    const fields = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, 0]));
    expect(outcome(await p.run("dump entt_*", { ignored: fields(limits.maxMembers) })).id).toBe(75);
    const refused = outcome(await p.run("dump entt_*", { ignored: fields(limits.maxMembers + 1) }));
    expect(refused).toMatchObject({ id: 55, id_v4: 413 });
    expect(refused.elbrtn).toBe(`seed.ignored has more than ${limits.maxMembers} fields`);
  });

  test(`field names: ${limits.maxKeyLength} characters are accepted, one more is 55/400`, async () => {
    expect(outcome(await p.run("dump entt_*", { ["k".repeat(limits.maxKeyLength)]: 1 })).id).toBe(75);
    const refused = outcome(await p.run("dump entt_*", { nested: { ["k".repeat(limits.maxKeyLength + 1)]: 1 } }));
    expect(refused).toMatchObject({ id: 55, id_v4: 400 });
    expect(refused.elbrtn).toBe(`seed.nested has a field name longer than ${limits.maxKeyLength} characters`);
  });

  test(`strings: ${limits.maxStringLength} characters (a 2 MiB document as MIME base64) are accepted, one more is 55/413`, async () => {
    expect(outcome(await p.run("dump entt_*", { ignored: "A".repeat(limits.maxStringLength) })).id).toBe(75);
    const refused = outcome(await p.run("dump entt_*", { ignored: "A".repeat(limits.maxStringLength + 1) }));
    expect(refused).toMatchObject({ id: 55, id_v4: 413 });
    expect(refused.elbrtn).toBe(`seed.ignored is longer than ${limits.maxStringLength} characters`);
  });

  test("escaped quotes and backslashes do not end a string early", async () => {
    const tricky = `\\"${"\\\\".repeat(10)}"]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`;
    expect(outcome(await p.run("dump entt_*", { ignored: tricky, deep: [[[[[[1]]]]]] })).id).toBe(75);
  });

  test(`nesting: ${limits.maxDepth} levels are accepted, one more is 55/400 naming the field`, async () => {
    const nested = (levels: number) => Array.from({ length: levels }).reduce<unknown>((inner) => [inner], 1);
    // Root, cmmnd and seed are three levels.
    expect(outcome(await p.run("dump entt_*", { ignored: nested(limits.maxDepth - 3) })).id).toBe(75);
    const refused = outcome(await p.run("dump entt_*", { ignored: nested(limits.maxDepth - 2) }));
    expect(refused).toMatchObject({ id: 55, id_v4: 400 });
    expect(refused.elbrtn).toMatch(/^seed\.ignored\[0\].*nests objects and arrays deeper than 32 levels$/);
  });

  test("malformed JSON is still described by the parser", async () => {
    expect(outcome(await t.post('{"userInfo": [1, 2'))).toMatchObject({
      id: 55,
      id_v4: 400,
      elbrtn: expect.stringContaining("request body is not valid JSON"),
    });
  });
});

describe("refusals before or at authentication are throttled per address and per claimed partner id", () => {
  const LIMIT = 20;
  let t: TestApp;
  let url: string;
  const send = async (body: unknown, from: string) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": from },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return response.json() as Promise<any>;
  };
  beforeAll(async () => {
    // A real socket, so the client address is the peer's; loopback is the trusted proxy, so each test client is its X-Forwarded-For.
    t = await testApp({ REFUSAL_LIMIT_MAX: LIMIT, RATE_LIMIT_MAX: 5, TRUSTED_PROXIES: "127.0.0.1, ::1" });
    t.app.listen({ port: 0, hostname: "127.0.0.1" });
    url = `http://127.0.0.1:${t.app.server!.port}/`;
  }, 60_000);
  afterAll(() => t.app.stop());

  test("80 wrong-key requests for one partner → 401 up to the limit, then 55/429 with retryAfter; its genuine key still gets 75", async () => {
    const victim = await t.partner();
    const wrongKey = () => {
      const envelope = structuredClone(victim.envelope("dump entt_*CSTMRS")) as any;
      envelope.userInfo.athrzt.key = "guess";
      return envelope;
    };
    const answers: any[] = [];
    // From 80 addresses, so only the claimed partner id counts them all.
    for (let i = 0; i < 80; i++) answers.push(await send(wrongKey(), `198.51.100.${i}`));
    expect(answers.slice(0, LIMIT).every((a) => outcome(a).id_v4 === 401)).toBe(true);
    for (const refused of answers.slice(LIMIT)) {
      expect(outcome(refused)).toMatchObject({ id: 55, id_v4: 429 });
      expect(outcome(refused).elbrtn).toStartWith(`rate limit exceeded: at most ${LIMIT} refused requests`);
      expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
    }
    // The partner itself, with its genuine key, is served: and the failures took none of its own RATE_LIMIT_MAX (5).
    const genuine = await Promise.all(Array.from({ length: 5 }, () => send(victim.envelope("dump entt_*CSTMRS"), "192.0.2.10")));
    expect(genuine.map((a) => outcome(a))).toEqual(Array(5).fill({ id: 75, id_v4: 200 }));
    const sixth = outcome(await send(victim.envelope("dump entt_*CSTMRS"), "192.0.2.10"));
    expect(sixth).toMatchObject({ id: 55, id_v4: 429 });
    expect(sixth.elbrtn).toStartWith("rate limit exceeded: at most 5 requests in any 60 seconds");
  });

  test("one address sending malformed bodies → 400 up to the limit, then 429 before its body is read; other addresses are served", async () => {
    const p = await t.partner();
    const from = "203.0.113.9";
    for (let i = 0; i < LIMIT; i++) expect(outcome(await send("{not json", from)).id_v4).toBe(400);
    const refused = await send("{not json", from);
    expect(outcome(refused).id_v4).toBe(429);
    expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
    // Turned away whatever it sends now, even 8 MB.
    expect(outcome(await send(`{"cmmnd":{"seed":${FOUR_MILLION_ZEROS}}}`, from)).id_v4).toBe(429);
    expect(outcome(await send(p.envelope("dump entt_*CSTMRS"), "203.0.113.10")).id).toBe(75);
  });

  test("a claimed partner id counts only refusals: unknown partners and bad envelopes from many addresses leave a partner alone", async () => {
    const p = await t.partner();
    for (let i = 0; i < LIMIT + 5; i++) await send({ userInfo: { id: crypto.randomUUID() } }, `198.18.0.${i}`);
    expect(outcome(await send(p.envelope("dump entt_*CSTMRS"), "198.18.1.1")).id).toBe(75);
  });
});

describe("a refusal limiter can be asked without counting (the per-address check before the body is read)", () => {
  const limiters = [
    ["in memory", () => new MemoryRateLimiter(2, 60_000)],
    ...(redisUp ? [["with REDIS_URL", () => new RedisRateLimiter(redisUrl, 2, 60_000, `test-refusals:${crypto.randomUUID()}:`)] as const] : []),
  ] as const;
  test.each(limiters)("%s: peek counts nothing; hit counts until the window is full", async (_name, make) => {
    const limiter = make();
    try {
      for (let i = 0; i < 5; i++) expect((await limiter.peek("address:a")).allowed).toBe(true);
      expect((await limiter.hit("address:a")).allowed).toBe(true);
      expect((await limiter.hit("address:a")).allowed).toBe(true);
      const full = await limiter.peek("address:a");
      expect(full.allowed).toBe(false);
      expect(full.retryAfterMs).toBeGreaterThan(0);
      expect((await limiter.peek("address:b")).allowed).toBe(true);
    } finally {
      await limiter.close();
    }
  });
});

describe("the client address", () => {
  const fakeServer = (peer: string) => ({ requestIP: () => ({ address: peer }) });
  const request = (xff?: string) => new Request("http://localhost/", { headers: xff ? { "x-forwarded-for": xff } : {} });

  test("X-Forwarded-For is ignored unless the peer is a trusted proxy", () => {
    const address = clientAddressOf("");
    expect(address(request("1.2.3.4"), fakeServer("10.0.0.5"))).toBe("10.0.0.5");
    expect(address(request("1.2.3.4"), null)).toBe(NO_SOCKET_ADDRESS);
    expect(clientAddressOf("10.0.0.0/8")(request("1.2.3.4"), fakeServer("192.168.1.1"))).toBe("192.168.1.1");
  });

  test("behind trusted proxies: the right-most address that is not one of them", () => {
    const address = clientAddressOf("10.0.0.0/8, 2001:db8::1");
    expect(address(request("1.2.3.4"), fakeServer("10.0.0.5"))).toBe("1.2.3.4");
    // What the client wrote on the left is not believed.
    expect(address(request("6.6.6.6, 1.2.3.4, 10.0.0.7"), fakeServer("::ffff:10.0.0.5"))).toBe("1.2.3.4");
    expect(address(request("1.2.3.4"), fakeServer("2001:db8::1"))).toBe("1.2.3.4");
    expect(address(request("not-an-address"), fakeServer("10.0.0.5"))).toBe("10.0.0.5");
  });

  test("a TRUSTED_PROXIES entry that is not an address or CIDR is a configuration error", () => {
    expect(() => clientAddressOf("10.0.0.0/33")).toThrow('TRUSTED_PROXIES: "10.0.0.0/33" is not an IP address or CIDR block');
    expect(() => clientAddressOf("proxy.internal")).toThrow("TRUSTED_PROXIES");
  });

  test("over a socket, a request's X-Forwarded-For does not make it a new client without TRUSTED_PROXIES", async () => {
    const t = await testApp({ REFUSAL_LIMIT_MAX: 3 });
    t.app.listen({ port: 0, hostname: "127.0.0.1" });
    try {
      const url = `http://127.0.0.1:${t.app.server!.port}/`;
      const send = async (from: string) =>
        outcome(await (await fetch(url, { method: "POST", headers: { "x-forwarded-for": from }, body: "{not json" })).json());
      for (let i = 0; i < 3; i++) expect((await send(`1.1.1.${i}`)).id_v4).toBe(400);
      expect((await send("1.1.1.99")).id_v4).toBe(429);
    } finally {
      t.app.stop();
    }
  });
});

describe("the portal's sign-in is bounded and throttled before anyone is signed in", () => {
  const signIn = (t: TestApp, body: string, contentType = "application/json", headers: Record<string, string> = {}) =>
    t.app.handle(new Request("http://localhost/login", { method: "POST", headers: { "content-type": contentType, ...headers }, body }));

  test(`a body over ${MAX_SIGN_IN_BODY_BYTES} bytes → 413 without being read`, async () => {
    const t = await testApp();
    const response = await signIn(t, `email=${"a".repeat(MAX_SIGN_IN_BODY_BYTES)}`, "application/x-www-form-urlencoded");
    expect(response.status).toBe(413);
    expect(await response.text()).toContain(`at most ${MAX_SIGN_IN_BODY_BYTES} bytes`);
  });

  test("a JSON bomb within the size → refused naming the limit before it is parsed", async () => {
    const t = await testApp();
    const many = await signIn(t, `{"email":[${"0,".repeat(30_000)}0]}`);
    expect(many.status).toBe(413);
    expect(await many.text()).toContain(`holds more than ${limits.maxValues} values`);
    const deep = await signIn(t, `{"email":${"[".repeat(10_000)}${"]".repeat(10_000)}}`);
    expect(deep.status).toBe(400);
    expect(await deep.text()).toContain("nests objects and arrays deeper than 32 levels");
  });

  test("refusals from one address → a 429 page saying when to retry, then turned away before the body is read", async () => {
    const t = await testApp({ REFUSAL_LIMIT_MAX: 5 });
    for (let i = 0; i < 5; i++) expect((await signIn(t, "email=a&password=b", "application/x-www-form-urlencoded")).status).toBe(403);
    const refused = await signIn(t, "email=a&password=b", "application/x-www-form-urlencoded");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await refused.text()).toContain("Too many refused requests from your address. Try again in 1 minute.");
    const bomb = await signIn(t, `{"email":[${"0,".repeat(30_000)}0]}`);
    expect(bomb.status).toBe(429);
  });
});

describe("a signed-out visitor's portal body is not read beyond a small size", () => {
  const bigBroken = `--x\r\ncontent-disposition: form-data; name="a"\r\n\r\n${"a".repeat(MAX_SIGNED_OUT_BODY_BYTES)}`;
  const post = (t: TestApp, headers: Record<string, string>) =>
    t.app.handle(
      new Request("http://localhost/portal/consumers", {
        method: "POST",
        headers: { "content-type": "multipart/form-data; boundary=x", ...headers },
        body: bigBroken,
      }),
    );

  test(`over ${MAX_SIGNED_OUT_BODY_BYTES} bytes without a genuine session → sent to sign in before the body is parsed`, async () => {
    const t = await testApp();
    // Parsed, this broken multipart body would be a 400: the answer shows it never was.
    for (const cookie of [undefined, "session=forged.token.value"]) {
      const response = await post(t, { "content-length": String(bigBroken.length), ...(cookie ? { cookie } : {}) });
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe("/login?next=%2Fportal%2Fconsumers");
    }
  });

  test("a signed-in staff member's large body is read as before", async () => {
    const t = await testApp();
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    const response = await post(t, { "content-length": String(bigBroken.length), cookie: `session=${b.cookie("session")}` });
    expect(response.status).toBe(400);
  });
});

describe("other methods on the command endpoint", () => {
  test.each(["PUT", "PATCH", "DELETE"])("%s / → HTTP 405 in the envelope, with Allow", async (method) => {
    const t = await testApp();
    const response = await t.app.handle(new Request("http://localhost/", { method, body: "{}" }));
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD, POST");
    expect(outcome(await response.json())).toEqual({ id: 55, id_v4: 405, elbrtn: expect.stringContaining("allowed: GET, HEAD, POST") });
  });

  test("GET and HEAD still show the landing page; OPTIONS answers Allow", async () => {
    const t = await testApp();
    for (const method of ["GET", "HEAD"]) {
      const response = await t.app.handle(new Request("http://localhost/", { method }));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/html");
    }
    const options = await t.app.handle(new Request("http://localhost/", { method: "OPTIONS" }));
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("GET, HEAD, POST");
  });
});

describe("the sender a body names in its first bytes (memberText)", () => {
  test("finds a top-level member whole within the text, stepping over the members before it", () => {
    expect(memberText(`{"userInfo":{"id":"a"},"cmmnd":{}}`, "userInfo")).toBe(`{"id":"a"}`);
    expect(memberText(` { "cmmnd" : {"s":["}",{"x":"\\""}]} , "userInfo" : {"id":"b"}`, "userInfo")).toBe(`{"id":"b"}`);
    expect(memberText(`{"n":12,"t":true,"s":"a\\"b","userInfo":[1]}`, "userInfo")).toBe("[1]");
    // An escaped name is the same name, as JSON.parse reads it.
    expect(memberText(`{"\\u0075serInfo":{"id":"c"}}`, "userInfo")).toBe(`{"id":"c"}`);
  });

  test("nothing while the member, or one before it, is still arriving; nothing for a text that is not an object", () => {
    for (const text of [
      `{"userInfo":{"id":"a"`,
      `{"cmmnd":{"seed":"xxx`,
      `{"n":12`,
      `{"userInfo"`,
      `["userInfo"]`,
      `"userInfo"`,
      `{"userInfo":{}`.slice(0, 12),
      "",
    ])
      expect(memberText(text, "userInfo")).toBeUndefined();
    // A member nested deeper is not the envelope's.
    expect(memberText(`{"cmmnd":{"userInfo":{"id":"x"}}}`, "userInfo")).toBeUndefined();
  });
});
