import { randomBytes } from "node:crypto";
import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, lte, type SQL, sql } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { normaliseUuid } from "../../core/ids";
import { decodeCursor, encodeCursor, type Page } from "../../core/pagination";
import type { Database, Executor } from "../../db/client";
import { afterPosition } from "../../db/keyset";
import { preparedByShape, preparedQuery } from "../../db/prepared";
import { findProduct, type Product } from "../../products";
import type { PolicyContext, PolicyTerms, QuoteOnFile } from "../../products/types";
import type { ConsumerRecord } from "../consumers";
import { quotes } from "../quotes";
import { type PolicyStatus, policies, policyCancellations, policyEndorsements } from "./schema";
import type { Mode, PolicyRecord } from "./types";

/*
 * What issuance (issuance.ts), review (review.ts), underwriting (underwriting.ts) and other modules
 * share: reads of stored policies, the mode rule, the status event and the policy number.
 */

/**
 * A test key must not act on a live policy's money or claims, nor a live key on a test policy's
 * (spec 5.5). `what` completes "policy X was issued in live mode: …" (e.g. "its claims are handled").
 */
export function requirePolicyMode(policy: { reference: string; mode: Mode }, mode: Mode, what: string): void {
  if (policy.mode !== mode)
    throw new CommandError(
      403,
      `policy ${policy.reference} was issued in ${policy.mode} mode: ${what} with a ${policy.mode} key, and this key runs in ${mode} mode`,
    );
}

export function newPolicyNumber(product: Product, mode: Mode, now: Date): string {
  // Crockford base32 without look-alikes; 12 random characters (60 bits): unguessable for the public
  // verification page, and a clash is not to be expected in billions of policies.
  const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  const random = [...randomBytes(12)].map((b) => alphabet[b % 32]).join("");
  return `${mode === "test" ? "TST" : "POL"}-${product.family.ctgry.toUpperCase()}-${now.getUTCFullYear()}-${random}`;
}

export function consumerIdFrom(param: string): string {
  const id = normaliseUuid(param);
  if (!id) throw new CommandError(400, `consumer id '${param.slice(0, 40)}' is invalid: use the id (or id_uuid) returned by prfl entity`);
  return id;
}

export async function latestQuote(db: Executor, partnerId: string, productCode: string): Promise<QuoteOnFile | undefined> {
  const [row] = await db
    .select()
    .from(quotes)
    .where(and(eq(quotes.partnerId, partnerId), eq(quotes.productCode, productCode)))
    .orderBy(desc(quotes.createdAt))
    .limit(1);
  return row ? { premiumKobo: row.premiumKobo, duration: row.duration ?? undefined, basis: row.basis, createdAt: row.createdAt } : undefined;
}

export const policyContext = (consumer: ConsumerRecord, quote: QuoteOnFile | undefined, now: Date): PolicyContext => ({
  consumer: { class: consumer.class, profile: consumer.profile, documents: consumer.documents },
  latestQuote: quote,
  now,
});

/** The stored terms of a policy, as the product rules see them. */
export const storedTerms = (p: PolicyRecord): PolicyTerms => ({
  premiumKobo: p.premiumKobo,
  duration: p.duration ?? undefined,
  coverStart: p.coverStart,
  coverEnd: p.coverEnd,
  facts: p.facts,
  deviceId: p.deviceId ?? undefined,
  liveRoute: p.route,
  printed: p.printed,
});

/** The stored facts as a request sends them again (a change, a renewal): less insrncDrtn, a field of its own, and the family's document summaries. */
export function resentFacts(policy: PolicyRecord): Record<string, unknown> {
  const { insrncDrtn: _duration, ...facts } = policy.facts;
  for (const field of findProduct(policy.productCode).family.policy.documentFacts ?? []) delete facts[field];
  return facts;
}

/** A policy that was approved has a certificate, also once cancelled (it says so) or expired. */
export const hasCertificate = (policy: Pick<PolicyRecord, "status">) => policy.status === "a" || policy.status === "c" || policy.status === "e";

