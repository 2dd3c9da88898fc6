/**
 * Issue 38, item 3 (first part) — the policyholder's own page behind a signed, expiring link
 * (docs/self-service.md): minted by `consumer link`; the page shows the consumer's cover, certificates
 * and claims in the partner's name; an expired, tampered, truncated or foreign link opens nothing; the
 * page is small and works without a script.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mintLink, openLink } from "../src/modules/selfservice/links";
import { watToday } from "../src/products/policy-helpers";
import { expectError, testApp } from "./support/harness";
import { lifecycleHelpers } from "./support/lifecycle";

setDefaultTimeout(60_000);

const t = await testApp({ PUBLIC_URL: "https://insure.example.ng" });
const db = t.database.db;
const operator = await t.partner({ admin: true, name: "Operator" });
const { approved } = lifecycleHelpers(t, operator);

const pathOf = (url: string) => new URL(url).pathname;
const open = (path: string) => t.app.handle(new Request(`http://localhost${path}`));

/** A partner with an approved test policy, a claim on it, and its consumer's link. */
async function insured() {
  const p = await t.partner({ name: "Kudi Lenders" });
  const policy = await approved(p);
  const claim = await p.run("claim submit", { policy: policy.reference, incidentDate: watToday(new Date()), description: "Bumper damaged", amount: 50_000 });
  expect(claim.exctnFdbck.id).toBe(75);
  const link = await p.run("consumer link", { consumer: policy.row.consumerId.replaceAll("-", "") });
  return { p, policy, claimNo: claim.claimNo as string, link };
}

describe("consumer link", () => {
  test("mints a link to the consumer's page, valid a day, on PUBLIC_URL", async () => {
    const { link } = await insured();
    expect(link.exctnFdbck.id).toBe(75);
    expect(link.url).toMatch(/^https:\/\/insure\.example\.ng\/my\/v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(link.expiresAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  test("another partner's consumer, an unknown one and a malformed id are refused, naming the field", async () => {
    const { policy } = await insured();
    const other = await t.partner();
    const foreign = expectError(await other.run("consumer link", { consumer: policy.row.consumerId.replaceAll("-", "") }));
    expect(foreign).toMatchObject({ id_v4: 404 });
    expect(foreign.elbrtn).toContain("not found");
    expect(expectError(await other.run("consumer link", { consumer: "nope" }))).toMatchObject({ id_v4: 400 });
    expect(expectError(await other.run("consumer link", {}))).toMatchObject({ id_v4: 400 });
    expect(expectError(await other.run("consumer link", { consumer: "" })).id_v4).toBeGreaterThanOrEqual(400);
  });
});

describe("the page", () => {
  test("shows the consumer's cover with its certificate and their claim's progress, in the partner's name, without a script", async () => {
    const { link, policy, claimNo } = await insured();
    const page = await open(pathOf(link.url));
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    expect(page.headers.get("referrer-policy")).toBe("same-origin");
    const html = await page.text();
    expect(html).toContain("Kudi Lenders");
    expect(html).toContain(policy.row.policyNo!);
    expect(html).toContain("Vehicle, third-party");
    expect(html).toContain(`/certificates/${policy.row.certificateToken}`);
    expect(html).toContain(`Claim ${claimNo}`);
    expect(html).toContain("Received: we will look at it soon");
    expect(html).toContain("₦50,000.00");
    expect(html).not.toMatch(/<script(?![^>]*htmx)/);
    // A page for a cheap phone on a slow connection.
    expect(new TextEncoder().encode(html).length).toBeLessThan(100 * 1024);
  });

  test("an expired link says so (410), a tampered, truncated or foreign-signed one opens nothing (404)", async () => {
    const { policy, link } = await insured();
    const who = { partnerId: policy.row.partnerId, consumerId: policy.row.consumerId };
    const old = await mintLink(db, t.config, who, new Date(Date.now() - 25 * 3_600_000));
    const expired = await open(pathOf(old.url));
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain("This link has expired");
    const token = pathOf(link.url).slice("/my/".length);
    const [version, body, signature] = token.split(".") as [string, string, string];
    // Pointing a genuine signature at another consumer, or stretching its expiry, breaks it.
    const claims = JSON.parse(Buffer.from(body, "base64url").toString());
    const stretched = Buffer.from(JSON.stringify({ ...claims, e: claims.e + 86_400 })).toString("base64url");
    for (const forged of [
      `${version}.${stretched}.${signature}`,
      `${version}.${body}.${signature.slice(0, -2)}xx`,
      token.slice(0, -5),
      "v1..",
      "x".repeat(400),
    ]) {
      const answer = await open(`/my/${forged}`);
      expect(answer.status).toBe(404);
      expect(await answer.text()).toContain("This link does not work");
    }
    const otherKey = await mintLink(db, { ...t.config, SELF_SERVICE_KEY: "k".repeat(40) }, who, new Date());
    expect((await open(pathOf(otherKey.url))).status).toBe(404);
  });

  test("a link opens only its own consumer's page", async () => {
    const a = await insured();
    const b = await insured();
    const html = await (await open(pathOf(a.link.url))).text();
    expect(html).toContain(a.claimNo);
    expect(html).not.toContain(b.claimNo);
    expect(html).not.toContain(b.policy.row.policyNo!);
  });

  test("openLink reads what mintLink wrote, and nothing past its time", async () => {
    const who = { partnerId: crypto.randomUUID(), consumerId: crypto.randomUUID() };
    const now = new Date();
    const { token, expiresAt } = await mintLink(db, t.config, who, now);
    expect(await openLink(db, t.config, token, now)).toEqual({ status: "open", link: { ...who, expiresAt } });
    expect((await openLink(db, t.config, token, new Date(now.getTime() + 24 * 3_600_000 + 1000))).status).toBe("expired");
  });
});
