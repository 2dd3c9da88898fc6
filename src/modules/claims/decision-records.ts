/**
 * The decisions waiting for a second administrator (authority.ts makes and decides them), as the
 * claim's reads and moves need them: what waits on a claim, and closing it when the partner changes
 * the claim under it.
 */
import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { claimDecisions } from "./schema";

export type ClaimDecision = typeof claimDecisions.$inferSelect;

const waitingOn = (claimId: string) => and(eq(claimDecisions.claimId, claimId), eq(claimDecisions.status, "awaiting"));

/** The decision waiting on a claim for a second administrator, if one does. */
export async function awaitingDecision(db: Executor, claimId: string): Promise<ClaimDecision | null> {
  const [decision] = await db.select().from(claimDecisions).where(waitingOn(claimId));
  return decision ?? null;
}

/** The partner withdrew the claim or answered a question: what waited was decided on what the claim was before. */
export async function closeAwaitingDecision(tx: Executor, claimId: string, now: Date): Promise<void> {
  await tx.update(claimDecisions).set({ status: "closed", decidedAt: now, decidedBy: "partner" }).where(waitingOn(claimId));
}
