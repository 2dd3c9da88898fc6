/**
 * The payment provider's callback route (POST /funding/callbacks/<provider>) is reachable by anyone:
 * only the HMAC-SHA512 signature over the raw body makes a callback count. Fuzzed: no signature, a
 * wrong one, the right one over a changed body, a signature of the right body with another secret
 * — none credits, each is answered 401 and recorded as an invalid callback, and the funding stays
 * pending. The properly signed callback then credits it once.
 */
import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { fundingCallbacks, walletFundings } from "../../src/modules/funding/schema";
import { walletBalance } from "../../src/modules/wallet/service";
import { testApp } from "../support/harness";

const t = await testApp();
const db = t.database.db;
const sign = (body: string | Uint8Array, secret = t.config.PAYMENT_PROVIDER_SECRET) => createHmac("sha512", secret).update(body).digest("hex");

async function post(body: string, signature: string | null) {
  const response = await t.app.handle(
    new Request("http://localhost/funding/callbacks/sandbox", {
      method: "POST",
      headers: { "content-type": "application/json", ...(signature === null ? {} : { "x-paystack-signature": signature }) },
      body,
    }),
  );
  return response.status;
}

describe("forged provider callbacks never credit", () => {
  test("fuzzed signatures and bodies: 401, recorded as invalid, nothing credited", async () => {
    const p = await t.partner();
    const reference = `forge-${crypto.randomUUID().slice(0, 8)}-unpaid`;
    expect((await p.run("wallet topup", { amount: 1000, reference }, "live")).status).toBe("pending");
    const [funding] = await db
      .select()
      .from(walletFundings)
      .where(and(eq(walletFundings.partnerId, p.partnerId), eq(walletFundings.reference, reference)));
    const genuine = JSON.stringify({ event: "charge.success", data: { reference: funding!.providerReference, status: "success", amount: 100_000 } });

    const forgery = fc.oneof(
      // No signature at all.
      fc.constant({ body: genuine, signature: null as string | null }),
      // Any text where the signature goes (hex of the right length too).
      fc.string({ maxLength: 200 }).map((signature) => ({ body: genuine, signature })),
      fc.stringMatching(/^[0-9a-f]{128}$/).map((signature) => ({ body: genuine, signature })),
      // The right signature over a changed body: another amount, trailing text, another payment.
      fc
        .integer({ min: 1, max: 1_000_000_000 })
        .filter((amount) => amount !== 100_000)
        .map((amount) => ({
          body: genuine.replace("100000", String(amount)),
          signature: sign(genuine),
        })),
      fc.string({ minLength: 1, maxLength: 20 }).map((tail) => ({ body: genuine + tail, signature: sign(genuine) })),
      // The right body signed with another secret.
      fc
        .string({ minLength: 16, maxLength: 64 })
        .filter((secret) => secret !== t.config.PAYMENT_PROVIDER_SECRET)
        .map((secret) => ({ body: genuine, signature: sign(genuine, secret) })),
    );
    const before = (await db.select().from(fundingCallbacks).where(eq(fundingCallbacks.signatureValid, "no"))).length;
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(forgery, async ({ body, signature }) => {
        sent++;
        expect(await post(body, signature)).toBe(401);
      }),
      { numRuns: 60 },
    );
    const [after] = await db.select().from(walletFundings).where(eq(walletFundings.id, funding!.id));
    expect(after).toMatchObject({ status: "pending", walletEntryId: null });
    expect(await walletBalance(db, p.partnerId)).toBe(0);
    expect((await db.select().from(fundingCallbacks).where(eq(fundingCallbacks.signatureValid, "no"))).length - before).toBeGreaterThanOrEqual(sent);

    // The genuine callback, signed with the provider's secret, credits once.
    expect(await post(genuine, sign(genuine))).toBe(200);
    expect(await post(genuine, sign(genuine).toUpperCase())).toBe(200); // hex in either case: a repeat
    expect(await walletBalance(db, p.partnerId)).toBe(100_000);
  }, 60_000);
});

