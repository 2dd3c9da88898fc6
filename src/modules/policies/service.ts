import { randomBytes } from "node:crypto";
import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lt, lte, or, type Placeholder, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { CommandError } from "../../core/errors";
import { normaliseUuid } from "../../core/ids";
import { decodeCursor, encodeCursor, type Page } from "../../core/pagination";
import { nigerianPhone } from "../../core/validation";
import type { Database, Executor } from "../../db/client";
import { afterPosition } from "../../db/keyset";
import { preparedByShape, preparedQuery } from "../../db/prepared";
import { findProduct, type Product, productName } from "../../products";
import type { PolicyContext, PolicyTerms, QuoteOnFile } from "../../products/types";
import type { ConsumerRecord } from "../consumers";
import { consumerName, consumerPhone, consumers, findConsumer } from "../consumers";
import { quotes } from "../quotes";
import { type PolicyStatus, policies, policyCancellations, policyEndorsements, policyPlate } from "./schema";
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

/** What "Find" looks for in a typed text, each kind of identifier as it is stored; null where the text cannot be one. */
interface FindKeys {
  /** POL-VHCL-2026-…, in any case, spaces dropped. */
  policyNo: string | null;
  /** A phone's IMEI (15 digits, spaces and dashes dropped) and a laptop's serial number, as stored in device_id. */
  imei: string | null;
  serial: string | null;
  /** A plate with or without spaces or hyphens, as stored: uppercase letters and digits. */
  plate: string | null;
  /** A Nigerian phone as people write it ("0803 123 4567", "08031234567", "8031234567", "+234…"), as stored. */
  phone: string | null;
  /** The words of a name, each a prefix ("ada oka" finds Adaeze Okafor), as a tsquery; null for text with a digit or no word. */
  nameWords: string | null;
}

/** The longest text "Find" takes: more is no identifier (policyFilters refuses it). */
export const FIND_MAX_LENGTH = 100;

function findKeys(typed: string): FindKeys {
  const text = typed.trim().slice(0, FIND_MAX_LENGTH);
  const upper = text.toUpperCase();
  const spaceless = upper.replace(/\s+/g, "");
  const compact = spaceless.replace(/[-.]/g, "");
  const phone = nigerianPhone(text);
  // A name is words of letters: text with a digit is a number, a plate or a phone, and one letter (an initial) would match a large part of the book.
  const words = /\d/.test(text) ? [] : (text.toLowerCase().match(/\p{L}+/gu) ?? []).filter((word) => word.length > 1).slice(0, 8);
  return {
    policyNo: spaceless || null,
    imei: /^\d{15}$/.test(compact) ? `imei:${compact}` : null,
    serial: /^[A-Z0-9](?:[A-Z0-9-]*[A-Z0-9])?$/.test(spaceless) ? `serial:${spaceless}` : null,
    plate: /^[A-Z0-9]{3,10}$/.test(compact) ? compact : null,
    phone: /^\+[1-9]\d{6,14}$/.test(phone) ? phone : /^[1-9]\d{9}$/.test(phone) ? `+234${phone}` : null,
    nameWords: words.length ? words.map((word) => `${word}:*`).join(" & ") : null,
  };
}

type FindValues = { [K in keyof FindKeys]: FindKeys[K] | Placeholder };

/**
 * The policies whose number, device, plate or insured (name or phone) the keys name, as one
 * condition on `policies`: each kind read through its own index (the policy number's, the
 * device's, the plate's; the consumers' phone and name words, then their policies by consumer),
 * the ids gathered, so a large book is never scanned. A null key matches nothing.
 */
function findCondition(keys: FindValues): SQL {
  const found = alias(policies, "found");
  const holder = alias(consumers, "holder");
  // In a template an alias names itself only: its table is written out for FROM.
  const policiesFound = sql`${policies} as "found"`;
  return sql`${policies.id} in (
    select ${found.id} from ${policiesFound} where ${found.policyNo} = ${keys.policyNo}
    union all select ${found.id} from ${policiesFound} where ${found.deviceId} = ${keys.imei}
    union all select ${found.id} from ${policiesFound} where ${found.deviceId} = ${keys.serial}
    union all select ${found.id} from ${policiesFound} where ${policyPlate(found)} = ${keys.plate}
    union all select ${found.id} from ${policiesFound} where ${found.consumerId} in (
      select ${holder.id} from ${consumers} as "holder"
      where ${consumerPhone(holder)} = ${keys.phone} or ${holder.nameWords} @@ to_tsquery('simple', ${keys.nameWords})))`;
}

