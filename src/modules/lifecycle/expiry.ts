/**
 * The end of cover (docs/lifecycle.md): reminders to the partner as a renewable policy's end nears,
 * and the expiry of policies whose cover has ended. Background runs, in batches claimed with SKIP
 * LOCKED, so several instances share the work.
 */
import { and, asc, eq, gt, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { DAY_MS, lastCoverDay } from "../../core/time";
import type { Database } from "../../db/client";
import { renewableProductCodes } from "../../products";
import { recordEvent } from "../events";
import { policies, statusEvent } from "../policies";

/** Days before the end of cover when a renewable policy's partner is reminded (`policy.expiring`). */
const REMINDER_DAYS = [30, 7, 1] as const;

/**
 * The reminder run: each approved renewable policy whose cover ends within 30, 7 or 1 days gets
 * one `policy.expiring` event for the nearest of those it has reached and was not yet reminded of
 * (a policy issued 5 days before its end gets the 7-day one only). Batches with SKIP LOCKED.
 */
export async function remindExpiringPolicies(db: Database, now: Date, batch = 200): Promise<number> {
  const [widest, middle, last] = REMINDER_DAYS.map((days) => new Date(now.getTime() + days * DAY_MS));
  // The reminder each policy is due, by how near its end is.
  // Instants as text with a cast: a Date inside a raw fragment has no column to take its type from (postgres.js would not bind it).
  const due = sql<number>`case when ${policies.coverEnd} <= ${last!.toISOString()}::timestamptz then 1 when ${policies.coverEnd} <= ${middle!.toISOString()}::timestamptz then 7 else 30 end`;
  let reminded = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      const rows = await tx
        .select({ policy: policies, due })
        .from(policies)
        .where(
          and(
            eq(policies.status, "a"),
            gt(policies.coverEnd, now),
            lte(policies.coverEnd, widest!),
            inArray(policies.productCode, renewableProductCodes()),
            or(isNull(policies.remindedDays), sql`${policies.remindedDays} > ${due}`),
          ),
        )
        .orderBy(asc(policies.coverEnd))
        .limit(batch)
        .for("update", { of: policies, skipLocked: true });
      for (const { policy, due: days } of rows) {
        await tx
          .update(policies)
          .set({ remindedDays: Number(days) })
          .where(eq(policies.id, policy.id));
        const event = statusEvent(policy);
        await recordEvent(
          tx,
          {
            ...event,
            type: "policy.expiring",
            payload: { ...event.payload, daysLeft: Number(days), lastDay: lastCoverDay(policy.coverEnd) },
          },
          now,
        );
      }
      return rows.length;
    });
    reminded += count;
    if (count < batch) return reminded;
  }
}

/**
 * The expiry run: approved policies whose cover has ended become `e`, each with its
 * `policy.expired` event, recorded at the moment the cover ended. Claimed with SKIP LOCKED in
 * batches, so several instances share the work and a claim being written waits for nothing.
 */
export async function expireEndedPolicies(db: Database, now: Date, batch = 200): Promise<number> {
  let expired = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(policies)
        .where(and(eq(policies.status, "a"), lte(policies.coverEnd, now)))
        .orderBy(asc(policies.coverEnd))
        .limit(batch)
        .for("update", { skipLocked: true });
      for (const policy of due) {
        const [ended] = await tx.update(policies).set({ status: "e", statusAt: policy.coverEnd }).where(eq(policies.id, policy.id)).returning();
        await recordEvent(tx, statusEvent(ended!), now);
      }
      return due.length;
    });
    expired += count;
    if (count < batch) return expired;
  }
}
