/** The SSRF guard with WEBHOOK_ALLOW_PRIVATE=false (production's setting). */
import { afterAll, describe, expect, test } from "bun:test";
import { lookup } from "node:dns/promises";
import { hostname } from "node:os";
import { deliverDueWebhooks, deliverySettings, dispatchOutboxEvents } from "../src/modules/webhooks/dispatcher";
import { addressRefusal, pinnedRequest, vetDestination } from "../src/modules/webhooks/ssrf";
import { type TestPartner, testApp } from "./support/harness";
import { fullConsumer, insureSeed, productCases } from "./support/policies";
import { startReceiver } from "./support/webhook-receiver";

const t = await testApp({ WEBHOOK_ALLOW_PRIVATE: "false", WEBHOOK_TIMEOUT_MS: 2000 });
const db = t.database.db;
const guarded = deliverySettings(t.config);
const receiver = await startReceiver();
afterAll(() => receiver.stop());
afterAll(() => expect(receiver.unverified.map((h) => `${h.path} ${h.id}`)).toEqual([]));

async function pump(settings = guarded) {
  for (let round = 0; round < 10; round++) {
    const fanned = await dispatchOutboxEvents(db, new Date(), { batch: 500 });
    const delivered = await deliverDueWebhooks(db, settings, new Date());
    if (!fanned && !delivered) return;
  }
}

const PRIVATE = "must not point to a private or loopback address";

describe("registration refuses URLs that reach private networks", () => {
  const refused: [url: string, detail: string][] = [
    ["http://10.0.0.5/hook", "(10.0.0.5: private, 10.0.0.0/8)"],
    ["http://172.20.1.1/hook", "(172.20.1.1: private, 172.16.0.0/12)"],
    ["http://192.168.1.10/hook", "(192.168.1.10: private, 192.168.0.0/16)"],
    ["http://127.0.0.1:8080/hook", "(127.0.0.1: loopback, 127.0.0.0/8)"],
    ["http://2130706433/hook", "(127.0.0.1: loopback, 127.0.0.0/8)"], // 127.0.0.1 as one number
    ["http://169.254.169.254/latest/meta-data", "(169.254.169.254: link-local, 169.254.0.0/16)"],
    ["http://100.64.0.1/hook", "(100.64.0.1: shared (CGNAT), 100.64.0.0/10)"],
    ["http://0.0.0.0/hook", "(0.0.0.0: this-network, 0.0.0.0/8)"],
    ["http://224.0.0.1/hook", "(224.0.0.1: multicast, 224.0.0.0/4)"],
    ["http://255.255.255.255/hook", "(255.255.255.255: broadcast, 255.255.255.255/32)"],
    ["http://[::1]/hook", "(::1: loopback, ::1/128)"],
    ["http://[fd12:3456::1]/hook", "(fd12:3456::1: private (unique local), fc00::/7)"],
    ["http://[fe80::1]/hook", "(fe80::1: link-local, fe80::/10)"],
    ["http://[::ffff:192.168.1.1]/hook", "(::ffff:c0a8:101: IPv4-mapped 192.168.1.1, private, 192.168.0.0/16)"],
    ["http://localhost:3000/hook", "(localhost: a local name)"],
    ["http://api.localhost/hook", "(api.localhost: a local name)"],
    ["http://LOCALHOST./hook", "(localhost: a local name)"],
    ["http://metadata.google.internal/computeMetadata/v1/", "(metadata.google.internal: a local name)"],
  ];
  test.each(refused)("%s", async (url, detail) => {
    const p = await t.partner();
    const answer = await p.run("webhook register", { url });
    expect(answer.exctnFdbck).toEqual({ id: 55, id_v4: 400, elbrtn: `seed.url ${PRIVATE} ${detail}` });
    expect((await p.run("webhook list")).list).toEqual([]);
  });

  test("a host name that resolves to a loopback address (this machine's name)", async () => {
    const name = hostname();
    const addresses = await lookup(name, { all: true }).catch(() => []);
    if (!addresses.length || addresses.some((a) => addressRefusal(a.address) === null)) {
      console.warn(`SKIPPED the real-DNS case: ${name} does not resolve to private addresses only here`);
      return;
    }
    const p = await t.partner();
    const answer = await p.run("webhook register", { url: `http://${name}:8080/hook` });
    expect(answer.exctnFdbck.elbrtn).toStartWith(`seed.url ${PRIVATE} (${name.toLowerCase()} resolves to `);
  });

  test("a name that does not resolve yet is registered; each delivery resolves and vets it again", async () => {
    const p = await t.partner();
    const answer = await p.run("webhook register", { url: "https://no-such-host.invalid/hook" });
    expect(answer.exctnFdbck).toMatchObject({ id: 75, id_v4: 200 });
    expect((await p.run("webhook list")).list).toHaveLength(1);
  });

  test("update to a private URL is refused and changes nothing", async () => {
    const allowing = await testApp({ WEBHOOK_ALLOW_PRIVATE: "true" });
    const p = await allowing.partner();
    const { endpointId } = await p.run("webhook register", { url: receiver.url("/update") });
    const before = (await p.run("webhook list")).list;
    // The same partner through the guarded app (production settings).
    const guardedRun = (cmmnd: string, seed: unknown) => t.post(p.envelope(cmmnd, seed));
    expect((await guardedRun("webhook update", { endpointId, url: "http://192.168.0.1/x" })).exctnFdbck.elbrtn).toBe(
      `seed.url ${PRIVATE} (192.168.0.1: private, 192.168.0.0/16)`,
    );
    expect((await p.run("webhook list")).list).toEqual(before);
  });
});

