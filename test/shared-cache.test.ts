import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { credentialCache } from "../src/modules/partners/credential-cache";
import { apiKeys } from "../src/modules/partners/schema";
import { revokeKey, rotateKey, setEnrichment } from "../src/modules/partners/service";
import { engine, individual, PNG_BASE64, testApp } from "./support/harness";
import { fullConsumer, insureSeed, productCases } from "./support/policies";

const t = await testApp();
const db = t.database.db;

/** A cheap command that needs a genuine key. */
const listConsumers = (p: Awaited<ReturnType<typeof t.partner>>, label: "test" | "live" | "legacy" = "test") => p.run("dump entt_*CSTMRS", undefined, label);

describe("authentication is cached, and every credential change is seen by the next request", () => {
  test("a revoked key is refused at once, though it was just used", async () => {
    const p = await t.partner();
    expect((await listConsumers(p)).exctnFdbck.id).toBe(75);
    expect(credentialCache.get(p.keys.test.id)).toBeDefined();
    await revokeKey(db, p.keys.test.id);
    const refused = await listConsumers(p);
    expect(refused.exctnFdbck).toMatchObject({ id: 55, id_v4: 401, elbrtn: expect.stringContaining("not genuine") });
  });

  test("a rotated key is refused at once; the new one works", async () => {
    const p = await t.partner();
    expect((await listConsumers(p, "live")).exctnFdbck.id).toBe(75);
    const fresh = await rotateKey(db, p.partnerId, "live");
    expect((await listConsumers(p, "live")).exctnFdbck.id).toBe(55);
    const answer = await t.post({ userInfo: { id: p.partnerId, athrzt: fresh }, cmmnd: { cmmnd: "dump entt_*CSTMRS" } });
    expect(answer.exctnFdbck.id).toBe(75);
  });

  test("the mode toggle reaches the legacy key on the very next request", async () => {
    const p = await t.partner();
    expect((await listConsumers(p, "legacy")).exctnFdbck.id).toBe(75);
    await p.run("set env_live", undefined, "legacy");
    expect(credentialCache.get(p.keys.legacy.id)).toBeUndefined();
    const again = await p.run("set env_test", undefined, "legacy");
    expect(again.keyMode).toBe("test");
  });

  test("enrichment switched off is refused at once", async () => {
    const p = await t.partner({ enrichment: true });
    expect((await listConsumers(p)).exctnFdbck.id).toBe(75);
    await setEnrichment(db, p.partnerId, false);
    expect((await p.run("enrch vin_vehicle", { vin: "1HGCM82633A004352" })).exctnFdbck.id_v4).toBe(403);
  });

  test("a wrong key is refused even when the key id is cached", async () => {
    const p = await t.partner();
    expect((await listConsumers(p)).exctnFdbck.id).toBe(75);
    const wrong = await t.post({ userInfo: { id: p.partnerId, athrzt: { id: p.keys.test.id, key: p.keys.live.key } }, cmmnd: { cmmnd: "dump entt_*CSTMRS" } });
    expect(wrong.exctnFdbck).toMatchObject({ id: 55, elbrtn: expect.stringContaining("not genuine") });
  });

  test.skipIf(engine !== "postgres")("another instance's change arrives by NOTIFY and is forgotten here", async () => {
    const p = await t.partner();
    const heard: string[] = [];
    await t.database.listen(credentialCache.channel, (payload) => {
      heard.push(payload.split(" ")[0]!);
      credentialCache.received(payload);
    });
    expect((await listConsumers(p)).exctnFdbck.id).toBe(75);
    // What another process's revokeKey does: change the row and notify, without touching our cache.
    await db.transaction(async (tx) => {
      await tx.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, p.keys.test.id));
      await credentialCache.announce(tx, p.partnerId);
    });
    for (let i = 0; i < 50 && !heard.includes(p.partnerId); i++) await Bun.sleep(20);
    expect(heard).toContain(p.partnerId);
    expect((await listConsumers(p)).exctnFdbck.id_v4).toBe(401);
  });
});

describe("consumers are cached for issuance, and an update is seen by the next policy", () => {
  test("a consumer completed with prfl entity (same e-mail) can be insured at once", async () => {
    const p = await t.partner();
    const withoutId = individual(); // no socialID: comprehensive vehicle cover needs one
    const registered = await p.run("prfl entity", withoutId);
    const c = productCases["vhcl-cmpr-1111"]!;
    const refused = await p.run(`entt_${registered.id}: insure`, insureSeed(c));
    expect(refused.exctnFdbck.elbrtn).toContain("socialID");
    const updated = await p.run("prfl entity", { class: "h", eMail: withoutId.eMail, socialID: { type: "nidd", id: "12345678901", image: PNG_BASE64 } });
    expect(updated.id).toBe(registered.id);
    const accepted = await p.run(`entt_${registered.id}: insure`, insureSeed(c));
    expect(accepted.exctnFdbck).toEqual({ id: 75, id_v4: 200 });
  });

  test("a cached consumer stays scoped to its partner", async () => {
    const owner = await t.partner();
    const other = await t.partner();
    const registered = await owner.run("prfl entity", fullConsumer());
    const c = productCases["vhcl-tprt-1111"]!;
    expect((await owner.run(`entt_${registered.id}: insure`, insureSeed(c))).exctnFdbck.id).toBe(75);
    const refused = await other.run(`entt_${registered.id}: insure`, insureSeed(c));
    expect(refused.exctnFdbck).toMatchObject({ id: 55, id_v4: 409, elbrtn: expect.stringContaining("consumer not found") });
  });
});
