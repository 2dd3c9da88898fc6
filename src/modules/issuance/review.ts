import { and, eq, type SQL, sql } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { uuidArray } from "../../db/arrays";
import type { Database, Executor } from "../../db/client";
import { findProduct } from "../../products";
import { type AuditActor, recordAudit } from "../audit";
import { earnOnApproval } from "../commissions";
import { recordEvents } from "../events";
import type { Mode, PolicyRecord } from "../policies";
import { addressConditions, newPolicyNumber, notFoundAt, type PolicyAddress, policies, requirePolicyMode, statusEvent } from "../policies";
import { refundPremiums } from "../wallet";

const noLongerPending = (policy: PolicyRecord) => new CommandError(409, `policy ${policy.reference} is no longer pending`);

/** What becomes of a pending policy: approved or declined (with its note), and by whom. */
export interface Decision {
  status: "a" | "d";
  note?: string | null;
  /** Who decided, as the policy keeps it (decidedBy). */
  by: string;
}

/**
 * Move pending policies to approved or declined, with their events and (on a live decline) the
 * premium refund, in the caller's transaction: an administrator's one decision, or the insurer's
 * of one underwriting pass. A few statements whatever the batch's size: the policies in one UPDATE,
 * the refunds of live declines in one, their commissions' rates in one query and their lines in one,
 * their events in one INSERT. Refuses the batch when any of its policies is no longer pending. The
 * decided policies come back in the order given.
 */
export async function decideAll(tx: Executor, batch: readonly { policy: PolicyRecord; decision: Decision }[], now: Date): Promise<PolicyRecord[]> {
  if (!batch.length) return [];
  const notPending = batch.find(({ policy }) => policy.status !== "p");
  if (notPending) throw noLongerPending(notPending.policy);
  // The decided records, as the UPDATE below stores them: it returns only ids, because reading whole
  // policy rows back cost the underwriting job more CPU than deciding them.
  const decided = batch.map(
    ({ policy, decision }): PolicyRecord => ({
      ...policy,
      status: decision.status,
      statusNote: decision.status === "d" ? (decision.note ?? "declined") : (decision.note ?? null),
      policyNo: decision.status === "a" ? newPolicyNumber(findProduct(policy.productCode), policy.mode, now) : null,
      underwriteAt: null,
      decidedBy: decision.by,
      statusAt: now,
    }),
  );
  const outcomes = decided.map((policy, i) => ({
    id: policy.id,
    status: policy.status,
    status_read: batch[i]!.policy.status,
    status_note: policy.statusNote,
    policy_no: policy.policyNo,
    decided_by: policy.decidedBy,
  }));
  const updated = await tx
    .update(policies)
    .set({
      status: sql`d.status`,
      statusNote: sql`d.status_note`,
      policyNo: sql`d.policy_no`,
      underwriteAt: null,
      decidedBy: sql`d.decided_by`,
      statusAt: now,
    })
    .from(
      sql`json_to_recordset(${JSON.stringify(outcomes)}::json) as d(id uuid, status text, status_read text, status_note text, policy_no text, decided_by text)`,
    )
    // Still pending as read. Said as "the status read" rather than "= 'p'": with that, the planner
    // joined the batch to the partial indexes of pending policies, reading the whole backlog each time.
    // The ids again as an array, so the planner finds them by key (uuidArray).
    .where(and(sql`${policies.id} = any(${uuidArray(outcomes.map(({ id }) => id))})`, eq(policies.id, sql`d.id`), eq(policies.status, sql`d.status_read`)))
    .returning({ id: policies.id });
  const updatedIds = new Set(updated.map(({ id }) => id));
  const changed = batch.find(({ policy }) => !updatedIds.has(policy.id));
  if (changed) throw noLongerPending(changed.policy);
  await refundPremiums(
    tx,
    decided
      .filter((policy) => policy.status === "d" && policy.mode === "live")
      .map((policy) => ({ partnerId: policy.partnerId, policyId: policy.id, premiumKobo: policy.premiumKobo })),
    now,
  );
  // The first approval earns the partner its commission (a declined policy never earned any).
  await earnOnApproval(
    tx,
    decided.filter((policy) => policy.status === "a"),
    now,
  );
  await recordEvents(tx, decided.map(statusEvent), now);
  return decided;
}

/** The operator's key reviews policies of its own mode only: a test key must not decline (and refund) a live policy. */
const REVIEWED_IN_ITS_MODE = "it is approved or declined";

/** An administrator's decision about a pending policy. */
export interface Review extends Decision {
  note?: string;
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
    const decided = (await decideAll(tx, [{ policy, decision: review }], now))[0]!;
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
