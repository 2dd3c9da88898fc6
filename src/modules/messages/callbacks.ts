import { and, eq } from "drizzle-orm";
import { newId } from "../../core/ids";
import { log } from "../../core/log";
import type { Database } from "../../db/client";
import { announce } from "./announce";
import { messageEvents, messages } from "./schema";
import type { SmsProvider } from "./sms-provider";

type ReportOutcome = "applied" | "repeat" | "ignored" | "rejected";

/**
 * An SMS gateway's delivery report (POST /messages/callbacks/<provider>): the signature over the raw
 * bytes first (a bad one changes nothing: 401), then the message it names, by the gateway's id,
 * settled with its row locked. A report of a message we do not know, of a status that settles
 * nothing, or of a message already settled is logged where it belongs and otherwise ignored (200:
 * the gateway would retry anything else).
 */
export async function receiveSmsReport(
  db: Database,
  provider: SmsProvider,
  rawBody: Uint8Array | string,
  signature: string | null,
  now: Date,
): Promise<{ status: 200 | 401; outcome: ReportOutcome }> {
  const bytes = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  if (!provider.verifySignature(bytes, signature)) {
    log.warn("SMS delivery report with a bad signature", { provider: provider.name });
    return { status: 401, outcome: "rejected" };
  }
  let report: ReturnType<SmsProvider["readReport"]>;
  try {
    report = provider.readReport(bytes.toString("utf8"));
  } catch {
    return { status: 200, outcome: "ignored" };
  }
  const { providerReference, outcome, words } = report;
  if (!providerReference) return { status: 200, outcome: "ignored" };
  return db.transaction(async (tx) => {
    const [m] = await tx
      .select()
      .from(messages)
      .where(and(eq(messages.provider, provider.name), eq(messages.providerReference, providerReference), eq(messages.channel, "sms")))
      .for("update");
    if (!m) {
      log.warn("SMS delivery report for an unknown message", { provider: provider.name, providerReference });
      return { status: 200 as const, outcome: "ignored" as const };
    }
    if (m.status === outcome) return { status: 200 as const, outcome: "repeat" as const };
    // Only a sent message is settled by a report: one settled already keeps its outcome.
    if (!outcome || m.status !== "sent") {
      await tx
        .insert(messageEvents)
        .values({ id: newId(), messageId: m.id, status: "report", detail: `the gateway reported: ${words ?? "(no status)"}`, at: now });
      return { status: 200 as const, outcome: "ignored" as const };
    }
    const reason = outcome === "delivered" ? null : words;
    const [updated] = await tx
      .update(messages)
      .set({ status: outcome, statusReason: reason, ...(outcome === "delivered" ? { deliveredAt: now } : {}) })
      .where(eq(messages.id, m.id))
      .returning();
    await tx.insert(messageEvents).values({ id: newId(), messageId: m.id, status: outcome, detail: `the gateway reported: ${words}`, at: now });
    await announce(tx, updated!, outcome, reason, now);
    return { status: 200 as const, outcome: "applied" as const };
  });
}
