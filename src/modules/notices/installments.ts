/**
 * What a financed policy's insured is told by date, not by an event (docs/templates.md): their
 * installment is due in 3 days (a reminder), it was missed, and the last day to pay before the
 * policy lapses (financing's lapse rule: the oldest unpaid installment's due date plus the plan's
 * grace days). Each message's dedupe key names the plan, the installment and the notice, so a run
 * repeated (hourly, after downtime, on another instance) tells each once; a window of days rather
 * than one day means a day the job did not run is caught up.
 */
import { and, asc, between, eq, lt } from "drizzle-orm";
import type { Config } from "../../core/config";
import { formatNaira } from "../../core/money";
import type { Database } from "../../db/client";
import { watMidnight } from "../../products/policy-helpers";
import { addDays, daysBetween } from "../calendar";
import { financingInstallments, financingPlans } from "../financing";
import { queueMessages } from "../messages";
import { policies } from "../policies";
import { type Notice, noticeOf } from "./catalogue";
import { noticeMessages, partnerSettings, policyRecipient } from "./fanout";

/** Days before an installment's due date when the insured is reminded of it. */
const DUE_REMINDER_DAYS = 3;
/** Active plans whose oldest unpaid installment fell due at most this long ago are looked at (longer graces lapse a plan later still). */
const LOOK_BACK_DAYS = 90;
/** 08:00 in Nigeria, after its midnight. */
const MORNING_MS = 8 * 3_600_000;

/** Which notice a plan's day calls for: due soon, missed, or the last day or two before the lapse. */
function noticeOn(today: string, dueDate: string, payBy: string): Notice | undefined {
  const untilDue = daysBetween(today, dueDate);
  if (untilDue > 0) return untilDue <= DUE_REMINDER_DAYS ? noticeOf("financing.installment_due") : undefined;
  if (untilDue === 0 || today > payBy) return undefined;
  return daysBetween(today, payBy) <= 1 ? noticeOf("financing.lapse_warning") : noticeOf("financing.installment_missed");
}

/** Tell every financed policy's insured what `today` (YYYY-MM-DD, Nigerian calendar) calls for; returns how many messages it queued. */
export async function remindInstallments(db: Database, config: Config, today: string, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const plans = await tx
      .select({ plan: financingPlans, installment: financingInstallments, policy: policies })
      .from(financingPlans)
      .innerJoin(
        financingInstallments,
        and(
          eq(financingInstallments.planId, financingPlans.id),
          eq(financingInstallments.dueDate, financingPlans.nextDueDate),
          lt(financingInstallments.paidKobo, financingInstallments.amountKobo),
        ),
      )
      .innerJoin(policies, eq(policies.id, financingPlans.policyId))
      .where(and(eq(financingPlans.status, "active"), between(financingPlans.nextDueDate, addDays(today, -LOOK_BACK_DAYS), addDays(today, DUE_REMINDER_DAYS))))
      .orderBy(asc(financingPlans.nextDueDate));
    const settingOf = partnerSettings(tx, config, now);
    const outgoing = [];
    // Not in the night: a reminder found after midnight waits for the morning.
    const notBefore = new Date(Math.max(now.getTime(), watMidnight(today).getTime() + MORNING_MS));
    for (const { plan, installment, policy } of plans) {
      const payBy = addDays(installment.dueDate, plan.graceDays);
      const notice = noticeOn(today, installment.dueDate, payBy);
      if (!notice) continue;
      const values = { installmentAmount: formatNaira(installment.amountKobo - installment.paidKobo), dueDate: installment.dueDate, payBy };
      const recipient = await policyRecipient(tx, config, policy, `policy:${policy.id}`, values);
      if (!recipient) continue;
      const occasion = `${notice.key}:${plan.id}:${installment.number}`;
      outgoing.push(...noticeMessages(plan.partnerId, occasion, notice, recipient, await settingOf(plan.partnerId)).map((m) => ({ ...m, notBefore })));
    }
    // The messages written this time: none when a run repeats one already made.
    return (await queueMessages(tx, outgoing, now)).length;
  });
}
