/**
 * What every change of a policy after issuance shares (docs/reliability.md, "Concurrent repeats"):
 * who asks and which policy, and the change made once per reference, the policy row locked first,
 * so a repeat, a claim or another change at the same moment waits for it and then sees the outcome.
 */
import { and, eq, type SQL, sql } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import type { Database, Executor } from "../../db/client";
import { isUniqueViolation } from "../../db/errors";
import type { AuditActor } from "../audit";
import type { Mode, PolicyRecord } from "../policies";
import { addressConditions, notFoundAt, type PolicyAddress, policies, type policyCancellations, type policyEndorsements, requirePolicyMode } from "../policies";
import type { policyReinstatements } from "./schema";

/** Who cancels: a partner (its own policies, with a key of the policy's mode) or the operator's administrator (any policy). */
export type Canceller = { kind: "partner"; partnerId: string; mode: Mode; actor: AuditActor } | { kind: "operator"; actor: AuditActor; by: string };

/** Which policy: by its address on the JSON surface, or by id from the portal. */
export type PolicyLocator = { address: PolicyAddress } | { policyId: string };

export function whereOf(canceller: Canceller, locator: PolicyLocator): { where: SQL; notFound: () => CommandError } {
  if ("address" in locator) {
    const conditions = addressConditions(locator.address);
    if (canceller.kind === "partner") conditions.push(eq(policies.partnerId, canceller.partnerId));
    return { where: and(...conditions)!, notFound: () => notFoundAt(locator.address) };
  }
  const conditions = [eq(policies.id, locator.policyId)];
  if (canceller.kind === "partner") conditions.push(eq(policies.partnerId, canceller.partnerId));
  return { where: and(...conditions)!, notFound: () => new CommandError(404, "no such policy") };
}

/**
 * Looks up the change stored under a request's reference among the references of `partnerId`: the
 * outcome of a repeat, or null when there is none. `policyWhere` names the policy the request
 * addresses: the reference used on another policy (or with other terms) is a conflict (409).
 */
export type EarlierChange<T> = (db: Executor, partnerId: string, policyWhere: SQL) => Promise<T | null>;

/** The tables of changes stored under a partner's reference. */
type ChangeTable = typeof policyCancellations | typeof policyReinstatements | typeof policyEndorsements;

/** The change stored in `table` under the partner's reference, with its policy and whether that is the one `policyWhere` names. */
export async function priorChange<T extends ChangeTable>(
  db: Executor,
  table: T,
  partnerId: string,
  reference: string,
  policyWhere: SQL,
): Promise<{ change: T["$inferSelect"]; policy: PolicyRecord; samePolicy: boolean } | null> {
  const changes = table as ChangeTable;
  const [prior] = await db
    .select({ change: changes, policy: policies, samePolicy: sql<boolean>`coalesce(${policyWhere}, false)` })
    .from(changes)
    .innerJoin(policies, eq(policies.id, changes.policyId))
    .where(and(eq(changes.partnerId, partnerId), eq(changes.reference, reference)));
  return prior ?? null;
}

/**
 * The change stored under a request's reference, read without a lock (a lost answer's recovery;
 * a twin on another policy that the reference's index refused): among the partner's references, or
 * for the operator those of the addressed policy's partner, where the portal's forms keep theirs.
 */
export async function storedChange<T>(db: Executor, canceller: Canceller, locator: PolicyLocator, earlier: EarlierChange<T>): Promise<T | null> {
  const { where } = whereOf(canceller, locator);
  const [policy] = canceller.kind === "partner" ? [canceller] : await db.select({ partnerId: policies.partnerId }).from(policies).where(where);
  return policy ? earlier(db, policy.partnerId, where) : null;
}

/**
 * A change of one policy made once per reference (docs/reliability.md, "Concurrent repeats"): one
 * transaction locks the policy first and only then looks for the change stored under the request's
 * reference, so a concurrent repeat waits for the first and answers with what it stored, before any
 * rule sees the policy as changed. The reference's unique index catches twins on two policies (the
 * loser reads the winner: a conflict); the policy's (`taken`) another change of it at that moment.
 */
export async function changeOnce<T>(
  db: Database,
  canceller: Canceller,
  locator: PolicyLocator,
  rule: { inItsMode: string; earlier: EarlierChange<T>; indexes?: { reference: string; policy: string; taken: string } },
  change: (tx: Executor, policy: PolicyRecord) => Promise<T>,
): Promise<T> {
  const { where, notFound } = whereOf(canceller, locator);
  try {
    return await db.transaction(async (tx) => {
      const [policy] = await tx.select().from(policies).where(where).for("update");
      if (!policy) throw notFound();
      if (canceller.kind === "partner") requirePolicyMode(policy, canceller.mode, rule.inItsMode);
      return (await rule.earlier(tx, policy.partnerId, where)) ?? (await change(tx, policy));
    });
  } catch (error) {
    const { indexes } = rule;
    if (indexes && isUniqueViolation(error, indexes.reference)) {
      const first = await storedChange(db, canceller, locator, rule.earlier);
      if (first) return first;
    }
    if (indexes && isUniqueViolation(error, indexes.policy)) throw new CommandError(409, indexes.taken);
    throw error;
  }
}
