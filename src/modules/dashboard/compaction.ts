import { sql } from "drizzle-orm";
import type { Job } from "../../core/job";
import type { Database } from "../../db/client";
import { resultRows } from "../../db/results";

/** How often each process folds the daily totals: the lines between two runs are what the charts sum beyond one per key. */
const COMPACTION_INTERVAL_MS = 60_000;

/**
 * Fold the daily totals (src/modules/dashboard/schema.ts): each key with lines added since the last
 * run becomes one folded line holding their sum (none when it sums to nothing), at most `keys` keys
 * a run. Writers only insert, so this never waits for them; their lines added meanwhile stay for the
 * next run. One instance folds at a time (the others wait, then find nothing). Returns the keys folded.
 */
export async function compactDailyTotals(db: Database, keys = 1000): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('policy_daily_totals compaction'))`);
    const folded = await tx.execute(sql`
      with due as (
        select distinct partner_id, mode, day, product_code, status from policy_daily_totals where not folded limit ${keys}
      ), gone as (
        delete from policy_daily_totals t using due
        where (t.partner_id, t.mode, t.day, t.product_code, t.status) = (due.partner_id, due.mode, due.day, due.product_code, due.status)
        returning t.partner_id, t.mode, t.day, t.product_code, t.status, t.policies, t.premium_kobo
      ), summed as (
        insert into policy_daily_totals (partner_id, mode, day, product_code, status, policies, premium_kobo, folded)
        select partner_id, mode, day, product_code, status, sum(policies), sum(premium_kobo), true from gone
        group by 1, 2, 3, 4, 5 having sum(policies) <> 0 or sum(premium_kobo) <> 0
        returning 1
      )
      select (select count(*) from due)::int as keys`);
    const rows = resultRows<{ keys: number }>(folded);
    return Number(rows[0]?.keys ?? 0);
  });
}

/** The compaction as a background job, at most once a minute in each process. */
export function dashboardJobs(db: Database): Job[] {
  let lastRun = Number.NEGATIVE_INFINITY;
  return [
    {
      name: "daily totals compaction",
      async run(now) {
        if (now.getTime() - lastRun < COMPACTION_INTERVAL_MS) return 0;
        lastRun = now.getTime();
        await compactDailyTotals(db);
        // Never "more to do at once": the next run is a minute away whatever was folded.
        return 0;
      },
    },
  ];
}