describe("addresses", () => {
  test("public addresses pass, the edges of private ranges are exact", () => {
    for (const address of [
      "8.8.8.8",
      "1.1.1.1",
      "172.15.255.255",
      "172.32.0.0",
      "100.63.255.255",
      "100.128.0.0",
      "169.253.255.255",
      "2606:4700:4700::1111",
      "2a00:1450:4001::200e",
      "::ffff:8.8.8.8",
    ])
      expect([address, addressRefusal(address)]).toEqual([address, null]);
    for (const address of [
      "172.16.0.0",
      "172.31.255.255",
      "100.127.255.255",
      "::",
      "fc00::1",
      "febf::1",
      "ff02::1",
      "64:ff9b::a00:1",
      "2002:7f00:1::1",
      "2001:db8::1",
    ])
      expect(addressRefusal(address)).not.toBeNull();
  });

  test("one private answer among public ones refuses the name (resolvers rotate answers)", async () => {
    const url = new URL("https://hooks.partner.example/in");
    const mixed = await vetDestination(url, "seed.url", { allowPrivate: false, lookup: async () => ["93.184.216.34", "10.1.2.3"] });
    expect(mixed).toEqual({ message: `seed.url ${PRIVATE} (hooks.partner.example resolves to 10.1.2.3: private, 10.0.0.0/8)`, permanent: true });
    const fine = await vetDestination(url, "seed.url", { allowPrivate: false, lookup: async () => ["2606:2800:220:1::1", "93.184.216.34"] });
    expect(fine).toEqual({ url, address: "93.184.216.34" });
  });

  test("the request is pinned to the vetted address; the name goes in Host and SNI", () => {
    expect(pinnedRequest({ url: new URL("https://hooks.partner.example:8443/in?x=1"), address: "93.184.216.34" })).toEqual({
      target: "https://93.184.216.34:8443/in?x=1",
      host: "hooks.partner.example:8443",
      serverName: "hooks.partner.example",
    });
    expect(pinnedRequest({ url: new URL("http://hooks.partner.example/in"), address: "2606:2800:220:1::1" })).toEqual({
      target: "http://[2606:2800:220:1::1]/in",
      host: "hooks.partner.example",
    });
  });
});

describe("the guard runs again right before each delivery", () => {
  async function policyWithWebhook(p: TestPartner, webHook: string) {
    const c = productCases["phnn-flx1-1111"]!;
    const consumer = (await p.run("prfl entity", fullConsumer())).id;
    await p.run(`dump ipck_${c.code}*PRMM`, c.quote);
    const answer = await p.run(`entt_${consumer}: insure`, insureSeed(c, { addtnlFact: { ...c.addtnlFact(), webHook } }));
    expect(answer.exctnFdbck.id).toBe(75); // issuance only checks it is an http(s) URL
  }

  test("addtnlFact.webHook on a loopback address is never called", async () => {
    const p = await t.partner();
    await policyWithWebhook(p, receiver.url("/one-off"));
    await pump();
    const [delivery] = (await p.run("webhook deliveries")).list;
    expect(delivery).toMatchObject({
      status: "failed",
      lastError: `not sent: addtnlFact.webHook ${PRIVATE} (127.0.0.1: loopback, 127.0.0.0/8)`,
    });
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]).not.toHaveProperty("response");
    expect(receiver.hitsAt("/one-off")).toEqual([]);
  });

  test("an endpoint whose address turned private since registration (DNS rebinding) is not called", async () => {
    // Registered where private addresses were allowed; delivered by a guarded dispatcher.
    const allowing = await testApp({ WEBHOOK_ALLOW_PRIVATE: "true" });
    const p = await allowing.partner();
    const registered = await p.run("webhook register", { url: receiver.url("/rebound") });
    receiver.trust("/rebound", registered.secret);
    expect((await p.run("wallet topup", { amount: 100, reference: `r-${crypto.randomUUID()}` }, "live")).exctnFdbck.id).toBe(75);
    await pump();
    const [delivery] = (await p.run("webhook deliveries")).list;
    expect(delivery).toMatchObject({ status: "failed", lastError: `not sent: the endpoint's url ${PRIVATE} (127.0.0.1: loopback, 127.0.0.0/8)` });
    expect(receiver.hitsAt("/rebound")).toEqual([]);
    // The attempt counts as a failure of the endpoint.
    expect((await p.run("webhook list")).list[0].failingSince).toEqual(expect.any(String));
  });

  test("a redirect towards a private address is not followed", async () => {
    const allowing = await testApp({ WEBHOOK_ALLOW_PRIVATE: "true" });
    const p = await allowing.partner();
    const registered = await p.run("webhook register", { url: receiver.url("/redirect") });
    receiver.trust("/redirect", registered.secret);
    receiver.respond("/redirect", () => new Response(null, { status: 307, headers: { location: receiver.url("/internal-admin") } }));
    await p.run("wallet topup", { amount: 100, reference: `r-${crypto.randomUUID()}` }, "live");
    await pump(deliverySettings(allowing.config));
    const [delivery] = (await p.run("webhook deliveries")).list;
    expect(delivery).toMatchObject({ status: "pending", lastStatus: 307, lastError: `redirect to ${receiver.url("/internal-admin")} not followed` });
    expect(receiver.hitsAt("/internal-admin")).toEqual([]);
    await p.run("webhook delete", { endpointId: registered.endpointId });
  });
});
