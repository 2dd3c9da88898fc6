import { afterAll, describe, expect, test } from "bun:test";
import { deliverDueWebhooks, deliverySettings, dispatchOutboxEvents } from "../../src/modules/webhooks/dispatcher";
import { testApp } from "../support/harness";
import { startReceiver } from "../support/webhook-receiver";
import { signedIn } from "./browser";

const t = await testApp({ WEBHOOK_ALLOW_PRIVATE: "true" });
const receiver = await startReceiver();
afterAll(() => receiver.stop());

/** What the background loop does: fan the outbox out, then deliver what is due. */
async function deliver() {
  const now = new Date(Date.now() + 1000);
  while ((await dispatchOutboxEvents(t.database.db, now)) > 0) {}
  while ((await deliverDueWebhooks(t.database.db, deliverySettings(t.config), now)) > 0) {}
}

const secretIn = (html: string) => /class="secret">(whsec_[^<]+)</.exec(html)?.[1];

describe("webhook pages", () => {
  test("register an endpoint (secret shown once), send a test event, see the delivery and replay it", async () => {
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    await b.get("/portal/webhooks");
    const path = `/hooks/${crypto.randomUUID()}`;
    const registered = await b.post("/portal/webhooks", { url: receiver.url(path), description: "Orders system", events: "webhook.test" });
    expect(registered.status).toBe(200);
    const secret = secretIn(registered.text)!;
    expect(secret).toMatch(/^whsec_/);
    receiver.trust(path, secret);
    const list = await b.get("/portal/webhooks");
    expect(list.text).toContain("Orders system");
    expect(list.text).not.toContain(secret);
    const endpointId = /\/portal\/webhooks\/([0-9a-f-]{36})"/.exec(list.text)![1]!;
    const tested = await b.post(`/portal/webhooks/${endpointId}/test`, {});
    expect(tested.text).toContain("webhook.test event is on its way");
    await deliver();
    expect(receiver.hitsAt(path)).toHaveLength(1);
    expect(receiver.hitsAt(path)[0]!.verifiedBy).toEqual([secret]);
    const page = await b.get(`/portal/webhooks/${endpointId}`);
    expect(page.text).toContain("succeeded");
    expect(page.text).toContain("webhook-signature");
    const deliveryId = /\/portal\/webhooks\/deliveries\/([0-9a-f-]{36})\/replay/.exec(page.text)![1]!;
    const replayed = await b.post(`/portal/webhooks/deliveries/${deliveryId}/replay`, {}, { "hx-request": "true" });
    expect(replayed.status).toBe(200);
    await deliver();
    const hits = receiver.hitsAt(path);
    expect(hits).toHaveLength(2);
    expect(hits[1]!.id).toBe(hits[0]!.id); // a replay carries the same webhook-id
  });

  test("reveal and rotate the secret; both secrets sign during the overlap", async () => {
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    await b.get("/portal/webhooks");
    const path = `/hooks/${crypto.randomUUID()}`;
    const old = secretIn((await b.post("/portal/webhooks", { url: receiver.url(path) })).text)!;
    const endpointId = /\/portal\/webhooks\/([0-9a-f-]{36})"/.exec((await b.get("/portal/webhooks")).text)![1]!;
    expect(secretIn((await b.post(`/portal/webhooks/${endpointId}/reveal`, {})).text)).toBe(old);
    const rotated = secretIn((await b.post(`/portal/webhooks/${endpointId}/rotate`, {})).text)!;
    expect(rotated).not.toBe(old);
    receiver.trust(path, old, rotated);
    await b.post(`/portal/webhooks/${endpointId}/test`, {});
    await deliver();
    expect(receiver.hitsAt(path)[0]!.verifiedBy.sort()).toEqual([old, rotated].sort());
  });

  test("a refused URL is shown next to the field with the JSON surface's words", async () => {
    const strict = await testApp({ WEBHOOK_ALLOW_PRIVATE: "false" });
    const p = await strict.partner();
    const b = await signedIn(strict, p.portal);
    await b.get("/portal/webhooks");
    const refused = await b.post("/portal/webhooks", { url: "http://127.0.0.1:9/hook" });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('id="f-url-error"');
    expect(refused.text).toContain("private or loopback");
    expect((await p.run("webhook list")).list).toHaveLength(0);
  });

  test("another partner's endpoint is not found", async () => {
    const owner = await t.partner();
    const other = await t.partner();
    const { endpointId } = await owner.run("webhook register", { url: receiver.url("/private") });
    const b = await signedIn(t, other.portal);
    const page = await b.get(`/portal/webhooks/${endpointId}`);
    expect(page.status).toBe(404);
    expect(page.text).not.toContain("/private");
    expect((await b.post(`/portal/webhooks/${endpointId}/reveal`, {})).status).toBe(404);
  });
});
