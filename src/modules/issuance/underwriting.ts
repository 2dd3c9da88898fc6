import { and, eq, gte, inArray, lte, ne, sql } from "drizzle-orm";
import { log } from "../../core/log";
import { getOrMake } from "../../core/maps";
import type { Database } from "../../db/client";
import { findProduct } from "../../products";
import type { UnderwritingFacts } from "../../products/types";
import { findConsumer } from "../consumers";
import type { VehicleRegistry } from "../enrichment";
import { registryAnswer } from "../enrichment";
import type { InsurerGateway, PolicyRecord } from "../policies";
import { latestQuote, policies, policyContext, storedTerms } from "../policies";
import { magicReference, sandboxDeclineNote } from "../sandbox";
import { type Decision, decideAll } from "./review";

/** The built-in insurer: applies the product's decline rules (spec 7); its delay is the scheduling delay. */
export const simulatedInsurer: InsurerGateway = {
  async underwrite(_policy, { product, terms, policyContext, facts }) {
    const reason = product.family.policy.declineReason(product.type, terms, policyContext, facts);
    return reason ? { approve: false, reason } : { approve: true };
  },
};

/**
 * The insurer of TEST-mode policies, which no insurer may see (spec 5.5): only a magic reference
 * (src/modules/sandbox/references.ts) leaves a test policy pending with a time to decide it, and this
 * answers what that reference asked for. Anything else due is approved, as test mode approves.
 */
const sandboxInsurer: InsurerGateway = {
  async underwrite(policy, { product, terms, policyContext }) {
    if (magicReference("test", policy.reference)?.later === "d") return { approve: false, reason: sandboxDeclineNote(product, terms, policyContext) };
    return { approve: true };
  },
};

/** How long a policy waits before its underwriting is tried again when the registry could not answer. */
const REGISTRY_RETRY_MS = 30_000;

/**
 * Policies decided in one pass. A pass's statements are a few whatever its size, so a large batch
 * decides a backlog for less: 100 rather than 20 took about half the CPU per decision, the
 * service's and PostgreSQL's (docs/performance.md).
 */
const UNDERWRITING_BATCH = 100;

/** Registry lookups of one pass in flight at once: a first lookup takes 12-17 s, and one at a time would hold a batch for minutes. */
const REGISTRY_LOOKUPS_AT_ONCE = 10;

/**
 * What the registry shows for each candidate's vehicle, looked up before any row is locked: once
 * per registration, a few at a time. A policy whose lookup failed is postponed and left out.
 */
async function vehicleRecords(db: Database, registry: VehicleRegistry | null | undefined, candidateIds: string[], now: Date) {
  const records = new Map<string, UnderwritingFacts["vehicleRecord"]>();
  const postponed = new Set<string>();
  if (!registry) return { records, postponed };
  const vehicles: { policyId: string; registration: string }[] = [];
  for (const policy of await db.select().from(policies).where(inArray(policies.id, candidateIds))) {
    // Test policies go to no insurer and no registry (spec 5.5): the sandbox decides them.
    if (policy.mode === "test") continue;
    const product = findProduct(policy.productCode);
    const vehicle = product.family.policy.registeredVehicle?.(product.type, storedTerms(policy));
    if (vehicle) vehicles.push({ policyId: policy.id, registration: vehicle.registration });
  }
  const answers = new Map<string, ReturnType<typeof registryAnswer>>();
  // A few lookers, each taking the next vehicle as it finishes one: a slow lookup holds up only its own.
  let next = 0;
  const lookUp = async () => {
    for (let vehicle = vehicles[next++]; vehicle; vehicle = vehicles[next++]) {
      const { policyId, registration } = vehicle;
      try {
        records.set(policyId, (await getOrMake(answers, registration, () => registryAnswer(db, registry, "registration", registration, now))).answer);
      } catch (error) {
        log.warn("registry lookup failed; underwriting postponed", { policyId, error: (error as Error).message });
        postponed.add(policyId);
        await db
          .update(policies)
          .set({ underwriteAt: new Date(now.getTime() + REGISTRY_RETRY_MS) })
          .where(and(eq(policies.id, policyId), eq(policies.status, "p")));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(REGISTRY_LOOKUPS_AT_ONCE, vehicles.length) }, lookUp));
  return { records, postponed };
}

/**
 * The background job: underwrite pending policies that are due (live insurer-route policies, and
 * test policies whose sandbox reference asked for a later decision). Rows are claimed
 * with FOR UPDATE SKIP LOCKED, so any number of instances can run it and each policy is decided once.
 */
