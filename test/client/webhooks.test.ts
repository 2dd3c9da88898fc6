/**
 * verifyWebhook / signWebhook against the reference implementation, the `standardwebhooks`
 * package, both ways; then the built package (tsc -p clients/typescript) verifying a delivery in
 * Node 20, which has no Bun APIs: the client uses Web Crypto only.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { secretBytes, signWebhook, verifyWebhook, WebhookVerificationError } from "../../clients/typescript/src/index";
import { root } from "./support";

const newSecret = () => `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64")}`;
const body = JSON.stringify({
  type: "policy.approved",
  timestamp: "2026-11-23T05:25:59.136Z",
  data: { id: "7c9e6679-7425-40de-944b-e07fc1f90ae7", status: "a", note: "naïve ₦ 🚗" },
});

/** Headers as the service sends them, signed by the reference library. */
function referenceSigned(secret: string, at = new Date(), id = crypto.randomUUID(), payload = body) {
  const signature = new Webhook(secret).sign(id, at, payload);
  return { "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": signature };
}

describe("verifyWebhook accepts what standardwebhooks signs", () => {
  test("a string body, headers as a plain object; the parsed event is returned", async () => {
    const secret = newSecret();
    const event = await verifyWebhook(body, referenceSigned(secret), secret);
    expect(event).toEqual(JSON.parse(body));
  });

  test("a byte body, Fetch Headers, any header case", async () => {
    const secret = newSecret();
    const headers = referenceSigned(secret);
    const bytes = new TextEncoder().encode(body);
    expect((await verifyWebhook(bytes, new Headers(headers), secret)).type).toBe("policy.approved");
    expect((await verifyWebhook(bytes.buffer, Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v])), secret)).type).toBe(
      "policy.approved",
    );
  });

  test("several signatures (a rotation) and several secrets: any one pair verifies", async () => {
    const [oldSecret, newOne, unrelated] = [newSecret(), newSecret(), newSecret()];
    const id = crypto.randomUUID();
    const at = new Date();
    const both = `${new Webhook(newOne).sign(id, at, body)} ${new Webhook(oldSecret).sign(id, at, body)}`;
    const headers = { "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": both };
    for (const secrets of [oldSecret, newOne, [unrelated, oldSecret], [newOne, unrelated]])
      expect((await verifyWebhook(body, headers, secrets)).type).toBe("policy.approved");
    await expect(verifyWebhook(body, headers, [unrelated])).rejects.toThrow(WebhookVerificationError);
    // Unknown versions (v1a: asymmetric) are skipped, not fatal.
    expect((await verifyWebhook(body, { ...headers, "webhook-signature": `v1a,AAAA ${both}` }, oldSecret)).type).toBe("policy.approved");
  });

  test("refused: another secret, a changed body, id or timestamp, a stale or future timestamp, missing or malformed headers", async () => {
    const secret = newSecret();
    const headers = referenceSigned(secret);
    const refusals: [string, () => Promise<unknown>][] = [
      ["no webhook-signature matches", () => verifyWebhook(body, headers, newSecret())],
      ["no webhook-signature matches", () => verifyWebhook(body.replace('"a"', '"d"'), headers, secret)],
      ["no webhook-signature matches", () => verifyWebhook(body, { ...headers, "webhook-id": crypto.randomUUID() }, secret)],
      [
        "no webhook-signature matches",
        () => verifyWebhook(body, { ...headers, "webhook-timestamp": String(Number(headers["webhook-timestamp"]) - 1) }, secret),
      ],
      ["too old", () => verifyWebhook(body, referenceSigned(secret, new Date(Date.now() - 301_000)), secret)],
      ["too far in the future", () => verifyWebhook(body, referenceSigned(secret, new Date(Date.now() + 301_000)), secret)],
      ["missing", () => verifyWebhook(body, { "webhook-id": headers["webhook-id"], "webhook-timestamp": headers["webhook-timestamp"] }, secret)],
      ["not a unix time", () => verifyWebhook(body, { ...headers, "webhook-timestamp": "2026-11-23T05:25:59Z" }, secret)],
      ["no v1 signature", () => verifyWebhook(body, { ...headers, "webhook-signature": "v2,abc" }, secret)],
      ["no webhook-signature matches", () => verifyWebhook(body, { ...headers, "webhook-signature": "v1,not*base64" }, secret)],
      ["not a whsec_ secret", () => verifyWebhook(body, headers, "whsec_***")],
    ];
    for (const [message, promise] of refusals) {
      const error = await promise().then(
        () => null,
        (e) => e,
      );
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect(error.message).toContain(message);
    }
  });

  test("toleranceSeconds and now are options", async () => {
    const secret = newSecret();
    const old = referenceSigned(secret, new Date(Date.now() - 3_600_000));
    await expect(verifyWebhook(body, old, secret)).rejects.toThrow("too old");
    expect((await verifyWebhook(body, old, secret, { toleranceSeconds: 3_700 })).type).toBe("policy.approved");
    expect((await verifyWebhook(body, old, secret, { now: Date.now() - 3_600_000 })).type).toBe("policy.approved");
  });
});

