import { and, desc, eq, getTableColumns, ilike, inArray, or, type SQL, sql } from "drizzle-orm";
import { refuseBlankFields } from "../../core/blank";
import { type DecodedDocument, decodeDocument } from "../../core/documents";
import { CommandError } from "../../core/errors";
import { compactUuid, newId } from "../../core/ids";
import { encodeCursor, type Page } from "../../core/pagination";
import { nigerianPhone, parseWith } from "../../core/validation";
import type { Database, Executor } from "../../db/client";
import { insertCommittedUnlessTaken } from "../../db/group-commit";
import { afterCursor } from "../../db/keyset";
import { preparedQuery } from "../../db/prepared";
import { SharedCache } from "../../db/shared-cache";
import { type AuditActor, recordAudit } from "../audit";
import { type ConsumerSeed, consumerSeed, DOCUMENT_FIELDS } from "./model";
import { consumerDocuments, consumers } from "./schema";

type Profile = Record<string, unknown>;

function getPath(obj: Profile, path: string): unknown {
  return path.split(".").reduce<unknown>((node, key) => (node && typeof node === "object" ? (node as Profile)[key] : undefined), obj);
}

function deletePath(obj: Profile, path: string): void {
  const keys = path.split(".");
  const parent = keys.slice(0, -1).reduce<unknown>((node, key) => (node as Profile | undefined)?.[key], obj) as Profile | undefined;
  if (parent) delete parent[keys.at(-1)!];
  if (keys.length > 1 && parent && Object.keys(parent).length === 0) delete obj[keys[0]!];
}

/** Later values win; nested objects (name, dob, addrss, socialID) merge field by field. */
function mergeProfiles(base: Profile, update: Profile): Profile {
  const merged: Profile = { ...base };
  for (const [key, value] of Object.entries(update)) {
    const prior = merged[key];
    merged[key] = value && typeof value === "object" && prior && typeof prior === "object" ? { ...(prior as Profile), ...(value as Profile) } : value;
  }
  return merged;
}

/** Spec 2.3: an individual needs name.first and phoneNo; an organisation needs name.brand. */
function checkClassRules(profile: Profile, documents: ReadonlySet<string>) {
  const has = (path: string) => getPath(profile, path) !== undefined || documents.has(path);
  if (profile.class === "h") {
    if (!has("name.first")) throw new CommandError(400, "seed.name.first is required for an individual consumer (class h)", "seed.name.first");
    if (!has("phoneNo")) throw new CommandError(400, "seed.phoneNo is required for an individual consumer (class h)", "seed.phoneNo");
  } else if (!has("name.brand")) {
    throw new CommandError(400, "seed.name.brand is required for an organisation consumer (class o)", "seed.name.brand");
  }
}

/** Whether a consumer without documents would pass checkClassRules (a known one may pass merged with what is stored). */
const meetsClassRules = (profile: Profile) => {
  try {
    checkClassRules(profile, new Set());
    return true;
  } catch {
    return false;
  }
};

/** A new consumer is not inserted when the partner has one with this e-mail (the caller then merges into it). */
const UNLESS_EMAIL_TAKEN = "on conflict (partner_id, email) where email is not null do nothing";

export interface RegisteredConsumer {
  id: string;
  created: boolean;
}

/**
 * `prfl entity`: create a consumer, or — when the e-mail is already registered under this
 * partner — update the given fields of that consumer and return its id (spec 2.3 rule 2).
 */
