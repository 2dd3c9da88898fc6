import { and, eq, type SQL } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import type { Database, Executor } from "../../db/client";
import { findProduct } from "../../products";
import { type AuditActor, recordAudit } from "../audit/service";
import { earnOnApproval } from "../commissions/earning";
import { recordEvent } from "../events/service";
import { refundPremium } from "../wallet/service";
import { policies } from "./schema";
import { addressConditions, newPolicyNumber, notFoundAt, type PolicyAddress, requirePolicyMode, statusEvent } from "./service";
import type { Mode, PolicyRecord } from "./types";

/**
 * Move a pending policy to approved or declined, with its event and (on a live decline) the
 * premium refund, in one transaction. Refuses a policy that is not pending.
 */
export async function decide(
  tx: Executor,
  policy: PolicyRecord,
  decision: { status: "a" | "d"; note?: string | null; by: string },
  now: Date,
): Promise<PolicyRecord> {
  const product = findProduct(policy.productCode);
  const [updated] = await tx
    .update(policies)
    .set({
      status: decision.status,
      statusNote: decision.status === "d" ? (decision.note ?? "declined") : (decision.note ?? null),
      policyNo: decision.status === "a" ? newPolicyNumber(product, policy.mode, now) : null,
      underwriteAt: null,
      decidedBy: decision.by,
      statusAt: now,
    })
    .where(and(eq(policies.id, policy.id), eq(policies.status, "p")))
    .returning();
  if (!updated) throw new CommandError(409, `policy ${policy.reference} is no longer pending`);
  if (decision.status === "d" && policy.mode === "live") await refundPremium(tx, policy.partnerId, policy.id, policy.premiumKobo, now);
  // The first approval earns the partner its commission (a declined policy never earned any).
  if (decision.status === "a") await earnOnApproval(tx, updated, now);
  await recordEvent(tx, statusEvent(updated), now);
  return updated;
}

/** The operator's key reviews policies of its own mode only: a test key must not decline (and refund) a live policy. */
const REVIEWED_IN_ITS_MODE = "it is approved or declined";

/** An administrator's decision about a pending policy. */
export interface Review {
  status: "a" | "d";
  note?: string;
  /** Who decided, as the policy keeps it (decidedBy). */
  by: string;
  /** Where the surface takes the note from, for the refusal of a decline without one. */
  noteField: string;
}

/**
 * `appr entt_<consumer_id>|insr_<product_code>-<tx_id>` (administrator): approve a pending
 * policy, or decline it with a note, with a key of the policy's mode.
 */
export function reviewPolicy(db: Database, actor: AuditActor, address: PolicyAddress, review: Review & { mode: Mode }, now: Date): Promise<PolicyRecord> {
  return reviewWhere(db, actor, and(...addressConditions(address))!, () => notFoundAt(address), review, now);
}

/** The same review from the portal's approval queue, by the policy's own id. */
export function reviewPolicyById(db: Database, actor: AuditActor, policyId: string, review: Review, now: Date): Promise<PolicyRecord> {
  return reviewWhere(db, actor, eq(policies.id, policyId), () => new CommandError(404, "no such policy"), review, now);
}

async function reviewWhere(
  db: Database,
  actor: AuditActor,
  where: SQL,
  notFound: () => CommandError,
  // The portal's operator has no key, so no mode (docs/decisions.md).
  review: Review & { mode?: Mode },
  now: Date,
): Promise<PolicyRecord> {
  // One rule for both surfaces: a decline says why.
  if (review.status === "d" && !review.note?.trim())
    throw new CommandError(400, `${review.noteField} is required to decline: say why in ${review.noteField}`, review.noteField);
  return db.transaction(async (tx) => {
    const [policy] = await tx.select().from(policies).where(where).for("update");
    if (!policy) throw notFound();
    if (review.mode) requirePolicyMode(policy, review.mode, REVIEWED_IN_ITS_MODE);
    if (policy.status !== "p")
      throw new CommandError(
        409,
        `policy ${policy.reference} is ${{ a: "already approved", d: "already declined", l: "lapsed", c: "cancelled", e: "expired" }[policy.status as "a" | "d" | "l" | "c" | "e"]}: only pending policies can be reviewed`,
      );
    const decided = await decide(tx, policy, review, now);
    await recordAudit(
      tx,
      actor,
      {
        action: review.status === "a" ? "policy.approve" : "policy.decline",
        subject: decided.reference,
        partnerId: decided.partnerId,
        details: { statusNote: decided.statusNote, policyNo: decided.policyNo },
      },
      now,
    );
    return decided;
  });
}
