/**
 * Fraud signals (issue 37, item 6): a claim's identifiers recorded as keyed hashes, the rules worked
 * out on what they match and on the claim itself, the flags kept with what each rule saw. Plain
 * functions over the caller's executor: the claims module calls them inside its own writes.
 */
import { createSecretKey, type KeyObject } from "node:crypto";
import { and, eq, inArray, notInArray, sql } from "drizzle-orm";
import type { Config } from "../../core/config";
import type { Database, Executor } from "../../db/client";
import type { TableRow } from "../../db/guarded";
import { resultRows } from "../../db/results";
import { keptSecret } from "../accounts";
import type { Mode } from "../policies";
import { photoDate } from "./exif";
import { type BankAccount, type ClaimantIdentifiers, hashedIdentifiers, type InsuredIdentifiers } from "./identifiers";
import { type ClaimSignals, type Flag, flagsOf, highestFirst, type IdentifierKind, MATCH_LIMIT, type Match, signalsOf } from "./rules";
import { claimFlags, claimIdentifiers } from "./schema";

/** The rules' settings and the keyed hashes' key (docs/claims.md, "Fraud signals"). */
export interface SignalSettings {
  /** CLAIM_SIGNAL_EARLY_DAYS */
  earlyDays: number;
  /** CLAIM_SIGNAL_REVIEW_SCORE */
  reviewScore: number;
  key: KeyObject;
}

const keptKeys = new WeakMap<Database, Promise<KeyObject>>();

/**
 * The key of the keyed hashes: SIGNALS_KEY when set, else a secret the service makes once and keeps
 * in the database, read once per database. Made on the database itself, before any transaction of
 * the caller's: a key handed out is always one that was kept, so every hash stays comparable.
 */
function signalsKey(db: Database, configured: string | undefined): Promise<KeyObject> {
  if (configured) return Promise.resolve(createSecretKey(Buffer.from(configured, "utf8")));
  let key = keptKeys.get(db);
  if (!key) {
    key = keptSecret(db, "signals").then((secret) => createSecretKey(Buffer.from(secret, "utf8")));
    // A failed read is asked again next time, not remembered.
    key.catch(() => keptKeys.delete(db));
    keptKeys.set(db, key);
  }
  return key;
}

/** The settings of the rules, with the key: asked for before the write that flags a claim (it may make the key). */
export async function signalSettings(db: Database, config: Config): Promise<SignalSettings> {
  return { earlyDays: config.CLAIM_SIGNAL_EARLY_DAYS, reviewScore: config.CLAIM_SIGNAL_REVIEW_SCORE, key: await signalsKey(db, config.SIGNALS_KEY) };
}