describe("whatever the bytes, a callback is stored and answered without a 5xx", () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  /** Bodies a text column could not hold, or the provider's code could not read, each as the bytes sent (one of a kind: the database is shared). */
  const bodies = (providerReference: string): Record<string, Uint8Array<ArrayBuffer>> => {
    const nonce = crypto.randomUUID();
    const charge = (reference: string, event = "charge.success") => `{"event":"${event}","data":{"reference":"${reference}","amount":100000,"id":"${nonce}"}}`;
    return {
      "a raw NUL byte after the JSON": encode(`${charge(providerReference)}\u0000`),
      "\\u0000 in the reference": encode(charge(`${providerReference}\\u0000`)),
      "\\u0000 in the event": encode(charge(providerReference, "charge.success\\u0000")),
      "an unpaired surrogate in the reference": encode(charge(`${providerReference}\\ud800`)),
      "a reference of 10,000 random characters": encode(charge(Buffer.from(crypto.getRandomValues(new Uint8Array(7_500))).toString("base64"))),
      "invalid UTF-8 in the reference": Uint8Array.from([
        ...encode(`{"event":"charge.success","data":{"reference":"${providerReference}`),
        0xff,
        0xc3,
        ...encode(`","amount":100000,"id":"${nonce}"}}`),
      ]),
      "not JSON": encode(`event=charge.success&id=${nonce}`),
      "not JSON, with a NUL": encode(`charge\u0000success ${nonce}`),
      "JSON nested 10,000 deep": encode(`{"id":"${nonce}","data":${"[".repeat(10_000)}${"]".repeat(10_000)}}`),
    };
  };
  const sendBytes = async (app: typeof t, body: Uint8Array<ArrayBuffer>, signature: string) => {
    const response = await app.app.handle(
      new Request("http://localhost/funding/callbacks/sandbox", {
        method: "POST",
        headers: { "content-type": "application/json", "x-paystack-signature": signature },
        body,
      }),
    );
    return { status: response.status, answer: await response.json() };
  };
  /** The rows the trail holds for a body (bytea: compared by bytes, as the reader decoded them). */
  const trailOf = async (app: typeof t, kept: Buffer) =>
    (await app.database.db.select().from(fundingCallbacks)).filter((row) => Buffer.from(row.body).equals(kept));

  test("forged: 401, the opening of its bytes kept, and counted by the callback throttle", async () => {
    const cases = Object.entries(bodies("SBX_NO_SUCH_PAYMENT"));
    const limited = await testApp({ REFUSAL_LIMIT_MAX: cases.length });
    for (const [name, body] of cases) {
      const { status, answer } = await sendBytes(limited, body, "0".repeat(128));
      expect([name, status, answer]).toEqual([name, 401, { status: "rejected" }]);
      // The bytes as they arrived, the first 512 of them.
      const kept = Buffer.from(body).subarray(0, 512);
      expect([name, (await trailOf(limited, kept)).map((row) => [row.signatureValid, row.outcome, row.providerReference])]).toEqual([
        name,
        [["no", "rejected", null]],
      ]);
    }
    // Every one of them was counted: the next forged callback from that address is turned away.
    const [, first] = cases[0]!;
    expect((await sendBytes(limited, first, "0".repeat(128))).status).toBe(429);
  });

  test("correctly signed but unreadable: 200 and recorded as ignored (a provider retries anything else), nothing credited", async () => {
    const p = await t.partner();
    const reference = `bytes-${crypto.randomUUID().slice(0, 8)}-unpaid`;
    await p.run("wallet topup", { amount: 1000, reference }, "live");
    const [funding] = await db
      .select()
      .from(walletFundings)
      .where(and(eq(walletFundings.partnerId, p.partnerId), eq(walletFundings.reference, reference)));
    for (const [name, body] of Object.entries(bodies(funding!.providerReference))) {
      // Signed over the bytes as sent, as a provider signs.
      const { status, answer } = await sendBytes(t, body, sign(body));
      expect([name, status, answer]).toEqual([name, 200, { status: "ignored" }]);
      const rows = await trailOf(t, Buffer.from(body));
      expect([name, rows.map((row) => [row.signatureValid, row.outcome])]).toEqual([name, [["yes", "ignored"]]]);
      // The whole body is kept, and its signature can be checked again from the stored bytes.
      expect(sign(Buffer.from(rows[0]!.body))).toBe(sign(body));
    }
    const [after] = await db.select().from(walletFundings).where(eq(walletFundings.id, funding!.id));
    expect(after).toMatchObject({ status: "pending", walletEntryId: null });
    expect(await walletBalance(db, p.partnerId)).toBe(0);
  });

  test("a signed failure whose words hold a NUL fails the funding, the note with U+FFFD in its place", async () => {
    const p = await t.partner();
    const reference = `words-${crypto.randomUUID().slice(0, 8)}-unpaid`;
    await p.run("wallet topup", { amount: 1000, reference }, "live");
    const funding = (
      await db
        .select()
        .from(walletFundings)
        .where(and(eq(walletFundings.partnerId, p.partnerId), eq(walletFundings.reference, reference)))
    )[0]!;
    const body = JSON.stringify({
      event: "charge.failed",
      data: { reference: funding.providerReference, status: "failed", gateway_response: "Declined\u0000\ud800" },
    });
    const { status, answer } = await sendBytes(t, new TextEncoder().encode(body), sign(body));
    expect([status, answer]).toEqual([200, { status: "failed" }]);
    const [after] = await db.select().from(walletFundings).where(eq(walletFundings.id, funding.id));
    expect(after).toMatchObject({ status: "failed", statusNote: "Declined\ufffd\ufffd" });
  });

  test("broken UTF-8 signed over the bytes as sent is verified over those bytes: 200 ignored (no such payment), never a 401 or a 5xx", async () => {
    const body = Uint8Array.from([...new TextEncoder().encode('{"event":"charge.success","data":{"reference":"SBX_X'), 0xff, 0x22, 0x7d, 0x7d]);
    expect(await sendBytes(t, body, sign(body))).toEqual({ status: 200, answer: { status: "ignored" } });
  });
});
