/**
 * Assessment (issue 37, item 2): the operator assigns a claim to an assessor, keeps its reserve
 * (the expected cost) with a reason for every change, and ticks its checklist (the documents its
 * product family needs, then the checks every claim gets). Open claims only; one transaction with
 * its audit row. Internal to the insurer: the partner is told nothing (no event).
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { newId } from "../../core/ids";
import { toNaira as naira } from "../../core/money";
import type { Database, Executor } from "../../db/client";
import { listUsers } from "../accounts";
import { type AuditActor, recordAudit } from "../audit";
import { checklistOf } from "./rules";
import { claimChecks, claimReserves, claims } from "./schema";
import { type ClaimDetail, claimDetail, selectClaims } from "./service";

export interface AssessmentChange {
  /** The e-mail of an active administrator of the operator. */
  assessor?: string;
  reserveKobo?: number;
  reserveReason?: string;
  check?: readonly string[];
  uncheck?: readonly string[];
}

/** The statuses an assessment may change: once decided, the claim's figures are its decision's. */
const ASSESSED = new Set(["submitted", "in_review", "info_requested"]);
export const isAssessed = (status: string) => ASSESSED.has(status);

/** A claim's checklist, each item with who ticked it and when (null when not yet). */
export async function checklist(db: Executor, claim: Pick<ClaimDetail, "id" | "productCode">) {
  const ticked = await db.select().from(claimChecks).where(eq(claimChecks.claimId, claim.id));
  const { documents, checks } = checklistOf(claim.productCode);
  const items = (list: typeof documents, kind: "document" | "check") =>
    list.map((item) => {
      const tick = ticked.find((t) => t.item === item.key);
      return { ...item, kind, checked: tick ? { by: tick.checkedBy, at: tick.checkedAt } : null };
    });
  return [...items(documents, "document"), ...items(checks, "check")];
}

/** The reserve's history, oldest first. */
export const reserveHistory = (db: Executor, claimId: string) =>
  db.select().from(claimReserves).where(eq(claimReserves.claimId, claimId)).orderBy(asc(claimReserves.createdAt));

/** Assess a claim (the operator's `claim assess` and the claim page's assessment form). `by`: the administrator's name in the records. */
export async function assessClaim(
  db: Database,
  input: { claimNo: string; change: AssessmentChange; by: string; actor: AuditActor; now: Date },
): Promise<ClaimDetail> {
  const { change, by, actor, now } = input;
  const administrators = (await listUsers(db, actor.partnerId)).filter((u) => u.active).map((u) => u.email.toLowerCase());
  await db.transaction(async (tx) => {
    const [claim] = await selectClaims(tx).where(eq(claims.claimNo, input.claimNo)).for("update", { of: claims });
    if (!claim) throw new CommandError(404, `no claim ${input.claimNo}`, "seed.claimNo");
    if (!isAssessed(claim.status)) throw new CommandError(409, `claim ${claim.claimNo} is ${claim.status}: its assessment closed with the decision`);
    const keys = new Set(Object.values(checklistOf(claim.productCode)).flatMap((list) => list.map((item) => item.key)));
    for (const field of ["check", "uncheck"] as const) {
      const unknown = (change[field] ?? []).filter((key) => !keys.has(key));
      if (unknown.length)
        throw new CommandError(
          400,
          `seed.${field}: ${unknown.join(", ")} ${unknown.length === 1 ? "is" : "are"} not on the checklist of claim ${claim.claimNo}, which has ${[...keys].join(", ")}`,
          `seed.${field}`,
        );
    }
    const both = (change.check ?? []).filter((key) => change.uncheck?.includes(key));
    if (both.length) throw new CommandError(400, `seed.check and seed.uncheck both name ${both.join(", ")}: tick or untick an item, not both`, "seed.check");
    const assessor = change.assessor?.toLowerCase();
    if (assessor !== undefined && !administrators.includes(assessor))
      throw new CommandError(400, `seed.assessor ${change.assessor} is not an active administrator of the operator`, "seed.assessor");
    if (change.reserveKobo !== undefined && change.reserveKobo > claim.claimedKobo)
      throw new CommandError(
        400,
        `seed.reserve must be at most the amount claimed, ${naira(claim.claimedKobo)} naira; received ${naira(change.reserveKobo)}`,
        "seed.reserve",
      );

    const set: Partial<typeof claims.$inferInsert> = { updatedAt: now };
    if (assessor !== undefined) set.assessor = assessor;
    if (change.reserveKobo !== undefined) {
      set.reserveKobo = change.reserveKobo;
      await tx
        .insert(claimReserves)
        .values({ id: newId(), claimId: claim.id, amountKobo: change.reserveKobo, reason: change.reserveReason ?? "", by, createdAt: now });
    }
    await tx.update(claims).set(set).where(eq(claims.id, claim.id));
    if (change.check?.length)
      await tx
        .insert(claimChecks)
        .values(change.check.map((item) => ({ claimId: claim.id, item, checkedBy: by, checkedAt: now })))
        .onConflictDoNothing();
    if (change.uncheck?.length) await tx.delete(claimChecks).where(and(eq(claimChecks.claimId, claim.id), inArray(claimChecks.item, [...change.uncheck])));
    await recordAudit(
      tx,
      actor,
      {
        action: "claim.assess",
        subject: claim.claimNo,
        partnerId: claim.partnerId,
        details: {
          ...(assessor !== undefined ? { assessor } : {}),
          ...(change.reserveKobo !== undefined ? { reserveKobo: change.reserveKobo, reason: change.reserveReason } : {}),
          ...(change.check?.length ? { checked: change.check.join(", ") } : {}),
          ...(change.uncheck?.length ? { unchecked: change.uncheck.join(", ") } : {}),
        },
      },
      now,
    );
  });
  return claimDetail(db, {}, input.claimNo);
}
