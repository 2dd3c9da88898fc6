/**
 * The clock's background check (issue 37): announces each open claim's deadline once as it comes near
 * (`claim.due_soon`) and once as it passes (`claim.overdue`). The alert row's key (claim, deadline,
 * alert) makes each announcement happen once however many instances look; the claim's row lock
 * makes it true of the claim as it stands (a claim paid a moment ago is not announced overdue).
 */
import { eq, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { resultRows } from "../../db/results";
import { watToday } from "../../products/policy-helpers";
import { addDays } from "../calendar";
import { recordEvent } from "../events";
import { type ClockSettings, type Deadline, pauseCounted, type Standing, standingOf } from "./clock";
import { claimClockAlerts, claims } from "./schema";
import { type ClaimRecord, claimHeading, selectClaims } from "./service";

/** The deadlines a claim still has running, and where each stands today. */
export function runningDeadlines(
  claim: Pick<ClaimRecord, "status" | "settlementDueOn" | "voucherDueOn" | "voucherIssuedAt" | "pausedSince" | "pausedUntil">,
  today: string,
  settings: ClockSettings,
) {
  const running: { deadline: Deadline; dueOn: string; standing: Standing; pause?: { since: string; spent: boolean } }[] = [];
  if (claim.status === "submitted" || claim.status === "in_review" || claim.status === "approved")
    running.push({ deadline: "settlement", dueOn: claim.settlementDueOn, standing: standingOf(claim.settlementDueOn, today, settings.dueSoonDays) });
  // Waiting for the partner: the deadline moves a day with each day waited, until the pause's allowance is used up.
  if (claim.status === "info_requested" && claim.pausedSince && claim.pausedUntil) {
    const dueOn = addDays(claim.settlementDueOn, pauseCounted({ pausedSince: claim.pausedSince, pausedUntil: claim.pausedUntil }, today));
    const pause = { since: claim.pausedSince, spent: today > claim.pausedUntil };
    running.push({ deadline: "settlement", dueOn, standing: standingOf(dueOn, today, settings.dueSoonDays), pause });
  }
  // The voucher's clock stops when the first voucher is issued.
  if (claim.status === "approved" && claim.voucherDueOn && !claim.voucherIssuedAt)
    running.push({ deadline: "voucher", dueOn: claim.voucherDueOn, standing: standingOf(claim.voucherDueOn, today, settings.voucherDueSoonDays) });
  return running;
}

const BATCH = 100;

/** Claims with a deadline in the window whose current alert is not sent yet, first due first (the partial index on next_due_on). */
function waiting(today: string, settings: ClockSettings): SQL {
  const alertOf = (column: SQL) => sql`case when ${column} < ${today}::date then 'overdue' else 'due_soon' end`;
  const unsent = (deadline: Deadline, column: SQL) =>
    sql`not exists (select from ${claimClockAlerts} a where a.claim_id = ${claims.id} and a.deadline = ${deadline} and a.alert = ${alertOf(column)})`;
  // A claim waiting for information: its deadline as the days waited (up to the allowance) have moved it.
  const settlementDue = sql`(case when ${claims.status} = 'info_requested'
    then ${claims.settlementDueOn} + least(greatest(${today}::date - ${claims.pausedSince}, 0), ${claims.pausedUntil} - ${claims.pausedSince})
    else ${claims.settlementDueOn} end)`;
  const settlement = sql`${settlementDue} <= ${addDays(today, settings.dueSoonDays)}::date and ${unsent("settlement", settlementDue)}`;
  const voucher = sql`${claims.status} = 'approved' and ${claims.voucherIssuedAt} is null and ${claims.voucherDueOn} <= ${addDays(today, settings.voucherDueSoonDays)}::date and ${unsent("voucher", sql`${claims.voucherDueOn}`)}`;
  const horizon = addDays(today, Math.max(settings.dueSoonDays, settings.voucherDueSoonDays));
  return sql`${claims.nextDueOn} is not null and ${claims.nextDueOn} <= ${horizon}::date and ((${settlement}) or (${voucher}))`;
}

/** One pass: up to a batch of claims announced; how many alerts it sent. */
export async function announceDeadlines(db: Database, settings: ClockSettings, now: Date): Promise<number> {
  const today = watToday(now);
  const ids = resultRows<{ id: string }>(
    await db.execute(sql`select ${claims.id} as id from ${claims} where ${waiting(today, settings)} order by ${claims.nextDueOn}, ${claims.id} limit ${BATCH}`),
  ).map((r) => r.id);
  let sent = 0;
  for (const id of ids) {
    sent += await db.transaction(async (tx) => {
      const [claim] = await selectClaims(tx).where(eq(claims.id, id)).for("update", { of: claims, skipLocked: true });
      if (!claim) return 0;
      let count = 0;
      for (const { deadline, dueOn, standing } of runningDeadlines(claim, today, settings)) {
        if (standing.state === "running") continue;
        const alert = standing.state;
        const added = await tx.insert(claimClockAlerts).values({ claimId: claim.id, deadline, alert, dueOn, createdAt: now }).onConflictDoNothing().returning();
        if (!added.length) continue;
        const when = standing.state === "overdue" ? { daysOverdue: standing.daysOverdue } : { daysLeft: standing.daysLeft };
        await recordEvent(
          tx,
          { partnerId: claim.partnerId, type: `claim.${alert}`, targetUrl: claim.policyWebhook, payload: { ...claimHeading(claim), deadline, dueOn, ...when } },
          now,
        );
        count++;
      }
      return count;
    });
  }
  return sent;
}