export async function registerConsumer(
  db: Database,
  partnerId: string,
  rawSeed: unknown,
  options: { maxDocumentBytes: number; now?: Date },
): Promise<RegisteredConsumer> {
  refuseBlankFields(rawSeed);
  const seed: ConsumerSeed = parseWith(consumerSeed, rawSeed ?? {});
  const profile: Profile = structuredClone(seed);
  const documents = new Map<string, DecodedDocument>();
  for (const field of DOCUMENT_FIELDS) {
    const value = getPath(profile, field);
    if (typeof value !== "string") continue;
    documents.set(field, decodeDocument(value, `seed.${field}`, options.maxDocumentBytes));
    deletePath(profile, field);
  }
  if (profile.eMail) profile.eMail = String(profile.eMail).toLowerCase();
  const email = (profile.eMail as string | undefined) ?? null;
  const now = options.now ?? new Date();

  // A new consumer without documents (a partner's busiest registration) is one statement: the
  // INSERT comes first and the locking path below runs only when the e-mail is already taken.
  if (!documents.size && meetsClassRules(profile)) {
    const id = newId();
    // Every column named: the one statement writes the row from JSON, where a column left out is null, not its default.
    const row = { id, partnerId, class: seed.class, email, profile, remindersOff: false, language: "en" as const, createdAt: now, updatedAt: now };
    if (await insertCommittedUnlessTaken(db, consumers, row, UNLESS_EMAIL_TAKEN)) return { id, created: true };
  }
  // Two attempts: a concurrent registration of the same e-mail may win the insert race.
  for (let attempt = 0; attempt < 2; attempt++) {
    const result = await db.transaction(async (tx) => {
      const [existing] = email
        ? await tx
            .select()
            .from(consumers)
            .where(and(eq(consumers.partnerId, partnerId), eq(consumers.email, email)))
            .for("update")
        : [];
      if (existing) {
        const merged = mergeProfiles(existing.profile, profile);
        const stored = new Set(
          (await tx.select({ field: consumerDocuments.field }).from(consumerDocuments).where(eq(consumerDocuments.consumerId, existing.id))).map(
            (d) => d.field,
          ),
        );
        checkClassRules(merged, new Set([...stored, ...documents.keys()]));
        await tx.update(consumers).set({ class: seed.class, profile: merged, updatedAt: now }).where(eq(consumers.id, existing.id));
        await saveDocuments(tx, existing.id, documents, now);
        const notice = await consumerCache.announce(tx, existing.id);
        return { id: existing.id, created: false, notice };
      }
      checkClassRules(profile, new Set(documents.keys()));
      const id = newId();
      const inserted = await tx
        .insert(consumers)
        .values({ id, partnerId, class: seed.class, email, profile, createdAt: now, updatedAt: now })
        .onConflictDoNothing({ target: [consumers.partnerId, consumers.email], where: sql`${consumers.email} is not null` })
        .returning({ id: consumers.id });
      if (!inserted.length) return null;
      await saveDocuments(tx, id, documents, now);
      return { id, created: true, notice: undefined };
    });
    if (result) {
      if (!result.created) await consumerCache.settle(result.id, result.notice);
      return { id: result.id, created: result.created };
    }
  }
  throw new CommandError(409, "the consumer was registered concurrently by another request; retry");
}

async function saveDocuments(tx: Executor, consumerId: string, documents: Map<string, DecodedDocument>, now: Date) {
  for (const [field, doc] of documents) {
    await tx
      .insert(consumerDocuments)
      .values({ consumerId, field, mime: doc.mime, sizeBytes: doc.bytes.length, content: doc.bytes, updatedAt: now })
      .onConflictDoUpdate({
        target: [consumerDocuments.consumerId, consumerDocuments.field],
        set: { mime: doc.mime, sizeBytes: doc.bytes.length, content: doc.bytes, updatedAt: now },
      });
  }
}

export interface ConsumerRecord {
  id: string;
  partnerId: string;
  class: "h" | "o";
  profile: Profile;
  documents: string[];
  /** Contact preferences (docs/templates.md): reminders turned off; the language of messages to them. */
  remindersOff: boolean;
  language: "en" | "pcm";
  createdAt: Date;
  updatedAt: Date;
}

/** A consumer's columns as records carry them: the name words are the database's, for its index. */
const { nameWords: _nameWords, ...recordColumns } = getTableColumns(consumers);

const selectConsumer = preparedQuery("select_consumer", (db, name) =>
  db
    .select({
      ...recordColumns,
      // The names of the documents on file, in the same round trip (issuance checks them).
      documents: sql<
        string[]
      >`coalesce((select array_agg(${consumerDocuments.field}) from ${consumerDocuments} where ${consumerDocuments.consumerId} = ${consumers.id}), '{}')`,
    })
    .from(consumers)
    .where(eq(consumers.id, sql.placeholder("consumerId")))
    .prepare(name),
);

/**
 * Consumers by id, as issuance reads them on every policy (src/db/shared-cache.ts). Registering
 * with a known e-mail changes the record and forgets it everywhere. Records are frozen: shared.
 */
const consumerCache = new SharedCache<ConsumerRecord>("consumer_changed");

/** A consumer of this partner, by id in either form; null when it is not theirs (scoping, rule 3). */
export async function findConsumer(db: Executor, partnerId: string, consumerId: string): Promise<ConsumerRecord | null> {
  const record = await consumerById(db, consumerId);
  return record?.partnerId === partnerId ? record : null;
}