export async function underwriteDuePolicies(
  db: Database,
  gateway: InsurerGateway,
  now: Date,
  options: { batch?: number; registry?: VehicleRegistry | null } = {},
): Promise<number> {
  // `now` is when the run started (the clock tests set); a registry lookup takes seconds, so a
  // decision is recorded at the time it is made: the run's start plus the time spent since.
  const started = performance.now();
  const decisionTime = () => new Date(now.getTime() + Math.round(performance.now() - started));
  // Their ids only: each row is read whole once, as it is locked below. In due order from the
  // index, stopping at the batch: on a table growing faster than its statistics the planner believed
  // a few policies due and chose a bitmap scan, which reads every due one to sort them (the whole
  // backlog, milliseconds each pass, again and again while it lasts); with bitmap scans off for
  // this statement it walks the index.
  const candidateIds = await db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_bitmapscan = off`);
    const due = await tx
      .select({ id: policies.id })
      .from(policies)
      .where(and(eq(policies.status, "p"), lte(policies.underwriteAt, now)))
      .orderBy(policies.underwriteAt)
      .limit(options.batch ?? UNDERWRITING_BATCH);
    return due.map((p) => p.id);
  });
  if (!candidateIds.length) return 0;
  const { records, postponed } = await vehicleRecords(db, options.registry, candidateIds, now);
  const ids = candidateIds.filter((id) => !postponed.has(id));
  // Handled: decided here, or postponed (a full batch runs the job again at once).
  if (!ids.length) return postponed.size;
  return db.transaction(async (tx) => {
    // Locked by primary key, the due check made on the rows as locked: a condition on the due time in
    // the query let the planner scan every due policy for the batch's few (a backlog read over and over).
    const claimed = (await tx.select().from(policies).where(inArray(policies.id, ids)).for("update", { skipLocked: true })).filter(
      (p) => p.status === "p" && p.underwriteAt && p.underwriteAt <= now,
    );
    // Serialise decisions about one device across instances before looking for its other cover;
    // the locks are taken in one order, so two instances with overlapping devices cannot deadlock.
    const liveDevices = [...new Set(claimed.flatMap((p) => (p.deviceId && p.mode === "live" ? [p.deviceId] : [])))].sort();
    for (const deviceId of liveDevices) await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${deviceId}))`);
    const decisions: { policy: PolicyRecord; decision: Decision }[] = [];
    for (const policy of claimed) {
      const product = findProduct(policy.productCode);
      const consumer = (await findConsumer(tx, policy.partnerId, policy.consumerId))!;
      const terms = storedTerms(policy);
      let deviceAlreadyInsured = false;
      if (policy.deviceId && policy.mode === "live") {
        const [other] = await tx
          .select({ id: policies.id })
          .from(policies)
          .where(
            and(
              eq(policies.deviceId, policy.deviceId),
              eq(policies.mode, policy.mode),
              eq(policies.status, "a"),
              gte(policies.coverEnd, now),
              ne(policies.id, policy.id),
              // A renewal continues its own device's cover.
              ...(policy.renewsPolicyId ? [ne(policies.id, policy.renewsPolicyId)] : []),
            ),
          )
          .limit(1);
        // The batch's decisions are recorded at its end: a policy approved earlier in it insures the device already.
        deviceAlreadyInsured =
          !!other ||
          decisions.some(
            (earlier) =>
              earlier.decision.status === "a" &&
              earlier.policy.deviceId === policy.deviceId &&
              earlier.policy.mode === policy.mode &&
              earlier.policy.coverEnd >= now &&
              earlier.policy.id !== policy.renewsPolicyId,
          );
      }
      // Only the families whose rules compare with the quote read it (as issuance does).
      const quote = product.family.policy.comparesWithQuote ? await latestQuote(tx, policy.partnerId, policy.productCode) : undefined;
      const context = policyContext(consumer, quote, now);
      const facts: UnderwritingFacts = { deviceAlreadyInsured, vehicleRecord: records.get(policy.id) };
      // A test policy is pending only when a sandbox reference asked for a later decision: the sandbox gives it, never the gateway.
      const [insurer, by] = policy.mode === "test" ? [sandboxInsurer, "sandbox"] : [gateway, "insurer"];
      const decision = await insurer.underwrite(policy, { product, terms, policyContext: context, facts });
      decisions.push({ policy, decision: decision.approve ? { status: "a", by } : { status: "d", note: decision.reason, by } });
    }
    // Recorded together: a few statements for the whole batch rather than a few for each policy.
    await decideAll(tx, decisions, decisionTime());
    return claimed.length + postponed.size;
  });
}