describe("standardwebhooks accepts what signWebhook signs", () => {
  test("the same signature, byte for byte, and verified by the reference", async () => {
    for (let i = 0; i < 20; i++) {
      const secret = newSecret();
      const id = crypto.randomUUID();
      const at = new Date(Date.now() - i * 1000);
      const payload = i % 2 ? body : JSON.stringify({ type: "wallet.credited", timestamp: at.toISOString(), data: { amount: i, reference: `r-${i}` } });
      const ours = await signWebhook(secret, { id, timestamp: at, body: payload });
      expect(ours).toBe(new Webhook(secret).sign(id, at, payload));
      const headers = { "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": ours };
      expect(new Webhook(secret).verify(payload, headers)).toEqual(JSON.parse(payload));
      expect(await verifyWebhook(payload, headers, secret)).toEqual(JSON.parse(payload));
    }
  });

  test("secrets: whsec_ + base64, bare base64 and raw bytes are one key", async () => {
    const secret = newSecret();
    const bare = secret.slice("whsec_".length);
    const raw = secretBytes(secret);
    expect(raw).toHaveLength(32);
    const message = { id: "msg_1", timestamp: 1_795_411_559, body };
    const expected = await signWebhook(secret, message);
    expect(await signWebhook(bare, message)).toBe(expected);
    expect(await signWebhook(raw, message)).toBe(expected);
  });
});

describe("the published package", () => {
  test("tsc -p clients/typescript builds JS and declarations; Node 20 imports them and verifies a delivery", async () => {
    const outDir = mkdtempSync(join(tmpdir(), "client-build-"));
    try {
      const build = Bun.spawnSync([join(root, "node_modules/.bin/tsc"), "-p", join(root, "clients/typescript"), "--outDir", outDir], {
        cwd: root,
        stdout: "pipe",
        stderr: "pipe",
      });
      expect(build.stdout.toString() + build.stderr.toString()).toBe("");
      expect(build.exitCode).toBe(0);
      for (const file of ["index.js", "index.d.ts", "client.js", "client.d.ts", "webhooks.js", "types.d.ts"])
        expect(await Bun.file(join(outDir, file)).exists()).toBe(true);
      writeFileSync(join(outDir, "package.json"), JSON.stringify({ type: "module" }));

      const secret = newSecret();
      const headers = referenceSigned(secret);
      const script = `
        import { verifyWebhook, signWebhook, PartnerClient, isSafeToRepeat } from ${JSON.stringify(join(outDir, "index.js"))};
        const event = await verifyWebhook(${JSON.stringify(body)}, ${JSON.stringify(headers)}, ${JSON.stringify(secret)});
        const signature = await signWebhook(${JSON.stringify(secret)}, { id: "msg_1", timestamp: 1795411559, body: "{}" });
        new PartnerClient({ baseUrl: "http://localhost:3000/", partnerId: "p", keyId: "k", key: "a2V5" });
        console.log(JSON.stringify({ type: event.type, signature, safe: isSafeToRepeat("dump entt_*") }));
      `;
      const node = Bun.spawnSync(["node", "--input-type=module", "-e", script], { stdout: "pipe", stderr: "pipe", env: { PATH: process.env.PATH ?? "" } });
      expect(node.stderr.toString()).toBe("");
      const printed = JSON.parse(node.stdout.toString());
      expect(printed).toEqual({ type: "policy.approved", signature: new Webhook(secret).sign("msg_1", new Date(1_795_411_559_000), "{}"), safe: true });
      const version = Bun.spawnSync(["node", "--version"], { stdout: "pipe" }).stdout.toString();
      expect(Number(/^v(\d+)/.exec(version)?.[1])).toBeGreaterThanOrEqual(20);
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  }, 60_000);

  test("the package is publishable on its own: it imports nothing outside clients/typescript/src, and no Node or Bun module", async () => {
    const manifest = await Bun.file(join(root, "clients/typescript/package.json")).json();
    expect(manifest).toMatchObject({
      name: "@partner-insurance/client",
      type: "module",
      exports: { ".": { types: "./dist/index.d.ts", import: "./dist/index.js" } },
    });
    expect(manifest.dependencies ?? {}).toEqual({});
    const glob = new Bun.Glob("*.ts");
    for await (const file of glob.scan(join(root, "clients/typescript/src"))) {
      const source = await Bun.file(join(root, "clients/typescript/src", file)).text();
      for (const [, specifier] of source.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g))
        expect({ file, specifier }).toEqual({ file, specifier: expect.stringMatching(/^\.\/[\w-]+\.js$/) });
      expect({ file, bun: /\bBun\.|\bBuffer\b|\bprocess\./.test(source) }).toEqual({ file, bun: false });
    }
  });
});
