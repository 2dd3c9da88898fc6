import { describe, expect, test } from "bun:test";
import { authenticate } from "../src/modules/partners/service";
import { testApp } from "./support/harness";

const t = await testApp();

describe("key labels pin the environment; the legacy key follows the account toggle (spec 5.5)", () => {
  test("a new account is in test mode", async () => {
    const p = await t.partner();
    const principal = await authenticate(t.database.db, { partnerId: p.partnerId, keyId: p.keys.legacy.id, key: p.keys.legacy.key });
    expect(principal.mode).toBe("test");
  });

  test("set env_live moves legacy keys to live; test and live keys stay pinned", async () => {
    const p = await t.partner();
    const switched = await p.run("set env_live", undefined, "legacy");
    expect(switched).toEqual({ mode: "live", keyMode: "live", exctnFdbck: { id: 75, id_v4: 200 } });
    const modeOf = async (label: "test" | "live" | "legacy") =>
      (await authenticate(t.database.db, { partnerId: p.partnerId, keyId: p.keys[label].id, key: p.keys[label].key })).mode;
    expect(await modeOf("legacy")).toBe("live");
    expect(await modeOf("test")).toBe("test");
    expect(await modeOf("live")).toBe("live");

    const back = await p.run("set env_test", undefined, "live");
    expect(back).toMatchObject({ mode: "test", keyMode: "live" });
    expect(await modeOf("legacy")).toBe("test");
    expect(await modeOf("live")).toBe("live");
  });
});