/**
 * The policies a typed text finds: by policy number, the insured's name (words, each a prefix) or
 * phone as typed, a plate with or without spaces, an IMEI or serial number. A condition on
 * `policies` for any query of them (the lists' "Find", a search across the portal).
 */
export const policyTextMatch = (q: string): SQL => findCondition(findKeys(q));

export interface PolicyFilters {
  status?: PolicyStatus;
  /** How live policies are decided: `manual` is the administrators' approval queue. */
  route?: "insurer" | "approve" | "manual";
  consumerId?: string;
  productCode?: string;
  /** One partner's (the operator's lists; a partner's own are its scope). */
  partnerId?: string;
  mode?: Mode;
  /** What "Find" was given (policyTextMatch). */
  text?: string;
  /** Created on or after / before this instant. */
  from?: Date;
  to?: Date;
  /** Approved and in force, with cover ending at or before this instant: the "expiring soon" list. */
  coverEndsBy?: { now: Date; by: Date };
}

const placeholder = sql.placeholder;
/** An instant as a placeholder: given as ISO text (postgres.js does not bind a Date in a prepared query's placeholder). */
const instant = (key: string) => sql`${placeholder(key)}::timestamptz`;

const FIND_KEYS = ["policyNo", "imei", "serial", "plate", "phone", "nameWords"] as const satisfies readonly (keyof FindKeys)[];

/** findCondition with each key a placeholder named as it, for the prepared lists and counts. */
const foundByPlaceholders = () => findCondition(Object.fromEntries(FIND_KEYS.map((key) => [key, placeholder(key)])) as FindValues);

/** The conditions of a list of policies for the values present, each a placeholder named as its key. */
function listConditions(has: ReadonlySet<string>): SQL[] {
  const conditions: SQL[] = [];
  for (const [key, column] of [
    ["partnerId", policies.partnerId],
    ["status", policies.status],
    ["route", policies.route],
    ["consumerId", policies.consumerId],
    ["productCode", policies.productCode],
    ["mode", policies.mode],
  ] as const)
    if (has.has(key)) conditions.push(eq(column, placeholder(key)));
  if (has.has("from")) conditions.push(gte(policies.createdAt, instant("from")));
  if (has.has("to")) conditions.push(lt(policies.createdAt, instant("to")));
  if (has.has("coverEndsAfter"))
    conditions.push(eq(policies.status, "a"), gt(policies.coverEnd, instant("coverEndsAfter")), lte(policies.coverEnd, instant("coverEndsBy")));
  if (has.has("find")) {
    const found = foundByPlaceholders();
    conditions.push(has.has("commonName") ? or(found, insuredNamed(placeholder("commonName")))! : found);
  }
  return conditions;
}

/** Whether each policy's insured has these name words: checked policy by policy, as a list walks them newest first. */
const insuredNamed = (words: Placeholder): SQL => {
  const holder = alias(consumers, "named");
  return sql`exists (select 1 from ${consumers} as "named" where ${holder.id} = ${policies.consumerId} and ${holder.nameWords} @@ to_tsquery('simple', ${words}))`;
};

/**
 * More insured than this share the name words "Find" was given (in the list's scope): the name is
 * common, and the list walks the newest policies checking each one's insured, stopping at a page,
 * instead of gathering every policy of every namesake first (docs/performance.md, "Search and
 * filters at 1M"). Below it, the namesakes' policies are few and read through their consumers.
 */
const COMMON_NAME = 300;

/** Whether more than COMMON_NAME consumers in the scope have these name words (reading at most one more than that). */
async function isCommonName(db: Executor, scope: { partnerId?: string }, words: string): Promise<boolean> {
  const named = sql`${consumers.nameWords} @@ to_tsquery('simple', ${words})`;
  const [row] = await db.select({ n: count() }).from(
    db
      .select({ one: sql`1`.as("one") })
      .from(consumers)
      .where(scope.partnerId ? and(eq(consumers.partnerId, scope.partnerId), named) : named)
      .limit(COMMON_NAME + 1)
      .as("namesakes"),
  );
  return Number(row?.n ?? 0) > COMMON_NAME;
}

/**
 * The values of a list's placeholders: undefined leaves a condition out, a null find key matches
 * nothing. A common name is looked for policy by policy (`commonName`), any other through its
 * consumers (`nameWords`).
 */
