/**
 * The search: each reading of the query (reading.ts) is an exact lookup on an index (numbers,
 * references, phone, e-mail, plate, device) or a trigram match on consumers' names
 * (drizzle/0028_search_indexes.sql), all sent at once; then the consumers found bring their newest
 * policies in one query, and the policies found their claims and financing plans in two more at
 * once, each saying which of its fields matched.
 */
import { and, desc, eq, getTableColumns, ilike, inArray, or, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Database } from "../../db/client";
import { claims } from "../claims";
import { consumerName, consumerNameText, consumerPhone, consumers } from "../consumers";
import { financingPlans } from "../financing";
import { type PolicyRecord, policies, policyPlate } from "../policies";
import type { Reading } from "./reading";

/** Shown per group; one more is read to know there are more. */
const GROUP_LIMIT = 20;

/** One field of a record that matched what was typed, as the page shows it: "Registration plate: LND123AB". */
interface Match {
  label: string;
  value: string;
}

export interface Hit<T> {
  record: T;
  matched: Match[];
}

/** Whose records: one partner's, or every partner's (the operator) when `partnerId` is absent. */
interface SearchScope {
  partnerId?: string;
}

type ConsumerFound = typeof consumers.$inferSelect;
/** What a claim and a plan show of their policy. */
const policyColumns = { policyReference: policies.reference, policyNo: policies.policyNo, mode: policies.mode, consumerId: policies.consumerId };
const claimColumns = { ...getTableColumns(claims), ...policyColumns };
const planColumns = { ...getTableColumns(financingPlans), ...policyColumns };

export interface Found {
  consumers: Hit<ConsumerFound>[];
  policies: Hit<PolicyRecord>[];
  claims: Hit<typeof claims.$inferSelect & PolicyOfRecord>[];
  plans: Hit<typeof financingPlans.$inferSelect & PolicyOfRecord>[];
  /** The groups with more matches than shown. */
  more: ReadonlySet<keyof Omit<Found, "more">>;
}

interface PolicyOfRecord {
  policyReference: string;
  policyNo: string | null;
  mode: "test" | "live";
  consumerId: string;
}

/** Records by id, each with every field it matched; listed newest first, at most GROUP_LIMIT. */
class Hits<T extends { id: string; createdAt: Date }> {
  private readonly byId = new Map<string, Hit<T>>();
  overflow = false;

  add(records: readonly T[], matched: (record: T) => Match[]): void {
    for (const record of records) {
      const hit = this.byId.get(record.id) ?? { record, matched: [] };
      for (const match of matched(record)) if (!hit.matched.some((m) => m.label === match.label && m.value === match.value)) hit.matched.push(match);
      this.byId.set(record.id, hit);
    }
  }

  matchedOf(id: string): Match[] {
    return this.byId.get(id)?.matched ?? [];
  }

  list(): Hit<T>[] {
    const all = [...this.byId.values()].sort((a, b) => b.record.createdAt.getTime() - a.record.createdAt.getTime() || (a.record.id < b.record.id ? 1 : -1));
    if (all.length > GROUP_LIMIT) this.overflow = true;
    return all.slice(0, GROUP_LIMIT);
  }
}

/** `%text%` for ILIKE, with its wildcards taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const scoped = (column: PgColumn, scope: SearchScope) => (scope.partnerId ? eq(column, scope.partnerId) : undefined);

const fixed = (label: string, value: string) => (): Match[] => [{ label, value }];

/** The insured's field that brought a policy: "Name" of the consumer is the policy's "Insured's name". */
const asInsured = (matches: Match[]): Match[] => matches.map((m) => ({ label: `Insured's ${m.label.toLowerCase()}`, value: m.value }));

