/**
 * The SSRF guard with production's setting (WEBHOOK_ALLOW_PRIVATE=false), beyond
 * test/webhooks-ssrf.test.ts: every spelling of a loopback, private, link-local or cloud-metadata
 * address (IPv4 shorthands, IPv6 forms, embeddings, zone ids), through the JSON endpoint and the
 * portal, on registration and update; and redirects of every kind towards such addresses, never
 * followed.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { deliverDueWebhooks, deliverySettings, dispatchOutboxEvents } from "../../src/modules/webhooks/dispatcher";
import { addressRefusal, vetDestination } from "../../src/modules/webhooks/ssrf";
import { signedIn } from "../portal/browser";
import { testApp } from "../support/harness";
import { startReceiver } from "../support/webhook-receiver";

const guarded = await testApp({ WEBHOOK_ALLOW_PRIVATE: "false", WEBHOOK_TIMEOUT_MS: 2000 });
const allowing = await testApp({ WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_TIMEOUT_MS: 2000 });
const receiver = await startReceiver();
afterAll(() => receiver.stop());

const PRIVATE = "must not point to a private or loopback address";

/** URLs that reach this machine, its network or a cloud's metadata service, however they are written. */
const refused = [
  "http://127.1/hook", // shorthand of 127.0.0.1
  "http://0x7f000001/hook", // hexadecimal
  "http://0x7f.0.0.1/hook",
  "http://017700000001/hook", // octal
  "http://0177.0.0.1/hook",
  "http://127.000.000.001/hook",
  "http://0/hook",
  "http://10.1/hook",
  "http://169.254.169.254./latest/meta-data/", // trailing dot
  "http://[::ffff:127.0.0.1]/hook",
  "http://[::ffff:7f00:1]/hook",
  "http://[0:0:0:0:0:ffff:169.254.169.254]/hook",
  "http://[::ffff:10.0.0.1]:8080/hook",
  "http://[::]/hook",
  "http://[::1]:3000/hook",
  "http://[0:0:0:0:0:0:0:1]/hook",
  "http://[fe80::1%25eth0]/hook", // link-local with a zone id
  "http://[fe80::a:b:c:d]/hook",
  "http://[fd00:ec2::254]/latest/meta-data/", // AWS metadata over IPv6 (unique local)
  "http://[fc00::1]/hook",
  "http://[64:ff9b::7f00:1]/hook", // NAT64 of 127.0.0.1
  "http://[64:ff9b::a9fe:a9fe]/hook", // NAT64 of 169.254.169.254
  "http://[2002:7f00:1::]/hook", // 6to4 of 127.0.0.1
  "http://[2002:a9fe:a9fe::]/hook", // 6to4 of 169.254.169.254
  "http://[ff02::1]/hook", // multicast
  "http://100.100.100.200/latest/meta-data/", // Alibaba Cloud metadata (CGNAT range)
  "http://192.0.0.192/hook",
  "http://localhost/hook",
  "http://localhost.localdomain/hook",
  "http://printer.local/hook",
  "http://metadata.google.internal./computeMetadata/v1/",
  "http://router.home.arpa/hook",
];

