/**
 * Secrets never reach the logs. Everything the service writes to stdout and stderr is captured
 * (LOG_LEVEL=debug) while partners are created, people sign in (rightly and wrongly), invite staff
 * and change passwords, keys are rotated and used, webhook secrets are made, revealed and rotated,
 * certificates are fetched by their link, deliveries fail, and errors are logged; then no API key,
 * password, whsec_ secret, session token, CSRF token or certificate token may appear in it.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { DrizzleQueryError } from "drizzle-orm/errors";
import fc from "fast-check";
import { log, scrubEveryShape, scrubText, setLogLevel } from "../../src/core/log";
import { deliverDueWebhooks, deliverySettings, dispatchOutboxEvents } from "../../src/modules/webhooks/dispatcher";
import { Browser, signedIn } from "../portal/browser";
import { testApp } from "../support/harness";
import { fullConsumer, insureSeed, productCases } from "../support/policies";
import { startReceiver } from "../support/webhook-receiver";

const captured: string[] = [];
const original = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
function capture() {
  setLogLevel("debug");
  const tap = (sink: typeof original.out) =>
    ((chunk: unknown, ...rest: unknown[]) => {
      captured.push(typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString());
      void sink;
      void rest;
      return true; // kept, not echoed: the test's output stays readable
    }) as typeof process.stdout.write;
  process.stdout.write = tap(original.out);
  process.stderr.write = tap(original.err);
}
function release() {
  process.stdout.write = original.out;
  process.stderr.write = original.err;
  setLogLevel("silent");
}
afterAll(release);

/** Every secret the session saw; each must be absent from the logs. */
const secrets = new Map<string, string>();
const remember = (what: string, value: string | undefined | null) => {
  if (value && value.length >= 8) secrets.set(value, what);
};

describe("secrets never appear in the logs", () => {
  test("sign-in, staff, passwords, keys, commands, webhooks, certificates, deliveries and errors", async () => {
    const receiver = await startReceiver();
    try {
      capture();
      const t = await testApp({ WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_TIMEOUT_MS: 2000 });
      const operator = await t.partner({ admin: true });
      const p = await t.partner({ enrichment: true });
      for (const partner of [operator, p]) {
        for (const key of Object.values(partner.keys)) remember("API key", key.key);
        remember("password", partner.portal.password);
      }

      // Partner creation in the operator's portal: the new keys and password are on the page only.
      const admin = await signedIn(t, operator.portal);
      remember("session token", admin.cookie("session"));
      remember("CSRF token", admin.csrf);
      await admin.get("/admin/partners");
      const created = await admin.post("/admin/partners", { name: "Logged Partner Ltd" });
      // Its keys (44 characters of base64) and password (24 of base64url); ids shown beside them are no secret.
      for (const match of created.text.matchAll(/key ([A-Za-z0-9+/]{43}=)|@partners\.example \/ ([A-Za-z0-9_-]{24})\s*</g))
        remember("shown once on the partner page", match[1] ?? match[2]);
      expect([...secrets.values()].filter((what) => what === "shown once on the partner page").length).toBe(4);

      // Sign-in: wrong passwords, an unknown e-mail, then the right one.
      const browser = new Browser(t);
      await browser.get("/login");
      remember("sign-in CSRF token", browser.cookie("signin_csrf"));
      await browser.post("/login", { email: p.portal.email, password: "wrong-password-attempt" });
      remember("wrong password", "wrong-password-attempt");
      await browser.post("/login", { email: "nobody@nowhere.example", password: p.portal.password });
      const owner = await signedIn(t, p.portal);
      remember("session token", owner.cookie("session"));
      remember("CSRF token", owner.csrf);

      // Staff: invitation with a one-time password, first sign-in, a new password.
      const invited = await owner.post("/portal/team", { email: `logged-staff-${crypto.randomUUID().slice(0, 6)}@p.example`, name: "Staff" });
      const oneTime = /id="one-time-password"[^>]*>\s*([^<\s]+)\s*</.exec(invited.text)![1]!;
      remember("one-time password", oneTime);
      const staff = new Browser(t);
      const email = /logged-staff-[a-z0-9]+@p\.example/.exec(invited.text)![0];
      await staff.signIn(email, oneTime);
      remember("session token", staff.cookie("session"));
      await staff.get("/portal/password");
      await staff.post("/portal/password", { currentPassword: oneTime, newPassword: "staff-new-password-42", confirmPassword: "staff-new-password-42" });
      remember("new password", "staff-new-password-42");

      // Key rotation in the portal: the new key is on the page once.
      await owner.get("/portal/keys");
      const rotated = await owner.post("/portal/keys/rotate", { label: "live" });
      for (const match of rotated.text.matchAll(/([A-Za-z0-9+/]{43}=)/g)) remember("rotated API key", match[1]);
      expect([...secrets.values()]).toContain("rotated API key");

      // Commands with keys: right, wrong, revoked; webhook secrets made, rotated, read.
      const hook = await p.run("webhook register", { url: receiver.url("/logged") });
      remember("endpoint secret", hook.secret);
      receiver.trust("/logged", hook.secret);
      receiver.respond("/logged", () => new Response("nope", { status: 500 }));
      const rotatedHook = await p.run("webhook update", { endpointId: hook.endpointId, rotateSecret: true });
      remember("rotated endpoint secret", rotatedHook.secret);
      remember("default secret", (await p.run("webhook secret")).secret);
      remember("rotated default secret", (await p.run("webhook secret", { rotate: true })).secret);
      await t.post({
        userInfo: { id: p.partnerId, athrzt: { id: p.keys.test.id, key: "WRONGkeyWRONGkeyWRONGkeyWRONGkeyWRONGkeyWRO=" } },
        cmmnd: { cmmnd: "dump entt_*" },
      });
      remember("wrong key", "WRONGkeyWRONGkeyWRONGkeyWRONGkeyWRONGkeyWRO=");
      await t.post({ userInfo: { id: p.partnerId, athrzt: p.keys.live }, cmmnd: { cmmnd: "dump entt_*" } }); // revoked by the rotation
      await p.run("wallet topup", { amount: 100, reference: `logged-${crypto.randomUUID().slice(0, 6)}` });

      // Portal reveal and rotation of the endpoint's secret.
      await owner.get(`/portal/webhooks/${hook.endpointId}`);
      const revealed = await owner.post(`/portal/webhooks/${hook.endpointId}/reveal`, {});
      expect(revealed.text).toContain(rotatedHook.secret);
      const portalRotated = await owner.post(`/portal/webhooks/${hook.endpointId}/rotate`, {});
      for (const match of portalRotated.text.matchAll(/(whsec_[A-Za-z0-9+/=]+)/g)) remember("portal-rotated secret", match[1]);

      // A failing delivery (logged as a failed attempt), signed with the secrets above.
      // (The database is shared with other suites: every due delivery goes out in one large batch.)
      for (let round = 0; round < 5 && !receiver.hitsAt("/logged").length; round++) {
        await dispatchOutboxEvents(t.database.db, new Date(), { batch: 5000 });
        await deliverDueWebhooks(t.database.db, deliverySettings(t.config), new Date(), { batch: 5000 });
      }
      expect(receiver.hitsAt("/logged").length).toBeGreaterThan(0);

      // A certificate by its link: the token is the credential.
      const c = productCases["vhcl-tprt-1111"]!;
      const consumer = (await p.run("prfl entity", fullConsumer())).id;
      await p.run(`dump ipck_${c.code}*PRMM`, c.quote);
      const policy = await p.run(`entt_${consumer}: insure`, insureSeed(c));
      expect(policy.exctnFdbck.id).toBe(75);
      remember("certificate token", String(policy.certUrl).split("/").pop());
      expect((await t.app.handle(new Request(String(policy.certUrl).replace(/^https?:\/\/[^/]+/, "http://localhost")))).status).toBe(200);

      // Errors logged with secrets inside them: a failed query's parameters, nested fields, messages.
      log.error("command failed", {
        error: new DrizzleQueryError(
          "insert into webhook_endpoints values ($1, $2)",
          [hook.secret, p.keys.test.key],
          new Error(`duplicate key for ${p.keys.live.key}`),
        ),
        deep: { a: { b: { c: { d: { e: { f: { secret: rotatedHook.secret, text: p.keys.legacy.key } } } } } } },
        note: `session ${owner.cookie("session")} and Bearer ${p.keys.test.key}`,
      });
      log.warn(`a message naming ${hook.secret}`);

      // Sign out (the session token is in the request, never in the log).
      await owner.post("/logout", {});
      await Bun.sleep(50); // after-response hooks write the request lines
    } finally {
      release();
      receiver.stop();
    }

    const output = captured.join("");
    expect(output).toContain('"msg":"command"'); // the capture saw the service's lines
    expect(output).toContain('"msg":"webhook attempt failed"');
    expect(output).toContain('"msg":"request"');
    expect(secrets.size).toBeGreaterThan(15);
    const found = [...secrets].filter(([value]) => output.includes(value)).map(([, what]) => what);
    const lines = output.split("\n").filter((line) => [...secrets.keys()].some((v) => line.includes(v)));
    expect({ found, lines }).toEqual({ found: [], lines: [] });
    expect(output).not.toMatch(/whsec_[A-Za-z0-9+/]{8,}/);
    expect(output).not.toMatch(/\$argon2id\$/);
  }, 60_000);
});