export async function search(db: Database, scope: SearchScope, readings: readonly Reading[]): Promise<Found> {
  const consumerHits = new Hits<ConsumerFound>();
  const policyHits = new Hits<PolicyRecord>();
  const claimHits = new Hits<typeof claims.$inferSelect & PolicyOfRecord>();
  const planHits = new Hits<typeof financingPlans.$inferSelect & PolicyOfRecord>();

  const consumersWhere = (condition: SQL | undefined) =>
    db
      .select()
      .from(consumers)
      .where(and(condition, scoped(consumers.partnerId, scope)))
      .orderBy(desc(consumers.createdAt), desc(consumers.id))
      .limit(GROUP_LIMIT + 1);
  const policiesWhere = (condition: SQL | undefined) =>
    db
      .select()
      .from(policies)
      .where(and(condition, scoped(policies.partnerId, scope)))
      .orderBy(desc(policies.createdAt), desc(policies.id))
      .limit(GROUP_LIMIT + 1);
  const claimsWhere = (condition: SQL | undefined) =>
    db
      .select(claimColumns)
      .from(claims)
      .innerJoin(policies, eq(policies.id, claims.policyId))
      .where(and(condition, scoped(claims.partnerId, scope)))
      .orderBy(desc(claims.createdAt), desc(claims.id))
      .limit(GROUP_LIMIT + 1);
  const plansWhere = (condition: SQL | undefined) =>
    db
      .select(planColumns)
      .from(financingPlans)
      .innerJoin(policies, eq(policies.id, financingPlans.policyId))
      .where(and(condition, scoped(financingPlans.partnerId, scope)))
      .orderBy(desc(financingPlans.createdAt), desc(financingPlans.id))
      .limit(GROUP_LIMIT + 1);

  // The direct lookups, all at once: each reading names the records it can find.
  const lookups: Promise<void>[] = [];
  for (const reading of readings) {
    switch (reading.kind) {
      case "number":
        lookups.push(
          policiesWhere(eq(policies.policyNo, reading.value)).then((rows) => policyHits.add(rows, fixed("Policy number", reading.value))),
          // A drawn claim reference (CLM-…) looks like a claim number: one query for both.
          claimsWhere(or(eq(claims.claimNo, reading.value), inArray(claims.reference, [reading.value, reading.typed]))).then((rows) =>
            claimHits.add(rows, (claim) =>
              claim.claimNo === reading.value
                ? [{ label: "Claim number", value: claim.claimNo }]
                : [{ label: "Claim reference", value: claim.reference ?? "" }],
            ),
          ),
          plansWhere(eq(financingPlans.planNo, reading.value)).then((rows) => planHits.add(rows, fixed("Plan number", reading.value))),
        );
        break;
      case "reference": {
        const references = reading.uuid ? [reading.value, reading.uuid] : [reading.value];
        const { uuid } = reading;
        lookups.push(
          policiesWhere(uuid ? or(inArray(policies.reference, references), eq(policies.id, uuid)) : inArray(policies.reference, references)).then((rows) =>
            policyHits.add(rows, (p) => (p.id === uuid ? [{ label: "Policy id", value: uuid }] : [{ label: "Transaction reference", value: p.reference }])),
          ),
          claimsWhere(inArray(claims.reference, references)).then((rows) =>
            claimHits.add(rows, (claim) => [{ label: "Claim reference", value: claim.reference ?? reading.value }]),
          ),
        );
        if (uuid) lookups.push(consumersWhere(eq(consumers.id, uuid)).then((rows) => consumerHits.add(rows, fixed("Consumer id", uuid.replaceAll("-", "")))));
        break;
      }
      case "phone":
        lookups.push(consumersWhere(eq(consumerPhone(consumers), reading.value)).then((rows) => consumerHits.add(rows, fixed("Phone", reading.value))));
        break;
      case "email":
        lookups.push(consumersWhere(eq(consumers.email, reading.value)).then((rows) => consumerHits.add(rows, fixed("E-mail", reading.value))));
        break;
      case "name":
        lookups.push(
          consumersWhere(and(...reading.words.map((word) => ilike(consumerNameText(consumers.profile), containing(word))))).then((rows) =>
            consumerHits.add(rows, (c) => [{ label: "Name", value: consumerName(c.profile) }]),
          ),
        );
        break;
      case "imei":
        lookups.push(policiesWhere(eq(policies.deviceId, `imei:${reading.value}`)).then((rows) => policyHits.add(rows, fixed("IMEI", reading.value))));
        break;
      case "serial":
        lookups.push(
          policiesWhere(eq(policies.deviceId, `serial:${reading.value}`)).then((rows) => policyHits.add(rows, fixed("Serial number", reading.value))),
        );
        break;
      case "plate":
        lookups.push(policiesWhere(eq(policyPlate(policies), reading.value)).then((rows) => policyHits.add(rows, fixed("Registration plate", reading.value))));
        break;
    }
  }
  await Promise.all(lookups);

  // The consumers found bring their newest policies (policies_consumer_created_idx), each saying what of the insured matched.
  const foundConsumers = consumerHits.list();
  if (foundConsumers.length) {
    const matchedOf = new Map(foundConsumers.map((hit) => [hit.record.id, asInsured(hit.matched)]));
    policyHits.add(await policiesWhere(inArray(policies.consumerId, [...matchedOf.keys()])), (p) => matchedOf.get(p.consumerId) ?? []);
  }
  // A policy found brings its claims and its plan, matched by what the policy matched.
  const foundPolicies = policyHits.list();
  const policyIds = foundPolicies.map((hit) => hit.record.id);
  if (policyIds.length) {
    const [policyClaims, policyPlans] = await Promise.all([
      claimsWhere(inArray(claims.policyId, policyIds)),
      plansWhere(inArray(financingPlans.policyId, policyIds)),
    ]);
    claimHits.add(policyClaims, (claim) => policyHits.matchedOf(claim.policyId));
    planHits.add(policyPlans, (plan) => policyHits.matchedOf(plan.policyId));
  }
  const found = { consumers: foundConsumers, policies: foundPolicies, claims: claimHits.list(), plans: planHits.list() };
  const more = new Set<keyof typeof found>();
  for (const [group, hits] of [
    ["consumers", consumerHits],
    ["policies", policyHits],
    ["claims", claimHits],
    ["plans", planHits],
  ] as const)
    if (hits.overflow) more.add(group);
  return { ...found, more };
}

/** Whether anything was found. */
export const foundNothing = (found: Found) => !found.consumers.length && !found.policies.length && !found.claims.length && !found.plans.length;