async function listValues(db: Executor, scope: { partnerId?: string }, filters: PolicyFilters): Promise<Record<string, unknown>> {
  const partnerId = scope.partnerId ?? filters.partnerId;
  const keys = filters.text?.trim() ? findKeys(filters.text) : null;
  const common = keys?.nameWords ? await isCommonName(db, { partnerId }, keys.nameWords) : false;
  const find = keys ? { find: true, ...keys, ...(common ? { nameWords: null, commonName: keys.nameWords } : {}) } : {};
  return {
    partnerId,
    status: filters.status,
    route: filters.route,
    consumerId: filters.consumerId,
    productCode: filters.productCode,
    mode: filters.mode,
    from: filters.from?.toISOString(),
    to: filters.to?.toISOString(),
    coverEndsAfter: filters.coverEndsBy?.now.toISOString(),
    coverEndsBy: filters.coverEndsBy?.by.toISOString(),
    ...find,
  };
}

/** A page of policies for each combination of filters, prepared once (src/db/prepared.ts). */
const policyPage = preparedByShape("list_policies", (db, has, name) => {
  const conditions = listConditions(has);
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
    ...(await listValues(db, scope, filters)),
    cursorAt: cursor?.at.toISOString(),
    cursorId: cursor?.id,
    limit: page.limit + 1,
  });
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > page.limit && last ? encodeCursor(last.createdAt, last.id) : null };
}

/** Counted up to this many: a count of a whole book would read every row for a number nobody needs exactly (a rare filter over a million policies reads ~40 rows a match: docs/performance.md). */
const POLICY_COUNT_LIMIT = 1_000;

const policyCount = preparedByShape("count_policies", (db, has, name) => {
  if (!has.has("commonName"))
    return db
      .select({ n: count() })
      .from(
        db
          .select({ one: sql`1`.as("one") })
          .from(policies)
          .where(and(...listConditions(has)))
          .limit(placeholder("limit"))
          .as("matching"),
      )
      .prepare(name);
  // A common name's policies are counted through its namesakes (a walk of the book would read most of
  // it to count a thousand), beside those the other readings of the text find.
  const others = and(sql`true`, ...listConditions(new Set([...has].filter((key) => key !== "find" && key !== "commonName"))));
  const found = foundByPlaceholders();
  const named = alias(consumers, "named");
  return db
    .select({ n: count() })
    .from(
      sql`(select ${policies.id} from ${policies} where ${others} and ${found}
        union all
        select ${policies.id} from ${consumers} as "named" join ${policies} on ${policies.consumerId} = ${named.id}
        where ${named.nameWords} @@ to_tsquery('simple', ${placeholder("commonName")}) and ${others} and not ${found}
        limit ${placeholder("limit")}) as "matching"`,
    )
    .prepare(name);
});

/** How many policies the filters select, up to POLICY_COUNT_LIMIT; `more` when there are more than that. */
export async function countPolicies(db: Database, scope: { partnerId?: string }, filters: PolicyFilters): Promise<{ count: number; more: boolean }> {
  const [row] = await policyCount(db, { ...(await listValues(db, scope, filters)), limit: POLICY_COUNT_LIMIT + 1 });
  const n = Number(row?.n ?? 0);
  return { count: Math.min(n, POLICY_COUNT_LIMIT), more: n > POLICY_COUNT_LIMIT };
}

/** How pages name a policy: its number (before it has one, its product) and whose it is, "POL-VHCL-2026-7KX2… (Adaeze Okafor)". */
export const policyName = (policy: Pick<PolicyRecord, "policyNo" | "productCode">, insured: string) =>
  `${policy.policyNo ?? productName(policy.productCode)} (${insured})`;

/** The insured's name as pages show it (a cached lookup). */
export async function insuredName(db: Database, policy: Pick<PolicyRecord, "partnerId" | "consumerId">): Promise<string> {
  const consumer = await findConsumer(db, policy.partnerId, policy.consumerId);
  return consumer ? consumerName(consumer.profile) : "—";
}

/** policyName, the insured's name looked up. */
export const policyTitle = async (db: Database, policy: PolicyRecord) => policyName(policy, await insuredName(db, policy));

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

/** The policies of these partners' references (the audit log names a policy by its reference): their ids and numbers, one query. */
export async function policiesByReferences(
  db: Executor,
  refs: readonly { partnerId: string; reference: string }[],
): Promise<{ partnerId: string; reference: string; id: string; policyNo: string | null }[]> {
  if (refs.length === 0) return [];
  return db
    .select({ partnerId: policies.partnerId, reference: policies.reference, id: policies.id, policyNo: policies.policyNo })
    .from(policies)
    .where(or(...refs.map((ref) => and(eq(policies.partnerId, ref.partnerId), eq(policies.reference, ref.reference)))));
}
