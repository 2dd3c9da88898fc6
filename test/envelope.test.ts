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
      new Request("http://localhost/", {
        method: "POST",
        body: stream(JSON.stringify(acme.envelope("dump entt_*CSTMRS"))),
        headers: { "content-type": "application/json" },
      }),
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
    envelope.userInfo.athrzt.key = `${acme.keys.test.key}\n`;
    const answer = await t.post(envelope);
    expect(answer.exctnFdbck.id).toBe(55);
    expect(answer.exctnFdbck.elbrtn).toContain("userInfo.athrzt.key must not contain spaces or line breaks");
  });
});

describe("administrator-only commands", () => {
  test.each([
    "dump entt_*CSTMRS_ADMIN",
    "dump entt_*ADMIN",
    "payment runLapse",
    "appr entt_0f8fad5bd9cb469fa16570867728950e|insr_vhcl-tprt-1111-0f8fad5b-d9cb-469f-a165-70867728950e",
  ])("%s is refused to an ordinary partner (55/403)", async (cmmnd) => {
    const answer = await acme.run(cmmnd);
    expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 403 });
    expect(answer.exctnFdbck.elbrtn).toContain("administrator");
  });

  test("the operator's account may run them", async () => {
    const operator = await t.partner({ admin: true });
    expect((await operator.run("dump entt_*CSTMRS_ADMIN")).exctnFdbck.id).toBe(75);
  });
});

// Found by the fuzzer (test/fuzz): each of these answered 55/500 (or echoed a megabyte back) before.
describe("bad input the body cannot carry is refused at the envelope, for every command", async () => {
  const big = await testApp(); // the default body limit (8 MiB)
  const p = await big.partner({ enrichment: true });
  const consumersOf = async () => (await p.run("dump entt_*CSTMRS", { limit: 100 })).list.length;

  test.each([
    [
      "a NUL in a consumer's name",
      "prfl entity",
      { class: "h", name: { first: "Ada\u0000" }, phoneNo: "+2348031234567" },
      "seed.name.first contains a NUL character",
    ],
    [
      "an unpaired surrogate in a consumer's name",
      "prfl entity",
      { class: "h", name: { first: "Ada\ud800" }, phoneNo: "+2348031234567" },
      "seed.name.first contains an unpaired UTF-16 surrogate (U+D800)",
    ],
    ["a NUL in a field name", "prfl entity", { class: "h", "na\u0000me": "x" }, "seed has a field name that contains a NUL character"],
    ["a NUL in a registry lookup", "enrch niid_vehicle", { value: "ABC\u0000123" }, "seed.value contains a NUL character"],
    ["a lone low surrogate in a list filter", "claim list", { policy: "\udc00" }, "seed.policy contains an unpaired UTF-16 surrogate (U+DC00)"],
  ])("%s → 55/400 naming the field, nothing stored", async (_name, command, seed, message) => {
    const before = await consumersOf();
    const answer = await p.run(command, seed);
    expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 400 });
    expect(answer.exctnFdbck.elbrtn).toContain(message);
    expect(await consumersOf()).toBe(before);
  });

  test("a NUL in the command string (a policy reference) → 55/400, not a database error", async () => {
    const answer = await p.run(`dump entt_${"0".repeat(32)}|insr_vhcl-tprt-1111-ref\u0000*STATUS`);
    expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 400 });
    expect(answer.exctnFdbck.elbrtn).toContain("cmmnd.cmmnd contains a NUL character");
  });

  test("a seed nested a million levels deep (2 MB) → 55/400, the server keeps serving", async () => {
    const depth = 1_000_000;
    const body = JSON.stringify(p.envelope("prfl entity", 0)).replace(/0}}$/, `${"[".repeat(depth)}1${"]".repeat(depth)}}}`);
    const answer = await big.post(body);
    expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 400 });
    expect(answer.exctnFdbck.elbrtn).toMatch(/^seed\[0\]\[0\].*… nests objects and arrays deeper than 32 levels$/);
    expect((await p.run("dump entt_*CSTMRS")).exctnFdbck.id).toBe(75);
  });

  test("nesting is limited to 32 levels in all (the deepest real seed has 6)", async () => {
    const nested = (levels: number) => Array.from({ length: levels }).reduce<unknown>((inner) => [inner], 1);
    // Root, cmmnd and seed are three levels: a list seed may nest 29 more.
    expect((await p.run("dump entt_*", { ignored: nested(28) })).exctnFdbck.id).toBe(75);
    expect((await p.run("dump entt_*", { ignored: nested(30) })).exctnFdbck).toMatchObject({ id: 55, id_v4: 400 });
  });

  test("a refusal quotes at most a little of a huge value: elbrtn stays under 1000 characters", async () => {
    const huge = `${"9".repeat(1_000_000)}x`;
    for (const [command, seed, start] of [
      ["dump entt_*CSTMRS", { limit: huge }, "seed.limit must be a JSON number, not a string"],
      ["dump entt_*", { status: huge }, 'seed.status must be one of "p", "a", "d", "l", "c", "e"; received "999'],
      [`dump ipck_${huge}*PRMM`, {}, 'product specified not supported: "999'],
    ] as const) {
      const { elbrtn } = (await p.run(command, seed)).exctnFdbck;
      expect(elbrtn.slice(0, start.length)).toBe(start);
      expect(elbrtn.length).toBeLessThan(1000);
    }
  });
});

test("POST / ignores its query string, however hostile: still HTTP 200 with exctnFdbck", async () => {
  const response = await t.app.handle(
    new Request("http://localhost/?x=%00&y=%ED%A0%80", { method: "POST", body: JSON.stringify(acme.envelope("dump entt_*CSTMRS")) }),
  );
  expect(response.status).toBe(200);
  expect((await response.json()).exctnFdbck.id).toBe(75);
});