/** Which policy, for which consumer and product, and where it stands: how list answers and events open a policy. */
export const policyHeading = (policy: PolicyRecord) => ({
  id: policy.reference,
  consumerId: policy.consumerId.replaceAll("-", ""),
  productCode: policy.productCode,
  status: policy.status,
  ...(policy.statusNote ? { statusNote: policy.statusNote } : {}),
  ...(policy.policyNo ? { policyNo: policy.policyNo } : {}),
});

const STATUS_EVENT: Readonly<Record<PolicyStatus, string>> = {
  p: "policy.pending",
  a: "policy.approved",
  d: "policy.declined",
  l: "policy.lapsed",
  c: "policy.cancelled",
  e: "policy.expired",
};

/** Where a policy stands, as refusals say it: "policy X has lapsed: …". */
export const POLICY_STATUS_WORDS: Readonly<Record<PolicyStatus, string>> = {
  p: "is pending",
  a: "is approved",
  d: "was declined",
  l: "has lapsed",
  c: "was cancelled",
  e: "has expired",
};

/** The event a status change emits (docs/webhooks.md, docs/lifecycle.md). */
export function statusEvent(policy: PolicyRecord) {
  const type = STATUS_EVENT[policy.status];
  return {
    partnerId: policy.partnerId,
    type,
    targetUrl: policy.webhookUrl,
    payload: { ...policyHeading(policy), mode: policy.mode },
  };
}

export interface PolicyAddress {
  consumerParam: string;
  productCode: string;
  reference: string;
}

/** The stored values an address names (the consumer id in either form, a 32-hex reference hyphenated as issuance stored it). */
function addressValues(address: PolicyAddress) {
  findProduct(address.productCode);
  return {
    consumerId: consumerIdFrom(address.consumerParam),
    productCode: address.productCode,
    reference: normaliseUuid(address.reference) ?? address.reference,
  };
}

export function addressConditions(address: PolicyAddress): SQL[] {
  const { consumerId, productCode, reference } = addressValues(address);
  return [eq(policies.consumerId, consumerId), eq(policies.productCode, productCode), eq(policies.reference, reference)];
}

const selectPartnerPolicy = preparedQuery("select_partner_policy", (db, name) =>
  db
    .select()
    .from(policies)
    .where(
      and(
        eq(policies.partnerId, sql.placeholder("partnerId")),
        eq(policies.reference, sql.placeholder("reference")),
        eq(policies.consumerId, sql.placeholder("consumerId")),
        eq(policies.productCode, sql.placeholder("productCode")),
      ),
    )
    .prepare(name),
);

export const notFoundAt = (address: PolicyAddress) =>
  new CommandError(404, `no policy ${address.reference} of product ${address.productCode} for consumer ${address.consumerParam}`);

/** The policy a status command names, within this partner's own policies. */
export async function findPolicy(db: Executor, partnerId: string, address: PolicyAddress): Promise<PolicyRecord> {
  const [row] = await selectPartnerPolicy(db, { partnerId, ...addressValues(address) });
  if (!row) throw notFoundAt(address);
  return row;
}

/** A partner's policy by its transaction reference (a UUID in either form, or as stored). */
export async function findPolicyByReference(db: Executor, partnerId: string, reference: string): Promise<PolicyRecord | null> {
  const [row] = await db
    .select()
    .from(policies)
    .where(and(eq(policies.partnerId, partnerId), eq(policies.reference, normaliseUuid(reference) ?? reference)));
  return row ?? null;
}

export async function findPolicyByNumber(db: Executor, policyNo: string): Promise<PolicyRecord | null> {
  const [row] = await db.select().from(policies).where(eq(policies.policyNo, policyNo));
  return row ?? null;
}

export async function findPolicyByCertificateToken(db: Executor, token: string): Promise<PolicyRecord | null> {
  const [row] = await db.select().from(policies).where(eq(policies.certificateToken, token));
  return row ?? null;
}

