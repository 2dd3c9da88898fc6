import { randomBytes } from "node:crypto";
import { and, desc, eq, gte, inArray, lt, lte, ne, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { refuseBlankFields } from "../../core/blank";
import { CommandError } from "../../core/errors";
import { newId, normaliseUuid } from "../../core/ids";
import { log } from "../../core/log";
import { decodeCursor, encodeCursor, type Page } from "../../core/pagination";
import { parseWith } from "../../core/validation";
import type { Database, Executor } from "../../db/client";
import { isUniqueViolation } from "../../db/errors";
import { preparedQuery } from "../../db/prepared";
import { findProduct, type Product } from "../../products";
import type { PolicyContext, PolicyTerms, QuoteOnFile, UnderwritingFacts } from "../../products/types";
import { type CertificateDocument, storeCertificate } from "../certificates/service";
import { type ConsumerRecord, findConsumer } from "../consumers/service";
import type { VehicleRegistry } from "../enrichment/registry";
import { registryAnswer } from "../enrichment/service";
import { insertWithEvent, recordEvent } from "../events/service";
import { quotes } from "../quotes/schema";
import { sandboxDeclineNote } from "../sandbox/declines";
import { sandboxInsurer } from "../sandbox/insurer";
import { magicReference } from "../sandbox/references";
import { debitPremium, refundPremium } from "../wallet/service";
import { normaliseReference } from "./reference";
import { type PolicyStatus, policies } from "./schema";
import type { InsurerGateway, Mode, PolicyRecord } from "./types";

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

/** The envelope part of the insure seed (spec 2.5); addtnlFact is the product's to validate. */
const insureSeed = z.strictObject({
  ctgry: z.string().min(1).max(20),
  type: z.string().min(1).max(20),
  pckg: z.string().min(1).max(10),
  id: z.unknown(),
  insrncDrtn: z.unknown().optional(),
  addtnlFact: z.record(z.string(), z.unknown()).optional(),
});

const webHookUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(2048);

function newPolicyNumber(product: Product, mode: Mode, now: Date): string {
  // Crockford base32 without look-alikes; 12 random characters (60 bits): unguessable for the public
  // verification page, and a clash is not to be expected in billions of policies.
  const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  const random = [...randomBytes(12)].map((b) => alphabet[b % 32]).join("");
  return `${mode === "test" ? "TST" : "POL"}-${product.family.ctgry.toUpperCase()}-${now.getUTCFullYear()}-${random}`;
}

const newCertificateToken = () => randomBytes(24).toString("base64url");

function consumerIdFrom(param: string): string {
  const id = normaliseUuid(param);
  if (!id) throw new CommandError(400, `consumer id '${param.slice(0, 40)}' is invalid: use the id (or id_uuid) returned by prfl entity`);
  return id;
}

async function requireConsumer(db: Executor, partnerId: string, consumerParam: string): Promise<ConsumerRecord> {
  const consumer = await findConsumer(db, partnerId, consumerIdFrom(consumerParam));
  if (!consumer) throw new CommandError(409, `consumer not found: ${consumerParam} was not returned by prfl entity under these credentials`);
  return consumer;
}

function missingConsumerFields(product: Product, consumer: ConsumerRecord): string[] {
  const documents = new Set(consumer.documents);
  const has = (path: string) =>
    documents.has(path) ||
    path
      .split(".")
      .reduce<unknown>((node, key) => (node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined), consumer.profile) !==
      undefined ||
    (path === "class" && !!consumer.class);
  return product.family.consumerRequirements(product.type, consumer.class).filter((path) => !has(path));
}

async function latestQuote(db: Executor, partnerId: string, productCode: string): Promise<QuoteOnFile | undefined> {
  const [row] = await db
    .select()
    .from(quotes)
    .where(and(eq(quotes.partnerId, partnerId), eq(quotes.productCode, productCode)))
    .orderBy(desc(quotes.createdAt))
    .limit(1);
  return row ? { premiumKobo: row.premiumKobo, duration: row.duration ?? undefined, basis: row.basis, createdAt: row.createdAt } : undefined;
}

const policyContext = (consumer: ConsumerRecord, quote: QuoteOnFile | undefined, now: Date): PolicyContext => ({
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

/** The event a status change emits (design: policy.approved, policy.declined, policy.lapsed). */
export function statusEvent(policy: PolicyRecord) {
  const type = { p: "policy.pending", a: "policy.approved", d: "policy.declined", l: "policy.lapsed" }[policy.status];
  return {
    partnerId: policy.partnerId,
    type,
    targetUrl: policy.webhookUrl,
    payload: {
      id: policy.reference,
      consumerId: policy.consumerId.replaceAll("-", ""),
      productCode: policy.productCode,
      status: policy.status,
      ...(policy.statusNote ? { statusNote: policy.statusNote } : {}),
      ...(policy.policyNo ? { policyNo: policy.policyNo } : {}),
      mode: policy.mode,
    },
  };
}

const insertPolicy = insertWithEvent("insert_policy", policies);

export interface IssueInput {
  partnerId: string;
  mode: Mode;
  consumerParam: string;
  seed: unknown;
  now: Date;
  insurerDelayMs: number;
  /**
   * Renders the certificate of a live policy approved at once, whose answer carries it (spec 3).
   * It runs before the issuing transaction and the document is stored in it: a failure to render or
   * store leaves nothing, rather than a stored and paid policy behind an error answer.
   */
  certificate?: (policy: PolicyRecord) => Promise<CertificateDocument>;
  /** More writes that belong to the issuance (the portal's audit row), run in its transaction. */
  within?: (tx: Executor, policy: PolicyRecord) => Promise<void>;
}

export interface IssuedPolicy {
  policy: PolicyRecord;
  /** The stored certificate, when `certificate` was asked for and the policy is a live one approved at once. */
  certificate: CertificateDocument | null;
}

/**
 * `entt_<consumer_id>: insure` (spec 2.5, 3): validate, price with the product's rule, store the
 * policy and its event, debit a live premium — all in one transaction, so a refused request
 * (55) leaves nothing behind and an accepted one (75) is never half-written. Nothing that can fail
 * follows the commit: the caller answers from what this returns.
 */
export async function issuePolicy(db: Database, input: IssueInput): Promise<IssuedPolicy> {
  const { partnerId, mode, now } = input;
  refuseBlankFields(input.seed);
  const seed = parseWith(insureSeed, input.seed ?? {});
  const product = findProduct(`${seed.ctgry}-${seed.type}-${seed.pckg}`, "seed.ctgry");
  const reference = normaliseReference(seed.id);
  const { webHook, ...addtnlFact } = seed.addtnlFact ?? {};
  const webhookUrl = webHook === undefined ? null : parseWith(webHookUrl, webHook, "seed.addtnlFact.webHook");

  const rules = product.family.policy;
  const [consumer, quote] = await Promise.all([
    requireConsumer(db, partnerId, input.consumerParam),
    rules.comparesWithQuote ? latestQuote(db, partnerId, product.code) : undefined,
  ]);
  const missing = missingConsumerFields(product, consumer);
  if (missing.length)
    throw new CommandError(
      400,
      `consumer ${input.consumerParam} lacks ${missing.join(", ")}, required for ${product.code}: add them with prfl entity (same eMail)`,
    );
  const context = policyContext(consumer, quote, now);
  const terms = rules.terms(product.type, { insrncDrtn: seed.insrncDrtn, addtnlFact: seed.addtnlFact === undefined ? undefined : addtnlFact }, context);

  // Test mode approves at once (spec 3) unless the reference is one of the sandbox's magic values
  // (docs/sandbox.md); live mode follows the product's route, after the automatic checks.
  const magic = magicReference(mode, reference);
  const autoDecline =
    mode === "live" && terms.liveRoute !== "insurer"
      ? rules.declineReason(product.type, terms, context, { deviceAlreadyInsured: false })
      : magic?.issued === "d"
        ? sandboxDeclineNote(product, terms, context)
        : null;
  const status: PolicyStatus = mode === "test" ? (magic?.issued ?? "a") : autoDecline ? "d" : terms.liveRoute === "approve" ? "a" : "p";
  // Who decides a pending policy later: the insurer after its delay (insurer route, or a sandbox reference with a later decision).
  const decidedLater = status === "p" && (mode === "test" ? magic?.later != null : terms.liveRoute === "insurer");
  const policy: PolicyRecord = {
    id: newId(),
    partnerId,
    consumerId: consumer.id,
    reference,
    productCode: product.code,
    mode,
    status,
    statusNote: autoDecline,
    route: terms.liveRoute,
    premiumKobo: terms.premiumKobo,
    duration: terms.duration ?? null,
    coverStart: terms.coverStart,
    coverEnd: terms.coverEnd,
    facts: terms.facts,
    printed: terms.printed.map(([label, value]) => [label, value]),
    deviceId: terms.deviceId ?? null,
    policyNo: status === "a" ? newPolicyNumber(product, mode, now) : null,
    certificateToken: newCertificateToken(),
    webhookUrl,
    underwriteAt: decidedLater ? new Date(now.getTime() + input.insurerDelayMs) : null,
    decidedBy: status === "p" ? null : magic ? "sandbox" : mode === "test" ? "test mode" : autoDecline ? "automatic checks" : "automatic approval",
    registryPublishedAt: null,
    createdAt: now,
    statusAt: now,
  };

  const certificate = mode === "live" && status === "a" && input.certificate ? await input.certificate(policy) : null;

  // The unique index on (partner, reference) refuses a reused reference, also under concurrent duplicates.
  const store = (executor: Executor) => insertPolicy(executor, policy, statusEvent(policy), now);
  try {
    if ((mode === "live" && status !== "d") || certificate || input.within)
      await db.transaction(async (tx) => {
        await store(tx);
        if (mode === "live" && status !== "d") await debitPremium(tx, partnerId, policy.id, policy.premiumKobo, now);
        if (certificate) await storeCertificate(tx, policy.id, certificate);
        await input.within?.(tx, policy);
      });
    else await store(db);
  } catch (error) {
    if (isUniqueViolation(error, "policies_partner_reference_idx")) throw referenceInUse(reference);
    throw error;
  }
  return { policy, certificate };
}

const referenceInUse = (reference: string) =>
  new CommandError(409, `seed.id is already in use: ${reference} identifies an earlier policy of this partner`, "seed.id");

/**
 * The policy stored under the insure seed's reference, when it is this request's (its answer was
 * lost): the same consumer, product and mode; null when there is none. Another policy under the
 * reference is the duplicate the spec refuses (2.5 rule 2).
 */
export async function issuedPolicy(db: Executor, input: Pick<IssueInput, "partnerId" | "mode" | "consumerParam" | "seed">): Promise<PolicyRecord | null> {
  const seed = parseWith(insureSeed, input.seed ?? {});
  const reference = normaliseReference(seed.id);
  const policy = await findPolicyByReference(db, input.partnerId, reference);
  if (!policy) return null;
  const product = findProduct(`${seed.ctgry}-${seed.type}-${seed.pckg}`, "seed.ctgry");
  if (policy.consumerId !== normaliseUuid(input.consumerParam) || policy.productCode !== product.code || policy.mode !== input.mode)
    throw referenceInUse(reference);
  return policy;
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

function addressConditions(address: PolicyAddress): SQL[] {
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

const notFoundAt = (address: PolicyAddress) =>
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

/**
 * Move a pending policy to approved or declined, with its event and (on a live decline) the
 * premium refund, in one transaction. Refuses a policy that is not pending.
 */
async function decide(tx: Executor, policy: PolicyRecord, decision: { status: "a" | "d"; note?: string | null; by: string }, now: Date): Promise<PolicyRecord> {
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
  await recordEvent(tx, statusEvent(updated), now);
  return updated;
}

/** The operator's key reviews policies of its own mode only: a test key must not decline (and refund) a live policy. */
const REVIEWED_IN_ITS_MODE = "it is approved or declined";

/**
 * `appr entt_<consumer_id>|insr_<product_code>-<tx_id>` (administrator): approve a pending
 * policy, or decline it with a note, with a key of the policy's mode.
 */
export async function reviewPolicy(
  db: Database,
  address: PolicyAddress,
  decision: { status: "a" | "d"; note?: string; by: string; mode: Mode },
  now: Date,
): Promise<PolicyRecord> {
  return reviewWhere(db, and(...addressConditions(address))!, () => notFoundAt(address), decision, now);
}

/** The same review from the portal's approval queue, by the policy's own id. */
export function reviewPolicyById(db: Database, policyId: string, decision: { status: "a" | "d"; note?: string; by: string }, now: Date): Promise<PolicyRecord> {
  return reviewWhere(db, eq(policies.id, policyId), () => new CommandError(404, "no such policy"), decision, now);
}

async function reviewWhere(
  db: Database,
  where: SQL,
  notFound: () => CommandError,
  // The portal's operator has no key, so no mode (docs/decisions.md).
  decision: { status: "a" | "d"; note?: string; by: string; mode?: Mode },
  now: Date,
): Promise<PolicyRecord> {
  if (decision.status === "d" && !decision.note?.trim()) throw new CommandError(400, "statusNote is required to decline: say why", "statusNote");
  return db.transaction(async (tx) => {
    const [policy] = await tx.select().from(policies).where(where).for("update");
    if (!policy) throw notFound();
    if (decision.mode) requirePolicyMode(policy, decision.mode, REVIEWED_IN_ITS_MODE);
    if (policy.status !== "p")
      throw new CommandError(
        409,
        `policy ${policy.reference} is ${{ a: "already approved", d: "already declined", l: "lapsed" }[policy.status as "a" | "d" | "l"]}: only pending policies can be reviewed`,
      );
    return decide(tx, policy, decision, now);
  });
}

/** The built-in insurer: applies the product's decline rules (spec 7); its delay is the scheduling delay. */
export const simulatedInsurer: InsurerGateway = {
  async underwrite(_policy, { product, terms, policyContext, facts }) {
    const reason = product.family.policy.declineReason(product.type, terms, policyContext, facts);
    return reason ? { approve: false, reason } : { approve: true };
  },
};

/** How long a policy waits before its underwriting is tried again when the registry could not answer. */
const REGISTRY_RETRY_MS = 30_000;

/**
 * What the registry shows for each candidate's vehicle, looked up before any row is locked (a first
 * lookup takes 12-17 s). A policy whose lookup failed is postponed and left out.
 */
async function vehicleRecords(db: Database, registry: VehicleRegistry | null | undefined, candidates: PolicyRecord[], now: Date) {
  const records = new Map<string, UnderwritingFacts["vehicleRecord"]>();
  const postponed = new Set<string>();
  if (!registry) return { records, postponed };
  for (const policy of candidates) {
    // Test policies go to no insurer and no registry (spec 5.5): the sandbox decides them.
    if (policy.mode === "test") continue;
    const product = findProduct(policy.productCode);
    const vehicle = product.family.policy.registeredVehicle?.(product.type, storedTerms(policy));
    if (!vehicle) continue;
    try {
      records.set(policy.id, (await registryAnswer(db, registry, "registration", vehicle.registration, now)).answer);
    } catch (error) {
      log.warn("registry lookup failed; underwriting postponed", { policyId: policy.id, error: (error as Error).message });
      postponed.add(policy.id);
      await db
        .update(policies)
        .set({ underwriteAt: new Date(now.getTime() + REGISTRY_RETRY_MS) })
        .where(and(eq(policies.id, policy.id), eq(policies.status, "p")));
    }
  }
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
  const due = and(eq(policies.status, "p"), lte(policies.underwriteAt, now));
  const candidates = await db
    .select()
    .from(policies)
    .where(due)
    .orderBy(policies.underwriteAt)
    .limit(options.batch ?? 20);
  if (!candidates.length) return 0;
  const { records, postponed } = await vehicleRecords(db, options.registry, candidates, now);
  const ids = candidates.map((p) => p.id).filter((id) => !postponed.has(id));
  // Handled: decided here, or postponed (a full batch runs the job again at once).
  if (!ids.length) return postponed.size;
  return db.transaction(async (tx) => {
    const claimed = await tx
      .select()
      .from(policies)
      .where(and(due, inArray(policies.id, ids)))
      .for("update", { skipLocked: true });
    // Serialise decisions about one device across instances before looking for its other cover;
    // the locks are taken in one order, so two instances with overlapping devices cannot deadlock.
    const liveDevices = [...new Set(claimed.flatMap((p) => (p.deviceId && p.mode === "live" ? [p.deviceId] : [])))].sort();
    for (const deviceId of liveDevices) await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${deviceId}))`);
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
            ),
          )
          .limit(1);
        deviceAlreadyInsured = !!other;
      }
      const context = policyContext(consumer, await latestQuote(tx, policy.partnerId, policy.productCode), now);
      const facts: UnderwritingFacts = { deviceAlreadyInsured, vehicleRecord: records.get(policy.id) };
      // A test policy is pending only when a sandbox reference asked for a later decision: the sandbox gives it, never the gateway.
      const [insurer, by] = policy.mode === "test" ? [sandboxInsurer, "sandbox"] : [gateway, "insurer"];
      const decision = await insurer.underwrite(policy, { product, terms, policyContext: context, facts });
      await decide(tx, policy, decision.approve ? { status: "a", by } : { status: "d", note: decision.reason, by }, now);
    }
    return claimed.length + postponed.size;
  });
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
}

/** Newest first, keyset-paginated; `partnerId` undefined lists every partner's (admin). */
export async function listPolicies(
  db: Database,
  scope: { partnerId?: string },
  filters: PolicyFilters,
  page: { limit: number; cursor?: string },
): Promise<Page<PolicyRecord>> {
  const conditions: SQL[] = [];
  if (scope.partnerId) conditions.push(eq(policies.partnerId, scope.partnerId));
  if (filters.status) conditions.push(eq(policies.status, filters.status));
  if (filters.route) conditions.push(eq(policies.route, filters.route));
  if (filters.consumerId) conditions.push(eq(policies.consumerId, filters.consumerId));
  if (filters.productCode) conditions.push(eq(policies.productCode, filters.productCode));
  if (filters.from) conditions.push(gte(policies.createdAt, filters.from));
  if (filters.to) conditions.push(lt(policies.createdAt, filters.to));
  if (page.cursor) {
    const { at, id } = decodeCursor(page.cursor);
    conditions.push(or(lt(policies.createdAt, at), and(eq(policies.createdAt, at), lt(policies.id, id)))!);
  }
  const rows = await db
    .select()
    .from(policies)
    .where(and(...conditions))
    .orderBy(desc(policies.createdAt), desc(policies.id))
    .limit(page.limit + 1);
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > page.limit && last ? encodeCursor(last.createdAt, last.id) : null };
}

export async function policiesByIds(db: Executor, ids: string[]): Promise<PolicyRecord[]> {
  return ids.length ? db.select().from(policies).where(inArray(policies.id, ids)) : [];
}

export interface PolicySummary {
  byStatus: Record<PolicyStatus, number>;
  /** Premium of the policies issued since `since` that were not declined, kobo. */
  premiumKobo: number;
}

/** A partner's policies in one mode: how many in each status, and the premium written since `since`. */
export async function policySummary(db: Database, partnerId: string, mode: Mode, since: Date): Promise<PolicySummary> {
  const rows = await db
    .select({
      status: policies.status,
      count: sql<number>`count(*)::int`,
      premium: sql<number>`coalesce(sum(${policies.premiumKobo}) filter (where ${gte(policies.createdAt, since)} and ${policies.status} <> 'd'), 0)::bigint`,
    })
    .from(policies)
    .where(and(eq(policies.partnerId, partnerId), eq(policies.mode, mode)))
    .groupBy(policies.status);
  const byStatus: Record<PolicyStatus, number> = { p: 0, a: 0, d: 0, l: 0 };
  for (const row of rows) byStatus[row.status] = row.count;
  return { byStatus, premiumKobo: rows.reduce((total, row) => total + Number(row.premium), 0) };
}