/** What flagging a claim needs: the claim, what identifies its claimant and its insured item, its photographs. */
export interface FlagInput {
  claimId: string;
  partnerId: string;
  policyId: string;
  /** The policy's mode: sandbox claims meet sandbox claims only. */
  mode: Mode;
  claimant: ClaimantIdentifiers;
  insured: InsuredIdentifiers;
  /** The account the claim is paid into, once given (kept: a later call without it still counts it). */
  bankAccount?: BankAccount;
  /** YYYY-MM-DD, Nigerian. */
  incidentDate: string;
  coverStart: Date;
  submittedAt: Date;
  claimedKobo: number;
  /** The policy's sum insured in kobo where the product has one (`sumInsuredIn`), else null. */
  ceilingKobo: number | null;
  /** The JPEG documents of the claim, all of them (their first bytes are enough: PHOTO_HEAD_BYTES). */
  photos: readonly Uint8Array[];
  settings: SignalSettings;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/**
 * The claims at every partner sharing an identifier with this one, in its mode: the identifiers
 * given and those the claim already has (a bank account given earlier). At most MATCH_LIMIT + 1 per
 * identifier, read through claim_identifiers_kind_hash_idx.
 */
async function matchesOf(db: Executor, input: FlagInput, given: readonly { kind: IdentifierKind; hash: Uint8Array }[]): Promise<Match[]> {
  const list = JSON.stringify(given.map((g) => ({ kind: g.kind, hash: hex(g.hash) })));
  const rows = resultRows<Match>(
    await db.execute(sql`
      select u.kind, encode(u.hash, 'hex') as hash, m.claim_id as "claimId", m.policy_id as "policyId", m.partner_id as "partnerId", m.earlier
      from (select g.kind, decode(g.hash, 'hex') as hash from jsonb_to_recordset(${list}::jsonb) as g(kind text, hash text)
            union select kind, hash from ${claimIdentifiers} where claim_id = ${input.claimId}::uuid) as u
      cross join lateral (
        select i.claim_id, i.policy_id, i.partner_id, i.claimed_at < ${input.submittedAt.toISOString()}::timestamptz as earlier
        from ${claimIdentifiers} as i
        where i.kind = u.kind and i.hash = u.hash and i.mode = ${input.mode} and i.claim_id <> ${input.claimId}::uuid
        limit ${MATCH_LIMIT + 1}
      ) as m`),
  );
  return rows.map((r) => ({ ...r, claimId: String(r.claimId), policyId: String(r.policyId), partnerId: String(r.partnerId), earlier: !!r.earlier }));
}

/** The claim's identifiers hashed, the rules worked out on them and on the claim, and the rows that keep both. */
async function scored(db: Executor, input: FlagInput, now: Date) {
  const identifiers = hashedIdentifiers(input.settings.key, input);
  const flags = flagsOf({
    partnerId: input.partnerId,
    policyId: input.policyId,
    incidentDate: input.incidentDate,
    coverStart: input.coverStart,
    submittedAt: input.submittedAt,
    claimedKobo: input.claimedKobo,
    ceilingKobo: input.ceilingKobo,
    photoDates: input.photos.map(photoDate),
    matches: await matchesOf(db, input, identifiers),
    earlyDays: input.settings.earlyDays,
  });
  const identifierRows = identifiers.map(({ kind, hash }) => ({
    claimId: input.claimId,
    kind,
    hash,
    partnerId: input.partnerId,
    policyId: input.policyId,
    mode: input.mode,
    claimedAt: input.submittedAt,
    createdAt: now,
  }));
  const flagRows = flags.map((f) => ({
    claimId: input.claimId,
    rule: f.rule,
    score: f.score,
    inputs: f.inputs,
    reviewScore: input.settings.reviewScore,
    createdAt: now,
  }));
  return { signals: signalsOf(flags, input.settings.reviewScore), identifierRows, flagRows };
}

/**
 * A new claim's signals and the rows that record them, for the statement that writes the claim (so
 * the claim and its flags are written together, or neither: src/db/guarded.ts).
 */
export async function newClaimSignals(db: Executor, input: FlagInput, now = new Date()): Promise<{ signals: ClaimSignals; rows: TableRow[] }> {
  const { signals, identifierRows, flagRows } = await scored(db, input, now);
  return {
    signals,
    rows: [...identifierRows.map((row) => ({ table: claimIdentifiers, row })), ...flagRows.map((row) => ({ table: claimFlags, row }))],
  };
}

/**
 * Flag a claim, inside the caller's transaction: records its identifiers (those already recorded
 * stay, once each), works out every rule and replaces the claim's flags with what they find now. A
 * flag raised again keeps the time it was first raised. Called again whenever the claim gains what
 * the rules read (photographs, the account to pay into): it counts nothing twice.
 */
export async function flagClaim(tx: Executor, input: FlagInput, now = new Date()): Promise<ClaimSignals> {
  const { signals, identifierRows, flagRows } = await scored(tx, input, now);
  if (identifierRows.length) await tx.insert(claimIdentifiers).values(identifierRows).onConflictDoNothing();
  const rules = flagRows.map((f) => f.rule);
  await tx.delete(claimFlags).where(and(eq(claimFlags.claimId, input.claimId), ...(rules.length ? [notInArray(claimFlags.rule, rules)] : [])));
  if (flagRows.length)
    await tx
      .insert(claimFlags)
      .values(flagRows)
      .onConflictDoUpdate({
        target: [claimFlags.claimId, claimFlags.rule],
        set: { score: sql`excluded.score`, inputs: sql`excluded.inputs`, reviewScore: sql`excluded.review_score` },
      });
  return signals;
}

const fromRows = (rows: { rule: string; score: number; inputs: unknown; reviewScore: number }[]): ClaimSignals => {
  const flags = rows.map((r) => ({ rule: r.rule, score: r.score, inputs: r.inputs }) as Flag).sort(highestFirst);
  return signalsOf(flags, rows[0]?.reviewScore ?? 0);
};

/** What the rules found on a claim, as stored (the desk, the operator's answers, the authority rule). No flags: score 0. */
export async function claimSignals(db: Executor, claimId: string): Promise<ClaimSignals> {
  return fromRows(
    await db
      .select({ rule: claimFlags.rule, score: claimFlags.score, inputs: claimFlags.inputs, reviewScore: claimFlags.reviewScore })
      .from(claimFlags)
      .where(eq(claimFlags.claimId, claimId)),
  );
}

/** The score of each flagged claim of `claimIds` (a list's marks); claims without flags are absent. */
export async function claimSignalScores(db: Executor, claimIds: readonly string[]): Promise<Map<string, { score: number; needsSecondReviewer: boolean }>> {
  if (!claimIds.length) return new Map();
  const rows = await db
    .select({ claimId: claimFlags.claimId, score: sql<number>`sum(${claimFlags.score})::int`, reviewScore: sql<number>`min(${claimFlags.reviewScore})::int` })
    .from(claimFlags)
    .where(inArray(claimFlags.claimId, [...claimIds]))
    .groupBy(claimFlags.claimId);
  return new Map(rows.map((r) => [r.claimId, { score: r.score, needsSecondReviewer: r.score >= r.reviewScore }]));
}