export interface PolicyFilters {
  status?: PolicyStatus;
  /** How live policies are decided: `manual` is the administrators' approval queue. */
  route?: "insurer" | "approve" | "manual";
  consumerId?: string;
  productCode?: string;
  /** Created on or after / before this instant. */
  from?: Date;
  to?: Date;
  /** Approved and in force, with cover ending at or before this instant: the "expiring soon" list. */
  coverEndsBy?: { now: Date; by: Date };
}

const placeholder = sql.placeholder;
/** An instant as a placeholder: given as ISO text (postgres.js does not bind a Date in a prepared query's placeholder). */
const instant = (key: string) => sql`${placeholder(key)}::timestamptz`;

/** A page of policies for each combination of filters, prepared once (src/db/prepared.ts). */
const policyPage = preparedByShape("list_policies", (db, has, name) => {
  const conditions: SQL[] = [];
  for (const [key, column] of [
    ["partnerId", policies.partnerId],
    ["status", policies.status],
    ["route", policies.route],
    ["consumerId", policies.consumerId],
    ["productCode", policies.productCode],
  ] as const)
    if (has.has(key)) conditions.push(eq(column, placeholder(key)));
  if (has.has("from")) conditions.push(gte(policies.createdAt, instant("from")));
  if (has.has("to")) conditions.push(lt(policies.createdAt, instant("to")));
  if (has.has("coverEndsAfter"))
    conditions.push(eq(policies.status, "a"), gt(policies.coverEnd, instant("coverEndsAfter")), lte(policies.coverEnd, instant("coverEndsBy")));
  if (has.has("cursorAt")) conditions.push(afterPosition(policies.createdAt, policies.id, instant("cursorAt"), placeholder("cursorId")));
  return db
    .select()
    .from(policies)
    .where(and(...conditions))
    .orderBy(desc(policies.createdAt), desc(policies.id))
    .limit(placeholder("limit"))
    .prepare(name);
});

/** Newest first, keyset-paginated; `partnerId` undefined lists every partner's (admin). */
export async function listPolicies(
  db: Database,
  scope: { partnerId?: string },
  filters: PolicyFilters,
  page: { limit: number; cursor?: string },
): Promise<Page<PolicyRecord>> {
  const cursor = page.cursor ? decodeCursor(page.cursor) : undefined;
  const rows: PolicyRecord[] = await policyPage(db, {
    partnerId: scope.partnerId,
    status: filters.status,
    route: filters.route,
    consumerId: filters.consumerId,
    productCode: filters.productCode,
    from: filters.from?.toISOString(),
    to: filters.to?.toISOString(),
    coverEndsAfter: filters.coverEndsBy?.now.toISOString(),
    coverEndsBy: filters.coverEndsBy?.by.toISOString(),
    cursorAt: cursor?.at.toISOString(),
    cursorId: cursor?.id,
    limit: page.limit + 1,
  });
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > page.limit && last ? encodeCursor(last.createdAt, last.id) : null };
}

export async function policiesByIds(db: Executor, ids: string[]): Promise<PolicyRecord[]> {
  return ids.length ? db.select().from(policies).where(inArray(policies.id, ids)) : [];
}

export type CancellationRecord = typeof policyCancellations.$inferSelect;

/** The cancellation in force of a policy (not undone by a reinstatement), if it has one. */
export async function cancellationOf(db: Executor, policyId: string): Promise<CancellationRecord | null> {
  const [row] = await db
    .select()
    .from(policyCancellations)
    .where(and(eq(policyCancellations.policyId, policyId), isNull(policyCancellations.reinstatedAt)));
  return row ?? null;
}

export type EndorsementRecord = typeof policyEndorsements.$inferSelect;

/** A policy's changes, oldest first: its version history. */
export function endorsementsOf(db: Executor, policyId: string): Promise<EndorsementRecord[]> {
  return db
    .select()
    .from(policyEndorsements)
    .where(eq(policyEndorsements.policyId, policyId))
    .orderBy(asc(policyEndorsements.createdAt), asc(policyEndorsements.id));
}
