/**
 * The provider's word on a payment (docs/funding.md): its signed callbacks, the background check
 * of fundings whose callback has not come, and the sandbox's "pay now" through the callback path.
 */
import { and, asc, eq, lte, or } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { newId } from "../../core/ids";
import { log } from "../../core/log";
import { unstorableText } from "../../core/validation";
import type { Database } from "../../db/client";
import type { PaymentProvider, PaymentResult, ProviderCallback } from "./provider";
import { fundingCallbacks, walletFundings } from "./schema";
import { type CallbackOutcome, lockFunding, moveTo, paymentOf, settleLocked } from "./settlement";

/** How many bytes of a callback with a bad signature are kept in the trail. */
const FORGED_BODY_KEPT = 512;

/** Longer than any provider's reference or event name: not one (and too long for the trail's index). */
const MAX_CALLBACK_FIELD = 200;

/** A verified callback's content, or null when it is not the provider's JSON or names what no column can hold. */
function understood(provider: PaymentProvider, rawBody: string): ProviderCallback | null {
  let callback: ProviderCallback;
  try {
    callback = provider.readCallback(rawBody);
  } catch {
    return null;
  }
  const readable = (field: string | null) => field === null || (field.length <= MAX_CALLBACK_FIELD && !unstorableText(field));
  return readable(callback.providerReference) && readable(callback.event) ? callback : null;
}

/**
 * A provider callback (POST /funding/callbacks/<provider>): the signature over the raw body first
 * (a bad one is recorded and changes nothing else: 401), then the payment it names, settled in one
 * transaction with the funding row locked, so repeats, late arrivals and a racing manual
 * confirmation find the first outcome. A reference we do not know, or a signed body we cannot
 * read, is recorded and ignored (200: the provider retries anything else for days).
 */
export async function receiveCallback(
  db: Database,
  provider: PaymentProvider,
  rawBody: Uint8Array | string,
  signature: string | null,
  now: Date,
): Promise<{ status: 200 | 401; outcome: CallbackOutcome }> {
  const bytes = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  const trail = (outcome: CallbackOutcome, signatureValid: "yes" | "no", fields: { providerReference?: string | null; event?: string | null } = {}) => ({
    id: newId(),
    provider: provider.name,
    providerReference: fields.providerReference ?? null,
    event: fields.event ?? null,
    signatureValid,
    outcome,
    // A forged callback keeps only its opening (enough to see what was tried), so senders
    // without the key cannot grow the table by 64 KiB a request.
    body: signatureValid === "yes" ? bytes : bytes.subarray(0, FORGED_BODY_KEPT),
    receivedAt: now,
  });
  if (!provider.verifySignature(bytes, signature)) {
    await db.insert(fundingCallbacks).values(trail("rejected", "no"));
    log.warn("funding callback with a bad signature", { provider: provider.name });
    return { status: 401, outcome: "rejected" };
  }
  const callback = understood(provider, bytes.toString("utf8"));
  if (!callback) {
    await db.insert(fundingCallbacks).values(trail("ignored", "yes"));
    log.warn("funding callback not understood", { provider: provider.name });
    return { status: 200, outcome: "ignored" };
  }
  const { providerReference, result } = callback;
  if (!providerReference || !result) {
    await db.insert(fundingCallbacks).values(trail("ignored", "yes", callback));
    return { status: 200, outcome: "ignored" };
  }
  return db.transaction(async (tx) => {
    const [funding] = await tx
      .select()
      .from(walletFundings)
      .where(and(eq(walletFundings.provider, provider.name), eq(walletFundings.providerReference, providerReference)))
      .for("update");
    const outcome = funding ? await settleLocked(tx, funding, result, "callback", now) : "ignored";
    if (!funding) log.warn("funding callback for an unknown payment", { provider: provider.name, providerReference });
    await tx.insert(fundingCallbacks).values(trail(outcome, "yes", callback));
    return { status: 200 as const, outcome };
  });
}

/**
 * The background check (the funding job): pending fundings whose callback has not come within
 * `checkAfterMs` are asked about at the provider and settled by what it says; unpaid ones past
 * their expiry are expired. Returns how many changed.
 */
export async function checkFundings(db: Database, provider: PaymentProvider, now: Date, checkAfterMs: number, limit = 100): Promise<number> {
  const due = await db
    .select()
    .from(walletFundings)
    .where(
      and(
        eq(walletFundings.status, "pending"),
        eq(walletFundings.provider, provider.name),
        or(lte(walletFundings.createdAt, new Date(now.getTime() - checkAfterMs)), lte(walletFundings.expiresAt, now)),
      ),
    )
    .orderBy(asc(walletFundings.expiresAt))
    .limit(limit);
  let changed = 0;
  for (const funding of due) {
    let result: PaymentResult;
    try {
      result = await provider.queryPayment(paymentOf(funding));
    } catch (error) {
      log.warn("payment provider status query failed", { provider: provider.name, reference: funding.reference, error: String(error) });
      continue;
    }
    const moved = await db.transaction(async (tx) => {
      const locked = await lockFunding(tx, funding.id);
      if (locked.status !== "pending") return false;
      if (result.status !== "pending") return (await settleLocked(tx, locked, result, "check", now)) !== "repeat";
      if (locked.expiresAt > now) return false;
      await moveTo(tx, locked, { status: "expired", statusNote: "No payment arrived before the funding expired", settledBy: "check" }, now);
      return true;
    });
    if (moved) changed++;
  }
  return changed;
}

/** The sandbox's "pay now": the provider's signed callback of the payment, through the callback path. */
export async function payInSandbox(db: Database, provider: PaymentProvider, partnerId: string, fundingId: string, now: Date) {
  const [funding] = await db
    .select()
    .from(walletFundings)
    .where(and(eq(walletFundings.id, fundingId), eq(walletFundings.partnerId, partnerId), eq(walletFundings.provider, provider.name)));
  if (!funding) throw new CommandError(404, "no such funding");
  const callback = provider.payNow?.(paymentOf(funding));
  if (!callback) throw new CommandError(409, "this payment provider cannot be paid from here");
  return receiveCallback(db, provider, callback.body, callback.signature, now);
}
