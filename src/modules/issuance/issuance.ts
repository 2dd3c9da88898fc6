import { randomBytes } from "node:crypto";
import type { z } from "zod";
import { refuseBlankFields } from "../../core/blank";
import { CommandError } from "../../core/errors";
import { newId, normaliseUuid } from "../../core/ids";
import { parseWith } from "../../core/validation";
import type { Database, Executor } from "../../db/client";
import { isUniqueViolation } from "../../db/errors";
import { insertCommitted } from "../../db/group-commit";
import { findProduct, type Product } from "../../products";
import { type AuditActor, recordAudit } from "../audit";
import { type CertificateDocument, storeCertificate } from "../certificates";
import { earnOnApproval } from "../commissions";
import { type ConsumerRecord, findConsumer } from "../consumers";
import { outboxEvents, outboxRow } from "../events";
import type { Mode, PolicyRecord } from "../policies";
import {
  consumerIdFrom,
  findPolicyByReference,
  insureSeed,
  latestQuote,
  newPolicyNumber,
  normaliseReference,
  type PolicyStatus,
  policies,
  policyContext,
  policyFieldsSeed,
  resentFacts,
  statusEvent,
  webHookUrl,
} from "../policies";
import { quotePremium } from "../quotes";
import { magicReference, sandboxDeclineNote } from "../sandbox";
import { payPremiumFor } from "../wallet";

const newCertificateToken = () => randomBytes(24).toString("base64url");

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

/** Who issues, for whom, and when: the same for the command and the portal's quote-and-issue. */
interface Issuer {
  /**
   * The person who asked, for the audit row written with the policy. A partner's system issuing
   * through the API has none: each of its requests is in the API log already, and a test policy
   * then stays one statement (docs/decisions.md, "Code shape").
   */
  actor?: AuditActor;
  partnerId: string;
  mode: Mode;
  consumerParam: string;
  now: Date;
  insurerDelayMs: number;
}

export interface IssueInput extends Issuer {
  seed: unknown;
  /**
   * Renders the certificate of a live policy approved at once, whose answer carries it (spec 3).
   * It runs before the issuing transaction and the document is stored in it: a failure to render or
   * store leaves nothing, rather than a stored and paid policy behind an error answer.
   */
  certificate?: (policy: PolicyRecord) => Promise<CertificateDocument>;
}

export interface IssuedPolicy {
  policy: PolicyRecord;
  /** The stored certificate, when `certificate` was asked for and the policy is a live one approved at once. */
  certificate: CertificateDocument | null;
}

/**
 * `entt_<consumer_id>: insure` (spec 2.5, 3): validate, price with the product's rule, store the
 * policy, its event and its audit row, debit a live premium — all in one transaction, so a refused
 * request (55) leaves nothing behind and an accepted one (75) is never half-written. Nothing that
 * can fail follows the commit: the caller answers from what this returns.
 */
export async function issuePolicy(db: Database, input: IssueInput): Promise<IssuedPolicy> {
  refuseBlankFields(input.seed);
  const { ctgry, type, pckg, ...fields } = parseWith(insureSeed, input.seed ?? {});
  const policy = await newPolicy(db, input, findProduct(`${ctgry}-${type}-${pckg}`, "seed.ctgry"), fields);
  const certificate = policy.mode === "live" && policy.status === "a" && input.certificate ? await input.certificate(policy) : null;
  // One statement when nothing else belongs to it (from the API: a test policy, or a live one the
  // insurer or an administrator decides later, with its premium); else one transaction.
  if ((policy.mode === "live" && policy.status === "a") || certificate || input.actor)
    await db.transaction((tx) => storePolicy(tx, input.actor, policy, certificate));
  else await storePolicy(db, undefined, policy, null);
  return { policy, certificate };
}

export interface QuoteAndIssueInput extends Issuer {
  product: Product;
  /** The quote's seed: the quote is stored (spec 2.4) and the policy compared against it. */
  quoteSeed: unknown;
  /** The policy's fields beside its product (id, insrncDrtn, addtnlFact), as the insure seed has them. */
  policySeed: Record<string, unknown>;
}