describe("the scrubber", () => {
  test("redacts this service's secret shapes in any text, and a failed query's parameters", () => {
    expect(scrubText("secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw= here")).toBe("secret whsec_[redacted] here");
    const key = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64");
    expect(scrubText(`key ${key} end`)).toBe("key [redacted key] end");
    expect(scrubText("jwt eyJhbGciOiJIUzI1NiJ9.eyJzaWQiOiJ4In0.c2lnbmF0dXJl end")).toBe("jwt [redacted token] end");
    expect(scrubText("Failed query: select 1\nparams: a,b,c")).toBe("Failed query: select 1\nparams: [redacted]");
    // Ordinary text is left alone: ids, references, amounts.
    for (const text of ["0193b2a4-7c1e-7d3f-9a8b-1c2d3e4f5a6b", "POL-VHCL-2026-ABCDEFGHJKMN", "amount 15000", "/portal/policies/abc"])
      expect(scrubText(text)).toBe(text);
  });

  test("its shortcut for text without any secret's shape changes nothing", () => {
    const key = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64");
    const shapes = [
      "whsec_MfKQ9r8GKY=",
      "eyJhbGciOiJIUzI1NiJ9.eyJ4In0.c2ln",
      key,
      `${"A".repeat(43)}=`,
      "$argon2id$v=19$m=65536",
      "Bearer abc",
      "basic\tx",
      "BEARER y",
      "\nparams: 1,2",
      "=",
      "eyj",
    ];
    const piece = fc.oneof(fc.string(), fc.constantFrom(...shapes));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), fc.constantFrom("", " ", '"'), (pieces, glue) => {
        const text = pieces.join(glue);
        expect(scrubText(text)).toBe(scrubEveryShape(text));
      }),
      { numRuns: 2000 },
    );
  });
});