/** Any partner's consumer by id (the operator's pages; partners go through findConsumer). */
export async function consumerById(db: Executor, consumerId: string): Promise<ConsumerRecord | null> {
  const record = await consumerCache.through(
    consumerId,
    async () => {
      const [row] = await selectConsumer(db, { consumerId });
      return row && deepFreeze(row);
    },
    (consumer) => consumer.id,
  );
  return record ?? null;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** An ilike pattern for text containing `text` (its wildcards taken literally). */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The digits a typed part of a phone number shares with the stored one (+234 and ten digits):
 * spaces, dashes, brackets and dots go, and so do a "+", a leading "234" and the trunk "0", so
 * "0809-123" finds +234809123…. Null when the search is not a number.
 */
function phoneDigits(search: string): string | null {
  const digits = /^\+?(\d{4,15})$/.exec(search.replace(/[\s\-().]/g, ""))?.[1];
  return digits ? digits.replace(/^(234|0)(?=\d{3})/, "") : null;
}

/** Newest first, keyset-paginated. `partnerId` undefined lists every partner's (admin); `search` matches names, e-mail and phone. */
export async function listConsumers(
  db: Database,
  scope: { partnerId?: string; search?: string },
  page: { limit: number; cursor?: string },
): Promise<Page<ConsumerRecord>> {
  const conditions: SQL[] = [];
  if (scope.partnerId) conditions.push(eq(consumers.partnerId, scope.partnerId));
  const search = scope.search?.trim();
  if (search) {
    const pattern = containing(search);
    const profile = consumers.profile;
    const phone = phoneDigits(search);
    conditions.push(
      or(
        ilike(consumers.email, pattern),
        // A number as people type it ("0803 123 4567", "234 803…") is read as the phone field stores it (+234…).
        sql`${profile}->>'phoneNo' ilike ${containing(nigerianPhone(search))}`,
        // Part of a number with its trunk "0" ("0809-123"), which is not the stored form until it is whole.
        ...(phone ? [sql`${profile}->>'phoneNo' like ${containing(phone)}`] : []),
        sql`concat_ws(' ', ${profile}->'name'->>'first', ${profile}->'name'->>'middle', ${profile}->'name'->>'last', ${profile}->'name'->>'brand')
          ilike ${pattern}`,
      )!,
    );
  }
  if (page.cursor) {
    conditions.push(afterCursor(consumers.createdAt, consumers.id, page.cursor));
  }
  const rows = await db
    .select(recordColumns)
    .from(consumers)
    .where(and(...conditions))
    .orderBy(desc(consumers.createdAt), desc(consumers.id))
    .limit(page.limit + 1);
  const items = rows.slice(0, page.limit);
  const ids = items.map((r) => r.id);
  const docs = ids.length
    ? await db
        .select({ consumerId: consumerDocuments.consumerId, field: consumerDocuments.field })
        .from(consumerDocuments)
        .where(inArray(consumerDocuments.consumerId, ids))
    : [];
  const last = items.at(-1);
  return {
    items: items.map((r) => ({ ...r, documents: docs.filter((d) => d.consumerId === r.id).map((d) => d.field) })),
    nextCursor: rows.length > page.limit && last ? encodeCursor(last.createdAt, last.id) : null,
  };
}

export const wireConsumerId = compactUuid;

/** One stored document of a consumer (any partner's: the operator's reviewers read them), or null. */
export async function consumerDocument(db: Database, consumerId: string, field: string): Promise<{ name: string; mime: string; bytes: Uint8Array } | null> {
  const [row] = await db
    .select({ mime: consumerDocuments.mime, content: consumerDocuments.content })
    .from(consumerDocuments)
    .where(and(eq(consumerDocuments.consumerId, consumerId), eq(consumerDocuments.field, field)));
  if (!row) return null;
  const extension = row.mime === "application/pdf" ? "pdf" : (row.mime.split("/")[1] ?? "bin");
  return { name: `${field.replace(/\W/g, "-")}.${extension}`, mime: row.mime, bytes: row.content };
}

/** The documents a consumer has on file, with their types (no content). */
export async function consumerDocumentList(db: Database, consumerId: string): Promise<{ field: string; mime: string }[]> {
  return db
    .select({ field: consumerDocuments.field, mime: consumerDocuments.mime })
    .from(consumerDocuments)
    .where(eq(consumerDocuments.consumerId, consumerId))
    .orderBy(consumerDocuments.field);
}

interface ContactPreferences {
  remindersOff: boolean;
  language: "en" | "pcm";
}

/**
 * Change how the service writes to a consumer (the notices read it as they write): reminders on or
 * off, the language. An audit row when something changed; a repeat changes nothing.
 */
export async function setContactPreferences(
  db: Database,
  consumer: ConsumerRecord,
  preferences: ContactPreferences,
  actor: AuditActor,
  now: Date,
): Promise<void> {
  if (consumer.remindersOff === preferences.remindersOff && consumer.language === preferences.language) return;
  const notice = await db.transaction(async (tx) => {
    await tx.update(consumers).set(preferences).where(eq(consumers.id, consumer.id));
    await recordAudit(
      tx,
      actor,
      { action: "consumer.preferences_change", subject: wireConsumerId(consumer.id), partnerId: consumer.partnerId, details: { ...preferences } },
      now,
    );
    return consumerCache.announce(tx, consumer.id);
  });
  await consumerCache.settle(consumer.id, notice);
}