/**
 * The portal's quote-and-issue: store the quote and issue the policy against it in one
 * transaction, so a refused issuance leaves neither behind. The form sent again (a double
 * submission, or its retry) answers the policy it issued: the spec's refusal of a reused reference
 * binds the command, and a person is better told where the policy is (docs/reliability.md,
 * "Concurrent repeats"). Another request under the reference is refused as by insure.
 */
export async function quoteAndIssue(db: Database, input: QuoteAndIssueInput): Promise<PolicyRecord> {
  let asked: PolicyRecord | undefined;
  try {
    return await db.transaction(async (tx) => {
      asked = await quotedPolicy(tx, input);
      await storePolicy(tx, input.actor, asked, null);
      return asked;
    });
  } catch (error) {
    const first = asked && error instanceof CommandError && error.status === 409 ? await sameIssued(db, asked) : null;
    if (first) return first;
    throw error;
  }
}

/** The quote stored and the policy it prices, in the caller's transaction; the policy is not stored. */
async function quotedPolicy(tx: Executor, input: QuoteAndIssueInput): Promise<PolicyRecord> {
  await quotePremium(tx, input.partnerId, input.product.code, input.quoteSeed, input.now);
  refuseBlankFields(input.policySeed);
  return newPolicy(tx, input, input.product, parseWith(policyFieldsSeed, input.policySeed));
}

const NOTHING_STORED = Symbol("nothing stored");

/**
 * The policy quoteAndIssue would issue, priced and decided, with the same refusals, and nothing
 * stored (its quote neither): the portal shows its premium before a live one is paid.
 */
export async function quoteAndIssuePreview(db: Database, input: QuoteAndIssueInput): Promise<PolicyRecord> {
  let priced: PolicyRecord | undefined;
  try {
    await db.transaction(async (tx) => {
      priced = await quotedPolicy(tx, input);
      throw NOTHING_STORED;
    });
  } catch (error) {
    if (error !== NOTHING_STORED) throw error;
  }
  return priced!;
}

/** The policy stored under `asked`'s reference when it is the one asked for: the same consumer, product, mode, duration and facts. */
async function sameIssued(db: Executor, asked: PolicyRecord): Promise<PolicyRecord | null> {
  const stored = await findPolicyByReference(db, asked.partnerId, asked.reference);
  const same =
    stored?.consumerId === asked.consumerId &&
    stored.productCode === asked.productCode &&
    stored.mode === asked.mode &&
    stored.duration === asked.duration &&
    Bun.deepEquals(stored.facts, JSON.parse(JSON.stringify(asked.facts)));
  return same ? stored : null;
}

/**
 * The renewal of `renewed` (docs/lifecycle.md), in the caller's transaction: a new policy under
 * `reference` for the same consumer, product, duration and facts, priced by today's rules, its
 * cover continuing from the day `renewed`'s ends, decided and paid as any new policy. Facts the
 * family keeps as a document's summary (a vehicle's proof of ownership) are not carried over.
 */
export async function issueRenewal(tx: Executor, issuer: Omit<Issuer, "consumerParam">, renewed: PolicyRecord, reference: string): Promise<PolicyRecord> {
  const renewal = await renewalOf(tx, issuer, renewed, reference);
  try {
    await storePolicy(tx, issuer.actor, renewal, null);
  } catch (error) {
    if (isUniqueViolation(error, "policies_renews_idx")) throw new CommandError(409, `policy ${renewed.reference} is already renewed`);
    throw error;
  }
  return renewal;
}

/** The renewal `issueRenewal` would store, priced and decided; nothing is stored (the portal shows it before confirming). */
export async function renewalOf(db: Executor, issuer: Omit<Issuer, "consumerParam">, renewed: PolicyRecord, reference: string): Promise<PolicyRecord> {
  const fields = {
    id: reference,
    ...(renewed.duration ? { insrncDrtn: renewed.duration } : {}),
    addtnlFact: { ...resentFacts(renewed), ...(renewed.webhookUrl ? { webHook: renewed.webhookUrl } : {}) },
  };
  const policy = await newPolicy(db, { ...issuer, consumerParam: renewed.consumerId, coverFrom: renewed.coverEnd }, findProduct(renewed.productCode), fields);
  // An opted-in policy's renewal stays opted in.
  return { ...policy, renewsPolicyId: renewed.id, autoRenew: renewed.autoRenew };
}

