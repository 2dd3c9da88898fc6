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
const sign = (body: string, secret = t.config.PAYMENT_PROVIDER_SECRET) => createHmac("sha512", secret).update(body).digest("hex");

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
