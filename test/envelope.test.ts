import { describe, expect, test } from "bun:test";
import { testApp } from "./support/harness";

const t = await testApp({ MAX_BODY_BYTES: 4096 });
const acme = await t.partner();

describe("every answer of POST / is HTTP 200 with exctnFdbck", () => {
  test.each([
    ["malformed JSON", "{not json", /not valid JSON/],
    ["an empty body", "", /empty/],
    ["a non-object body (array)", "[1,2]", /must be a JSON object/],
    ["a non-object body (string)", '"prfl entity"', /must be a JSON object/],
    ["a missing userInfo", JSON.stringify({ cmmnd: { cmmnd: "prfl entity" } }), /userInfo is required/],
  ])("%s → 55/400", async (_name, body, message) => {
    const answer = await t.post(body);
    expect(answer.exctnFdbck.id).toBe(55);
    expect(answer.exctnFdbck.id_v4).toBe(400);
    expect(answer.exctnFdbck.elbrtn).toMatch(message);
  });

  test("a missing command names cmmnd.cmmnd", async () => {
    const answer = await t.post({ userInfo: { id: acme.partnerId, athrzt: acme.keys.test } });
    expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 400 });
    expect(answer.exctnFdbck.elbrtn).toContain("cmmnd is required");
  });

  test("a body over the size limit → 55/413", async () => {
    const answer = await t.post({ ...(acme.envelope("prfl entity", { padding: "x".repeat(5000) }) as object) });
    expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 413 });
    expect(answer.exctnFdbck.elbrtn).toMatch(/too large/);
  });

  test("a streamed body without a declared length is counted as it arrives: over the limit → 55/413", async () => {
    const body = JSON.stringify(acme.envelope("prfl entity", { padding: "x".repeat(5000) }));
    const stream = (text: string) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < text.length; i += 1000) controller.enqueue(new TextEncoder().encode(text.slice(i, i + 1000)));
          controller.close();
        },
      });
    const over = await t.app.handle(new Request("http://localhost/", { method: "POST", body: stream(body), headers: { "content-type": "application/json" } }));
    expect((await over.json()).exctnFdbck).toMatchObject({ id: 55, id_v4: 413 });
    const within = await t.app.handle(
      new Request("http://localhost/", { method: "POST", body: stream(JSON.stringify(acme.envelope("dump entt_*CSTMRS"))), headers: { "content-type": "application/json" } }),
    );
    expect((await within.json()).exctnFdbck).toEqual({ id: 75, id_v4: 200 });
  });

  test("an unknown command → 55/400 naming it", async () => {
    const answer = await acme.run("dump everything");
    expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 400 });
    expect(answer.exctnFdbck.elbrtn).toContain("unknown command 'dump everything'");
  });

  test("answers carry a request id header", async () => {
    const response = await t.app.handle(new Request("http://localhost/", { method: "POST", body: "{}" }));
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBeTruthy();
  });
});

describe("credentials", () => {
  const seedless = "dump entt_*CSTMRS";

  test("hyphenated UUIDs authenticate", async () => {
    expect((await acme.run(seedless)).exctnFdbck).toEqual({ id: 75, id_v4: 200 });
  });

  test("32-hex UUIDs (no hyphens, any case) authenticate", async () => {
    const answer = await t.post({
      userInfo: { id: acme.partnerId.replaceAll("-", "").toUpperCase(), athrzt: { id: acme.keys.test.id.replaceAll("-", ""), key: acme.keys.test.key } },
      cmmnd: { cmmnd: seedless },
    });
    expect(answer.exctnFdbck.id).toBe(75);
  });

  test.each([
    ["userInfo.id", (e: any) => (e.userInfo.id = "abc123notauuid")],
    ["userInfo.athrzt.id", (e: any) => (e.userInfo.athrzt.id = "zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz")],
  ])("a malformed %s → 55 naming the field", async (field, spoil) => {
    const envelope = structuredClone(acme.envelope(seedless)) as any;
    spoil(envelope);
    const answer = await t.post(envelope);
    expect(answer.exctnFdbck.id).toBe(55);
    expect(answer.exctnFdbck.elbrtn).toContain(`${field} must be a UUID v4`);
  });

  test("a wrong key → authorization is not genuine", async () => {
    const envelope = structuredClone(acme.envelope(seedless)) as any;
    envelope.userInfo.athrzt.key = Buffer.from("wrong key of the right shape....").toString("base64");
    const answer = await t.post(envelope);
    expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 401 });
    expect(answer.exctnFdbck.elbrtn).toContain("authorization is not genuine");
  });

  test("a key without its trailing padding is not genuine (the full string is the key)", async () => {
    const envelope = structuredClone(acme.envelope(seedless)) as any;
    envelope.userInfo.athrzt.key = acme.keys.test.key.replace(/=+$/, "");
    expect((await t.post(envelope)).exctnFdbck.elbrtn).toContain("not genuine");
  });

  test("another partner's key with this partner's id is not genuine", async () => {
    const other = await t.partner();
    const answer = await t.post({ userInfo: { id: acme.partnerId, athrzt: other.keys.test }, cmmnd: { cmmnd: seedless } });
    expect(answer.exctnFdbck.elbrtn).toContain("not genuine");
  });

  test("a key with a space or line break is refused", async () => {
    const envelope = structuredClone(acme.envelope(seedless)) as any;
    envelope.userInfo.athrzt.key = acme.keys.test.key + "\n";
    const answer = await t.post(envelope);
    expect(answer.exctnFdbck.id).toBe(55);
    expect(answer.exctnFdbck.elbrtn).toContain("userInfo.athrzt.key must not contain spaces or line breaks");
  });
});

describe("administrator-only commands", () => {
  test.each(["dump entt_*CSTMRS_ADMIN", "dump entt_*ADMIN", "payment runLapse", "appr entt_0f8fad5bd9cb469fa16570867728950e|insr_vhcl-tprt-1111-0f8fad5b-d9cb-469f-a165-70867728950e"])(
    "%s is refused to an ordinary partner (55/403)",
    async (cmmnd) => {
      const answer = await acme.run(cmmnd);
      expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 403 });
      expect(answer.exctnFdbck.elbrtn).toContain("administrator");
    },
  );

  test("the operator's account may run them", async () => {
    const operator = await t.partner({ admin: true });
    expect((await operator.run("dump entt_*CSTMRS_ADMIN")).exctnFdbck.id).toBe(75);
  });
});