/** The policy a request asks for, priced and decided as far as it can be now; nothing is stored. */
async function newPolicy(
  db: Executor,
  issuer: Issuer & { coverFrom?: Date },
  product: Product,
  fields: z.output<typeof policyFieldsSeed>,
): Promise<PolicyRecord> {
  const { partnerId, mode, now } = issuer;
  const reference = normaliseReference(fields.id);
  const { webHook, ...addtnlFact } = fields.addtnlFact ?? {};
  const webhookUrl = webHook === undefined ? null : parseWith(webHookUrl, webHook, "seed.addtnlFact.webHook");

  const rules = product.family.policy;
  const [consumer, quote] = await Promise.all([
    requireConsumer(db, partnerId, issuer.consumerParam),
    rules.comparesWithQuote ? latestQuote(db, partnerId, product.code) : undefined,
  ]);
  const missing = missingConsumerFields(product, consumer);
  if (missing.length)
    throw new CommandError(
      400,
      `consumer ${issuer.consumerParam} lacks ${missing.join(", ")}, required for ${product.code}: add them with prfl entity (same eMail)`,
    );
  // A renewal's cover starts where the renewed one ends: the rules see that day as "today".
  const context = policyContext(consumer, quote, issuer.coverFrom ?? now);
  const terms = rules.terms(product.type, { insrncDrtn: fields.insrncDrtn, addtnlFact: fields.addtnlFact === undefined ? undefined : addtnlFact }, context);

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
  return {
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
    underwriteAt: decidedLater ? new Date(now.getTime() + issuer.insurerDelayMs) : null,
    decidedBy: status === "p" ? null : magic ? "sandbox" : mode === "test" ? "test mode" : autoDecline ? "automatic checks" : "automatic approval",
    registryPublishedAt: null,
    createdAt: now,
    statusAt: now,
    cancelledFrom: null,
    remindedDays: null,
    coverGaps: [],
    renewsPolicyId: null,
    autoRenew: false,
    autoRenewFailedAt: null,
    version: 1,
    versionAt: null,
    endorsed: false,
  };
}

/** Store a new policy with its event, a live premium's debit, its certificate and its audit row, in the caller's transaction. */
async function storePolicy(tx: Executor, actor: AuditActor | undefined, policy: PolicyRecord, certificate: CertificateDocument | null): Promise<void> {
  const now = policy.createdAt;
  try {
    // The unique index on (partner, reference) refuses a reused reference, also under concurrent duplicates.
    const rows = [
      { table: policies, row: policy },
      { table: outboxEvents, row: await outboxRow(tx, statusEvent(policy), now) },
    ];
    if (policy.mode === "live" && policy.status !== "d")
      await payPremiumFor(tx, { partnerId: policy.partnerId, policyId: policy.id, premiumKobo: policy.premiumKobo, now }, rows);
    else await insertCommitted(tx, rows);
  } catch (error) {
    if (isUniqueViolation(error, "policies_partner_reference_idx")) throw referenceInUse(policy.reference);
    // A reused reference is refused before the balance is, as when the policy was written before the
    // debit: a repeat of a request whose answer was lost must hear that its policy is stored (409),
    // not that its second premium would not fit (402).
    if (error instanceof CommandError && error.status === 402 && (await findPolicyByReference(tx, policy.partnerId, policy.reference)))
      throw referenceInUse(policy.reference);
    throw error;
  }
  if (policy.status === "a") await earnOnApproval(tx, [policy], now);
  if (certificate) await storeCertificate(tx, policy.id, certificate);
  if (actor)
    await recordAudit(
      tx,
      actor,
      { action: "policy.issue", subject: policy.reference, details: { productCode: policy.productCode, mode: policy.mode, status: policy.status } },
      now,
    );
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