describe("registration refuses every spelling of a private address", () => {
  test.each(refused)("%s", async (url) => {
    const p = await guarded.partner();
    const answer = await p.run("webhook register", { url });
    expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 400 });
    expect(answer.exctnFdbck.elbrtn).toMatch(new RegExp(`^seed\\.url (${PRIVATE}|must be an http\\(s\\) URL|host .* does not resolve)`));
    expect((await p.run("webhook list")).list).toEqual([]);
  });

  test("the same through the portal, on registration and on update; nothing is stored", async () => {
    const p = await guarded.partner();
    const browser = await signedIn(guarded, p.portal);
    await browser.get("/portal/webhooks");
    for (const url of ["http://0x7f000001/hook", "http://[::ffff:169.254.169.254]/", "http://[fd00:ec2::254]/"]) {
      const response = await browser.post("/portal/webhooks", { url });
      expect(response.status).toBe(400);
      expect(response.text).toContain(PRIVATE);
    }
    expect((await p.run("webhook list")).list).toEqual([]);
    // An endpoint registered where private targets were allowed cannot be moved to one under the guard.
    const registered = await allowing.post(p.envelope("webhook register", { url: receiver.url("/moved") }));
    await browser.get(`/portal/webhooks/${registered.endpointId}`);
    const moved = await browser.post(`/portal/webhooks/${registered.endpointId}`, { url: "http://[::1]/admin", enabled: "on" });
    expect(moved.status).toBe(400);
    expect((await p.run("webhook list")).list[0].url).toBe(receiver.url("/moved"));
  });

  test("host names are judged by every address they resolve to, IPv6 included", async () => {
    const url = new URL("https://hooks.partner.example/in");
    for (const addresses of [["::1"], ["2606:4700::1111", "fd12::1"], ["fe80::1"], ["::ffff:127.0.0.1"], ["93.184.216.34", "169.254.169.254"]]) {
      const verdict = await vetDestination(url, "seed.url", { allowPrivate: false, lookup: async () => addresses });
      expect({ addresses, permanent: (verdict as { permanent?: boolean }).permanent }).toEqual({ addresses, permanent: true });
    }
    expect(await vetDestination(url, "seed.url", { allowPrivate: false, lookup: async () => ["2606:4700::1111"] })).toEqual({
      url,
      address: "2606:4700::1111",
    });
  });

  test("the address classifier: every private, loopback and link-local form; public ones pass", () => {
    for (const address of [
      "127.0.0.1",
      "10.255.255.255",
      "169.254.0.1",
      "::1",
      "::",
      "fe80::1",
      "fe80::1%eth0",
      "fd00::1",
      "::ffff:10.0.0.1",
      "64:ff9b::a00:1",
      "2002:c0a8:101::1",
      "ff05::2",
    ])
      expect({ address, refused: addressRefusal(address) !== null }).toEqual({ address, refused: true });
    for (const address of ["8.8.8.8", "2001:4860:4860::8888", "::ffff:8.8.8.8", "64:ff9b::808:808"])
      expect({ address, refusal: addressRefusal(address) }).toEqual({ address, refusal: null });
  });
});

describe("redirects are never followed", () => {
  test.each([301, 302, 303, 307, 308])("a %i towards loopback, link-local and IPv6 targets", async (status) => {
    const p = await allowing.partner();
    const path = `/redirect-${status}`;
    const registered = await p.run("webhook register", { url: receiver.url(path) });
    receiver.trust(path, registered.secret);
    const targets = [
      receiver.url(`/followed-${status}`),
      "http://169.254.169.254/latest/meta-data/",
      "http://[::1]/",
      `http://[::ffff:127.0.0.1]:${receiver.port}/followed-${status}`,
    ];
    let nth = 0;
    receiver.respond(path, () => new Response(null, { status, headers: { location: targets[nth++ % targets.length]! } }));
    for (let i = 0; i < targets.length; i++) await p.run("wallet topup", { amount: 10, reference: `r-${crypto.randomUUID()}` }, "live");
    for (let round = 0; round < 5; round++) {
      await dispatchOutboxEvents(allowing.database.db, new Date(), { batch: 5000 });
      await deliverDueWebhooks(allowing.database.db, deliverySettings(allowing.config), new Date(), { batch: 5000 });
    }
    const deliveries = (await p.run("webhook deliveries")).list;
    expect(deliveries.length).toBe(targets.length);
    for (const d of deliveries)
      expect(d).toMatchObject({ status: "pending", lastStatus: status, lastError: expect.stringMatching(/^redirect to .* not followed$/) });
    expect(receiver.hits.filter((h) => h.path.startsWith(`/followed-${status}`))).toEqual([]);
    await p.run("webhook delete", { endpointId: registered.endpointId });
  });
});
